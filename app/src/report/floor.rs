//! The floor section of a design: where every rack stands and what it draws, the cables by
//! orderable length and the optics they need, as blocks of the report. The report page, the
//! PDF and the dashboard all show these same blocks.

use super::blocks::{findings_block, heading, note, paragraph, table};
use super::Block;
use crate::money::{kw, usd, watts};
use crate::words::{counted, number};
use engine::allocation::Allocation;
use engine::failures::{self, RackLoss};
use engine::floor::{self, FloorReport, Racking};
use engine::{DesignSpec, Report, Usd};

/// Racks listed by load.
const LISTED_RACKS: usize = 16;
/// Compute racks drawn as elevations, beside every network rack (up to the same count).
pub(super) const ELEVATED_RACKS: usize = 4;

/// What each rack holds, in words: `4 nodes`, `2 leaves, 1 spine`.
fn holds(rack: &floor::Rack) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for d in &rack.devices {
        match counts.iter_mut().find(|(role, _)| *role == d.role) {
            Some((_, n)) => *n += 1,
            None => counts.push((d.role.clone(), 1)),
        }
    }
    counts
        .iter()
        .map(|(role, n)| {
            let many = if role == "leaf" {
                "leaves".to_string()
            } else {
                format!("{role}s")
            };
            counted(*n as u64, role, &many)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A few racks to draw from the front: the first compute racks and the network racks.
fn sample(floor: &FloorReport) -> FloorReport {
    let compute = floor
        .racks
        .iter()
        .filter(|r| !r.network)
        .take(ELEVATED_RACKS);
    let network = floor
        .racks
        .iter()
        .filter(|r| r.network)
        .take(ELEVATED_RACKS);
    sample_of(floor, compute.chain(network))
}

/// `floor` with only `racks`, drawn side by side in one row, whatever rows they stand in.
pub(super) fn sample_of<'f>(
    floor: &FloorReport,
    racks: impl Iterator<Item = &'f floor::Rack>,
) -> FloorReport {
    let racks: Vec<floor::Rack> = racks
        .enumerate()
        .map(|(i, rack)| floor::Rack {
            row: 0,
            position: i as u32,
            ..rack.clone()
        })
        .collect();
    FloorReport {
        racks,
        rows: 1,
        ..floor.clone()
    }
}

/// What the floor's cables and optics come to against the fabrics' nominal runs: the summary
/// and the floor section say it alike.
pub(super) fn cabling_as_placed(plan: &FloorReport) -> String {
    format!(
        "Its cables and optics, each cable at its routed length with the medium that length needs, come to {} against {} at each tier's nominal run.",
        usd(plan.cabling_cost_usd),
        usd(plan.nominal_cabling_cost_usd),
    )
}

/// The floor section of `spec` evaluated as `report`, planned here.
pub fn floor_blocks(spec: &DesignSpec, report: &Report, plan: &FloorReport) -> Vec<Block> {
    let losses = rack_losses(spec, report, plan);
    let spread = floor::spread_against_packed(spec, report, plan, &crate::compute::FLOORS);
    floor_section(plan, &report.allocations, &losses, spread)
}

/// What spreading the switches over racks costs against packing them, when it changes anything.
fn spread_cost((spread, packed): (Racking, Racking)) -> String {
    let racks = i64::from(spread.network_racks) - i64::from(packed.network_racks);
    let racks = match racks {
        0 => "as many network racks as packing each rack full".to_string(),
        1 => "one more network rack than packing each rack full".to_string(),
        n if n > 0 => format!(
            "{} more network racks than packing each rack full",
            number(n.unsigned_abs())
        ),
        n => format!(
            "{} fewer network racks than packing each rack full",
            number(n.unsigned_abs())
        ),
    };
    let metres = spread.cable_m.metres() - packed.cable_m.metres();
    let cable = if metres.abs() < 0.5 {
        "the same length of cable".to_string()
    } else if metres > 0.0 {
        format!("{} m more cable", engine::thousands(metres))
    } else {
        format!("{} m less cable", engine::thousands(-metres))
    };
    let dollars = spread.cabling_cost_usd.dollars() - packed.cabling_cost_usd.dollars();
    let cost = if dollars.abs() < 0.5 {
        "cables and optics at the same cost".to_string()
    } else if dollars > 0.0 {
        format!("{} more in cables and optics", usd(Usd::new(dollars)))
    } else {
        format!("{} less in cables and optics", usd(Usd::new(-dollars)))
    };
    format!(
        "Each tier's switches are spread over two racks or more, so that no rack's loss takes a whole tier: {racks} ({} against {}), {cable} and {cost}.",
        number(spread.network_racks),
        number(packed.network_racks)
    )
}

/// What each rack's and row's loss takes away, on `plan` as the floor places and cables
/// `report`. Err with the design's cable count when it has more than a page works them out for
/// ([`failures::MAX_CABLES`]).
pub(super) fn rack_losses(spec: &DesignSpec, report: &Report, plan: &FloorReport) -> Losses {
    let cables = failures::cables(report);
    if cables > failures::MAX_CABLES {
        return Err(cables);
    }
    // A design with no cabling sheet has no links to lose.
    if floor::cabling_fits(report).is_err() {
        return Ok(Places::default());
    }
    let (racks, rows) = failures::rack_and_row_losses(spec, report, plan);
    Ok(Places { racks, rows })
}

/// What losing each rack, and each row, takes away.
#[derive(Default)]
pub(super) struct Places {
    pub racks: Vec<RackLoss>,
    pub rows: Vec<RackLoss>,
}

/// Every rack's and row's loss, or the design's cable count when there are too many to lay out.
pub(super) type Losses = Result<Places, u64>;

/// The racks (or rows) whose loss takes most away, with what each takes: its nodes, each
/// fabric's switches and the nodes it cuts off or leaves with fewer links, and the workloads hit.
fn what_a_place_takes(losses: &[RackLoss], rows: bool) -> super::Table {
    const SHOWN: usize = 8;
    let (caption, place) = if rows {
        (
            format!(
                "What losing one row takes away (its power distribution or cooling, every rack of it at once): the {} rows that take most",
                losses.len().min(SHOWN)
            ),
            "Row",
        )
    } else {
        (
            format!(
                "What losing one rack takes away: the {} racks that take most",
                losses.len().min(SHOWN)
            ),
            "Rack",
        )
    };
    let mut t = table(
        caption,
        &[
            (place, false),
            ("Nodes in it", true),
            ("Fabrics", false),
            ("Workloads that lose nodes", false),
        ],
        losses
            .iter()
            .take(SHOWN)
            .map(|l| {
                let fabrics = l
                    .fabrics
                    .iter()
                    .map(|f| {
                        let mut what = vec![counted(f.switches, "switch", "switches")];
                        if f.cut_off > 0 {
                            what.push(format!(
                                "{} of {} nodes cut off",
                                engine::thousands(f64::from(f.cut_off)),
                                engine::thousands(f64::from(f.of_nodes))
                            ));
                        }
                        if f.fewer_links > 0 {
                            what.push(format!(
                                "{} with fewer links",
                                counted(f.fewer_links, "node", "nodes")
                            ));
                        }
                        format!("{}: {}", f.fabric, what.join(", "))
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                let fabrics = if fabrics.is_empty() {
                    "no switch; no node elsewhere cut off".to_string()
                } else {
                    fabrics
                };
                let workloads = if l.workloads.is_empty() {
                    "none".to_string()
                } else {
                    l.workloads
                        .iter()
                        .map(|(w, n)| format!("{w}: {}", counted(*n, "node", "nodes")))
                        .collect::<Vec<_>>()
                        .join("; ")
                };
                vec![l.rack.clone(), l.nodes.to_string(), fabrics, workloads]
            })
            .collect(),
    );
    t.id = Some(if rows { "row-losses" } else { "rack-losses" }.into());
    t
}

/// Which nodes and racks each training job and inference service runs on, and who said so.
fn where_workloads_run(plan: &FloorReport, allocations: &[Allocation]) -> super::Table {
    let mut t = table(
        "Where each workload runs: its nodes and their racks",
        &[
            ("Workload", false),
            ("Nodes", false),
            ("GPUs", true),
            ("Racks", false),
            ("Placed", false),
        ],
        allocations
            .iter()
            .map(|a| {
                let racks = plan.racks_holding(a);
                let racks = match racks.as_slice() {
                    [] => "past the floor's racks".to_string(),
                    [one] => one.to_string(),
                    [first, .., last] if racks.len() > 3 => {
                        format!("{} racks, {first} to {last}", number(racks.len() as u64))
                    }
                    some => some.join(", "),
                };
                vec![
                    a.workload.clone(),
                    a.range(),
                    engine::thousands(a.gpus as f64),
                    racks,
                    if a.stated {
                        "where the design says".to_string()
                    } else {
                        "by the planner, after the workloads before it".to_string()
                    },
                ]
            })
            .collect(),
    );
    t.id = Some("allocations".into());
    t
}

/// The floor section: heading, summary, pictures, racks by load, cables by length, optics.
fn floor_section(
    plan: &FloorReport,
    allocations: &[Allocation],
    losses: &Losses,
    spread: Option<(Racking, Racking)>,
) -> Vec<Block> {
    let mut blocks = vec![heading(1, "floor", "Floor, racks and power")];
    let network = plan.racks.iter().filter(|r| r.network).count();
    blocks.push(paragraph(format!(
            "{} in {} ({} of them network racks), {} per rack. IT power {} and facility power {} ({}); the longest cable runs {:.1} m.",
            counted(plan.racks.len() as u64, "rack", "racks"),
            counted(plan.rows, "row", "rows"),
            number(network as u64),
            counted(plan.nodes_per_rack, "node", "nodes"),
            kw(plan.it_power_kw.value),
            kw(plan.facility_power_kw.value),
            plan.facility_power_kw.formula,
            plan.longest_route_m.value.metres(),
    )));
    blocks.push(paragraph(format!(
        "Placed on this floor, the network costs {} and draws {}. {}",
        usd(plan.placed_network_cost_usd.value),
        watts(plan.placed_network_power_w.value),
        cabling_as_placed(plan)
    )));
    if let Some(spread) = spread {
        blocks.push(paragraph(spread_cost(spread)));
    }
    if !allocations.is_empty() {
        blocks.push(Block::Table(where_workloads_run(plan, allocations)));
    }
    let findings: Vec<_> = plan
        .findings
        .iter()
        .cloned()
        .chain(
            losses
                .as_ref()
                .map(|l| failures::findings(&l.racks))
                .unwrap_or_default(),
        )
        .collect();
    if !findings.is_empty() {
        blocks.push(findings_block(&findings));
    }
    match losses {
        Ok(places) => {
            if !places.racks.is_empty() {
                blocks.push(Block::Table(what_a_place_takes(&places.racks, false)));
            }
            // A floor of one row loses it with its racks: the row's table would say nothing new.
            if plan.rows > 1 && !places.rows.is_empty() {
                blocks.push(Block::Table(what_a_place_takes(&places.rows, true)));
            }
        }
        Err(cables) => blocks.push(note(format!(
            "What losing one rack or row takes away is worked out for designs of up to {} cables; this one has {}.",
            engine::thousands(failures::MAX_CABLES as f64),
            engine::thousands(*cables as f64)
        ))),
    }
    let caption = if plan.racks.len() > floor::svg::RACKS_DRAWN_ONE_BY_ONE {
        "Floor plan: racks coloured by power against their budget; a floor this large is drawn with its rows in columns and the racks side by side in one colour as one block (named in its title), without the cables' routes"
    } else {
        "Floor plan: racks coloured by power against their budget, and the routes of the longest cables"
    };
    blocks.push(Block::Chart {
        id: "floor-plan".into(),
        caption: caption.into(),
        svg: floor::svg::floor_plan(plan),
    });
    blocks.push(Block::Chart {
        id: "rack-elevations".into(),
        caption: "Rack elevations: what stands in which rack unit, for the first compute racks and the network racks".into(),
        svg: floor::svg::rack_elevations(&sample(plan)),
    });
    let mut racks: Vec<&floor::Rack> = plan.racks.iter().collect();
    racks.sort_by(|a, b| {
        b.load_kw
            .kilowatts()
            .total_cmp(&a.load_kw.kilowatts())
            .then(a.name.cmp(&b.name))
    });
    racks.truncate(LISTED_RACKS);
    let mut by_load = table(
        format!(
            "The {} most loaded racks against their budget of {}",
            racks.len(),
            kw(plan.rack_power_kw)
        ),
        &[
            ("Rack", false),
            ("Holds", false),
            ("Units used", true),
            ("Load", true),
            ("Per feed", true),
            ("Verdict", false),
        ],
        racks
            .iter()
            .map(|r| {
                let verdict = match (r.over_budget, r.past_air_limit) {
                    (true, _) => "over budget",
                    (false, true) => "past the air limit",
                    _ => "within budget",
                };
                vec![
                    r.name.clone(),
                    holds(r),
                    format!("{} U", r.units_used),
                    kw(r.load_kw),
                    kw(r.feed_kw),
                    verdict.to_string(),
                ]
            })
            .collect(),
    );
    by_load.flagged = racks
        .iter()
        .map(|r| r.over_budget || r.past_air_limit)
        .collect();
    by_load.id = Some("rack-power".into());
    blocks.push(Block::Table(by_load));
    let mut cables = table(
        "Cables by orderable length",
        &[
            ("Fabric", false),
            ("Tier", false),
            ("Medium", false),
            ("Length", true),
            ("Count", true),
        ],
        plan.cables
            .iter()
            .map(|c| {
                vec![
                    c.fabric.clone(),
                    c.tier.clone(),
                    c.reach.label().to_string(),
                    format!("{} m", c.length_m.metres()),
                    number(c.count),
                ]
            })
            .collect(),
    );
    cables.id = Some("cables-by-length".into());
    blocks.push(Block::Table(cables));
    let mut bom = table(
        "Cables and optics of the floor, priced and powered",
        &[
            ("Item", false),
            ("Qty", true),
            ("Unit price", true),
            ("Total", true),
            ("Power", true),
        ],
        plan.bom
            .iter()
            .map(|l| {
                vec![
                    super::item_text(l),
                    number(l.quantity),
                    usd(l.unit_price_usd),
                    usd(l.total_usd),
                    watts(l.total_power_w),
                ]
            })
            .collect(),
    );
    bom.footer = Some(vec![
        "Total".into(),
        String::new(),
        String::new(),
        usd(plan.cabling_cost_usd),
        watts(plan.cabling_power_w),
    ]);
    bom.id = Some("floor-bom".into());
    blocks.push(Block::Table(bom));
    blocks.push(note(format!(
        "Each cable's length: {} [{}].",
        floor::ROUTE_FORMULA,
        floor::ROUTE_SOURCE
    )));
    blocks
}

#[cfg(test)]
mod tests;
