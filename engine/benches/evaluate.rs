//! Speed of the engine (results in BENCHMARKS.md): `cargo bench -p engine`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use engine::studies::technology_comparison;
use engine::{
    evaluate, evaluate_unplaced, evaluate_workloads, floor, Conditions, DesignSpec, SharedFloors,
    Technology,
};
use serde_json::{json, Value};

/// A cluster of `nodes` DGX-class nodes with training, inference, RAG and storage workloads on
/// compute, inference and storage fabrics.
fn four_workloads_three_fabrics(
    nodes: u32,
    gpu: &str,
    compute_tech: &str,
    compute_switch: &str,
) -> Value {
    let model = json!({ "parameters": 70e9, "layers": 80, "hidden": 8192, "sequence_length": 8192, "precision": "bf16" });
    json!({
        "schema_version": 2,
        "title": format!("{nodes} nodes"),
        "cluster": { "gpu": gpu, "gpus_per_node": 8, "nics_per_node": 8, "nodes": nodes },
        "workloads": [
            { "kind": "training", "name": "train", "fabric": "compute", "model": model,
              "parallelism": { "dp": nodes, "tp": 8, "pp": 1, "sharding": "zero1" },
              "global_batch": nodes * 4, "micro_batch": 1, "compute": { "mfu": 0.4 } },
            { "kind": "inference", "name": "serve", "fabric": "inference", "model": model,
              "tp_nodes": 2, "decode_tokens": 128, "prefill_tokens": 4096, "target_inter_token_ms": 50 },
            { "kind": "rag", "name": "retrieve", "fabric": "inference", "queries_per_s": 1000,
              "embedding_dim": 1024, "embedding_precision": "fp32", "top_k": 8, "chunk_bytes": 2048,
              "latency_budget_ms": 50 },
            { "kind": "storage", "name": "data", "fabric": "storage", "samples_per_step": nodes * 4,
              "sample_bytes": 65536, "steps_per_s": 0.1,
              "checkpoint": { "parameters": 70e9, "interval_minutes": 60, "write_budget_s": 120 } }
        ],
        "fabrics": [
            { "name": "compute", "role": "compute", "technology": compute_tech, "switch": compute_switch, "topology": "rail_optimized" },
            { "name": "inference", "role": "inference", "technology": "roce400", "switch": "tomahawk6" },
            { "name": "storage", "role": "storage", "technology": "roce400", "switch": "tomahawk6", "ports_per_node": 2 }
        ]
    })
}

fn spec(value: Value) -> DesignSpec {
    DesignSpec::from_value(value).expect("the benchmark spec is valid")
}

fn benches(c: &mut Criterion) {
    let thousand = spec(four_workloads_three_fabrics(
        1024, "h100-sxm", "ib_ndr", "qm9700",
    ));
    c.bench_function("evaluate 1,024 nodes, 4 workloads, 3 fabrics", |b| {
        b.iter(|| evaluate(black_box(&thousand)).expect("evaluates"))
    });
    c.bench_function("size 1,024 nodes, 4 workloads, 3 fabrics (no floor)", |b| {
        b.iter(|| evaluate_unplaced(black_box(&thousand), Conditions::NORMAL).expect("evaluates"))
    });
    // The dashboard's technology comparison: the training job's fabric on four technologies,
    // each laid on its floor; the design's own (NDR) read from its evaluation on its floor, or,
    // given an evaluation not placed, evaluated and laid again as the other three are.
    let placed = evaluate(&thousand).expect("evaluates");
    let unplaced = evaluate_unplaced(&thousand, Conditions::NORMAL).expect("evaluates");
    for (how, report) in [("its own read", &placed), ("all four laid", &unplaced)] {
        c.bench_function(&format!("technology comparison, 1,024 nodes, {how}"), |b| {
            b.iter(|| technology_comparison(black_box(&thousand), report, 0, &SharedFloors::new()))
        });
    }
    // Again after an edit that moves no cable: the other technologies' floors laid before.
    let floors = SharedFloors::new();
    c.bench_function(
        "technology comparison, 1,024 nodes, the floors laid before",
        |b| b.iter(|| technology_comparison(black_box(&thousand), &placed, 0, &floors)),
    );
    // The same with no switch named: the planner sizes and prices every candidate switch.
    let mut chosen = thousand.clone();
    for f in &mut chosen.fabrics {
        f.switch = None;
    }
    c.bench_function(
        "size 1,024 nodes, 4 workloads, 3 fabrics, switches chosen (no floor)",
        |b| {
            b.iter(|| evaluate_unplaced(black_box(&chosen), Conditions::NORMAL).expect("evaluates"))
        },
    );

    // 100,000 GPUs: 12,500 nodes of 8, on XDR switches (144 ports) in 3 tiers.
    let huge = spec(four_workloads_three_fabrics(
        12_500, "b200", "ib_xdr", "q3400",
    ));
    c.bench_function("evaluate 100,000 GPUs", |b| {
        b.iter(|| evaluate(black_box(&huge)).expect("evaluates"))
    });
    // Its technology comparison (XDR is not among the four: each is laid), then again with the
    // floors laid before.
    let huge_report = evaluate(&huge).expect("evaluates");
    c.bench_function("technology comparison, 100,000 GPUs, each laid", |b| {
        b.iter(|| technology_comparison(black_box(&huge), &huge_report, 0, &SharedFloors::new()))
    });
    let floors = SharedFloors::new();
    c.bench_function(
        "technology comparison, 100,000 GPUs, the floors laid before",
        |b| b.iter(|| technology_comparison(black_box(&huge), &huge_report, 0, &floors)),
    );
    // The planner's edit of a workload (its global batch) on the same design: the floor kept
    // from the evaluation before is taken again, not laid.
    let mut edited = four_workloads_three_fabrics(12_500, "b200", "ib_xdr", "q3400");
    edited["workloads"][0]["global_batch"] = json!(12_500 * 8);
    let edited = spec(edited);
    c.bench_function(
        "evaluate 100,000 GPUs after an edit that moves no cable",
        |b| {
            let mut last = engine::LastFloor::default();
            let mut flip = false;
            b.iter(|| {
                flip = !flip;
                let s = if flip { &huge } else { &edited };
                engine::evaluate_reusing(black_box(s), &mut last).expect("evaluates")
            })
        },
    );
    // The dashboard of the design being edited: evaluated with its floor plan after each edit,
    // laid each time, or through floors shared by the server's requests.
    c.bench_function("evaluate with the floor plan, 100,000 GPUs, laid", |b| {
        b.iter(|| engine::evaluate_placed(black_box(&edited)).expect("evaluates"))
    });
    c.bench_function(
        "evaluate with the floor plan, 100,000 GPUs, after an edit that moves no cable",
        |b| {
            let floors = SharedFloors::new();
            let mut flip = false;
            b.iter(|| {
                flip = !flip;
                let s = if flip { &huge } else { &edited };
                engine::evaluate_placed_sharing(black_box(s), &floors).expect("evaluates")
            })
        },
    );
    c.bench_function("size 100,000 GPUs (no floor)", |b| {
        b.iter(|| evaluate_unplaced(black_box(&huge), Conditions::NORMAL).expect("evaluates"))
    });
    let huge_report = evaluate(&huge).expect("evaluates");
    c.bench_function(
        "what one failure takes away, every element, 100,000 GPUs",
        |b| b.iter(|| engine::failures::failures(black_box(&huge), &huge_report)),
    );
    let huge_placed = engine::evaluate_placed(&huge).expect("evaluates");
    c.bench_function("rack and row losses, 100,000 GPUs", |b| {
        b.iter(|| {
            engine::failures::rack_and_row_losses(
                black_box(&huge),
                &huge_placed.report,
                &huge_placed.floor,
            )
        })
    });

    // The physical floor of 2,048 DGX H100: placement, every cable routed, media, rack power.
    let mut two_thousand = four_workloads_three_fabrics(2048, "h100-sxm", "ib_ndr", "qm9700");
    two_thousand["cluster"]["node_preset"] = "dgx-h100".into();
    let two_thousand = spec(two_thousand);
    c.bench_function("evaluate 2,048 nodes on their floor", |b| {
        b.iter(|| evaluate(black_box(&two_thousand)).expect("evaluates"))
    });
    c.bench_function("evaluate and plan the floor, 2,048 nodes", |b| {
        b.iter(|| {
            let report = evaluate(black_box(&two_thousand)).expect("evaluates");
            floor::plan(&two_thousand, &report)
        })
    });
    // The same, the floor laid once for the bill as placed and the plan (the pages' way).
    c.bench_function("evaluate with the floor laid once, 2,048 nodes", |b| {
        b.iter(|| engine::evaluate_placed(black_box(&two_thousand)).expect("evaluates"))
    });
    let report = evaluate(&two_thousand).expect("evaluates");
    let plan = floor::plan(&two_thousand, &report);
    c.bench_function("floor plan and rack elevation SVGs, 2,048 nodes", |b| {
        b.iter(|| {
            (
                floor::svg::floor_plan(black_box(&plan)),
                floor::svg::rack_elevations(black_box(&plan)),
            )
        })
    });
    c.bench_function("floor cabling sheet, 2,048 nodes", |b| {
        b.iter(|| floor::cabling(black_box(&two_thousand), &report).expect("fits"))
    });
    c.bench_function(
        "what one failure takes away, every element, 2,048 nodes",
        |b| b.iter(|| engine::failures::failures(black_box(&two_thousand), &report)),
    );

    // The DGX SuperPOD grown to 64 scalable units of 32 DGX in 8 phases of 8 SU.
    for policy in ["provision_final", "as_needed"] {
        let mut superpod: Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
        superpod["cluster"]["nodes"] = json!(2048);
        superpod["fabrics"][0]["extra_endpoints"] = json!(0);
        superpod["growth"] = json!({
            "policy": policy,
            "phases": (1..=8).map(|p| json!({ "label": format!("phase {p}"), "nodes": p * 256 })).collect::<Vec<_>>(),
        });
        let superpod = spec(superpod);
        let report = evaluate(&superpod).expect("evaluates");
        c.bench_function(&format!("phase plan, 64 SU in 8 phases, {policy}"), |b| {
            b.iter(|| engine::phases::phases(black_box(&superpod), &report))
        });
        c.bench_function(&format!("move list, 64 SU in 8 phases, {policy}"), |b| {
            b.iter(|| engine::phases::move_list(black_box(&superpod), &report, 1_000_000))
        });
    }

    // 64 tenants on the SuperPOD grown to 2,048 nodes (64 SU of 32): each runs a Llama 3 70B
    // job on 16, 24, 32 or 40 nodes (those of 40 span two units), those of 24 on units of their
    // own, the others per node.
    let mut shared: Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    shared["cluster"]["nodes"] = json!(2048);
    shared["fabrics"][0]["extra_endpoints"] = json!(0);
    shared.as_object_mut().unwrap().remove("growth");
    let template = shared["workloads"][0].clone();
    let mut workloads = Vec::new();
    let mut tenants = Vec::new();
    for i in 0..64u32 {
        let nodes = 16 + (i % 4) * 8;
        let mut w = template.clone();
        w["name"] = json!(format!("job-{i}"));
        w["model"] = json!({"preset": "llama3-70b", "parameters": 70e9, "layers": 80, "hidden": 8192, "sequence_length": 8192, "precision": "bf16"});
        w["parallelism"] = json!({"dp": nodes, "tp": 8, "pp": 1, "sharding": "zero1"});
        w["global_batch"] = json!(nodes * 4);
        workloads.push(w);
        let isolation = if i % 4 == 1 { "scalable_unit" } else { "node" };
        tenants.push(json!({"name": format!("tenant-{i}"), "workloads": [format!("job-{i}")], "isolation": isolation}));
    }
    // 64 jobs: the design's most workloads; the storage workload is left out.
    shared["workloads"] = json!(workloads);
    shared["tenants"] = json!(tenants);
    let shared = spec(shared);
    c.bench_function("place 64 tenants on 2,048 nodes", |b| {
        b.iter(|| engine::tenancy::place(black_box(&shared), 32).expect("fits"))
    });
    let report = evaluate_unplaced(&shared, Conditions::NORMAL).expect("evaluates");
    c.bench_function("interference of 64 tenants on 2,048 nodes", |b| {
        b.iter(|| engine::interference::interference(black_box(&shared), &report))
    });

    // 64 cluster sizes × 4 fabric technologies, the specs built up front.
    let sweep: Vec<DesignSpec> = (1..=64)
        .flat_map(|i| {
            [
                Technology::IbNdr,
                Technology::Roce400,
                Technology::Tcp100,
                Technology::Tcp25,
            ]
            .map(|t| {
                let switch = match t {
                    Technology::IbNdr => "qm9700",
                    Technology::Roce400 => "tomahawk6",
                    _ => "sn4600c",
                };
                spec(four_workloads_three_fabrics(
                    i * 16,
                    "h100-sxm",
                    t.key(),
                    switch,
                ))
            })
        })
        .collect();
    // A study's sweep reads workload timings, not costs, nor their explanations: it sizes
    // without the floor, for the values alone.
    c.bench_function("sweep 64 cluster sizes × 4 technologies", |b| {
        b.iter(|| {
            for s in &sweep {
                black_box(evaluate_workloads(black_box(s), Conditions::NORMAL).expect("evaluates"));
            }
        })
    });
    // The same sweep with every report whole (fabrics' bills, findings, worked lines), as the
    // studies asked for it before.
    c.bench_function(
        "sweep 64 cluster sizes × 4 technologies, whole reports",
        |b| {
            b.iter(|| {
                for s in &sweep {
                    black_box(
                        evaluate_unplaced(black_box(s), Conditions::NORMAL).expect("evaluates"),
                    );
                }
            })
        },
    );
}

/// The calibration fitted to 32 baselines of 31 message sizes each (992 points), measured on a
/// fabric built with 80 % efficiency and network hops 1.5 times slower than the defaults.
fn fit(c: &mut Criterion) {
    let design = DesignSpec::from_json(engine::examples::SEVENTY_B_TRAINING).expect("example");
    let mut built = design.clone();
    built.calibration.infiniband_efficiency = 0.80;
    built.calibration.network_hop_latency_us *= 1.5;
    built.calibration.ll_network_hop_latency_us *= 1.5;
    built.calibration.ll128_network_hop_latency_us *= 1.5;
    let sizes: Vec<u64> = (3..=33).map(|p| 1u64 << p).collect();
    let runs: Vec<engine::nccl_tests::Run> = (0..32)
        .map(|i| engine::baseline::predicted_run(&built, "compute", 2 + i % 15, &sizes))
        .collect::<Result<_, _>>()
        .expect("predicted");
    let baselines: Vec<engine::calibration_fit::Baseline> = runs
        .iter()
        .map(|run| engine::calibration_fit::Baseline {
            run,
            stated: Default::default(),
            algorithm: None,
        })
        .collect();
    let mut group = c.benchmark_group("calibration");
    group.sample_size(10);
    group.bench_function("fit over 992 measured points", |b| {
        b.iter(|| {
            engine::calibration_fit::fit(black_box(&design), "compute", &baselines).expect("fits")
        })
    });
    group.finish();
}

criterion_group!(engine_benches, benches, fit);
criterion_main!(engine_benches);
