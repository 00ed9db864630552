//! Speed of the hand-off bundle and of the as-built check (results in BENCHMARKS.md):
//! `cargo bench -p engine --bench handoff`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use engine::asbuilt::{check, check_fabrics, ibnetdiscover};
use engine::handoff::{bundle, ibnet, planned};
use engine::{evaluate, DesignSpec};

/// The 4-SU SuperPOD design grown to 2,048 DGX nodes: an 8-rail NDR compute fabric in 3 tiers
/// and a 2-port storage fabric.
fn two_thousand_nodes() -> DesignSpec {
    let mut spec: serde_json::Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    spec["cluster"]["nodes"] = 2048.into();
    // The example's own growth plan ends at its 127 nodes.
    spec.as_object_mut().map(|s| s.remove("growth"));
    DesignSpec::from_value(spec).expect("the benchmark spec is valid")
}

fn benches(c: &mut Criterion) {
    let spec = two_thousand_nodes();
    let report = evaluate(&spec).expect("evaluates");
    c.bench_function("hand-off bundle, 2,048 nodes (every file)", |b| {
        b.iter(|| bundle(black_box(&spec), black_box(&report)))
    });

    let (fabrics, _) = planned(&report);
    let compute = &fabrics[0];
    let dump = ibnet::ibnetdiscover(compute, &ibnet::planned_links(compute), &[]);
    c.bench_function(
        "as-built check, 2,048-node ibnetdiscover dump (parse and match)",
        |b| {
            b.iter(|| {
                let links = ibnetdiscover::parse(black_box(dump.as_bytes())).expect("parses");
                check(black_box(&report), Some("compute"), &links)
            })
        },
    );
    // The floor's cabling sheet that the rack losses read: placed, routed and labelled.
    c.bench_function("floor cabling sheet, 2,048 nodes", |b| {
        b.iter(|| engine::floor::cabling(black_box(&spec), black_box(&report)))
    });
    // What each rack's and row's loss takes away, on the floor as placed: its links walked, no
    // sheet.
    c.bench_function("rack and row losses, 2,048 nodes (floor plan given)", |b| {
        let floor = engine::floor::plan(&spec, &report);
        b.iter(|| {
            engine::failures::rack_and_row_losses(black_box(&spec), &report, black_box(&floor))
        })
    });
    // The plan (the cabling sheet) prepared once per revision, as a server can keep it.
    c.bench_function(
        "as-built check against a prepared plan (parse and match)",
        |b| {
            b.iter(|| {
                let links = ibnetdiscover::parse(black_box(dump.as_bytes())).expect("parses");
                check_fabrics(&[compute], &links)
            })
        },
    );
}

criterion_group! {
    name = handoff_benches;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(handoff_benches);
