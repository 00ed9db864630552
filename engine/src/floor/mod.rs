//! From switch counts to a floor that can be built: nodes and switches placed into racks and
//! rows, every cable routed and its length rounded up to one that can be ordered, the medium
//! each length needs, power per rack and per feed against its budget and the air limit, and the
//! facility's power. Pure and deterministic: the same design always places the same way.
//!
//! ```
//! let spec = engine::DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap();
//! let report = engine::evaluate(&spec).unwrap();
//! let floor = engine::floor::plan(&spec, &report);
//! assert!(floor.racks.iter().any(|r| r.network));
//! let svg = engine::floor::svg::floor_plan(&floor);
//! assert!(svg.starts_with("<svg"));
//! ```

mod count;
mod lengths;
mod media;
mod placed;
mod placement;
mod power;
#[cfg(test)]
mod reference;
mod routing;
mod sheet;
mod site;
mod spread;
pub mod svg;

use placed::place_bills_on;
use placed::{as_placed, as_placed_formula, bill_totals, nominal_cabling, AS_PLACED_SOURCE};
pub(crate) use placed::{floor_cabling, network_with, FloorInputs, Planned};
pub use placed::{LastFloor, SharedFloors};
pub(crate) use routing::Spot;
pub use routing::{orderable, ORDERABLE_M, RACK_UNIT_M, ROUTE_FORMULA, ROUTE_SOURCE};
pub use sheet::{cabling, cabling_each, cabling_fits, placements, Placements, Placing};
pub(crate) use site::Site;
pub use spread::{spread_against_packed, Racking};

use crate::cabling::{digits, push_numbered, Names};
use crate::catalog::{chassis, ReachClass};
use crate::figure::Figure;
use crate::report::{BomLine, Finding, Report, Severity};
use crate::spec::DesignSpec;
use crate::units::{Kilowatts, Metres, Usd, Watts};
use placement::Kind;
use serde::{Deserialize, Serialize};

/// The physical plan of a design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FloorReport {
    /// Rows of racks: compute rows, then the network row(s).
    pub rows: u32,
    pub compute_rows: u32,
    pub racks_per_row: u32,
    pub nodes_per_rack: u32,
    pub node_rack_units: u32,
    /// Maximum power of one node.
    pub node_power_kw: Figure<Kilowatts>,
    pub rack_units: u32,
    pub rack_width_m: Metres,
    pub row_pitch_m: Metres,
    pub rack_power_kw: Kilowatts,
    /// The air limit when the racks are air-cooled.
    #[serde(default)]
    pub air_limit_kw: Option<Kilowatts>,
    pub racks: Vec<Rack>,
    /// Cables by fabric, tier, medium and orderable length.
    pub cables: Vec<LengthCount>,
    pub transceivers: Vec<TransceiverCount>,
    /// Cables by orderable length and transceivers by end, priced and powered.
    pub bom: Vec<BomLine>,
    pub cabling_cost_usd: Usd,
    pub cabling_power_w: Watts,
    /// The cables and optics of the fabrics' bills of materials, at the run each tier is
    /// given: what the design's cost and power count in place of the floor's.
    pub nominal_cabling_cost_usd: Usd,
    pub nominal_cabling_power_w: Watts,
    /// The network as placed: the design's cost with the floor's cables and optics in place of
    /// the nominal ones.
    pub placed_network_cost_usd: Figure<Usd>,
    /// The network's power as placed, W, likewise.
    pub placed_network_power_w: Figure<Watts>,
    /// The longest route, m, with how every cable's length is found.
    pub longest_route_m: Figure<Metres>,
    /// Power of every rack plus the optics outside them, kW.
    pub it_power_kw: Figure<Kilowatts>,
    /// IT power × PUE, kW.
    pub facility_power_kw: Figure<Kilowatts>,
    /// The longest cables, longest first.
    pub longest: Vec<Route>,
    pub findings: Vec<Finding>,
}

impl FloorReport {
    /// The racks workload `a`'s nodes stand in, in the floor's order.
    pub fn racks_holding(&self, a: &crate::allocation::Allocation) -> Vec<&str> {
        self.racks
            .iter()
            .filter(|r| {
                r.devices
                    .iter()
                    .any(|d| d.node_number().is_some_and(|n| a.holds(n)))
            })
            .map(|r| r.name.as_str())
            .collect()
    }
}

/// One rack on the floor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rack {
    /// `R<row>-<position>`, both from 1.
    pub name: String,
    /// Its row and its position in the row, both from 0.
    pub row: u32,
    pub position: u32,
    /// Holds switches only.
    pub network: bool,
    pub devices: Vec<Device>,
    pub units_used: u32,
    pub load_kw: Kilowatts,
    /// Load on each feed in normal operation, kW (half the load with A/B feeds).
    pub feed_kw: Kilowatts,
    pub over_budget: bool,
    pub past_air_limit: bool,
}

/// What stands in which rack unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Device {
    pub label: String,
    /// `node`, `leaf`, `spine` or `core`.
    pub role: String,
    /// Lowest rack unit it takes (1 = bottom).
    pub u: u32,
    pub height_u: u32,
    pub power_w: Watts,
}

impl Device {
    /// The cluster's node (from 1) this device is, if it is a node.
    pub fn node_number(&self) -> Option<u32> {
        (self.role == "node").then(|| node_number(&self.label))?
    }
}

/// The cluster's node (from 1) a device named `label` is (`node-007`), if it names a node.
pub fn node_number(label: &str) -> Option<u32> {
    label.strip_prefix("node-")?.parse().ok()
}

/// Cables of one length.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LengthCount {
    pub fabric: String,
    pub tier: String,
    pub reach: ReachClass,
    /// Orderable length, m.
    pub length_m: Metres,
    pub count: u32,
}

/// Transceivers of one kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TransceiverCount {
    pub fabric: String,
    /// `switch`, `node` or `endpoint` (a device the floor does not place: UFM, storage).
    pub end: String,
    pub reach: ReachClass,
    /// Links one transceiver carries: 2 for a twin-port plug.
    pub links_per_plug: u32,
    pub count: u32,
    pub watts_each: Watts,
}

/// One long cable, for the floor plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Route {
    pub fabric: String,
    pub tier: String,
    pub a_rack: String,
    pub z_rack: String,
    /// Routed length with slack, m.
    pub route_m: Metres,
    /// Orderable length; `None` when it exceeds every orderable length.
    pub length_m: Option<Metres>,
    /// Ends on the floor, m: along the rows (x) and across them (y).
    pub a_xy: (f64, f64),
    pub z_xy: (f64, f64),
}

/// `R<row>-<position>`, both from 1 and of at least two digits: written by hand, since every
/// evaluation of the floor names every rack.
pub(crate) fn rack_name(row: u32, position: u32) -> String {
    let mut name = String::with_capacity(7);
    name.push('R');
    push_numbered(&mut name, 2, row);
    name.push('-');
    push_numbered(&mut name, 2, position);
    name
}

/// Rack units one node takes: the design's figure, else its chassis's.
pub fn node_rack_units(spec: &DesignSpec) -> u32 {
    spec.floor
        .node_rack_units
        .unwrap_or(crate::catalog::chassis(&spec.cluster).rack_units)
        .max(1)
}

/// Places every node and switch of `spec` (evaluated as `report`), routes every cable and
/// weighs every rack. Never panics.
pub fn plan(spec: &DesignSpec, report: &Report) -> FloorReport {
    plan_on(spec, report, Laid::new(spec, &report.fabrics))
}

/// A design laid on its floor: where everything stands, how each cable runs, and its cables
/// and optics counted with the longest routes kept. What the evaluation's bill as placed and
/// the floor plan both read, so that a design evaluated with its floor is laid once.
pub(crate) struct Laid {
    placed: placement::Placed,
    tally: media::Tally,
}

impl Laid {
    pub(crate) fn new(spec: &DesignSpec, fabrics: &[crate::report::FabricReport]) -> Laid {
        let placed = placement::place(spec, fabrics);
        let router = routing::Router::new(&placed, &spec.floor);
        let tally = media::tally(spec, fabrics, &placed, &router, true);
        Laid { placed, tally }
    }

    /// Each fabric's bill as placed `fabrics` (sized as they were laid, adding up to `totals`)
    /// take, and the network's totals as placed, as [`LastFloor::place_bills`] finds them.
    pub(crate) fn place_bills(
        &mut self,
        fabrics: &mut [crate::report::FabricReport],
        totals: &crate::report::Totals,
        gpus: u64,
    ) -> crate::report::Totals {
        let by_fabric = std::mem::take(&mut self.tally.bom_by_fabric);
        place_bills_on(fabrics, totals, &self.tally.bom, by_fabric, gpus)
    }
}

/// [`plan`] on the floor `laid` for `report`'s fabrics.
pub(crate) fn plan_on(spec: &DesignSpec, report: &Report, laid: Laid) -> FloorReport {
    let Laid { placed, tally } = laid;
    let floor = &spec.floor;
    let mut findings = Vec::new();
    let names: Vec<String> = placed
        .racks
        .iter()
        .map(|r| rack_name(r.row, r.position))
        .collect();
    let node_digits = digits(spec.cluster.nodes);
    let labels: Vec<Names> = report
        .fabrics
        .iter()
        .map(|f| Names {
            fabric: &f.name,
            nodes: node_digits,
            switches: digits(f.plan.leaves.max(f.plan.spines).max(f.plan.cores)),
        })
        .collect();
    let node_names = Names {
        fabric: "",
        nodes: node_digits,
        switches: 0,
    };
    let devices: Vec<Vec<Device>> = placed
        .racks
        .iter()
        .map(|r| {
            r.slots
                .iter()
                .map(|s| {
                    let (label, role) = match s.kind {
                        Kind::Node => (node_names.node(s.index), "node"),
                        Kind::Switch(role) => (
                            labels
                                .get(s.fabric)
                                .map(|n| n.switch(role.label(), s.index))
                                .unwrap_or_default(),
                            role.label(),
                        ),
                    };
                    Device {
                        label,
                        role: role.to_string(),
                        u: s.u,
                        height_u: s.height,
                        power_w: Watts::new(s.power_w),
                    }
                })
                .collect()
        })
        .collect();
    for (fabric, count) in report.fabrics.iter().zip(&tally.unreachable) {
        if *count > 0 {
            findings.push(Finding {
                severity: Severity::Critical,
                rule: "cable-beyond-reach".into(),
                subject: fabric.name.clone(),
                message: format!(
                    "{count} cables of fabric {} run beyond 2 km, further than any medium reaches: bring the racks closer.",
                    fabric.name
                ),
            });
        }
    }
    let racks = power::racks(
        floor,
        &placed,
        &tally.rack_optics_w,
        names,
        devices,
        &mut findings,
    );
    let name_of = |spot: routing::Spot| {
        racks
            .get(spot.rack as usize)
            .map(|r| r.name.clone())
            .unwrap_or_else(|| "beside".into())
    };
    let longest = tally
        .longest
        .iter()
        .map(|l| Route {
            fabric: report
                .fabrics
                .get(l.fabric)
                .map(|f| f.name.clone())
                .unwrap_or_default(),
            tier: l.tier.to_string(),
            a_rack: name_of(l.a),
            z_rack: name_of(l.z),
            route_m: Metres::new(l.route_m),
            length_m: l.bin.map(|b| Metres::new(ORDERABLE_M[b])),
            a_xy: (l.a.x, l.a.y),
            z_xy: (l.z.x, l.z.y),
        })
        .collect();
    let it_kw = racks.iter().map(|r| r.load_kw).sum::<Kilowatts>()
        + Watts::new(tally.unplaced_optics_w).to_kilowatts();
    let chassis = chassis(&spec.cluster);
    let node_power = match floor.node_power_kw {
        Some(_) => Figure::new(
            Kilowatts::new(placed.node_power_kw),
            "the design's figure",
            "the design",
        ),
        None => Figure::new(
            Kilowatts::new(placed.node_power_kw),
            "the node type's maximum power",
            chassis.source.source,
        ),
    };
    let (cost, power_w) = bill_totals(&tally.bom);
    let longest_m = tally.longest.first().map(|l| l.route_m).unwrap_or(0.0);
    let mut plan = FloorReport {
        rows: placed.rows,
        compute_rows: placed.compute_rows,
        racks_per_row: placed.racks_per_row,
        nodes_per_rack: placed.nodes_per_rack,
        node_rack_units: placed.node_units,
        node_power_kw: node_power,
        rack_units: floor.rack_units,
        rack_width_m: floor.rack_width_m,
        row_pitch_m: floor.row_pitch_m,
        rack_power_kw: floor.rack_power_kw,
        air_limit_kw: (floor.cooling == crate::spec::Cooling::Air)
            .then_some(floor.air_limit_kw),
        racks,
        cables: tally.cables,
        transceivers: tally.transceivers,
        bom: tally.bom,
        cabling_cost_usd: cost,
        cabling_power_w: power_w,
        // Priced below, against the report's nominal bill.
        nominal_cabling_cost_usd: Usd::new(0.0),
        nominal_cabling_power_w: Watts::new(0.0),
        placed_network_cost_usd: Figure::new(
            Usd::new(0.0),
            as_placed_formula("cost"),
            AS_PLACED_SOURCE,
        ),
        placed_network_power_w: Figure::new(
            Watts::new(0.0),
            as_placed_formula("power"),
            AS_PLACED_SOURCE,
        ),
        longest_route_m: Figure::new(Metres::new(longest_m), ROUTE_FORMULA, ROUTE_SOURCE),
        it_power_kw: Figure::new(it_kw, power::RACK_LOAD_FORMULA, "NVIDIA DGX user guides (node maximum power); switch user manuals (maximum power with optics); NVIDIA LinkX (transceiver power)"),
        facility_power_kw: Figure::new(it_kw * floor.pue, "IT power × PUE", power::PUE_SOURCE),
        longest,
        findings,
    };
    price(&mut plan, report, spec.cluster.gpus());
    plan
}

/// Prices `plan`'s cables and optics against `report`'s nominal ones: the only figures of a
/// floor plan that depend on more than what the floor is laid from (each tier's nominal run),
/// so that a plan kept for one design can be given to another laid alike
/// ([`SharedFloors`]).
pub(crate) fn price(plan: &mut FloorReport, report: &Report, gpus: u64) {
    let nominal = nominal_cabling(&report.fabrics, &report.totals);
    let cabling = (plan.cabling_cost_usd, plan.cabling_power_w);
    let network = as_placed(&report.totals, nominal, cabling, gpus);
    plan.nominal_cabling_cost_usd = nominal.0;
    plan.nominal_cabling_power_w = nominal.1;
    plan.placed_network_cost_usd.value = network.cost_usd;
    plan.placed_network_power_w.value = network.power_w;
}

#[cfg(test)]
mod tests {
    use super::rack_name;

    #[test]
    fn racks_are_named_by_row_and_position_from_one_with_two_digits_at_least() {
        assert_eq!(rack_name(0, 0), "R01-01");
        assert_eq!(rack_name(9, 19), "R10-20");
        assert_eq!(rack_name(123, 4), "R124-05");
        for (row, position) in [(0, 0), (7, 99), (99, 100), (1234, 5)] {
            assert_eq!(
                rack_name(row, position),
                format!("R{:02}-{:02}", row + 1, position + 1)
            );
        }
    }
}
