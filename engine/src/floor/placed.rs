//! The network as placed: the fabrics' bills with the floor's cables and optics, each cable at
//! its routed length with the medium that length needs, in place of each tier's nominal run.

use super::{media, placement, routing, FloorReport, Laid, Racking};
use crate::report::{BomLine, FabricReport, Totals};
use crate::spec::DesignSpec;
use crate::units::{Usd, Watts};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// Whether `line` is a cable or an optic: what the floor prices by each cable's routed length,
/// and each tier's nominal run prices otherwise.
pub(crate) fn is_cabling(line: &BomLine) -> bool {
    ["cable:", "optic:", "fibre:"]
        .iter()
        .any(|p| line.item.starts_with(p))
}

/// (cost, power) of the cables and optics at each tier's nominal run: the nominal `totals` of
/// `fabrics` without their other lines (switches), which are the same in either bill.
pub(super) fn nominal_cabling<'a>(
    fabrics: impl IntoIterator<Item = &'a FabricReport>,
    totals: &Totals,
) -> (Usd, Watts) {
    let (usd, w) = bill_totals(
        fabrics
            .into_iter()
            .flat_map(|f| &f.bom)
            .filter(|l| !is_cabling(l)),
    );
    (totals.cost_usd - usd, totals.power_w - w)
}

/// The formula of the network as placed, for cost or power.
pub(super) fn as_placed_formula(unit: &str) -> String {
    format!("the design's network {unit} − its cables and optics at each tier's run + the floor's cables and optics")
}

pub(super) const AS_PLACED_SOURCE: &str =
    "the fabrics' bills of materials; the floor's routed cables";

/// `totals` with the floor's cables and optics (`cabling`: cost, power) in place of the
/// nominal ones (`nominal`).
pub(super) fn as_placed(
    totals: &Totals,
    nominal: (Usd, Watts),
    cabling: (Usd, Watts),
    gpus: u64,
) -> Totals {
    Totals::new(
        totals.cost_usd - nominal.0 + cabling.0,
        totals.power_w - nominal.1 + cabling.1,
        gpus,
    )
}

/// The floor an evaluation laid, kept for the next ([`crate::evaluate_reusing`]): an edit that
/// moves no cable (a workload's batch, a target) lays the same floor, so its cables and optics
/// are taken from here instead of laid again. Only the cluster, the floor, the catalog
/// overrides and what the floor reads of each fabric ([`FloorInputs`], with its name) decide
/// the floor; all of them are compared.
#[derive(Debug, Default)]
pub struct LastFloor {
    kept: Option<Kept>,
    laid: u32,
}

/// Floors laid lately for any design, shared by many evaluations at once (the server's
/// requests): an evaluation whose floor was laid lately takes its cables and optics instead of
/// laying it again, as [`LastFloor`] does for one design. The technology comparison lays a floor
/// for each technology of a design; a planner's next edit of that design that moves no cable
/// lays none of them again. Keeps the last [`SHARED_FLOORS`]; compared as [`LastFloor`]
/// compares; held to look, to place a kept floor's bills and to keep, never while a floor is
/// laid. A design evaluated with its floor plan ([`crate::evaluate_placed_sharing`], the
/// dashboard of a design being edited) keeps the plan too, for the next evaluation laid alike,
/// and a spread design weighed against its switches packed ([`super::spread_against_packed`])
/// the packed floor's racks and cabling.
#[derive(Debug, Default)]
pub struct SharedFloors {
    bills: Recent<Bills>,
    /// Floors laid with their plan.
    plans: Recent<(Bills, Arc<FloorReport>)>,
    /// The network racks and cabling of floors laid with their switches packed, to weigh a
    /// design's spread switches against ([`super::spread_against_packed`]).
    packed: Recent<Racking>,
    laid: AtomicU32,
}

/// Floors [`SharedFloors`] keeps the cables and optics (and the packed racking) of: four
/// technologies of a few designs.
const SHARED_FLOORS: usize = 32;

/// Floor plans [`SharedFloors`] keeps: a few designs being edited at once. The largest design's
/// plan is a few megabytes.
const SHARED_PLANS: usize = 4;

/// How an evaluation through [`SharedFloors`] found the plan of its floor.
pub(crate) enum Planned {
    /// Kept from an evaluation laid alike: priced for this one ([`super::price`]) it is its
    /// plan.
    Kept(Arc<FloorReport>),
    /// Laid for it: to be drawn ([`super::plan_on`]), then kept as [`SharedFloors::keep_plan`]
    /// does, with its cables and optics (when what it was laid from can be told).
    Laid(Box<Laid>, Option<KeptBills>),
}

/// A floor's cables and optics, and what it was laid from: what a plan is kept with.
pub(crate) struct KeptBills(Box<(LaidFrom, Bills)>);

impl SharedFloors {
    pub const fn new() -> Self {
        SharedFloors {
            bills: Recent::new(),
            plans: Recent::new(),
            packed: Recent::new(),
            laid: AtomicU32::new(0),
        }
    }

    /// How many floors evaluations through this have laid.
    pub fn floors_laid(&self) -> u32 {
        self.laid.load(Ordering::Relaxed)
    }

    /// Notes that a floor is laid.
    fn lays(&self) {
        self.laid.fetch_add(1, Ordering::Relaxed);
    }

    /// [`LastFloor::place_bills`], the floor taken from those kept here when it is one of them.
    pub(crate) fn place_bills(
        &self,
        spec: &DesignSpec,
        fabrics: &mut [FabricReport],
        totals: &Totals,
    ) -> Totals {
        let from = LaidFrom::of(spec, fabrics);
        let gpus = spec.cluster.gpus();
        let kept = from.as_ref().and_then(|from| {
            // Placed under the lock (microseconds) rather than copied out.
            self.bills
                .read(from, |bills| bills.place(fabrics, totals, gpus))
        });
        if let Some(network) = kept {
            return network;
        }
        self.lays();
        let bills = Bills::laid(spec, fabrics);
        let network = bills.place(fabrics, totals, gpus);
        if let Some(from) = from {
            self.bills.keep(from, bills, SHARED_FLOORS);
        }
        network
    }

    /// [`SharedFloors::place_bills`] for an evaluation that draws its floor's plan: the plan
    /// taken from those kept here when its floor is one of theirs, else the floor laid for it.
    pub(crate) fn place_for_plan(
        &self,
        spec: &DesignSpec,
        fabrics: &mut [FabricReport],
        totals: &Totals,
    ) -> (Totals, Planned) {
        let from = LaidFrom::of(spec, fabrics);
        let gpus = spec.cluster.gpus();
        let kept = from.as_ref().and_then(|from| {
            self.plans.read(from, |(bills, plan)| {
                (bills.place(fabrics, totals, gpus), Arc::clone(plan))
            })
        });
        if let Some((network, plan)) = kept {
            return (network, Planned::Kept(plan));
        }
        self.lays();
        let mut laid = Laid::new(spec, fabrics);
        let bills = from.map(|from| KeptBills(Box::new((from, Bills::of(&laid)))));
        let network = laid.place_bills(fabrics, totals, gpus);
        (network, Planned::Laid(Box::new(laid), bills))
    }

    /// Keeps `plan`, drawn on the floor whose cables and optics are `bills`, for evaluations
    /// laid alike.
    pub(crate) fn keep_plan(&self, bills: KeptBills, plan: Arc<FloorReport>) {
        let (from, bills) = *bills.0;
        self.plans.keep(from, (bills, plan), SHARED_PLANS);
    }

    /// The racking of the floor of `spec`, whose fabrics are sized as `fabrics`: taken from
    /// those kept here when it was laid lately, else laid by `lay` and kept.
    pub(crate) fn racking(
        &self,
        spec: &DesignSpec,
        fabrics: &[FabricReport],
        lay: impl FnOnce() -> Racking,
    ) -> Racking {
        let from = LaidFrom::of(spec, fabrics);
        if let Some(racking) = from.as_ref().and_then(|f| self.packed.read(f, |r| *r)) {
            return racking;
        }
        self.lays();
        let racking = lay();
        if let Some(from) = from {
            self.packed.keep(from, racking, SHARED_FLOORS);
        }
        racking
    }
}

/// What was laid lately, each with what it was laid from, newest first: held only to look and
/// to keep, never while anything is laid.
#[derive(Debug)]
struct Recent<T> {
    items: Mutex<Vec<(LaidFrom, T)>>,
}

impl<T> Default for Recent<T> {
    fn default() -> Self {
        Recent::new()
    }
}

impl<T> Recent<T> {
    const fn new() -> Self {
        Recent {
            items: Mutex::new(Vec::new()),
        }
    }

    /// `read` of the one laid from `from`, which becomes the newest; `None` when none is kept.
    fn read<R>(&self, from: &LaidFrom, read: impl FnOnce(&T) -> R) -> Option<R> {
        let mut items = self.items.lock().unwrap_or_else(|p| p.into_inner());
        let at = items.iter().position(|(f, _)| f == from)?;
        // The newest first, so that the oldest go.
        let item = items.remove(at);
        let answer = read(&item.1);
        items.insert(0, item);
        Some(answer)
    }

    /// Keeps `item`, laid from `from`, unless one laid alike is kept already (another request
    /// laid it meanwhile); beyond the `most` newest, the oldest go.
    fn keep(&self, from: LaidFrom, item: T, most: usize) {
        let mut items = self.items.lock().unwrap_or_else(|p| p.into_inner());
        if !items.iter().any(|(f, _)| *f == from) {
            items.insert(0, (from, item));
            items.truncate(most);
        }
    }
}

/// A floor's cables and optics: the whole floor's, and each fabric's.
#[derive(Debug)]
struct Bills {
    bom: Vec<BomLine>,
    by_fabric: Vec<Vec<BomLine>>,
}

impl Bills {
    /// The floor of `spec`, whose fabrics are sized as `fabrics`, laid for its cables and optics.
    fn laid(spec: &DesignSpec, fabrics: &[FabricReport]) -> Bills {
        let tally = counted(spec, fabrics);
        Bills {
            bom: tally.bom,
            by_fabric: tally.bom_by_fabric,
        }
    }

    /// The cables and optics of `laid`, before its bills are placed.
    fn of(laid: &Laid) -> Bills {
        Bills {
            bom: laid.tally.bom.clone(),
            by_fabric: laid.tally.bom_by_fabric.clone(),
        }
    }

    /// `fabrics`, adding up to `totals`, with these cables and optics in their bills: the
    /// network's totals as placed.
    fn place(&self, fabrics: &mut [FabricReport], totals: &Totals, gpus: u64) -> Totals {
        place_bills_on(fabrics, totals, &self.bom, self.by_fabric.clone(), gpus)
    }
}

/// The floor [`LastFloor`] keeps: its cables and optics, and what it was laid from (`None` when
/// that cannot be told: it is then never taken again).
#[derive(Debug)]
struct Kept {
    from: Option<LaidFrom>,
    bills: Bills,
}

#[derive(Debug, PartialEq)]
struct LaidFrom {
    cluster: crate::spec::Cluster,
    floor: crate::spec::Floor,
    overrides: Vec<crate::spec::CatalogOverride>,
    fabrics: Vec<(String, FloorInputs)>,
}

impl LastFloor {
    /// How many floors this has laid: an evaluation that took the kept one lays none.
    pub fn floors_laid(&self) -> u32 {
        self.laid
    }

    /// The network of `spec`, whose fabrics are sized as `fabrics` and add up to `totals`
    /// (each tier's cables at its nominal run), as placed on its floor: what
    /// [`crate::evaluate`] reports as [`crate::Report::placed`]. Each fabric's bill becomes its
    /// bill as placed: its cables and optics are the floor's, each cable at its routed,
    /// orderable length, in place of the nominal ones, and its cost and power the sum of that
    /// bill. Places and routes as [`super::plan`] does, without naming racks or listing what
    /// stands in them, and only where the floor differs from the one kept.
    pub(crate) fn place_bills(
        &mut self,
        spec: &DesignSpec,
        fabrics: &mut [FabricReport],
        totals: &Totals,
    ) -> Totals {
        let from = LaidFrom::of(spec, fabrics);
        let kept = match self.kept.take() {
            Some(kept) if from.is_some() && kept.from == from => kept,
            _ => {
                self.laid = self.laid.saturating_add(1);
                Kept {
                    from,
                    bills: Bills::laid(spec, fabrics),
                }
            }
        };
        let network = kept.bills.place(fabrics, totals, spec.cluster.gpus());
        self.kept = Some(kept);
        network
    }

    /// Keeps the cables and optics of `laid`, the floor of `spec` whose fabrics are sized as
    /// `fabrics`, as if this had laid it.
    pub(crate) fn keep(&mut self, spec: &DesignSpec, fabrics: &[FabricReport], laid: &Laid) {
        self.laid = self.laid.saturating_add(1);
        self.kept = Some(Kept {
            from: LaidFrom::of(spec, fabrics),
            bills: Bills::of(laid),
        });
    }
}

impl LaidFrom {
    /// What the floor of `spec`, whose fabrics are sized as `fabrics`, is laid from; `None`
    /// when that cannot be told.
    fn of(spec: &DesignSpec, fabrics: &[FabricReport]) -> Option<LaidFrom> {
        let read = fabrics
            .iter()
            .map(|f| Some((f.name.clone(), FloorInputs::of(f, f.first_node)?)))
            .collect::<Option<Vec<_>>>()?;
        Some(LaidFrom {
            cluster: spec.cluster.clone(),
            floor: spec.floor.clone(),
            overrides: spec.overrides.clone(),
            fabrics: read,
        })
    }
}

/// What laying the floor reads of one fabric, beside the design's cluster, floor and overrides:
/// fabrics that agree on these lay the same cables and optics, so a caller that lays many
/// designs on one floor (the search) lays each distinct set once. Every number of the plan is
/// here, whether or not the floor reads it today; only the plan's reason and the fabric's name
/// (words) are not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct FloorInputs {
    role: crate::spec::Role,
    switch: &'static str,
    port_rate_bits: u64,
    ports_per_node: u32,
    attached_nodes: u32,
    first_node: u32,
    endpoints: u32,
    layout: crate::topology::Layout,
    plan: [u64; 14],
    flags: [bool; 2],
}

impl FloorInputs {
    /// What the floor reads of `fabric`, were it to start at node `first_node`; `None` for a
    /// switch the catalog does not hold, which no sized fabric has.
    pub(crate) fn of(fabric: &FabricReport, first_node: u32) -> Option<FloorInputs> {
        let p = &fabric.plan;
        Some(FloorInputs {
            role: fabric.role,
            switch: crate::catalog::switch(&fabric.switch)?.key,
            port_rate_bits: fabric.port_rate.bits_per_second().to_bits(),
            ports_per_node: fabric.ports_per_node,
            attached_nodes: fabric.attached_nodes,
            first_node,
            endpoints: fabric.endpoints,
            layout: p.layout,
            plan: [
                p.tiers.into(),
                p.radix.into(),
                p.leaves.into(),
                p.spines.into(),
                p.cores.into(),
                p.leaf_downlinks.into(),
                p.leaf_uplinks.into(),
                p.leaves_per_pod.into(),
                p.pods.into(),
                p.node_leaf_links.into(),
                p.leaf_spine_links.into(),
                p.spine_core_links.into(),
                p.capacity_endpoints.into(),
                p.layout_max_endpoints,
            ],
            flags: [p.two_tier_exceeded, p.beyond_three_tiers],
        })
    }
}

/// (cost, power) of the floor's cables and optics for `fabrics` of `spec`: what
/// [`LastFloor::place_bills`] puts in place of the nominal ones.
pub(crate) fn floor_cabling(spec: &DesignSpec, fabrics: &[FabricReport]) -> (Usd, Watts) {
    bill_totals(&counted(spec, fabrics).bom)
}

/// The floor's cables and optics of `fabrics` of `spec`, placed, routed and counted, keeping
/// neither where anything stands nor the longest routes (what the plan of the floor keeps).
fn counted(spec: &DesignSpec, fabrics: &[FabricReport]) -> media::Tally {
    let placed = placement::place(spec, fabrics);
    let router = routing::Router::new(&placed, &spec.floor);
    media::tally(spec, fabrics, &placed, &router, false)
}

/// The network of `fabrics`, which add up to `totals`, with the floor's cables and optics
/// `cabling` ([`floor_cabling`]) in place of the nominal ones: what [`LastFloor::place_bills`] gives.
pub(crate) fn network_with<'a>(
    fabrics: impl IntoIterator<Item = &'a FabricReport>,
    totals: &Totals,
    cabling: (Usd, Watts),
    gpus: u64,
) -> Totals {
    as_placed(totals, nominal_cabling(fabrics, totals), cabling, gpus)
}

/// [`LastFloor::place_bills`] with the floor's cables and optics counted already: `bom` for the whole
/// floor, `by_fabric` each fabric's.
pub(super) fn place_bills_on(
    fabrics: &mut [FabricReport],
    totals: &Totals,
    bom: &[BomLine],
    by_fabric: Vec<Vec<BomLine>>,
    gpus: u64,
) -> Totals {
    let network = network_with(fabrics.iter(), totals, bill_totals(bom), gpus);
    for (fabric, lines) in fabrics.iter_mut().zip(by_fabric) {
        fabric.bom.retain(|l| !is_cabling(l));
        fabric.bom.extend(lines);
        fabric.transceivers = fabric
            .bom
            .iter()
            .filter(|l| l.item.starts_with("optic:"))
            .map(|l| l.quantity)
            .sum();
        let (usd, w) = bill_totals(&fabric.bom);
        fabric.cost_usd = usd;
        fabric.power_w = w;
    }
    network
}

/// (cost, power) of `lines`.
pub(super) fn bill_totals<'a>(lines: impl IntoIterator<Item = &'a BomLine>) -> (Usd, Watts) {
    lines
        .into_iter()
        .fold((Usd::new(0.0), Watts::new(0.0)), |(usd, w), l| {
            (usd + l.total_usd, w + l.total_power_w)
        })
}
