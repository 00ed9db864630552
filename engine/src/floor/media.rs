//! Media, transceivers and the cabling bill of materials by orderable length.
//!
//! Every link gets the cheapest medium that reaches its orderable length (see
//! [`ReachClass::cheapest`]). An optical link needs a transceiver in the cage at each end; a
//! twin-port cage (an 800G OSFP cage carrying two 400G links on a QM9700, or one of a DGX H100's
//! four OSFP cages for its eight NICs) takes one twin-port transceiver for both of its links,
//! of the dearest class either link needs, since both ports of a twin-port plug use one fibre
//! type. An endpoint the floor does not place (UFM, a storage server) takes a single-port one.

use super::count::{self, Cages, Walked};
use super::lengths::{Long, MediumTable};
use super::placement::Placed;
use super::routing::{Router, ORDERABLE_M};
use super::{LengthCount, TransceiverCount};
use crate::bom::{Builder, Item};
use crate::catalog::{chassis, switch, Media, ReachClass};
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

/// The cages of one fabric: links per switch cage and per node cage, and cages per device.
pub(super) fn cages_of(spec: &DesignSpec, fabric: &FabricReport) -> Cages {
    let speed = fabric.port_rate.bits_per_second() / 1e9;
    let per_switch = links_per_plug(
        switch(&fabric.switch)
            .map(|s| s.links_per_cage(speed))
            .unwrap_or(1),
    );
    // The node's twin-port cages carry its compute-fabric NICs.
    let per_node = if fabric.role == FabricRole::Compute {
        links_per_plug(chassis(&spec.cluster).links_per_cage.max(1))
    } else {
        1
    };
    Cages {
        per_switch,
        per_node,
        per_switch_device: fabric.plan.radix.max(1).div_ceil(per_switch) as usize,
        per_node_device: fabric.ports_per_node.max(1).div_ceil(per_node) as usize,
    }
}

/// What counting one fabric's cables finds, however it was counted.
pub(super) struct Counted {
    /// Cables per tier, class and orderable length.
    pub cables: [[[u32; ORDERABLE_M.len()]; CLASSES.len()]; TIERS.len()],
    /// Per cage of each leaf, spine and core, and per node cage: 1 + the index of the dearest
    /// optical class it holds, 0 when it holds none.
    pub switch_cages: [Vec<u8>; 3],
    pub host: Vec<u8>,
    /// Optical links to endpoints the floor does not place, by class.
    pub endpoint: [u32; CLASSES.len()],
    /// Links no medium reaches.
    pub unreachable: u32,
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
    priced(spec, fabrics, placed, |fi, fabric, cages, longest| {
        let table = MediumTable::new(fabric.port_rate.bits_per_second() / 1e9);
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
            keep_longest.then_some(longest),
        );
        let mut counted = Counted {
            cables: [[[0; ORDERABLE_M.len()]; CLASSES.len()]; TIERS.len()],
            switch_cages,
            host,
            endpoint,
            unreachable: 0,
        };
        for (level, by_reach) in by_length.iter().enumerate() {
            for (to_node, row) in by_reach.iter().enumerate() {
                for (bin, count) in row.iter().enumerate().filter(|(_, n)| **n > 0) {
                    match count::class_of(&table, bin, to_node == 1) {
                        Some(class) => counted.cables[level][class_index(class)][bin] += count,
                        None => counted.unreachable += count,
                    }
                }
            }
        }
        counted
    })
}

/// The floor's cables and optics priced from each fabric's counts, which `count` finds.
pub(super) fn priced(
    spec: &DesignSpec,
    fabrics: &[FabricReport],
    placed: &Placed,
    mut count: impl FnMut(usize, &FabricReport, Cages, &mut Vec<Long>) -> Counted,
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
    for (fi, fabric) in fabrics.iter().enumerate() {
        let cages = cages_of(spec, fabric);
        let counted = count(fi, fabric, cages, &mut out.longest);
        out.unreachable[fi] = counted.unreachable;
        // This fabric's lines, added to the whole floor's after it.
        let mut b = Builder {
            lines: Vec::new(),
            overrides: &spec.overrides,
        };
        bill(&mut b, &mut out, fabric, cages, &counted, placed);
        for line in &b.lines {
            floor.add(line.quantity, Item::of(line));
        }
        out.bom_by_fabric.push(b.lines);
    }
    out.bom = floor.lines;
    out
}

/// Adds one fabric's counted cables and optics to its bill `b` and to the floor's tally.
fn bill(
    b: &mut Builder,
    out: &mut Tally,
    fabric: &FabricReport,
    cages: Cages,
    counted: &Counted,
    placed: &Placed,
) {
    let speed = fabric.port_rate.bits_per_second() / 1e9;
    let key_speed = speed.round() as u32;
    for (t, tier) in TIERS.iter().enumerate() {
        for (c, class) in CLASSES.iter().enumerate() {
            for (l, length) in ORDERABLE_M.iter().enumerate() {
                let count = counted.cables[t][c][l];
                if count == 0 {
                    continue;
                }
                out.cables.push(LengthCount {
                    fabric: fabric.name.clone(),
                    tier: tier.to_string(),
                    reach: *class,
                    length_m: Metres::new(*length),
                    count,
                });
                let m = Media::of(*class, speed, cages.per_switch);
                let item = if class.is_optical() {
                    Item {
                        key: format!("fibre:{}:{length}m", class.key()),
                        description: format!("{} fibre, {length} m", class.label()),
                        price: m.cable_price_usd,
                        power: Watts::new(0.0),
                        estimate: true,
                        source: PRICE_ESTIMATE.into(),
                    }
                } else {
                    let (w, source) = if *class == ReachClass::Acc {
                        // Linear active copper draws about 1.5 W per end (NVIDIA LinkX
                        // MCA4J80); it runs only between switches (never to a node:
                        // `ReachClass::cheapest`), so both ends are in switches' ratings.
                        (
                            2.0 * crate::catalog::SWITCH_END_W.watts(),
                            "NVIDIA LinkX 100G-PAM4 overview: linear active copper MCA4J80 1.5 W per end, within the switches' maximum ratings",
                        )
                    } else {
                        (0.0, "NVIDIA LinkX MCP4Y10: passive copper, near zero power")
                    };
                    Item {
                        key: format!("cable:{}:{key_speed}:{length}m", class.key()),
                        description: format!("{key_speed}G {}, {length} m", class.label()),
                        price: m.cable_price_usd,
                        power: Watts::new(w),
                        estimate: true,
                        source: source.into(),
                    }
                };
                b.add(count, item);
            }
        }
    }
    let mut rack_optics_w = std::mem::take(&mut out.rack_optics_w);
    // Transceivers: one per occupied cage, of the cage's class.
    let mut add = |end: &'static str, per: u32, class: ReachClass, count: u32| -> Watts {
        let m = Media::of(class, speed, per);
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
        watts
    };
    let occupied = CageCounts::new(
        &counted.switch_cages,
        &counted.host,
        cages.per_node_device,
        placed,
    );
    let mut unplaced_optics_w = 0.0;
    for (c, class) in CLASSES.iter().enumerate().filter(|(_, c)| c.is_optical()) {
        let code = c + 1;
        let at_switches = occupied.at_switches[code];
        if at_switches > 0 {
            add("switch", cages.per_switch, *class, at_switches);
        }
        let at_nodes = occupied.at_nodes[code];
        if at_nodes > 0 {
            let watts = add("node", cages.per_node, *class, at_nodes);
            // One addition per cage, class by class, so that each rack sums in a fixed order.
            for (w, counts) in rack_optics_w.iter_mut().zip(&occupied.per_rack) {
                for _ in 0..counts[code] {
                    *w += watts.watts();
                }
            }
        }
        let endpoints = counted.endpoint[c];
        if endpoints > 0 {
            let watts = add("endpoint", 1, *class, endpoints);
            unplaced_optics_w += watts.watts() * f64::from(endpoints);
        }
    }
    out.rack_optics_w = rack_optics_w;
    out.unplaced_optics_w += unplaced_optics_w;
}
