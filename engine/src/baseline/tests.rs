use super::*;
use crate::nccl_tests::parse;
use crate::units::GigabytesPerSecond;

/// 16 DGX H100 nodes with 8 × 400G NDR each (the reference training design).
fn reference() -> DesignSpec {
    DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap()
}

fn compute_fabric(spec: &DesignSpec) -> String {
    spec.fabrics[0].name.clone()
}

fn all_reduce_run(ranks: u32, busbw_at_1_gib: f64) -> String {
    let mut text = String::from("# Collective test starting: all_reduce_perf\n");
    for rank in 0..ranks {
        text.push_str(&format!(
            "#  Rank {rank:2} Group  0 Pid 1 on node{:02} device {} [0x18] NVIDIA H100 80GB HBM3\n",
            rank / 8,
            rank % 8
        ));
    }
    // algbw = busbw ÷ (2(n−1)/n); time = size ÷ algbw.
    let factor = 2.0 * f64::from(ranks - 1) / f64::from(ranks);
    for (size, busbw) in [
        (16u64 << 20, busbw_at_1_gib * 0.6),
        (1 << 30, busbw_at_1_gib),
    ] {
        let algbw = busbw / factor;
        let time_us = size as f64 / (algbw * 1e9) * 1e6;
        text.push_str(&format!(
                "{size:>12} {:>12} float sum -1 {time_us:.1} {algbw:.2} {busbw:.2} 0 {time_us:.1} {algbw:.2} {busbw:.2} 0\n",
                size / 4
            ));
    }
    text
}

#[test]
fn a_large_all_reduce_across_nodes_is_predicted_at_the_nic_limited_bus_bandwidth() {
    // The large-message limit is min(NVLink per GPU, the node's NICs) = 370 GB/s here; at
    // 1 GiB the latency of 128 ranks still costs about a tenth of it, at 16 MiB far more.
    let spec = reference();
    let run = parse(all_reduce_run(128, 300.0).as_bytes()).unwrap();
    let check = check(&spec, &compute_fabric(&spec), &run, Stated::default()).unwrap();
    assert_eq!(check.ranks, 128);
    assert_eq!(check.nodes, 16);
    let at_1_gib = check.sizes.iter().find(|s| s.bytes == 1 << 30).unwrap();
    let predicted = at_1_gib
        .predicted_busbw_gbytes_per_s
        .unwrap()
        .gigabytes_per_second();
    let peak = spec_peak(&spec);
    assert!(
        predicted < peak && predicted > 0.8 * peak,
        "{predicted} GB/s against a {peak} GB/s peak"
    );
    let at_16_mib = check.sizes.iter().find(|s| s.bytes == 16 << 20).unwrap();
    assert!(
        at_16_mib.predicted_busbw_gbytes_per_s.unwrap() < GigabytesPerSecond::new(predicted),
        "smaller messages pay more latency"
    );
}

fn spec_peak(spec: &DesignSpec) -> f64 {
    let report = crate::evaluate(spec).unwrap();
    crate::operations::operations(spec, &report)[0]
        .expected_allreduce_busbw
        .as_ref()
        .unwrap()
        .value
        .bytes_per_second()
        / 1e9
}

#[test]
fn a_healthy_run_passes_and_a_run_at_two_thirds_is_flagged() {
    let spec = reference();
    let fabric = compute_fabric(&spec);
    let peak = spec_peak(&spec);
    let healthy = parse(all_reduce_run(128, peak * 0.97).as_bytes()).unwrap();
    let verdict = check(&spec, &fabric, &healthy, Stated::default())
        .unwrap()
        .verdict
        .unwrap();
    assert!(verdict.healthy, "{}", verdict.message);
    // One link at two thirds of its speed: the ring runs at its slowest link (seed C14).
    let degraded = parse(all_reduce_run(128, peak * 0.66).as_bytes()).unwrap();
    let verdict = check(&spec, &fabric, &degraded, Stated::default())
        .unwrap()
        .verdict
        .unwrap();
    assert!(!verdict.healthy);
    assert!(
        verdict.message.starts_with("at 1 GiB, measured"),
        "{}",
        verdict.message
    );
    assert!(
        verdict.message.contains("degraded link"),
        "{}",
        verdict.message
    );
}

#[test]
fn output_without_header_is_read_as_all_reduce_on_every_gpu_and_says_so() {
    let spec = reference();
    let text = all_reduce_run(128, 300.0);
    let rows: String = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let run = parse(rows.as_bytes()).unwrap();
    let check = check(&spec, &compute_fabric(&spec), &run, Stated::default()).unwrap();
    assert_eq!(check.collective, Collective::AllReduce);
    assert_eq!(check.ranks, 128);
    // The tool, the ranks (from the bandwidth columns) and the nodes are each assumed.
    assert_eq!(check.assumptions.len(), 3, "{:?}", check.assumptions);
    assert!(
        check.assumptions[1].contains("no rank lines"),
        "{:?}",
        check.assumptions
    );
}

#[test]
fn a_run_on_more_ranks_than_the_fabric_has_gpus_or_an_unknown_fabric_is_refused() {
    let spec = reference();
    let run = parse(all_reduce_run(136, 300.0).as_bytes()).unwrap();
    assert_eq!(
        check(&spec, &compute_fabric(&spec), &run, Stated::default()),
        Err(CheckError::TooManyRanks {
            ranks: 136,
            gpus: 128
        })
    );
    assert!(matches!(
        check(&spec, "no such fabric", &run, Stated::default()),
        Err(CheckError::NoSuchFabric(_))
    ));
}

#[test]
fn a_single_node_run_is_predicted_with_nvls_unless_it_was_forced_to_the_ring() {
    let mut spec = reference();
    spec.fabrics[0].attached_nodes = Some(1);
    let run = parse(all_reduce_run(8, 470.0).as_bytes()).unwrap();
    let fabric = compute_fabric(&spec);
    let default = check(&spec, &fabric, &run, Stated::default()).unwrap();
    let at_1_gib = default.sizes.iter().find(|s| s.bytes == 1 << 30).unwrap();
    assert!(at_1_gib
        .predicted_with
        .as_deref()
        .unwrap()
        .starts_with("NVLink SHARP"));
    assert!(default.verdict.unwrap().healthy);
    let ring = check_assuming(
        &spec,
        &fabric,
        &run,
        Stated::default(),
        Some(Algorithm::Ring),
    )
    .unwrap();
    assert_eq!(ring.assumed_algorithm, Some(Algorithm::Ring));
    let at_1_gib = ring.sizes.iter().find(|s| s.bytes == 1 << 30).unwrap();
    assert!(at_1_gib
        .predicted_with
        .as_deref()
        .unwrap()
        .starts_with("ring"));
    assert!(at_1_gib.predicted_busbw_gbytes_per_s.unwrap() < GigabytesPerSecond::new(375.0));
}

#[test]
fn a_run_made_with_sharp_is_predicted_with_in_network_reduction() {
    let spec = reference();
    let run = parse(all_reduce_run(128, 300.0).as_bytes()).unwrap();
    let fabric = compute_fabric(&spec);
    let sharp = check_assuming(
        &spec,
        &fabric,
        &run,
        Stated::default(),
        Some(Algorithm::InNetwork),
    )
    .unwrap();
    let ring = check_assuming(
        &spec,
        &fabric,
        &run,
        Stated::default(),
        Some(Algorithm::Ring),
    )
    .unwrap();
    let at = |c: &BaselineCheck| {
        c.sizes
            .iter()
            .find(|s| s.bytes == 1 << 30)
            .unwrap()
            .predicted_busbw_gbytes_per_s
            .unwrap()
            .gigabytes_per_second()
    };
    assert!(
        at(&sharp) > at(&ring) * 1.1,
        "{} vs {}",
        at(&sharp),
        at(&ring)
    );
}

#[test]
fn collectives_the_design_does_not_model_are_shown_as_measured_without_a_verdict() {
    let spec = reference();
    let text = all_reduce_run(16, 40.0).replace("all_reduce_perf", "alltoall_perf");
    let run = parse(text.as_bytes()).unwrap();
    let check = check(&spec, &compute_fabric(&spec), &run, Stated::default()).unwrap();
    assert_eq!(check.collective, Collective::AllToAll);
    assert!(check
        .sizes
        .iter()
        .all(|s| s.predicted_busbw_gbytes_per_s.is_none()));
    assert!(check.verdict.is_none());
}

/// The output of `ranks` ranks in which the launcher printed only the first rank line.
fn one_rank_line(ranks: u32, busbw: f64) -> String {
    let full = all_reduce_run(ranks, busbw);
    let mut seen = false;
    full.lines()
        .filter(|l| {
            let rank_line = l.starts_with("#  Rank");
            let keep = !rank_line || !seen;
            seen |= rank_line;
            keep
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn a_log_with_one_rank_line_is_judged_with_the_stated_ranks_and_nodes() {
    let spec = reference();
    let run = parse(one_rank_line(128, 300.0).as_bytes()).unwrap();
    assert_eq!(run.ranks, Some(1));
    let stated = Stated {
        ranks: Some(128),
        nodes: Some(16),
    };
    let check = check(&spec, &compute_fabric(&spec), &run, stated).unwrap();
    assert_eq!((check.ranks, check.nodes), (128, 16));
    assert!(check.verdict.is_some(), "a verdict against the design");
    assert!(check
        .sizes
        .iter()
        .all(|s| s.predicted_busbw_gbytes_per_s.is_some()));
    assert!(
        check.assumptions[0].contains("read as the stated 128 ranks"),
        "{:?}",
        check.assumptions
    );
}

#[test]
fn without_a_statement_the_ranks_come_from_the_bus_to_algorithm_bandwidth_ratio() {
    // 2(n−1)/n = busbw ÷ algbw, printed to two decimals: 64 ranks read back as 64.
    let spec = reference();
    let run = parse(one_rank_line(64, 300.0).as_bytes()).unwrap();
    let check = check(&spec, &compute_fabric(&spec), &run, Stated::default()).unwrap();
    assert_eq!(check.ranks, 64);
    assert_eq!(check.nodes, 8);
    assert!(check.verdict.is_some());
    assert!(
        check
            .assumptions
            .iter()
            .any(|a| a.contains("read as 64 ranks")),
        "{:?}",
        check.assumptions
    );
}

#[test]
fn nodes_come_from_the_hosts_the_rank_lines_name() {
    let run = parse(all_reduce_run(16, 300.0).as_bytes()).unwrap();
    assert_eq!((run.ranks, run.nodes), (Some(16), Some(2)));
}

#[test]
fn stated_nodes_the_fabric_does_not_have_or_cannot_hold_the_ranks_are_refused() {
    let spec = reference();
    let run = parse(one_rank_line(128, 300.0).as_bytes()).unwrap();
    let too_many = Stated {
        ranks: Some(128),
        nodes: Some(40),
    };
    assert_eq!(
        check(&spec, &compute_fabric(&spec), &run, too_many).unwrap_err(),
        CheckError::TooManyNodes {
            nodes: 40,
            attached: 16
        }
    );
    let crowded = Stated {
        ranks: Some(128),
        nodes: Some(8),
    };
    assert!(matches!(
        check(&spec, &compute_fabric(&spec), &run, crowded),
        Err(CheckError::RanksDoNotFitNodes { .. })
    ));
}
