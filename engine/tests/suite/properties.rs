//! Properties that hold for every spec: no panics, finite non-negative outputs, and the
//! monotonic behaviour an architect relies on.

use crate::common;

use common::*;
use engine::*;
use proptest::prelude::*;

fn technology() -> impl Strategy<Value = Technology> {
    prop::sample::select(Technology::ALL.to_vec())
}

fn any_spec() -> impl Strategy<Value = DesignSpec> {
    (
        1u32..400,
        prop::sample::select(vec![1u32, 2, 4, 8]),
        1u32..9,
        technology(),
        prop::sample::select(vec![
            Topology::Auto,
            Topology::TwoTier,
            Topology::ThreeTier,
            Topology::RailOptimized,
        ]),
        1.0f64..4.0,
        (1u32..8, 1u32..4, 0.0f64..1.0, 1u32..2048),
    )
        .prop_map(
            |(nodes, gpn, nics, tech, topology, oversub, (tp, pp, overlap, tokens))| {
                let mut cluster = dgx_h100(nodes);
                cluster.gpus_per_node = gpn;
                cluster.nics_per_node = nics;
                let gpus = nodes * gpn;
                let tp = tp.min(gpn);
                let pp = pp.min((gpus / tp).max(1));
                let dp = (gpus / (tp * pp)).max(1);
                let mut t = training(llama_70b(), dp, tp, pp, Compute::Mfu(0.4));
                t.overlap = overlap;
                let mut compute = fabric("compute", Role::Compute, tech);
                compute.topology = topology;
                compute.oversubscription.leaf = oversub;
                compute.switch = Some(match tech.transport() {
                    Transport::InfiniBand if tech == Technology::IbXdr => "q3400".into(),
                    Transport::InfiniBand => "qm9700".into(),
                    _ => "tomahawk6".into(),
                });
                let mut inference = fabric("inference", Role::Inference, tech);
                inference.switch = compute.switch.clone();
                design(
                    cluster,
                    vec![
                        Workload::Training(t),
                        Workload::Inference(Inference {
                            fabric: "inference".into(),
                            ..tp_inference(nodes.min(4), tokens)
                        }),
                    ],
                    vec![compute, inference],
                )
            },
        )
}

fn finite_and_non_negative(report: &Report) -> Result<(), String> {
    let json = serde_json::to_value(report).map_err(|e| e.to_string())?;
    fn walk(v: &serde_json::Value, path: &str) -> Result<(), String> {
        match v {
            serde_json::Value::Number(n) => {
                let x = n.as_f64().unwrap_or(0.0);
                // Headroom is negative when a tier is short of bandwidth: that is its meaning.
                let may_be_negative = path.ends_with("headroom_percent");
                if !x.is_finite() || (x < 0.0 && !may_be_negative) {
                    return Err(format!("{path} = {x}"));
                }
                Ok(())
            }
            // serde_json writes non-finite floats as null.
            serde_json::Value::Null
                if !path.ends_with("slowdown")
                    && !path.contains("headroom")
                    && !path.contains("bottleneck")
                    && !path.contains("worst")
                    && !path.contains("checkpoint_time") =>
            {
                Err(format!("{path} is null"))
            }
            serde_json::Value::Array(items) => items
                .iter()
                .enumerate()
                .try_for_each(|(i, x)| walk(x, &format!("{path}[{i}]"))),
            serde_json::Value::Object(map) => map
                .iter()
                .try_for_each(|(k, x)| walk(x, &format!("{path}.{k}"))),
            _ => Ok(()),
        }
    }
    walk(&json, "")
}

/// `workloads` as JSON with every worked line left out.
fn without_worked(workloads: &[WorkloadReport]) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                map.remove("worked");
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut json = serde_json::to_value(workloads).unwrap();
    strip(&mut json);
    json
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_output_is_finite_and_non_negative(spec in any_spec()) {
        if let Ok(report) = evaluate(&spec) {
            prop_assert!(finite_and_non_negative(&report).is_ok(), "{:?}", finite_and_non_negative(&report));
        }
    }

    #[test]
    fn an_evaluation_read_for_its_values_gives_the_full_evaluations_values(spec in any_spec()) {
        let full = evaluate_unplaced(&spec, Conditions::NORMAL).map(|r| without_worked(&r.workloads));
        let values = evaluate_workloads(&spec, Conditions::NORMAL).map(|w| serde_json::to_value(w).unwrap());
        prop_assert_eq!(full, values);
    }

    #[test]
    fn random_json_never_panics(text in ".{0,400}") {
        let _ = DesignSpec::from_json(&text);
    }

    #[test]
    fn mutated_examples_never_panic(example in 0usize..6, path in 0usize..40, number in prop::num::f64::ANY) {
        let mut value: serde_json::Value = serde_json::from_str(examples::ALL[example].1).unwrap();
        // Replace the path-th number found in the spec with an arbitrary one.
        fn replace(v: &mut serde_json::Value, target: &mut usize, number: f64) {
            match v {
                serde_json::Value::Number(_) => {
                    if *target == 0 {
                        if let Some(n) = serde_json::Number::from_f64(number) {
                            *v = serde_json::Value::Number(n);
                        }
                    }
                    *target = target.wrapping_sub(1);
                }
                serde_json::Value::Array(items) => items.iter_mut().for_each(|x| replace(x, target, number)),
                serde_json::Value::Object(map) => map.values_mut().for_each(|x| replace(x, target, number)),
                _ => {}
            }
        }
        let mut target = path;
        replace(&mut value, &mut target, number);
        if let Ok(spec) = DesignSpec::from_value(value) {
            let _ = evaluate(&spec);
        }
    }

    #[test]
    fn more_bandwidth_never_slows_a_collective(
        ranks_per_node in 1u32..9, nodes in 1u32..64, megabytes in 0.001f64..10_000.0, gbps in 1.0f64..800.0, more in 1.0f64..8.0
    ) {
        let group = |node_gbps: f64| Group {
            ranks: ranks_per_node * nodes,
            nodes,
            scale_up: ByteRate::gigabytes_per_second(370.0),
            node_network: BitRate::gbps(node_gbps).to_byte_rate(),
            latencies: Latencies { base_us: Micros::new(8.4), scale_up_hop_us: Micros::new(3.4), network_hop_us: Micros::new(17.0) },
            crossing: Crossing::NONE,
        };
        let size = Bytes::new(megabytes * 1e6);
        let slow = allreduce(&group(gbps), size).time();
        let fast = allreduce(&group(gbps * more), size).time();
        prop_assert!(fast <= slow, "{:?} > {:?}", fast, slow);
        prop_assert!(all_to_all(&group(gbps * more), size).time() <= all_to_all(&group(gbps), size).time());
    }

    #[test]
    fn more_nodes_never_need_fewer_switches(nodes in 1u32..2000, extra in 1u32..200, tech in technology()) {
        let switches = |n: u32| {
            let mut f = fabric("compute", Role::Compute, tech);
            f.switch = Some(if tech.is_ethernet() { "tomahawk6".into() } else if tech == Technology::IbXdr { "q3400".into() } else { "qm9700".into() });
            evaluate(&design(dgx_h100(n), vec![], vec![f])).map(|r| r.headline.switches)
        };
        if let (Ok(fewer), Ok(more)) = (switches(nodes), switches(nodes + extra)) {
            prop_assert!(more >= fewer, "{} nodes: {fewer} switches, {} nodes: {more}", nodes, nodes + extra);
        }
    }
}
