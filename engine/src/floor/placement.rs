//! Where every node and switch stands. Deterministic and explainable:
//! - nodes fill compute racks in order, `nodes_per_rack` each, bottom up;
//! - compute racks fill rows of `racks_per_row`, by default one scalable unit (the nodes one
//!   leaf serves) per row, so the rails of a scalable unit stay together;
//! - a leaf stands with the first node it serves: in that node's rack (top of rack), in network
//!   racks in the middle or at the end of that node's row, or in the network row;
//! - spines stand in the network row, or spread round-robin over the rows' network racks;
//!   cores always stand in the network row;
//! - network racks fill top down until the next switch would not fit the rack's height or its
//!   power budget (and, air-cooled, the air limit), then the next rack opens; spread (the
//!   default), each tier's switches in a group go in blocks to the group's racks, at least two
//!   racks where a tier has two switches there, so that no rack holds a whole tier.

use crate::cabling::Role;
use crate::catalog::{chassis, switch};
use crate::report::FabricReport;
use crate::spec::{Cooling, DesignSpec, Placement, SwitchRacks};

/// Longest network row before another one starts (a guideline keeps rows to 20 racks).
const NETWORK_ROW_RACKS: u32 = 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Node,
    Switch(Role),
}

/// One device in a rack. `u` is the lowest rack unit it takes (1 = bottom).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Slot {
    pub kind: Kind,
    /// Node number, or switch number within its fabric and role.
    pub index: u32,
    pub fabric: usize,
    pub u: u32,
    pub height: u32,
    pub power_w: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PlacedRack {
    pub row: u32,
    pub position: u32,
    pub network: bool,
    pub slots: Vec<Slot>,
    /// Units taken from the top (switches) and from the bottom (nodes).
    top: u32,
}

/// (rack, lowest U, height) of one switch.
pub(crate) type At = (u32, u32, u32);
/// Per fabric, per role (leaf, spine, core): where each switch stands.
pub(crate) type SwitchSpots = Vec<[Vec<At>; 3]>;

/// Every rack and where each device stands.
pub(crate) struct Placed {
    pub racks: Vec<PlacedRack>,
    pub compute_rows: u32,
    pub rows: u32,
    pub nodes_per_rack: u32,
    pub node_units: u32,
    pub node_power_kw: f64,
    pub racks_per_row: u32,
    /// Rack of compute rack `c` (nodes `c × nodes_per_rack ..`).
    pub compute_racks: Vec<u32>,
    /// Per fabric, per role (leaf, spine, core): (rack, lowest U, height) of each switch.
    pub switches: SwitchSpots,
}

impl Placed {
    /// (rack, lowest U, height) of node `n`.
    pub fn node(&self, n: u32) -> (u32, u32, u32) {
        let per = self.nodes_per_rack.max(1);
        let rack = self
            .compute_racks
            .get((n / per) as usize)
            .copied()
            .unwrap_or(0);
        (rack, 1 + (n % per) * self.node_units, self.node_units)
    }
}

impl Placed {
    /// (rack, lowest U, height) of switch `index` of `role` in fabric `fabric`.
    pub fn switch(&self, fabric: usize, role: Role, index: u32) -> Option<(u32, u32, u32)> {
        self.switches
            .get(fabric)
            .and_then(|s| s[role_index(role)].get(index as usize))
            .copied()
    }
}

fn role_index(role: Role) -> usize {
    match role {
        Role::Leaf => 0,
        Role::Spine => 1,
        Role::Core => 2,
    }
}

/// A switch waiting for a network rack.
#[derive(Clone, Copy)]
struct Pending {
    fabric: usize,
    role: Role,
    index: u32,
    height: u32,
    power_w: f64,
}

/// The first node a leaf serves, which decides where the leaf stands.
fn home_node(fabric: &FabricReport, leaf: u32) -> u32 {
    let plan = &fabric.plan;
    let down = plan.leaf_downlinks.max(1);
    let rails = fabric.ports_per_node.max(1);
    let node = if plan.layout.by_rail() {
        crate::cabling::leaf_position(fabric, leaf).0 * down
    } else {
        (leaf * down) / rails
    };
    fabric.first_node.max(1) - 1 + node.min(fabric.attached_nodes.saturating_sub(1))
}

/// The switch power a rack must budget: the design's override, else the catalog's maximum
/// (with optics, the rating to plan for).
pub(crate) fn switch_power_w(spec: &DesignSpec, fabric: &FabricReport) -> (f64, u32) {
    let sw = switch(&fabric.switch);
    let item = format!("switch:{}", fabric.switch);
    let power = spec
        .overrides
        .iter()
        .find(|o| o.item == item)
        .and_then(|o| o.power_w)
        .map_or(sw.map_or(0.0, |s| s.power_w.watts()), |w| w.watts());
    (power, sw.map(|s| s.rack_units).unwrap_or(1).max(1))
}

pub(crate) fn place(spec: &DesignSpec, fabrics: &[FabricReport]) -> Placed {
    place_as(spec, fabrics, spec.floor.switch_racks)
}

/// [`place`], the network racks holding their switches as `how` says.
pub(crate) fn place_as(spec: &DesignSpec, fabrics: &[FabricReport], how: SwitchRacks) -> Placed {
    let floor = &spec.floor;
    let chassis = chassis(&spec.cluster);
    let height = floor.rack_units.max(1);
    let node_units = super::node_rack_units(spec);
    let node_power_kw = floor.node_power_kw.unwrap_or(chassis.power_kw).kilowatts();
    let per_rack = floor
        .nodes_per_rack
        .unwrap_or(chassis.nodes_per_rack)
        .clamp(1, (height / node_units).max(1));
    let nodes = spec.cluster.nodes;
    let compute = nodes.div_ceil(per_rack).max(1);
    // One scalable unit per row: the nodes one leaf of the first fabric serves.
    let su_nodes = fabrics
        .first()
        .map(|f| f.plan.leaf_downlinks)
        .filter(|d| *d > 0)
        .unwrap_or(32);
    let racks_per_row = match (floor.racks_per_row, floor.rows) {
        (Some(n), _) => n,
        (None, Some(rows)) => compute.div_ceil(rows.max(1)),
        (None, None) => su_nodes.div_ceil(per_rack).clamp(1, 20),
    }
    .max(1);
    let compute_rows = compute.div_ceil(racks_per_row).max(1);
    let row_of_node = |n: u32| (n / per_rack) / racks_per_row;

    // Where each switch goes: into a compute rack, a row's middle or end group, or the network row.
    let mut in_rack: Vec<Vec<Pending>> = vec![Vec::new(); compute as usize];
    let mut middle: Vec<Vec<Pending>> = vec![Vec::new(); compute_rows as usize];
    let mut end: Vec<Vec<Pending>> = vec![Vec::new(); compute_rows as usize];
    let mut network: Vec<Pending> = Vec::new();
    let mut switches: SwitchSpots = Vec::with_capacity(fabrics.len());
    for (fi, fabric) in fabrics.iter().enumerate() {
        let plan = &fabric.plan;
        let (power_w, units) = switch_power_w(spec, fabric);
        let pending = |role, index| Pending {
            fabric: fi,
            role,
            index,
            height: units,
            power_w,
        };
        for leaf in 0..plan.leaves {
            let home = home_node(fabric, leaf);
            let row = (row_of_node(home) as usize).min(middle.len() - 1);
            let rack = ((home / per_rack) as usize).min(in_rack.len() - 1);
            let p = pending(Role::Leaf, leaf);
            match floor.leaves {
                Placement::TopOfRack => in_rack[rack].push(p),
                Placement::MiddleOfRow => middle[row].push(p),
                Placement::EndOfRow => end[row].push(p),
                Placement::NetworkRow => network.push(p),
            }
        }
        for spine in 0..plan.spines {
            let p = pending(Role::Spine, spine);
            let row = (spine % compute_rows) as usize;
            match floor.spines {
                Placement::MiddleOfRow => middle[row].push(p),
                Placement::EndOfRow => end[row].push(p),
                Placement::TopOfRack | Placement::NetworkRow => network.push(p),
            }
        }
        for core in 0..plan.cores {
            network.push(pending(Role::Core, core));
        }
        switches.push([
            vec![(0, 0, 0); plan.leaves as usize],
            vec![(0, 0, 0); plan.spines as usize],
            vec![(0, 0, 0); plan.cores as usize],
        ]);
    }

    let limit_w = 1000.0
        * match floor.cooling {
            Cooling::Air => floor
                .rack_power_kw
                .kilowatts()
                .min(floor.air_limit_kw.kilowatts()),
            Cooling::DirectLiquid => floor.rack_power_kw.kilowatts(),
        };
    let mut racks: Vec<PlacedRack> = Vec::new();
    let mut compute_racks = Vec::with_capacity(compute as usize);
    let mut net = Network {
        height,
        limit_w,
        switches: &mut switches,
    };
    for row in 0..compute_rows {
        let first = row * racks_per_row;
        let last = (first + racks_per_row).min(compute);
        let count = last - first;
        let mut position = 0;
        for c in first..last {
            if (c - first) == count.div_ceil(2) {
                net.fill(
                    &mut racks,
                    &middle[row as usize],
                    (row, &mut position),
                    false,
                    how,
                );
            }
            let id = racks.len() as u32;
            let in_this = (nodes - c * per_rack).min(per_rack);
            let mut rack = PlacedRack {
                row,
                position,
                network: false,
                slots: (0..in_this)
                    .map(|i| Slot {
                        kind: Kind::Node,
                        index: c * per_rack + i,
                        fabric: 0,
                        u: 1 + i * node_units,
                        height: node_units,
                        power_w: node_power_kw * 1000.0,
                    })
                    .collect(),
                top: 0,
            };
            for p in &in_rack[c as usize] {
                net.put(&mut rack, id, *p);
            }
            racks.push(rack);
            compute_racks.push(id);
            position += 1;
        }
        if count < 2 {
            net.fill(
                &mut racks,
                &middle[row as usize],
                (row, &mut position),
                false,
                how,
            );
        }
        net.fill(
            &mut racks,
            &end[row as usize],
            (row, &mut position),
            false,
            how,
        );
    }
    let mut rows = compute_rows;
    if !network.is_empty() {
        let mut position = 0;
        rows = net.fill(
            &mut racks,
            &network,
            (compute_rows, &mut position),
            true,
            how,
        ) + 1;
    }
    Placed {
        racks,
        compute_rows,
        rows,
        nodes_per_rack: per_rack,
        node_units,
        node_power_kw,
        racks_per_row,
        compute_racks,
        switches,
    }
}

/// Puts switches into racks.
struct Network<'a> {
    height: u32,
    limit_w: f64,
    switches: &'a mut SwitchSpots,
}

impl Network<'_> {
    /// Puts `p` below the switches already at the top of `rack`.
    fn put(&mut self, rack: &mut PlacedRack, rack_id: u32, p: Pending) {
        rack.top += p.height;
        let u = (self.height + 1).saturating_sub(rack.top).max(1);
        rack.slots.push(Slot {
            kind: Kind::Switch(p.role),
            index: p.index,
            fabric: p.fabric,
            u,
            height: p.height,
            power_w: p.power_w,
        });
        if let Some(at) = self.switches[p.fabric][role_index(p.role)].get_mut(p.index as usize) {
            *at = (rack_id, u, p.height);
        }
    }

    /// Fills network racks with `group` from `position` of `row` on; the network row (`wrap`)
    /// starts another row after [`NETWORK_ROW_RACKS`]. Packed, each rack takes switches until
    /// the next would not fit; spread, each tier's switches in the group go in blocks to its
    /// racks, at least two racks where a tier has two switches in the group, so that no rack
    /// holds a whole tier.
    /// Returns the last row used.
    fn fill(
        &mut self,
        racks: &mut Vec<PlacedRack>,
        group: &[Pending],
        (row, position): (u32, &mut u32),
        wrap: bool,
        how: SwitchRacks,
    ) -> u32 {
        let mut row = row;
        let open = |racks: &mut Vec<PlacedRack>, row: &mut u32, position: &mut u32| {
            if wrap && *position >= NETWORK_ROW_RACKS {
                *row += 1;
                *position = 0;
            }
            racks.push(PlacedRack {
                row: *row,
                position: *position,
                network: true,
                slots: Vec::new(),
                top: 0,
            });
            *position += 1;
            (racks.len() - 1, 0.0)
        };
        let (height, limit_w) = (self.height, self.limit_w);
        let fits = |rack: &PlacedRack, load: f64, p: &Pending| {
            rack.top + p.height <= height && load + p.power_w <= limit_w
        };
        let turns = match how {
            SwitchRacks::Packed => 1,
            SwitchRacks::Spread => {
                let a_tier_of_two = group
                    .windows(2)
                    .any(|w| (w[0].fabric, w[0].role) == (w[1].fabric, w[1].role));
                self.packed_racks(group)
                    .max(if a_tier_of_two { 2 } else { 1 })
            }
        };
        // Spread: each tier's switches in the group (a run of one fabric and role) in as many
        // blocks as there are racks, one block to a rack: the first leaves in one rack, the
        // next in the other, so that a rack holds a part of every tier and the cables of one
        // rack's switches run together.
        let mut turn_of = vec![0usize; group.len()];
        if turns > 1 {
            let mut start = 0;
            while start < group.len() {
                let tier = (group[start].fabric, group[start].role);
                let run = group[start..]
                    .iter()
                    .take_while(|p| (p.fabric, p.role) == tier)
                    .count();
                for (p, turn) in turn_of[start..start + run].iter_mut().enumerate() {
                    *turn = p * turns / run;
                }
                start += run;
            }
        }
        // The group's racks, each with the power it holds.
        let mut held: Vec<(usize, f64)> = Vec::new();
        // Per size of switch (height, power) in the group: racks before this one have no room
        // for it. Racks only fill, so the search for the first with room goes on from there
        // rather than from the group's first rack each time (which, with every rack full, made
        // placing a network row of thousands of switches quadratic).
        let mut sizes: Vec<((u32, u64), usize)> = Vec::new();
        for (i, p) in group.iter().enumerate() {
            let room = |racks: &[PlacedRack], held: &[(usize, f64)], k: usize| {
                held.get(k)
                    .is_some_and(|(r, load)| fits(&racks[*r], *load, p))
            };
            let at = if turns == 1 {
                // Packed: the last rack opened.
                held.len().checked_sub(1).filter(|&k| room(racks, &held, k))
            } else {
                // Spread: the tier's rack for this block, else any of the group's with room.
                let turn = turn_of[i];
                while held.len() <= turn {
                    held.push(open(racks, &mut row, position));
                }
                if room(racks, &held, turn) {
                    Some(turn)
                } else {
                    let size = (p.height, p.power_w.to_bits());
                    let at = match sizes.iter().position(|(s, _)| *s == size) {
                        Some(at) => at,
                        None => {
                            sizes.push((size, 0));
                            sizes.len() - 1
                        }
                    };
                    let first = &mut sizes[at].1;
                    while *first < held.len() && !room(racks, &held, *first) {
                        *first += 1;
                    }
                    (*first < held.len()).then_some(*first)
                }
            };
            let k = at.unwrap_or_else(|| {
                held.push(open(racks, &mut row, position));
                held.len() - 1
            });
            let (rack, load) = &mut held[k];
            *load += p.power_w;
            let rack = *rack;
            self.put(&mut racks[rack], rack as u32, *p);
        }
        row
    }

    /// Network racks `group` fills packed.
    fn packed_racks(&self, group: &[Pending]) -> usize {
        let (mut racks, mut top, mut load) = (0, 0, 0.0);
        for p in group {
            if racks == 0 || top + p.height > self.height || load + p.power_w > self.limit_w {
                racks += 1;
                top = 0;
                load = 0.0;
            }
            top += p.height;
            load += p.power_w;
        }
        racks
    }
}
