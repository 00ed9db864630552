//! Every published measurement the engine is checked against: the source, the setup, what was
//! measured, what the engine predicts for the same setup with its default calibration, and the
//! ratio. A test writes them to `engine/VALIDATION.md` and fails when that file is out of date;
//! the app can show the same rows beside a report's assumptions.

use crate::catalog::{gpu, Gpu};
use crate::collective::{all_to_all, Algorithm, Cost, Group, Latencies};
use crate::links::{Conditions, Links};
use crate::report::choice_label;
use crate::spec::{CableRuns, Calibration, Cluster, Fabric, Oversubscription, Role, Topology};
use crate::technology::{Technology, Transport};
use crate::tuning::tuned_allreduce;
use crate::units::GigabitsPerSecond;
use crate::units::{BitRate, ByteRate, Bytes};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// One published measurement against the engine's prediction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ValidationRow {
    pub source: Cow<'static, str>,
    pub setup: String,
    /// What is compared, with its unit ("busbw GB/s at 8 GiB").
    pub metric: String,
    pub measured: f64,
    pub predicted: f64,
    /// predicted ÷ measured.
    pub ratio: f64,
    /// The algorithm and protocol the engine chose (or was told to use, as NCCL_ALGO does).
    pub model: String,
    /// How far the prediction may stray (ratio within 1/t..t); `None` where the source leaves
    /// out part of the setup, so the row is shown but not held to a tolerance.
    pub tolerance: Option<f64>,
    /// The message size of an nccl-tests bus bandwidth row, bytes: where the row stands on the
    /// chart of predicted against measured bus bandwidth by message size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub busbw_message_bytes: Option<crate::units::Bytes>,
    /// Whether the run crosses nodes (the network carries it), rather than staying in one.
    #[serde(default)]
    pub across_nodes: bool,
}

/// How close the engine comes, at its default calibration, to the runs across nodes that are
/// held to a tolerance (those whose source gives the whole setup).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Accuracy {
    pub points: usize,
    /// exp(mean |ln(predicted ÷ measured)|) − 1: the geometric mean of each point's error.
    pub geometric_mean_error: f64,
    /// The largest factor between predicted and measured bus bandwidth for messages from 1 MiB
    /// to 64 MiB, and how many such points there are.
    pub worst_factor_1_to_64_mib: f64,
    pub points_1_to_64_mib: usize,
}

/// The engine's accuracy on `rows` across nodes.
pub fn accuracy(rows: &[ValidationRow]) -> Accuracy {
    let held: Vec<&ValidationRow> = rows
        .iter()
        .filter(|r| r.across_nodes && r.tolerance.is_some() && r.ratio > 0.0)
        .collect();
    let log_error: f64 = held.iter().map(|r| r.ratio.ln().abs()).sum::<f64>();
    let mid: Vec<f64> = held
        .iter()
        .filter(|r| {
            r.busbw_message_bytes
                .is_some_and(|b| (MIB..=64.0 * MIB).contains(&b.bytes()))
        })
        .map(|r| r.ratio.max(1.0 / r.ratio))
        .collect();
    Accuracy {
        points: held.len(),
        geometric_mean_error: (log_error / held.len().max(1) as f64).exp() - 1.0,
        worst_factor_1_to_64_mib: mid.iter().copied().fold(1.0, f64::max),
        points_1_to_64_mib: mid.len(),
    }
}

const MIB: f64 = (1u64 << 20) as f64;

fn row(
    source: &'static str,
    setup: impl Into<String>,
    metric: impl Into<String>,
    measured: f64,
    predicted: f64,
    model: String,
    tolerance: Option<f64>,
) -> ValidationRow {
    ValidationRow {
        source: source.into(),
        setup: setup.into(),
        metric: metric.into(),
        measured,
        predicted,
        ratio: if measured > 0.0 {
            predicted / measured
        } else {
            0.0
        },
        model,
        tolerance,
        busbw_message_bytes: None,
        across_nodes: false,
    }
}

/// ±25 % where the source gives the whole setup and the message is 64 MiB or more; a factor 1.5
/// below, where latency terms dominate and run-to-run spread is larger.
const LARGE: Option<f64> = Some(1.25);
const SMALL: Option<f64> = Some(1.5);

/// The links of `nodes` nodes of `gpu_key` with `nics` ports of `technology` (at `port_gbps`)
/// each, as the engine builds them for a design with the default calibration.
fn links(
    gpu: &Gpu,
    nodes: u32,
    gpus_per_node: u32,
    nics: u32,
    technology: Technology,
    port_gbps: f64,
) -> Links {
    let cluster = Cluster {
        node_preset: None,
        gpu: gpu.key.to_string(),
        gpus_per_node,
        scale_up_gbytes_per_s: None,
        nics_per_node: nics,
        nodes,
        growth_target_nodes: None,
    };
    let fabric = Fabric {
        name: "compute".into(),
        role: Role::Compute,
        technology,
        port_gbps: Some(GigabitsPerSecond::new(port_gbps)),
        switch: None,
        topology: Topology::Auto,
        oversubscription: Oversubscription::default(),
        attached_nodes: None,
        ports_per_node: Some(nics),
        extra_endpoints: 0,
        cable_runs: CableRuns::default(),
    };
    Links::new(
        &cluster,
        gpu,
        &fabric,
        &Calibration::default(),
        Conditions::NORMAL,
    )
}

/// nccl-tests' bus bandwidth of an AllReduce of `bytes` over `ranks` ranks taking `cost`.
fn busbw(cost: &Cost, bytes: f64, ranks: u32) -> f64 {
    let n = f64::from(ranks);
    let t = cost.time().seconds();
    if t > 0.0 {
        bytes * 2.0 * (n - 1.0) / n / t / 1e9
    } else {
        0.0
    }
}

// One argument per column of a measured run: grouping them would only rename them.
#[allow(clippy::too_many_arguments)]
fn allreduce_row(
    source: &'static str,
    setup: &str,
    links: &Links,
    ranks: u32,
    ranks_per_node: u32,
    only: Option<Algorithm>,
    bytes: f64,
    measured: f64,
    tolerance: Option<f64>,
) -> ValidationRow {
    let group = links.group(ranks, ranks_per_node, 1);
    let cost = tuned_allreduce(&group, &links.tuning.only(only), Bytes::new(bytes));
    let measured_row = row(
        source,
        setup,
        format!(
            "all_reduce_perf busbw, GB/s, at {}",
            crate::nccl_tests::size_label(bytes as u64)
        ),
        measured,
        busbw(&cost, bytes, ranks),
        choice_label(cost.algorithm, cost.protocol),
        tolerance,
    );
    ValidationRow {
        busbw_message_bytes: Some(crate::units::Bytes::new(bytes)),
        across_nodes: ranks > ranks_per_node,
        ..measured_row
    }
}

const GIB8: f64 = 8.0 * (1u64 << 30) as f64;

/// Every published measurement, predicted. Deterministic and cheap (a few microseconds).
pub fn validation_rows() -> Vec<ValidationRow> {
    let mut rows = Vec::new();
    let (Some(h100), Some(a100)) = (gpu("h100-sxm"), gpu("a100-sxm")) else {
        return rows;
    };
    let node = links(h100, 1, 8, 8, Technology::IbNdr, 400.0);
    rows.push(allreduce_row(
        "nccl-tests #212",
        "8 × H100 SXM, one node (NVSwitch), NCCL_ALGO=Ring",
        &node,
        8,
        8,
        Some(Algorithm::Ring),
        GIB8,
        367.5,
        LARGE,
    ));
    rows.push(allreduce_row(
        "nccl-tests #347",
        "8 × H100 SXM, one node, default algorithm (NVLS; the NVLS efficiency is fitted to this run)",
        &node,
        8,
        8,
        None,
        GIB8,
        479.4,
        LARGE,
    ));
    rows.push(allreduce_row(
        "nccl-tests #290",
        "8 × H100 SXM, one node, default algorithm (NVLS)",
        &node,
        8,
        8,
        None,
        GIB8,
        476.0,
        LARGE,
    ));
    for (gpus, measured) in [(5, 420.0), (6, 440.0), (7, 460.0)] {
        rows.push(allreduce_row(
            "NVIDIA/nccl #1455; nccl-tests #212",
            &format!("{gpus} × H100 SXM in one node, default algorithm (NVLS)"),
            &node,
            gpus,
            8,
            None,
            GIB8,
            measured,
            LARGE,
        ));
    }
    let pair = links(h100, 2, 1, 1, Technology::IbNdr, 400.0);
    rows.push(allreduce_row(
        "nccl-tests #290, #267",
        "2 nodes × 1 H100, one ConnectX-7 NDR 400G each, NCCL_ALGO=Ring (46-49 GB/s per NIC)",
        &pair,
        2,
        1,
        Some(Algorithm::Ring),
        GIB8,
        47.5,
        LARGE,
    ));
    let a100_pair = links(a100, 2, 8, 8, Technology::IbNdr, 200.0);
    rows.push(allreduce_row(
        "NVIDIA/nccl #812",
        "2 × DGX A100, 8 × HDR 200G InfiniBand each, ring",
        &a100_pair,
        16,
        8,
        Some(Algorithm::Ring),
        GIB8,
        192.0,
        LARGE,
    ));
    // A two-node sweep with the tree forced, over one 400G RoCE port per node (the run reaches one
    // NIC's rate, which is what the issue is about).
    let roce_pair = links(h100, 2, 1, 1, Technology::Roce400, 400.0);
    for (mib, measured) in ROCE_TREE_SWEEP {
        rows.push(allreduce_row(
            "nccl-tests #232",
            "2 nodes × 1 H100, RoCE 400G (one NIC's rate), NCCL_ALGO=Tree",
            &roce_pair,
            2,
            1,
            Some(Algorithm::Tree),
            mib * 1048576.0,
            measured,
            SMALL,
        ));
    }
    let sixteen = links(h100, 16, 8, 8, Technology::IbNdr, 400.0);
    rows.push(allreduce_row(
        "NVIDIA/nccl #1469",
        "16 H100 nodes, default algorithm, NCCL 2.20.5 (NICs and fabric not published: modelled as 8 × NDR)",
        &sixteen, 128, 8, None, 64.0 * 1048576.0, 150.0, None,
    ));
    deepep(&mut rows);
    rows
}

/// DeepEP on H800 (NVLink about 160 GB/s) with 8 ConnectX-7 400G InfiniBand NICs per node.
fn deepep(rows: &mut Vec<ValidationRow>) {
    let c = Calibration::default();
    let nic = BitRate::gbps(400.0).to_byte_rate() * c.efficiency(Transport::InfiniBand);
    let group = |ep: u32| Group {
        ranks: ep,
        nodes: ep / 8,
        scale_up: ByteRate::gigabytes_per_second(160.0),
        node_network: nic * 8.0,
        latencies: Latencies {
            base_us: c.collective_base_latency_us,
            scale_up_hop_us: c.scale_up_hop_latency_us,
            network_hop_us: c.hop_latency_us(Transport::InfiniBand),
        },
        crossing: crate::collective::Crossing::NONE,
    };
    for (ep, measured) in [(16, 43.0), (32, 58.0), (64, 51.0)] {
        let cost = all_to_all(&group(ep), Bytes::new(4096.0 * 8.0 * 7168.0));
        let rate = cost.network_bytes_per_node.bytes() / 8.0 / cost.bandwidth_time.seconds() / 1e9;
        rows.push(ValidationRow {
            across_nodes: true,
            ..row(
                "DeepEP README (deepseek-ai/DeepEP)",
                format!(
                    "EP{ep} normal dispatch, 4,096 tokens, hidden 7168, top-8, FP8, H800 + CX-7 400G"
                ),
                "RDMA bandwidth per GPU, GB/s",
                measured,
                rate,
                "all-to-all / Simple".into(),
                LARGE,
            )
        });
    }
    let latencies = [
        (16, 118.0, 195.0),
        (32, 155.0, 273.0),
        (64, 173.0, 314.0),
        (128, 192.0, 369.0),
        (256, 194.0, 360.0),
    ];
    for (ep, dispatch, combine) in latencies {
        for (what, bytes, measured) in [
            ("dispatch (FP8)", 1.0, dispatch),
            ("combine (BF16)", 2.0, combine),
        ] {
            let cost = all_to_all(&group(ep), Bytes::new(128.0 * 8.0 * 7168.0 * bytes));
            rows.push(ValidationRow {
                across_nodes: true,
                ..row(
                    "DeepEP README (deepseek-ai/DeepEP)",
                    format!("EP{ep} low-latency {what}, 128 tokens, hidden 7168, top-8"),
                    "latency, µs",
                    measured,
                    cost.time().as_micros(),
                    "all-to-all / Simple".into(),
                    LARGE,
                )
            });
        }
    }
}

/// The two-node sweep with the tree forced over one 400G RoCE port per node [nccl-tests #232]:
/// message size in MiB, bus bandwidth measured in GB/s.
pub const ROCE_TREE_SWEEP: [(f64, f64); 5] = [
    (2.0, 22.46),
    (4.0, 27.37),
    (8.0, 36.83),
    (16.0, 39.95),
    (32.0, 41.52),
];

/// The rows as a markdown page, the form committed in `engine/VALIDATION.md`.
pub fn validation_markdown(rows: &[ValidationRow]) -> String {
    format!(
        "# Validation\n\nEvery published measurement the engine is checked against, with the engine's prediction for the same setup at its default calibration. Generated by `cargo test -p engine --test suite validation::` (set `UPDATE_VALIDATION=1` to rewrite); do not edit by hand.\n\n{}",
        validation_table_markdown(rows)
    )
}

/// The rows as one markdown table, as the README includes it.
pub fn validation_table_markdown(rows: &[ValidationRow]) -> String {
    let mut out = String::from(
        "| Source | Setup | Metric | Measured | Predicted | Predicted ÷ measured | Engine's choice | Held to |\n|---|---|---|---:|---:|---:|---|---|\n",
    );
    for r in rows {
        let held = match r.tolerance {
            Some(t) if t <= 1.3 => format!("±{:.0} %", (t - 1.0) * 100.0),
            Some(t) => format!("factor {t}"),
            None => "shown only (setup incomplete)".to_string(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {:.2} | {:.2} | {:.2} | {} | {} |\n",
            r.source, r.setup, r.metric, r.measured, r.predicted, r.ratio, r.model, held
        ));
    }
    let a = accuracy(rows);
    out.push_str(&format!(
        "\nAcross nodes, on the {} points held to a tolerance, the default calibration's geometric-mean error is {:.1} %; the {} bus bandwidths from 1 MiB to 64 MiB are each within a factor of {:.2} of the measurement.\n",
        a.points,
        a.geometric_mean_error * 100.0,
        a.points_1_to_64_mib,
        a.worst_factor_1_to_64_mib
    ));
    out
}
