//! The evaluation's tally as it was first written, one cable at a time with its medium looked
//! up per cable: kept to check that the counting walk finds exactly the same.

use super::lengths::{Long, MediumTable, LONGEST_KEPT};
use super::media::*;
use super::placement::Placed;
use super::routing::{Router, ORDERABLE_M};
use super::{LengthCount, TransceiverCount};
use crate::bom::{Builder, Item};
use crate::cabling::{links, End, Link, Role};
use crate::catalog::{chassis, switch, ReachClass};
use crate::report::FabricReport;
use crate::spec::{DesignSpec, Role as FabricRole};

pub(crate) fn tally_per_cable(
    spec: &DesignSpec,
    fabrics: &[FabricReport],
    placed: &Placed,
    router: &Router,
) -> Tally {
    let mut floor = Builder {
        lines: Vec::new(),
        overrides: &spec.overrides,
    };
    let mut out = Tally {
        cables: Vec::new(),
        transceivers: Vec::new(),
        bom: Vec::new(),
        bom_by_fabric: Vec::new(),
        rack_optics_w: vec![0.0; placed.racks.len()],
        unplaced_optics_w: 0.0,
        longest: Vec::new(),
        unreachable: vec![0; fabrics.len()],
    };
    let node_cages = chassis(&spec.cluster).links_per_cage.max(1);
    for (fi, fabric) in fabrics.iter().enumerate() {
        let mut b = Builder {
            lines: Vec::new(),
            overrides: &spec.overrides,
        };
        let speed = fabric.port_rate.0 / 1e9;
        let radix = fabric.plan.radix.max(1);
        let per_cage = links_per_plug(
            switch(&fabric.switch)
                .map(|s| s.links_per_cage(speed))
                .unwrap_or(1),
        );
        let cage_shift = per_cage.trailing_zeros();
        // The node's twin-port cages carry its compute-fabric NICs.
        let host_per_cage = if fabric.role == FabricRole::Compute {
            links_per_plug(node_cages)
        } else {
            1
        };
        let host_shift = host_per_cage.trailing_zeros();
        let rails = fabric.ports_per_node.max(1);
        let cages_per_switch = radix.div_ceil(per_cage) as usize;
        let cages_per_node = rails.div_ceil(host_per_cage) as usize;
        let counts_of = |n: u32| vec![0u8; n as usize * cages_per_switch];
        let plan = &fabric.plan;
        // Per cage, 1 + the index of the dearest optical class it holds; 0 when it holds none.
        let mut switch_cages = [
            counts_of(plan.leaves),
            counts_of(plan.spines),
            counts_of(plan.cores),
        ];
        let mut host = vec![0u8; fabric.attached_nodes as usize * cages_per_node];
        let mut endpoint = [0u32; 5];
        let mut counts = [[[0u32; ORDERABLE_M.len()]; 5]; 3];
        let mut mark = |end: End, code: u8| match end {
            End::Switch { role, index, port } => {
                let r = match role {
                    Role::Leaf => 0,
                    Role::Spine => 1,
                    Role::Core => 2,
                };
                let i = index as usize * cages_per_switch + (port >> cage_shift) as usize;
                if let Some(c) = switch_cages[r].get_mut(i) {
                    *c = (*c).max(code);
                }
            }
            End::Node { node, nic } => {
                let i = node as usize * cages_per_node + (nic >> host_shift) as usize;
                if let Some(c) = host.get_mut(i) {
                    *c = (*c).max(code);
                }
            }
            End::Endpoint(_) => endpoint[usize::from(code - 1)] += 1,
        };
        let table = MediumTable::new(speed);
        let unreachable = &mut out.unreachable[fi];
        let longest = &mut out.longest;
        // Validated and sized, so the links fit; a fabric that does not fit gets no cables.
        let _ = links(fabric, &mut |link: Link| {
            let z = spot(router, fi, link.z, None);
            let a = spot(router, fi, link.a, Some(z));
            let route_m = router.route(a, z);
            let to_node = !matches!(link.a, End::Switch { .. });
            let (bin, class) = table.link(route_m, to_node);
            // The longest route between each pair of racks, so the plan shows distinct routes.
            if longest.len() < LONGEST_KEPT || longest.last().is_some_and(|l| l.route_m < route_m) {
                let same = longest
                    .iter()
                    .position(|l| l.a.rack == a.rack && l.z.rack == z.rack);
                let keep = match same {
                    Some(i) if longest[i].route_m < route_m => {
                        longest.remove(i);
                        true
                    }
                    Some(_) => false,
                    None => true,
                };
                if keep {
                    let at = longest.partition_point(|l| l.route_m >= route_m);
                    longest.insert(
                        at,
                        Long {
                            fabric: fi,
                            tier: link.tier,
                            a,
                            z,
                            route_m,
                            bin,
                        },
                    );
                    longest.truncate(LONGEST_KEPT);
                }
            }
            let (Some(bin), Some(class)) = (bin, class) else {
                *unreachable += 1;
                return;
            };
            counts[link.level.min(2)][class_index(class)][bin] += 1;
            if class.is_optical() {
                let code = class_index(class) as u8 + 1;
                mark(link.a, code);
                mark(link.z, code);
            }
        });
        let key_speed = speed.round() as u32;
        for (t, tier) in TIERS.iter().enumerate() {
            for (c, class) in CLASSES.iter().enumerate() {
                for (l, length) in ORDERABLE_M.iter().enumerate() {
                    let count = counts[t][c][l];
                    if count == 0 {
                        continue;
                    }
                    out.cables.push(LengthCount {
                        fabric: fabric.name.clone(),
                        tier: tier.to_string(),
                        reach: *class,
                        length_m: crate::units::Metres(*length),
                        count,
                    });
                    let Some(m) = figures(*class, speed, per_cage) else {
                        continue;
                    };
                    let item = if class.is_optical() {
                        Item {
                            key: format!("fibre:{}:{length}m", class.key()),
                            description: format!("{} fibre, {length} m", class.label()),
                            price: m.cable_price_usd,
                            power: crate::units::Watts(0.0),
                            estimate: true,
                            source: PRICE_ESTIMATE.into(),
                        }
                    } else {
                        let (w, source) = if *class == ReachClass::Acc {
                            // Linear active copper draws about 1.5 W per end (NVIDIA LinkX
                            // MCA4J80); on the floor it runs only between switches (never to a
                            // node: `routing::medium`), so both ends are in switches' ratings.
                            (
                                2.0 * crate::catalog::SWITCH_END_W.0,
                                "NVIDIA LinkX 100G-PAM4 overview: linear active copper MCA4J80 1.5 W per end, within the switches' maximum ratings",
                            )
                        } else {
                            (0.0, "NVIDIA LinkX MCP4Y10: passive copper, near zero power")
                        };
                        Item {
                            key: format!("cable:{}:{key_speed}:{length}m", class.key()),
                            description: format!("{key_speed}G {}, {length} m", class.label()),
                            price: m.cable_price_usd,
                            power: crate::units::Watts(w),
                            estimate: true,
                            source: source.into(),
                        }
                    };
                    b.add(count, item);
                }
            }
        }
        // Transceivers: one per occupied cage, of the cage's class.
        let mut add = |end: &'static str,
                       per: u32,
                       class: ReachClass,
                       count: u32,
                       rack_w: &mut dyn FnMut(f64)| {
            let Some(m) = figures(class, speed, per) else {
                return;
            };
            let (price, watts, key) = if per == 1 && end != "switch" {
                (
                    m.host_transceiver_price_usd,
                    m.host_transceiver_w,
                    format!("optic:{}:{key_speed}:host", class.key()),
                )
            } else {
                (
                    m.switch_transceiver_price_usd,
                    // A switch's optics are in its rating; a node's twin-port cage is not.
                    if end == "switch" {
                        crate::catalog::SWITCH_END_W
                    } else {
                        m.switch_transceiver_w
                    },
                    format!("optic:{}:{key_speed}:{end}{per}x", class.key()),
                )
            };
            rack_w(watts.0);
            out.transceivers.push(TransceiverCount {
                fabric: fabric.name.clone(),
                end: end.to_string(),
                reach: class,
                links_per_plug: per,
                count,
                watts_each: watts,
            });
            b.add(
                count,
                Item {
                    key,
                    description: format!(
                        "{} {} transceiver, {end} end{}",
                        if per > 1 {
                            format!("{per}-port {}G", key_speed * per)
                        } else {
                            format!("{key_speed}G")
                        },
                        class.label(),
                        if end == "switch" {
                            " (its power is in the switch's maximum)"
                        } else {
                            ""
                        }
                    ),
                    price,
                    power: watts,
                    estimate: true,
                    source: OPTICS_POWER.into(),
                },
            );
        };
        for (c, class) in CLASSES.iter().enumerate().filter(|(_, c)| c.is_optical()) {
            let code = c as u8 + 1;
            let at_switches: u32 = switch_cages
                .iter()
                .map(|v| v.iter().filter(|x| **x == code).count() as u32)
                .sum();
            if at_switches > 0 {
                add("switch", per_cage, *class, at_switches, &mut |_| {});
            }
            let at_nodes = host.iter().filter(|x| **x == code).count() as u32;
            if at_nodes > 0 {
                let mut watts = 0.0;
                add("node", host_per_cage, *class, at_nodes, &mut |w| watts = w);
                for (i, _) in host.iter().enumerate().filter(|(_, x)| **x == code) {
                    let (rack, _, _) = placed.node((i / cages_per_node) as u32);
                    if let Some(w) = out.rack_optics_w.get_mut(rack as usize) {
                        *w += watts;
                    }
                }
            }
            if endpoint[c] > 0 {
                let mut watts = 0.0;
                add("endpoint", 1, *class, endpoint[c], &mut |w| watts = w);
                out.unplaced_optics_w += watts * f64::from(endpoint[c]);
            }
        }
        for line in &b.lines {
            floor.add(line.quantity, Item::of(line));
        }
        out.bom_by_fabric.push(b.lines);
    }
    out.bom = floor.lines;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floor::placement::place;
    use serde_json::{json, Value};

    /// Every example at several sizes and with its leaves in each place on the floor.
    fn designs() -> Vec<(String, DesignSpec)> {
        let mut out = Vec::new();
        for (name, example) in crate::examples::ALL {
            for nodes in [1u32, 5, 32, 127, 300, 1024, 2048] {
                for leaves in ["top_of_rack", "middle_of_row", "end_of_row", "network_row"] {
                    let mut value: Value = serde_json::from_str(example).unwrap();
                    value["schema_version"] = json!(3);
                    value["cluster"]["nodes"] = json!(nodes);
                    value["workloads"] = json!([]);
                    if let Some(fabrics) = value["fabrics"].as_array_mut() {
                        for f in fabrics {
                            if let Some(o) = f.as_object_mut() {
                                o.remove("attached_nodes");
                            }
                        }
                    }
                    value["floor"] = json!({ "leaves": leaves, "slack_percent": 7.0 });
                    if let Ok(spec) = DesignSpec::from_value(value) {
                        out.push((format!("{name} at {nodes} nodes, leaves {leaves}"), spec));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_counting_walk_finds_what_routing_every_cable_one_at_a_time_finds() {
        let designs = designs();
        assert!(designs.len() >= 100, "{} designs", designs.len());
        let mut cables = 0u64;
        for (name, spec) in &designs {
            let Ok(report) = crate::evaluate(spec) else {
                continue;
            };
            let placed = place(spec, &report.fabrics);
            let router = Router::new(&placed, &spec.floor);
            let counted = tally(spec, &report.fabrics, &placed, &router, true);
            let walked = tally_per_cable(spec, &report.fabrics, &placed, &router);
            assert_eq!(counted, walked, "{name}");
            cables += counted
                .cables
                .iter()
                .map(|c| u64::from(c.count))
                .sum::<u64>();
        }
        assert!(cables > 100_000, "{cables} cables compared");
    }
}
