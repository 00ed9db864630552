//! One pass over a fabric's cables for the evaluation: how many run at each orderable length in
//! each tier, the dearest optical class in every cage, and the longest routes. The cabling
//! sheet walks the same cables one named row at a time; this pass names nothing and looks the
//! medium up once per orderable length instead of once per cable, since it runs on every
//! evaluation of the floor.

use super::lengths::{Long, MediumTable, LONGEST_KEPT};
use super::routing::{Router, Spot, ORDERABLE_M};
use crate::cabling::{links, End, Link, Rails, Run, Visit};
use crate::catalog::ReachClass;
use crate::report::FabricReport;

/// Orderable lengths, and one more column for routes beyond them all.
pub(crate) const BINS: usize = ORDERABLE_M.len() + 1;

/// Cages of one fabric: how many links one plug carries and how many cages each device has.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cages {
    /// Links per switch cage and per node cage, both powers of two.
    pub per_switch: u32,
    pub per_node: u32,
    pub per_switch_device: usize,
    pub per_node_device: usize,
}

/// What the walk of one fabric's cables finds.
pub(crate) struct Walked {
    /// Cables per tier (0 node-leaf, 1 leaf-spine, 2 spine-core), by whether they reach a
    /// node, by orderable length; the last column holds routes beyond every length.
    pub by_length: [[[u32; BINS]; 2]; 3],
    /// Per cage of each leaf, spine and core: 1 + the index of the dearest optical class it
    /// holds, 0 when it holds none.
    pub switch_cages: [Vec<u8>; 3],
    /// The same per node cage.
    pub host: Vec<u8>,
    /// Optical links to endpoints the floor does not place, by class.
    pub endpoint: [u32; 5],
}

/// Where the ends of one fabric's cables are, worked out by the router.
struct Ends<'a> {
    router: &'a Router,
    nodes: &'a [Spot],
    switches: [&'a [Spot]; 3],
}

const ORIGIN: Spot = Spot {
    rack: 0,
    x: 0.0,
    y: 0.0,
    h: 0.0,
};

impl Ends<'_> {
    /// As [`Router::end`], with the fabric's spots looked up once.
    #[inline(always)]
    fn locate(&self, end: End, other: Spot) -> Spot {
        // Matched on the slice rather than through `Option<Spot>`: fewer instructions on
        // every cable.
        let spots = match end {
            End::Node { node, .. } => self.nodes.get(node as usize..),
            End::Switch { role, index, .. } => self.switches[role as usize].get(index as usize..),
            End::Endpoint(_) => return self.router.beside(other),
        };
        match spots {
            Some([spot, ..]) => *spot,
            _ => ORIGIN,
        }
    }

    /// The spots of each kind of device: nodes, leaves, spines, cores.
    fn kinds(&self) -> [&[Spot]; KINDS] {
        [
            self.nodes,
            self.switches[0],
            self.switches[1],
            self.switches[2],
        ]
    }

    /// The rack of every device of each kind.
    fn device_racks(&self) -> [Vec<u32>; KINDS] {
        self.kinds()
            .map(|spots| spots.iter().map(|s| s.rack).collect())
    }

    /// Whether each rack holds at least [`GROUPED_DEVICES`] devices of each kind.
    fn crowded(&self, racks: usize) -> [Vec<bool>; KINDS] {
        self.kinds().map(|spots| {
            let mut count = vec![0u32; racks];
            for s in spots {
                if let Some(n) = count.get_mut(s.rack as usize) {
                    *n += 1;
                }
            }
            count.into_iter().map(|n| n >= GROUPED_DEVICES).collect()
        })
    }

    /// The lowest and highest port of each kind of device in each rack, m.
    fn heights(&self, racks: usize) -> [Vec<(f64, f64)>; KINDS] {
        self.kinds().map(|spots| {
            let mut range = vec![(f64::INFINITY, f64::NEG_INFINITY); racks];
            for s in spots {
                if let Some((low, high)) = range.get_mut(s.rack as usize) {
                    *low = low.min(s.h);
                    *high = high.max(s.h);
                }
            }
            range
        })
    }
}

/// Ports per node from which a node's cables into one rack are bounded as a group: bounding
/// routes two cables, so a group of one or two gains nothing.
const GROUPED_RAILS: u32 = 4;

/// Devices of a kind a rack must hold for cables into them to be bounded as a group: the port
/// assignment never sends two cables in a row to one device, so a group into a rack of a few
/// devices holds a few cables, and bounding it (two routes and the rack's heights) costs more
/// than routing them. Four measured fewest instructions at 1,024 nodes and at 100,000 GPUs
/// (BENCHMARKS.md, physical floor).
const GROUPED_DEVICES: u32 = 4;

/// Kinds of placed device: nodes, leaves, spines, cores.
const KINDS: usize = 4;

/// The kind (as in [`KINDS`], then one more for an endpoint the floor does not place) and the
/// number of the device at `end`.
#[inline(always)]
fn device(end: End) -> (usize, u32) {
    match end {
        End::Node { node, .. } => (0, node),
        End::Switch { role, index, .. } => (1 + role as usize, index),
        End::Endpoint(_) => (KINDS, 0),
    }
}

/// What every cable from one device to the devices of one kind in another rack has in common,
/// when that can be known without routing each: the route only grows as the far port is lower
/// (each sum and product of the route rounds monotonically), so when that rack's lowest and
/// highest port of that kind round up to one orderable length, every such cable does. An
/// endpoint the floor does not place stands beside the far rack, the same for all of them.
#[derive(Clone, Copy)]
struct FarRack {
    /// The near device's kind and number, the far devices' kind and rack.
    key: (u64, u64),
    /// The orderable length index every such cable takes, if they share one.
    bin: Option<usize>,
    /// No such cable runs longer.
    longest_m: f64,
}

/// The cage code (1 + class index) of every orderable length, to a node and between switches;
/// 0 for copper and for routes nothing reaches.
fn cage_codes(table: &MediumTable) -> [[u8; BINS]; 2] {
    let mut codes = [[0u8; BINS]; 2];
    for (to_node, row) in codes.iter_mut().enumerate() {
        for (bin, code) in row.iter_mut().enumerate().take(ORDERABLE_M.len()) {
            if let Some(class) = table.class(bin, to_node == 1) {
                if class.is_optical() {
                    *code = class as u8 + 1;
                }
            }
        }
    }
    codes
}

/// Keeps `cable` among the longest routes, one per pair of racks, longest first; among equal
/// routes the first walked stays first.
fn keep_longest(longest: &mut Vec<Long>, cable: Long) {
    let same = longest
        .iter()
        .position(|l| l.a.rack == cable.a.rack && l.z.rack == cable.z.rack);
    match same {
        Some(i) if longest[i].route_m < cable.route_m => {
            longest.remove(i);
        }
        Some(_) => return,
        None => {}
    }
    let at = longest.partition_point(|l| l.route_m >= cable.route_m);
    longest.insert(at, cable);
    longest.truncate(LONGEST_KEPT);
}

/// The walk's running state for one fabric.
struct Counter<'a> {
    fi: usize,
    router: &'a Router,
    table: &'a MediumTable,
    ends: Ends<'a>,
    codes: [[u8; BINS]; 2],
    per_switch: usize,
    per_node: usize,
    cage_shift: u32,
    host_shift: u32,
    /// The longest routes, when they are kept.
    longest: Option<&'a mut Vec<Long>>,
    /// Whether the longest routes kept have room for one more, and the shortest of them: a
    /// cable joins them only when there is room or it runs longer.
    room: bool,
    shortest_kept_m: f64,
    racks: [Vec<u32>; KINDS],
    heights: [Vec<(f64, f64)>; KINDS],
    /// Whether a rack holds enough devices of a kind for cables into them to be grouped.
    crowded: [Vec<bool>; KINDS],
    far: FarRack,
    /// Whether a node's cables into one rack are bounded as a group.
    nodes_grouped: bool,
    out: Walked,
}

impl Visit for Counter<'_> {
    /// Routes and counts one cable. Inlined into each loop of the walk, where the kinds of
    /// both ends are known.
    #[inline(always)]
    fn link(&mut self, link: Link) {
        let to_node = usize::from(!matches!(link.a, End::Switch { .. }));
        let (a_kind, a_index) = device(link.a);
        let (z_kind, z_index) = device(link.z);
        // A node's cables form a group worth bounding only when it has several (the rails of a
        // compute fabric); one or two are routed as they come.
        let grouped = a_kind != 0 || self.nodes_grouped;
        let z_rack = self
            .racks
            .get(z_kind)
            .and_then(|r| r.get(z_index as usize))
            .filter(|&&rack| {
                self.crowded
                    .get(z_kind)
                    .and_then(|c| c.get(rack as usize))
                    .copied()
                    .unwrap_or(false)
            });
        if let (true, Some(&z_rack)) = (grouped, z_rack) {
            let key = (
                (a_kind as u64) << 32 | u64::from(a_index),
                (z_kind as u64) << 32 | u64::from(z_rack),
            );
            if self.far.key != key {
                self.far = self.far_rack(key, link, z_kind);
            }
            if let Some(bin) = self.far.bin {
                if !(self.room || self.shortest_kept_m < self.far.longest_m) {
                    self.count(link, bin, to_node);
                    return;
                }
            }
        }
        let z = self.ends.locate(link.z, ORIGIN);
        let a = self.ends.locate(link.a, z);
        let route_m = self.router.route(a, z);
        let bin = self.table.bin(route_m);
        if self.room || self.shortest_kept_m < route_m {
            self.keep(link, a, z, route_m, bin);
        }
        self.count(link, bin, to_node);
    }

    /// Counts the links of a run; one by one where the longest routes are kept.
    #[inline(always)]
    fn run(&mut self, run: Run) {
        if self.longest.is_some() {
            for i in 0..run.count {
                self.one(run.link(i));
            }
            return;
        }
        self.count_run(run);
    }

    /// Counts the links of a node's rails; one by one where the longest routes are kept.
    #[inline(always)]
    fn rails(&mut self, rails: Rails) {
        if self.longest.is_some() {
            for i in 0..rails.count {
                self.one(rails.link(i));
            }
            return;
        }
        self.count_rails(rails);
    }
}

impl Counter<'_> {
    /// Keeps the longest route between each pair of racks, so the plan shows distinct routes.
    #[inline(never)]
    fn keep(&mut self, link: Link, a: Spot, z: Spot, route_m: f64, bin: usize) {
        let Some(longest) = self.longest.as_deref_mut() else {
            return;
        };
        keep_longest(
            longest,
            Long {
                fabric: self.fi,
                tier: link.tier,
                a,
                z,
                route_m,
                bin: (bin < ORDERABLE_M.len()).then_some(bin),
            },
        );
        self.note_shortest_kept();
    }

    /// Notes whether the longest routes have room and the shortest of them.
    fn note_shortest_kept(&mut self) {
        let Some(longest) = self.longest.as_deref() else {
            // Nothing is kept: no route is long enough to be.
            self.room = false;
            self.shortest_kept_m = f64::INFINITY;
            return;
        };
        self.room = longest.len() < LONGEST_KEPT;
        self.shortest_kept_m = longest.last().map_or(f64::NEG_INFINITY, |l| l.route_m);
    }

    /// What the cables from the device at `link.a` to the devices of `z_kind` in the rack of
    /// `link.z` share.
    #[inline(never)]
    fn far_rack(&self, key: (u64, u64), link: Link, z_kind: usize) -> FarRack {
        let z = self.ends.locate(link.z, ORIGIN);
        let a = self.ends.locate(link.a, z);
        let (bin, longest_m) = self.bound(a, z, z_kind);
        FarRack {
            key,
            bin,
            longest_m,
        }
    }

    /// The orderable length index every cable from `a` to the devices of kind `kind` in the
    /// rack of `z` takes, if they share one, and the longest such cable can run.
    #[inline(always)]
    fn bound(&self, a: Spot, z: Spot, kind: usize) -> (Option<usize>, f64) {
        let (low, high) = self
            .heights
            .get(kind)
            .and_then(|h| h.get(z.rack as usize))
            .copied()
            .unwrap_or((f64::NAN, f64::NAN));
        let longest_m = self.router.route(a, Spot { h: low, ..z });
        let shortest_m = self.router.route(a, Spot { h: high, ..z });
        let (long, short) = (self.table.bin(longest_m), self.table.bin(shortest_m));
        let shared =
            a.rack != z.rack && longest_m.is_finite() && shortest_m.is_finite() && long == short;
        (shared.then_some(long), longest_m)
    }

    /// [`Visit::link`], out of line: for a run taken a link at a time (the longest routes
    /// kept, or a switch without a spot), so that the walk holds one copy of it rather than one
    /// in every loop.
    #[inline(never)]
    fn one(&mut self, link: Link) {
        self.link(link);
    }

    /// Routes and counts the links of `run` in a loop of their own: both ends are switches of
    /// one tier each, the near one the same throughout.
    #[inline(never)]
    fn count_run(&mut self, run: Run) {
        let (near_role, near, first_port) = run.from;
        let (far_role, first_far, far_port) = run.to;
        let (near_role, far_role) = (near_role as usize, far_role as usize);
        let a = self.ends.switches[near_role]
            .get(near as usize)
            .copied()
            .unwrap_or(ORIGIN);
        let far = self.ends.switches[far_role]
            .get(first_far as usize..)
            .unwrap_or(&[]);
        let level = run.level.min(2);
        let (per, shift) = (self.per_switch, self.cage_shift);
        let far_cage = (far_port >> shift) as usize;
        let placed = far.len().min(run.count as usize);
        let mut shared: (u32, Option<usize>) = (u32::MAX, None);
        for (i, z) in far[..placed].iter().enumerate() {
            if z.rack != shared.0 {
                shared = (z.rack, self.shared_bin(a, *z, 1 + far_role));
            }
            let bin = match shared.1 {
                Some(bin) => bin,
                None => self.table.bin(self.router.route(a, *z)),
            };
            self.out.by_length[level][0][bin] += 1;
            let code = self.codes[0][bin];
            if code > 0 {
                let port = (first_port + i as u32) >> shift;
                let cages = &mut self.out.switch_cages;
                raise(
                    cages[near_role].get_mut(near as usize * per + port as usize),
                    code,
                );
                raise(
                    cages[far_role].get_mut((first_far as usize + i) * per + far_cage),
                    code,
                );
            }
        }
        // Switches without a spot (none of a sized fabric) as one by one.
        for i in placed as u32..run.count {
            self.one(run.link(i));
        }
    }

    /// Routes and counts the links of a node's rails in a loop of their own.
    #[inline(never)]
    fn count_rails(&mut self, rails: Rails) {
        let a = self
            .ends
            .nodes
            .get(rails.node as usize)
            .copied()
            .unwrap_or(ORIGIN);
        let (first, stride) = rails.leaves;
        let leaf_cage = (rails.port >> self.cage_shift) as usize;
        let host = rails.node as usize * self.per_node;
        let mut shared: (u32, Option<usize>) = (u32::MAX, None);
        for i in 0..rails.count {
            let leaf = first + i * stride;
            let Some(z) = self.ends.switches[0].get(leaf as usize) else {
                // A leaf without a spot (none of a sized fabric) as one by one.
                self.one(rails.link(i));
                continue;
            };
            if z.rack != shared.0 {
                shared = (z.rack, self.shared_bin(a, *z, 1));
            }
            let bin = match shared.1 {
                Some(bin) => bin,
                None => self.table.bin(self.router.route(a, *z)),
            };
            self.out.by_length[0][1][bin] += 1;
            let code = self.codes[1][bin];
            if code > 0 {
                let host_cage = host + (i >> self.host_shift) as usize;
                raise(self.out.host.get_mut(host_cage), code);
                let cage = leaf as usize * self.per_switch + leaf_cage;
                raise(self.out.switch_cages[0].get_mut(cage), code);
            }
        }
    }

    /// [`Counter::bound`]'s shared orderable length, where the rack of `z` holds enough devices
    /// of kind `kind` for bounding to spare routes.
    #[inline(never)]
    fn shared_bin(&self, a: Spot, z: Spot, kind: usize) -> Option<usize> {
        let crowded = self
            .crowded
            .get(kind)
            .and_then(|c| c.get(z.rack as usize))
            .copied()
            .unwrap_or(false);
        if crowded {
            self.bound(a, z, kind).0
        } else {
            None
        }
    }

    /// Counts one cable of orderable length index `bin`.
    #[inline(always)]
    fn count(&mut self, link: Link, bin: usize, to_node: usize) {
        self.out.by_length[link.level.min(2)][to_node][bin] += 1;
        let code = self.codes[to_node][bin];
        if code > 0 {
            self.mark(link.a, code);
            self.mark(link.z, code);
        }
    }

    /// Notes that a cable of cage code `code` ends at `end`.
    #[inline(always)]
    fn mark(&mut self, end: End, code: u8) {
        let cage = match end {
            End::Switch { role, index, port } => self.out.switch_cages[role as usize]
                .get_mut(index as usize * self.per_switch + (port >> self.cage_shift) as usize),
            End::Node { node, nic } => self
                .out
                .host
                .get_mut(node as usize * self.per_node + (nic >> self.host_shift) as usize),
            End::Endpoint(_) => {
                if let Some(n) = self.out.endpoint.get_mut(usize::from(code - 1)) {
                    *n += 1;
                }
                None
            }
        };
        raise(cage, code);
    }
}

/// Marks `cage` (when there is one) as holding a cable of cage code `code`: a cage takes the
/// dearest optical class of its cables.
#[inline(always)]
fn raise(cage: Option<&mut u8>, code: u8) {
    if let Some(c) = cage {
        *c = (*c).max(code);
    }
}

/// Walks every cable of fabric `fi`, adding its longest routes to `longest` when given.
pub(crate) fn walk(
    fi: usize,
    fabric: &FabricReport,
    router: &Router,
    table: &MediumTable,
    cages: Cages,
    longest: Option<&mut Vec<Long>>,
) -> Walked {
    let plan = &fabric.plan;
    let per_switch = cages.per_switch_device;
    let per_node = cages.per_node_device;
    let cages_of = |n: u32| vec![0u8; n as usize * per_switch];
    let mut counter = Counter {
        fi,
        router,
        table,
        ends: Ends {
            router,
            nodes: router.node_spots(),
            switches: router.switch_spots(fi),
        },
        codes: cage_codes(table),
        per_switch,
        per_node,
        cage_shift: cages.per_switch.trailing_zeros(),
        host_shift: cages.per_node.trailing_zeros(),
        longest,
        room: true,
        shortest_kept_m: f64::NEG_INFINITY,
        racks: Default::default(),
        heights: Default::default(),
        crowded: Default::default(),
        far: FarRack {
            key: (u64::MAX, u64::MAX),
            bin: None,
            longest_m: f64::INFINITY,
        },
        nodes_grouped: fabric.ports_per_node >= GROUPED_RAILS,
        out: Walked {
            by_length: [[[0; BINS]; 2]; 3],
            switch_cages: [
                cages_of(plan.leaves),
                cages_of(plan.spines),
                cages_of(plan.cores),
            ],
            host: vec![0u8; fabric.node_span() as usize * per_node],
            endpoint: [0; 5],
        },
    };
    counter.note_shortest_kept();
    counter.racks = counter.ends.device_racks();
    counter.heights = counter.ends.heights(router.racks());
    counter.crowded = counter.ends.crowded(router.racks());
    // Validated and sized, so the links fit; a fabric that does not fit gets no cables.
    let _ = links(fabric, &mut counter);
    counter.out
}

/// The class of `bin` for a cable that reaches a node (or not), as the walk counted it.
pub(crate) fn class_of(table: &MediumTable, bin: usize, to_node: bool) -> Option<ReachClass> {
    (bin < ORDERABLE_M.len())
        .then(|| table.class(bin, to_node))
        .flatten()
}
