//! Speed of the design search (results in BENCHMARKS.md): `cargo bench -p engine --bench search`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use engine::search::{search, Search, SearchRequest};
use engine::{DesignSpec, Technology};
use serde_json::json;
use std::time::Duration;

/// 64 nodes with training, inference, retrieval and storage on three fabrics.
fn base() -> DesignSpec {
    let model = json!({ "parameters": 70e9, "layers": 80, "hidden": 8192, "sequence_length": 8192, "precision": "bf16" });
    DesignSpec::from_value(json!({
        "schema_version": 2,
        "title": "search benchmark",
        "cluster": { "gpu": "h100-sxm", "gpus_per_node": 8, "nics_per_node": 8, "nodes": 64 },
        "workloads": [
            { "kind": "training", "name": "train", "fabric": "compute", "model": model,
              "parallelism": { "dp": 64, "tp": 8, "pp": 1, "sharding": "zero1" },
              "global_batch": 256, "micro_batch": 1, "compute": { "mfu": 0.4 } },
            { "kind": "inference", "name": "serve", "fabric": "inference", "model": model,
              "tp_nodes": 2, "decode_tokens": 128, "prefill_tokens": 4096, "target_inter_token_ms": 50 },
            { "kind": "rag", "name": "retrieve", "fabric": "inference", "queries_per_s": 1000,
              "embedding_dim": 1024, "embedding_precision": "fp32", "top_k": 8, "chunk_bytes": 2048,
              "latency_budget_ms": 50 },
            { "kind": "storage", "name": "data", "fabric": "storage", "samples_per_step": 256,
              "sample_bytes": 65536, "steps_per_s": 0.1,
              "checkpoint": { "parameters": 70e9, "interval_minutes": 60, "write_budget_s": 120 } }
        ],
        "fabrics": [
            { "name": "compute", "role": "compute", "technology": "ib_ndr", "topology": "rail_optimized" },
            { "name": "inference", "role": "inference", "technology": "roce400" },
            { "name": "storage", "role": "storage", "technology": "roce400", "ports_per_node": 2 }
        ]
    }))
    .expect("the benchmark spec is valid")
}

/// 4 technologies × 3 leaf × 2 spine oversubscriptions on each of 3 fabrics, × 8 NIC counts:
/// 110,592 candidates, of which the search visits 100,000.
fn hundred_thousand() -> SearchRequest {
    let mut r = SearchRequest::new(base());
    r.freedoms.technologies = vec![
        Technology::IbNdr,
        Technology::Roce400,
        Technology::Roce200,
        Technology::Tcp100,
    ];
    r.freedoms.leaf_oversubscription = vec![1.0, 2.0, 3.0];
    r.freedoms.spine_oversubscription = vec![1.0, 2.0];
    r.freedoms.nics_per_node = (1..=8).collect();
    r.targets.every_workload.max_slowdown_percent = Some(10.0);
    r.targets.every_workload.max_added_latency_ms = Some(engine::Millis::new(50.0));
    r.targets.every_workload.checkpoint_within_budget = true;
    r.targets.every_workload.min_read_headroom = Some(1.0);
    r.max_candidates = 100_000;
    r
}

fn benches(c: &mut Criterion) {
    let request = hundred_thousand();
    let mut probe = Search::new(request.clone()).expect("valid request");
    let progress = probe.run();
    assert_eq!(progress.visited, 100_000);
    eprintln!(
        "{} candidates in the space, {} visited, {} feasible, {} on the frontier",
        progress.space, progress.visited, progress.feasible, progress.frontier
    );
    let mut group = c.benchmark_group("search");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("100,000 candidates to a frontier", |b| {
        b.iter(|| search(black_box(request.clone())).expect("searches"))
    });
    group.finish();
}

criterion_group!(search_benches, benches);
criterion_main!(search_benches);
