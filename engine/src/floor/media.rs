//! Media, transceivers and the cabling bill of materials by orderable length.
//!
//! Every link gets the cheapest medium that reaches its orderable length (see
//! [`super::routing::medium`]). An optical link needs a transceiver in the cage at each end; a
//! twin-port cage (an 800G OSFP cage carrying two 400G links on a QM9700, or one of a DGX H100's
//! four OSFP cages for its eight NICs) takes one twin-port transceiver for both of its links,
//! of the dearest class either link needs, since both ports of a twin-port plug use one fibre
//! type. An endpoint the floor does not place (UFM, a storage server) takes a single-port one.

use super::count::{self, Cages, Walked};
use super::lengths::{Long, MediumTable};
use super::placement::Placed;
use super::routing::{Router, Spot, ORDERABLE_M};
use super::{LengthCount, TransceiverCount};
use crate::bom::{Builder, Item};
use crate::cabling::End;
use crate::catalog::{chassis, media_for, switch, Media, ReachClass};
use crate::report::{BomLine, FabricReport};
use crate::spec::{DesignSpec, Role as FabricRole};
use crate::units::{Metres, Watts};

pub(super) const CLASSES: [ReachClass; 5] = [
    ReachClass::Dac,
    ReachClass::Acc,
    ReachClass::Multimode,
    ReachClass::SingleMode,
    ReachClass::LongReach,
];
pub(super) const TIERS: [&str; 3] = ["node-leaf", "leaf-spine", "spine-core"];

/// [`CLASSES`] lists the classes in declaration order.
pub(super) fn class_index(c: ReachClass) -> usize {
    c as usize
}

/// The catalog figures of `class` at `speed` with `per_cage` links per transceiver.
pub(crate) fn figures(class: ReachClass, speed: f64, per_cage: u32) -> Option<Media> {
    media_for(speed, class.max_reach_m(speed), per_cage).filter(|m| m.class == class)
}

/// Links one plug carries in a cage of `links` links: plugs come in 1, 2, 4 and 8 ports, so
/// the largest of those that fits (which also lets a port find its cage by a shift).
pub(crate) fn links_per_plug(links: u32) -> u32 {
    1 << (31 - links.max(1).leading_zeros())
}

pub(super) const PRICE_ESTIMATE: &str =
    "estimate: no public list price was found; override it in the design";
pub(super) const OPTICS_POWER: &str = "NVIDIA LinkX 100G-PAM4 overview and product pages MMA4Z00-NS, MMS4X00-NS, MMS4X50-NM (twin-port 2×SR4 15 W, 2×DR4 17 W; single-port 400G 9 W max); prices are estimates";

#[derive(Debug, PartialEq)]
pub(crate) struct Tally {
    pub cables: Vec<LengthCount>,
    pub transceivers: Vec<TransceiverCount>,
    pub bom: Vec<BomLine>,
    /// The same cables and optics, fabric by fabric: what each fabric's bill as placed holds.
    pub bom_by_fabric: Vec<Vec<BomLine>>,
    /// Transceiver power at the node ends, per rack, W (switches are budgeted at their maximum,
    /// which includes their optics).
    pub rack_optics_w: Vec<f64>,
    /// Transceiver power at the ends the floor does not place, W.
    pub unplaced_optics_w: f64,
    pub longest: Vec<Long>,
    /// Per fabric: links no medium reaches.
    pub unreachable: Vec<u32>,
}

/// Where end `end` of fabric `fi` is; `other` is the far end.
pub(crate) fn spot(router: &Router, fi: usize, end: End, other: Option<Spot>) -> Spot {
    router.end(fi, end, other)
}

/// How many cages hold each cage code (1 + class index, 0 for none): at the switches, at the
/// nodes, and at the nodes of each rack. One pass over the cages instead of one per class.
struct CageCounts {
    at_switches: [u32; CODES],
    at_nodes: [u32; CODES],
    per_rack: Vec<[u32; CODES]>,
}

/// Cage codes: none, then one per class.
const CODES: usize = CLASSES.len() + 1;

impl CageCounts {
    fn new(switch_cages: &[Vec<u8>], host: &[u8], per_node: usize, placed: &Placed) -> Self {
        let mut counts = CageCounts {
            at_switches: [0; CODES],
            at_nodes: [0; CODES],
            per_rack: vec![[0; CODES]; placed.racks.len()],
        };
        for code in switch_cages.iter().flatten() {
            if let Some(n) = counts.at_switches.get_mut(usize::from(*code)) {
                *n += 1;
            }
        }
        for (node, cages) in host.chunks(per_node.max(1)).enumerate() {
            let (rack, _, _) = placed.node(node as u32);
            let mut in_rack = counts.per_rack.get_mut(rack as usize);
            for code in cages.iter().map(|c| usize::from(*c)) {
                if let Some(n) = counts.at_nodes.get_mut(code) {
                    *n += 1;
                }
                if let Some(n) = in_rack.as_mut().and_then(|r| r.get_mut(code)) {
                    *n += 1;
                }
            }
        }
        counts
    }
}

/// Counts and prices every cable and optic; the longest routes are kept for the floor plan
/// only when `keep_longest` (the evaluation's cost and power need none of them).
pub(crate) fn tally(
    spec: &DesignSpec,
    fabrics: &[FabricReport],
    placed: &Placed,
    router: &Router,
    keep_longest: bool,
) -> Tally {
    let mut floor = Builder {
        lines: Vec::new(),
        overrides: &spec.overrides,
    };
    let mut out = Tally {
        cables: Vec::new(),
        transceivers: Vec::new(),
        bom: Vec::new(),
        bom_by_fabric: Vec::with_capacity(fabrics.len()),
        rack_optics_w: vec![0.0; placed.racks.len()],
        unplaced_optics_w: 0.0,
        longest: Vec::new(),
        unreachable: vec![0; fabrics.len()],
    };
    let node_cages = chassis(&spec.cluster).links_per_cage.max(1);
    for (fi, fabric) in fabrics.iter().enumerate() {
        // This fabric's lines, added to the whole floor's after it.
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
        // The node's twin-port cages carry its compute-fabric NICs.
        let host_per_cage = if fabric.role == FabricRole::Compute {
            links_per_plug(node_cages)
        } else {
            1
        };
        let rails = fabric.ports_per_node.max(1);
        let cages_per_switch = radix.div_ceil(per_cage) as usize;
        let cages_per_node = rails.div_ceil(host_per_cage) as usize;
        let table = MediumTable::new(speed);
        let cages = Cages {
            per_switch: per_cage,
            per_node: host_per_cage,
            per_switch_device: cages_per_switch,
            per_node_device: cages_per_node,
        };
        let Walked {
            by_length,
            switch_cages,
            host,
            endpoint,
        } = count::walk(
            fi,
            fabric,
            router,
            &table,
            cages,
            keep_longest.then_some(&mut out.longest),
        );
        let mut counts = [[[0u32; ORDERABLE_M.len()]; 5]; 3];
        for (level, by_reach) in by_length.iter().enumerate() {
            for (to_node, row) in by_reach.iter().enumerate() {
                for (bin, count) in row.iter().enumerate().filter(|(_, n)| **n > 0) {
                    match count::class_of(&table, bin, to_node == 1) {
                        Some(class) => counts[level][class_index(class)][bin] += count,
                        None => out.unreachable[fi] += count,
                    }
                }
            }
        }
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
                        length_m: Metres(*length),
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
                            power: Watts(0.0),
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
                            power: Watts(w),
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
        let cages = CageCounts::new(&switch_cages, &host, cages_per_node, placed);
        for (c, class) in CLASSES.iter().enumerate().filter(|(_, c)| c.is_optical()) {
            let code = c + 1;
            let at_switches = cages.at_switches[code];
            if at_switches > 0 {
                add("switch", per_cage, *class, at_switches, &mut |_| {});
            }
            let at_nodes = cages.at_nodes[code];
            if at_nodes > 0 {
                let mut watts = 0.0;
                add("node", host_per_cage, *class, at_nodes, &mut |w| watts = w);
                // One addition per cage, class by class, so that each rack sums as before.
                for (w, counts) in out.rack_optics_w.iter_mut().zip(&cages.per_rack) {
                    for _ in 0..counts[code] {
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
