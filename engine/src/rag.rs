//! Retrieval-augmented generation: embeddings to the vector database, document chunks back
//! (seed C10).

use crate::figure::Figure;
use crate::links::Links;
use crate::report::RagReport;
use crate::spec::Rag;
use crate::units::{ByteRate, Bytes, Share};

/// Request framing and result metadata (ids, scores) per query and per hit (an estimate).
const REQUEST_OVERHEAD_BYTES: f64 = 256.0;
const RESULT_OVERHEAD_BYTES: f64 = 64.0;

pub fn rag(w: &Rag, links: &Links) -> RagReport {
    let request = Bytes::new(
        f64::from(w.embedding_dim) * w.embedding_precision.bytes_per_element()
            + REQUEST_OVERHEAD_BYTES,
    );
    let response = Bytes::new(f64::from(w.top_k) * (w.chunk_bytes.bytes() + RESULT_OVERHEAD_BYTES));
    let per_query = request + response;
    let bandwidth = ByteRate::new(per_query.bytes() * w.queries_per_s.per_second());
    // One round trip: request and response each cross the fabric (host, leaf, spine, leaf,
    // host: four hops of latency each way) and serialise at the port rate.
    let hops_us = 2.0 * 4.0 * links.latencies.network_hop_us;
    let network_time = request / links.port + response / links.port + hops_us.to_seconds();
    let budget = w.latency_budget_ms.to_seconds();
    // All queries converge on the vector database's port.
    let utilisation = Share::new(bandwidth.bytes_per_second() / links.port.bytes_per_second());
    RagReport {
        name: w.name.clone(),
        fabric: w.fabric.clone(),
        bytes_per_query: Figure::new(
            per_query,
            "embedding dim × bytes + top-k × (chunk bytes + 64 B metadata) + 256 B request",
            "design inputs (queries/s, embedding size, top-k, chunk size); overheads are estimates",
        ),
        bandwidth: Figure::new(
            bandwidth,
            "queries/s × bytes per query",
            "design inputs (queries/s, latency budget, vector database port)",
        ),
        network_time_per_query: Figure::new(
            network_time,
            "request and response at the port rate plus 8 network hops of latency",
            "NCCL src/graph/tuning.cc (hop latency)",
        ),
        share_of_budget: Figure::new(
            Share::new(network_time.seconds() / budget.seconds()),
            "network time per query ÷ latency budget",
            "design inputs (queries/s, latency budget, vector database port)",
        ),
        vector_db_port_utilisation: Figure::new(
            utilisation,
            "bandwidth ÷ achievable rate of the vector database's port",
            "design inputs (queries/s, latency budget, vector database port)",
        ),
    }
}
