//! Training-data streaming and checkpoints (seed C11-C13; DOMAIN.md B8).

use crate::links::Links;
use crate::report::{Figure, StorageReport};
use crate::spec::Storage;
use crate::units::{ByteRate, Bytes, Ratio, Seconds};

pub fn storage(w: &Storage, links: &Links) -> StorageReport {
    let read_needed = ByteRate(w.samples_per_step * w.sample_bytes * w.steps_per_s);
    let read_provisioned = read_needed * w.read_headroom;
    let fabric = links.node * f64::from(links.nodes);
    let cap = |system: Option<f64>| match system {
        Some(gbps) if ByteRate::gigabytes_per_second(gbps).0 < fabric.0 => {
            ByteRate::gigabytes_per_second(gbps)
        }
        _ => fabric,
    };
    let read_available = cap(w.system_read_gbytes_per_s);
    let write_available = cap(w.system_write_gbytes_per_s);
    let c = &w.checkpoint;
    let checkpoint = match c.size_gb {
        Some(gb) => Bytes::gigabytes(gb),
        None => Bytes(c.parameters.unwrap_or(0.0) * c.bytes_per_parameter),
    };
    let write_time = checkpoint / write_available;
    let interval = Seconds(c.interval_minutes * 60.0);
    let budget = Seconds(c.write_budget_s);
    StorageReport {
        name: w.name.clone(),
        fabric: w.fabric.clone(),
        read_needed: Figure::new(
            read_needed,
            "batch size × sample size × steps per second",
            "design inputs (batch, sample size, steps/s, headroom factor; 2-3× is typical)",
        ),
        read_provisioned: Figure::new(
            read_provisioned,
            "read needed × headroom for I/O peaks from augmentation and shuffling (2-3×)",
            "design inputs (batch, sample size, steps/s, headroom factor; 2-3× is typical)",
        ),
        read_available: Figure::new(
            read_available,
            "min(attached nodes × storage ports × achievable port rate, storage system read rate)",
            "DGX SuperPOD H100 RA-11333-001, storage guidance (Table 6)",
        ),
        read_headroom: Figure::new(
            Ratio(read_available.0 / read_provisioned.0),
            "available ÷ provisioned (at least 1 to keep the GPUs fed)",
            "the read rates above",
        ),
        checkpoint_size: Figure::new(
            checkpoint,
            "given, or parameters × bytes per parameter (14 B: bf16 weights + fp32 master, m, v)",
            "ZeRO arXiv:1910.02054 (bytes per parameter, derived)",
        ),
        checkpoint_write_time: Figure::new(
            write_time,
            "checkpoint bytes ÷ min(storage system write rate, nodes × per-node fabric rate)",
            "DGX SuperPOD H100 RA-11333-001 storage guidance (derived)",
        ),
        checkpoint_overhead: Figure::new(
            Ratio(write_time.0 / interval.0),
            "write time ÷ checkpoint interval: the share of training time spent writing",
            "design inputs (checkpoint interval)",
        ),
        write_budget: budget,
        within_budget: write_time <= budget,
    }
}
