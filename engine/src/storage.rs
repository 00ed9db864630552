//! Training-data streaming and checkpoints (seed C11-C13; RA-11333-001).

use crate::figure::Figure;
use crate::links::Links;
use crate::report::StorageReport;
use crate::spec::Storage;
use crate::units::{ByteRate, Bytes, GigabytesPerSecond, Ratio, Share};
use crate::worked::Count;

pub fn storage(w: &Storage, links: &Links) -> StorageReport {
    let read_needed =
        ByteRate::new(w.samples_per_step * w.sample_bytes.bytes() * w.steps_per_s.per_second());
    let read_provisioned = read_needed * w.read_headroom;
    let fabric = links.node * f64::from(links.nodes);
    let cap = |system: Option<GigabytesPerSecond>| match system {
        Some(rate) if rate.to_byte_rate().bytes_per_second() < fabric.bytes_per_second() => {
            rate.to_byte_rate()
        }
        _ => fabric,
    };
    let read_available = cap(w.system_read_gbytes_per_s);
    let write_available = cap(w.system_write_gbytes_per_s);
    // "64 nodes × 47.5 GB/s", and the storage system's own rate when it has one.
    let capped = |system: Option<GigabytesPerSecond>| {
        let path = format!("{} nodes × {}", Count(f64::from(links.nodes)), links.node);
        match system {
            Some(gbps) => format!("min({path}, storage system {})", gbps.to_byte_rate()),
            None => path,
        }
    };
    let c = &w.checkpoint;
    let checkpoint = match c.size_gb {
        Some(gb) => gb.to_bytes(),
        None => Bytes::new(c.parameters.unwrap_or(0.0) * c.bytes_per_parameter),
    };
    let write_time = checkpoint / write_available;
    let interval = c.interval_minutes.to_seconds();
    let budget = c.write_budget_s;
    StorageReport {
        name: w.name.clone(),
        fabric: w.fabric.clone(),
        read_needed: Figure::new(
            read_needed,
            "batch size × sample size × steps per second",
            "design inputs (batch, sample size, steps/s, headroom factor; 2-3× is typical)",
        )
        .worked(format_args!(
            "{} samples × {} × {} steps/s",
            Count(w.samples_per_step),
            w.sample_bytes,
            Count(w.steps_per_s.per_second())
        )),
        read_provisioned: Figure::new(
            read_provisioned,
            "read needed × headroom for I/O peaks from augmentation and shuffling (2-3×)",
            "design inputs (batch, sample size, steps/s, headroom factor; 2-3× is typical)",
        )
        .worked(format_args!("{read_needed} × {} headroom", w.read_headroom)),
        read_available: Figure::new(
            read_available,
            "min(attached nodes × storage ports × achievable port rate, storage system read rate)",
            "DGX SuperPOD H100 RA-11333-001, storage guidance (Table 6)",
        )
        .worked_with(|| capped(w.system_read_gbytes_per_s)),
        read_headroom: Figure::new(
            Ratio::new(read_available.bytes_per_second() / read_provisioned.bytes_per_second()),
            "available ÷ provisioned (at least 1 to keep the GPUs fed)",
            "the read rates above",
        )
        .worked(format_args!("{read_available} ÷ {read_provisioned}")),
        checkpoint_size: Figure::new(
            checkpoint,
            "given, or parameters × bytes per parameter (14 B: bf16 weights + fp32 master, m, v)",
            "ZeRO arXiv:1910.02054 (bytes per parameter, derived)",
        )
        .worked_with(|| match c.size_gb {
            Some(gb) => format!("{} GB as given", gb.gigabytes()),
            None => format!(
                "{} parameters × {} B",
                Count(c.parameters.unwrap_or(0.0)),
                c.bytes_per_parameter
            ),
        }),
        checkpoint_write_time: Figure::new(
            write_time,
            "checkpoint bytes ÷ min(storage system write rate, nodes × per-node fabric rate)",
            "DGX SuperPOD H100 RA-11333-001 storage guidance (derived)",
        )
        .worked_with(|| {
            let rate = if write_available.bytes_per_second() < fabric.bytes_per_second() {
                format!("storage system {write_available}")
            } else {
                format!("({} nodes × {})", Count(f64::from(links.nodes)), links.node)
            };
            format!("{checkpoint} ÷ {rate}")
        }),
        checkpoint_overhead: Figure::new(
            Share::new(write_time.seconds() / interval.seconds()),
            "write time ÷ checkpoint interval: the share of training time spent writing",
            "design inputs (checkpoint interval)",
        )
        .worked(format_args!("{write_time} ÷ {interval}")),
        write_budget: budget,
        within_budget: write_time <= budget,
    }
}
