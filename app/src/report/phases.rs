//! The cluster's growth phases: what each phase buys and what it leaves unused, the racks and
//! power kept for later phases, and the cables each step adds, removes and moves; and the plan
//! in a sentence for the executive summary.

use super::blocks::{heading, note, paragraph, table};
use super::Block;
use crate::money::{kw, usd, watts};
use crate::words::counted;
use engine::floor::FloorReport;
use engine::phases::{PhasePlan, PhaseReport};
use engine::GrowthPolicy;

const HOW: &str = "Each phase is the design at that phase's nodes, sized on the design's switches; bills are at each tier's nominal cable run (the design's own cost as placed on its floor is in the summary). A cable is moved when one end stays and the other is plugged into another switch; each end keeps as many of its links to each switch as both phases give it, so the counts are the fewest cables touched. Endpoints beyond the nodes (a UFM server, storage servers) take the leaf ports the nodes leave free, so a phase whose nodes need those ports moves them. Racks are those of the final floor: a rack holding none of a phase's nodes is kept for a later one. The cabling sheet gives each cable of the final design the phase that first lays it; the move list names every cable a step adds, removes or re-terminates: a re-terminated cable stays on its lower end's port and takes a free port of its new switch, so after such a step a switch's ports are those its cables kept hold, not a fresh cabling sheet's.";

/// The growth section: the plan per phase, its chart, what each phase buys, and the floor of
/// the design evaluated as `report` with each rack coloured by the phase that first uses it.
pub fn phase_blocks(
    plan: Option<&PhasePlan>,
    report: &engine::Report,
    floor: &FloorReport,
) -> Vec<Block> {
    let Some(plan) = plan else {
        return Vec::new();
    };
    let mut blocks = vec![
        heading(1, "phases", "Growth phases"),
        paragraph(format!(
            "{} phases, {}: {}",
            plan.phases.len(),
            plan.policy.label(),
            policy_meaning(plan.policy)
        )),
        note(HOW),
        Block::Chart {
            id: "phases-timeline".into(),
            caption: "Network installed per phase".into(),
            svg: crate::charts::phases::timeline(plan),
        },
    ];
    let mut bought = table(
        "What each phase has and buys",
        &[
            ("Phase", false),
            ("GPUs", true),
            ("Switches", false),
            ("Network installed", true),
            ("Bought in the phase", true),
            ("Ports unused", true),
            ("Their share of the switches", true),
        ],
        plan.phases.iter().map(bought_row).collect(),
    );
    bought.id = Some("phase-bills".into());
    blocks.push(Block::Table(bought));
    let mut cabling = table(
        "What each phase installs, keeps for later and re-cables",
        &[
            ("Phase", false),
            ("Racks in use", true),
            ("Racks kept for later", true),
            ("Power still to come", true),
            ("Cables added", true),
            ("Cables removed", true),
            ("Cables in service moved", true),
        ],
        plan.phases.iter().map(cabling_row).collect(),
    );
    cabling.id = Some("phase-cabling".into());
    blocks.push(Block::Table(cabling));
    let labels: Vec<String> = plan.phases.iter().map(phase_name).collect();
    let first_used = engine::phases::rack_phases(plan, report, floor);
    blocks.push(Block::Chart {
        id: "phases-floor".into(),
        caption: "The floor, each rack coloured by the phase that first uses it: the racks a phase keeps for later ones".into(),
        svg: engine::floor::svg::floor_plan_by_phase(floor, &first_used, &labels),
    });
    blocks.push(Block::Chart {
        id: "phases-elevations".into(),
        caption: "Rack elevations of the racks where the phases meet and of the network racks: what a later phase installs is dashed, in the rack units kept for it".into(),
        svg: engine::floor::svg::rack_elevations_reserved(
            &super::floor::sample_of(floor, where_phases_meet(plan, floor, &first_used)),
            &|d| {
                let p = engine::phases::device_phase(plan, report, &d.label);
                (p > 0).then(|| labels.get(p).cloned().unwrap_or_default())
            },
        ),
    });
    let items: Vec<Vec<String>> = plan
        .phases
        .iter()
        .flat_map(|p| {
            p.bought.items.iter().map(move |i| {
                vec![
                    p.label.clone(),
                    i.fabric.clone(),
                    i.description.clone(),
                    format!(
                        "{} → {}",
                        engine::thousands(f64::from(i.quantity_before)),
                        engine::thousands(f64::from(i.quantity_after))
                    ),
                    usd(i.cost_delta),
                    watts(i.power_delta),
                ]
            })
        })
        .collect();
    blocks.push(Block::Table(table(
        "The bill of each phase: what it adds to the one before",
        &[
            ("Phase", false),
            ("Fabric", false),
            ("Item", false),
            ("Quantity", true),
            ("Cost", true),
            ("Power", true),
        ],
        items,
    )));
    blocks
}

/// Groups of the move list the report shows; the list itself has every cable.
const GROUPS_SHOWN: usize = 24;

/// Rows of the move list the report works out; a longer list is only in its spreadsheet.
pub const MOVES_IN_REPORT: usize = 50_000;

/// The move list of the design grown as `plan`, switch by switch: what each step does to the
/// cables between two switches, cables in service first, and where the list of every cable is
/// (`sheet`, the revision's move list).
pub fn move_blocks(
    plan: &PhasePlan,
    list: Option<Result<engine::phases::MoveList, String>>,
    sheet: &str,
) -> Vec<Block> {
    let mut blocks = vec![heading(
        2,
        "phase-moves",
        "What each step re-cables, switch by switch",
    )];
    let list = match list {
        None => return Vec::new(),
        Some(Err(why)) => {
            blocks.push(paragraph(format!(
                "{why} The move list as a spreadsheet: {sheet}."
            )));
            return blocks;
        }
        Some(Ok(list)) => list,
    };
    let name = |p: usize| plan.phases.get(p).map_or("", |p| p.label.as_str());
    let step = |phase: usize| format!("{} → {}", name(phase.saturating_sub(1)), name(phase));
    let (moved, longer) = list.re_terminated();
    blocks.push(paragraph(format!(
        "The move list has a row for each of the {} cables the steps add, remove or re-terminate, with the end that stays (device, port, rack), the switch before and after with its rack, and the orderable length of each run: {sheet}. {}",
        engine::thousands(list.rows.len() as f64),
        match (moved, longer) {
            (0, _) => "No cable in service is re-terminated.".to_string(),
            (_, 0) => format!("Each of the {} re-terminated reaches its new switch.", engine::thousands(moved as f64)),
            (_, l) => format!("Of the {} re-terminated, {} too short for the new run: replaced with a longer one.", engine::thousands(moved as f64), counted(l, "cable is", "cables are")),
        }
    )));
    for (phase, why) in &list.not_listed {
        blocks.push(note(format!(
            "The step {} is not listed cable by cable: {why}.",
            step(*phase)
        )));
    }
    let groups = list.by_switch();
    let switch = |s: &Option<String>| s.clone().unwrap_or_else(|| "—".into());
    let rows: Vec<Vec<String>> = groups
        .iter()
        .take(GROUPS_SHOWN)
        .map(|g| {
            vec![
                name(g.phase).to_string(),
                g.fabric.clone(),
                g.tier.to_string(),
                g.action.label().to_string(),
                switch(&g.from),
                switch(&g.to),
                engine::thousands(g.cables as f64),
                engine::thousands(g.longer_cables as f64),
            ]
        })
        .collect();
    if rows.is_empty() {
        return blocks;
    }
    let mut shown = table(
        "Cables each step adds, removes or re-terminates, by the switch they leave and the one they reach; too short: re-terminated cables shorter than their new run, replaced",
        &[
            ("Step to", false),
            ("Fabric", false),
            ("Tier", false),
            ("Done", false),
            ("From", false),
            ("To", false),
            ("Cables", true),
            ("Too short", true),
        ],
        rows,
    );
    shown.id = Some("phase-moves-table".into());
    blocks.push(Block::Table(shown));
    if groups.len() > GROUPS_SHOWN {
        blocks.push(note(format!(
            "{} more groups of cables are in the move list.",
            engine::thousands((groups.len() - GROUPS_SHOWN) as f64)
        )));
    }
    blocks
}

fn policy_meaning(policy: GrowthPolicy) -> &'static str {
    match policy {
        GrowthPolicy::ProvisionFinal => "the spines and cores of the final size are bought with the first phase (as NVIDIA's SuperPOD reference architecture cables its 3-SU design with the spines of 4 SU), so each later phase adds leaves and their cables and no cable in service is moved; the price is capital on unused spine ports until the last phase.",
        GrowthPolicy::AsNeeded => "each phase buys only what its own nodes need; the spines added later take a share of every leaf's uplinks, which are moved while the fabric runs, and a step from two tiers to three re-cables the fabric.",
    }
}

/// The racks to draw the phases' elevations of: per phase, the last compute rack that phase
/// first uses and the next one (where one phase's nodes end and the next's begin), and the
/// first network rack each phase uses (the later ones hold the switches a phase adds).
fn where_phases_meet<'f>(
    plan: &PhasePlan,
    floor: &'f FloorReport,
    first_used: &[usize],
) -> impl Iterator<Item = &'f engine::floor::Rack> {
    let of_kind = |network: bool| -> Vec<usize> {
        (0..floor.racks.len())
            .filter(|&i| floor.racks[i].network == network)
            .collect()
    };
    let (compute, network) = (of_kind(false), of_kind(true));
    let phases = 0..plan.phases.len();
    let mut chosen: Vec<usize> = phases
        .clone()
        .filter_map(|p| compute.iter().rposition(|&i| first_used.get(i) == Some(&p)))
        .flat_map(|at| compute[at..(at + 2).min(compute.len())].to_vec())
        .collect();
    chosen.dedup();
    chosen.truncate(2 * super::floor::ELEVATED_RACKS);
    let switches = phases.filter_map(|p| {
        network
            .iter()
            .copied()
            .find(|&i| first_used.get(i) == Some(&p))
    });
    chosen.extend(switches.take(super::floor::ELEVATED_RACKS));
    chosen.into_iter().map(|i| &floor.racks[i])
}

fn phase_name(p: &PhaseReport) -> String {
    match &p.date {
        Some(date) => format!("{} ({date})", p.label),
        None => p.label.clone(),
    }
}

fn bought_row(p: &PhaseReport) -> Vec<String> {
    let switches = p
        .fabrics
        .iter()
        .map(|f| {
            let mut parts = vec![counted(f.leaves, "leaf", "leaves")];
            if f.spines > 0 {
                parts.push(counted(f.spines, "spine", "spines"));
            }
            if f.cores > 0 {
                parts.push(counted(f.cores, "core", "cores"));
            }
            format!("{}: {}", f.name, parts.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ");
    vec![
        phase_name(p),
        engine::thousands(p.gpus as f64),
        switches,
        usd(p.network_cost),
        usd(p.bought.cost_delta),
        engine::thousands(p.stranded_ports as f64),
        usd(p.stranded_capital.value),
    ]
}

fn cabling_row(p: &PhaseReport) -> Vec<String> {
    let count = |n: u64| match &p.moves_not_counted {
        Some(_) => "not counted".to_string(),
        None => engine::thousands(n as f64),
    };
    vec![
        phase_name(p),
        engine::thousands(f64::from(p.racks_in_use)),
        engine::thousands(f64::from(p.racks_reserved)),
        kw(p.power_reserved.value),
        count(p.added()),
        count(p.removed()),
        count(p.re_terminated()),
    ]
}

/// The plan in a sentence for the executive summary: what the first phase buys and leaves
/// unused, and the step that disturbs the most cables in service.
pub fn in_a_sentence(plan: &PhasePlan) -> Option<String> {
    let first = plan.phases.first()?;
    let last = plan.phases.last()?;
    let mut sentence = format!(
        "Grown in {} phases ({}): “{}” installs {} of network for {} GPUs, {} of it on ports no cable uses yet; “{}” reaches {} for {} GPUs.",
        plan.phases.len(),
        plan.policy.label(),
        first.label,
        usd(first.network_cost),
        engine::thousands(first.gpus as f64),
        usd(first.stranded_capital.value),
        last.label,
        usd(last.network_cost),
        engine::thousands(last.gpus as f64),
    );
    let touched = |p: &PhaseReport| p.re_terminated() + p.removed();
    match plan.phases.iter().skip(1).max_by_key(|p| touched(p)) {
        Some(p) if touched(p) > 0 => {
            sentence.push_str(&format!(
                " The step to “{}” moves {}",
                p.label,
                counted(p.re_terminated(), "cable", "cables")
            ));
            if p.removed() > 0 {
                sentence.push_str(&format!(
                    " and removes {}",
                    engine::thousands(p.removed() as f64)
                ));
            }
            sentence.push_str(" in service.");
        }
        _ if plan.phases.iter().all(|p| p.moves_not_counted.is_none()) => {
            sentence.push_str(" No cable in service is moved or removed.")
        }
        _ => {}
    }
    for p in plan.phases.iter().filter(|p| p.moves_not_counted.is_some()) {
        sentence.push_str(&format!(
            " The cables of the step to “{}” are too many to count here.",
            p.label
        ));
    }
    Some(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{DesignSpec, Growth, Phase};

    /// The SuperPOD example grown from 2 SU to 4 under `policy`, with its report and final floor.
    fn superpod(policy: GrowthPolicy) -> (PhasePlan, engine::Report, FloorReport) {
        let mut spec = DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap();
        spec.growth = Some(Growth {
            policy,
            phases: vec![
                Phase {
                    label: "Year 1".into(),
                    date: Some("2027-03".into()),
                    nodes: 63,
                },
                Phase {
                    label: "Year 2".into(),
                    date: None,
                    nodes: 127,
                },
            ],
        });
        let report = engine::evaluate(&spec).unwrap();
        let plan = engine::phases::phases(&spec, &report).unwrap().unwrap();
        let floor = engine::floor::plan(&spec, &report);
        (plan, report, floor)
    }

    /// The SuperPOD example grown from 2 SU to 4: provisioned for the final size, the summary
    /// says what the first phase leaves unused; bought as needed, it names the step that moves
    /// cables in service, with the counts the section's table gives.
    #[test]
    fn the_summary_names_the_unused_capital_and_the_step_that_moves_cables() {
        let (provisioned, _, _) = superpod(GrowthPolicy::ProvisionFinal);
        let sentence = in_a_sentence(&provisioned).unwrap();
        assert!(sentence.contains("“Year 1” installs $"), "{sentence}");
        assert!(
            sentence.contains("on ports no cable uses yet"),
            "{sentence}"
        );
        let (as_needed, report, floor) = superpod(GrowthPolicy::AsNeeded);
        let second = &as_needed.phases[1];
        assert!(second.re_terminated() >= 256, "{:?}", second.moves);
        let sentence = in_a_sentence(&as_needed).unwrap();
        assert!(
            sentence.contains(&format!(
                "The step to “Year 2” moves {} cables",
                second.re_terminated()
            )),
            "{sentence}"
        );
        let blocks = phase_blocks(Some(&as_needed), &report, &floor);
        let Some(Block::Table(cabling)) = blocks.get(5) else {
            panic!("the second table is the cabling's");
        };
        assert_eq!(cabling.rows[0][0], "Year 1 (2027-03)");
        assert_eq!(cabling.rows[1][6], second.re_terminated().to_string());
        // The floor shows the racks kept for the second phase in its colour, named in their
        // titles: the compute racks the table counts, and the network racks of its leaves.
        let Some(Block::Chart { svg, .. }) = blocks
            .iter()
            .find(|b| matches!(b, Block::Chart { id, .. } if id == "phases-floor"))
        else {
            panic!("the floor by phase");
        };
        let kept = svg.matches(": Year 2</title>").count() as u32;
        let later = engine::phases::rack_phases(&as_needed, &report, &floor);
        let later_network = floor
            .racks
            .iter()
            .zip(&later)
            .filter(|(r, p)| r.network && **p == 1)
            .count() as u32;
        assert!(
            later_network > 0,
            "the leaves of SU 3 and 4 stand in racks of their own"
        );
        assert_eq!(kept, as_needed.phases[0].racks_reserved + later_network);
        assert!(
            svg.contains(">Year 1 (2027-03)</text>"),
            "the legend names each phase"
        );
    }

    #[test]
    fn a_design_without_phases_has_no_section() {
        let (_, report, floor) = superpod(GrowthPolicy::AsNeeded);
        assert!(phase_blocks(None, &report, &floor).is_empty());
    }

    /// Grown from 2 SU to 4, the racks where the phases meet are drawn from the front: node 63
    /// stands from the first year, node 64 beside it is dashed, in the rack unit kept for the
    /// second, as are the leaves the second year adds.
    #[test]
    fn the_elevations_draw_what_a_later_phase_installs_dashed_in_the_units_kept_for_it() {
        let (plan, report, floor) = superpod(GrowthPolicy::AsNeeded);
        let blocks = phase_blocks(Some(&plan), &report, &floor);
        let svg = blocks
            .iter()
            .find_map(|b| match b {
                Block::Chart { id, svg, .. } if id == "phases-elevations" => Some(svg.clone()),
                _ => None,
            })
            .expect("the phases' elevations");
        let title = |device: &str| {
            let at = svg
                .find(&format!("<title>{device} U"))
                .unwrap_or_else(|| panic!("{device} drawn"));
            svg[at..at + svg[at..].find("</title>").unwrap()].to_string()
        };
        assert!(
            !title("node-063").contains("kept for"),
            "{}",
            title("node-063")
        );
        assert!(
            title("node-064").ends_with(": kept for Year 2"),
            "{}",
            title("node-064")
        );
        assert!(svg.contains("stroke-dasharray"));
        // The leaves of the units the second year adds, in the network racks it first uses.
        assert!(
            svg.split("<title>")
                .any(|t| t.starts_with("compute-leaf-") && t.contains(": kept for Year 2")),
            "a leaf of the second year"
        );
    }

    /// Bought as needed, the step's moves are shown switch by switch, cables in service first,
    /// with where the list of every cable is; a list too long says so, with the same link.
    #[test]
    fn the_move_list_is_shown_switch_by_switch_with_cables_in_service_first() {
        let (plan, _, _) = superpod(GrowthPolicy::AsNeeded);
        let mut spec = DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap();
        spec.growth.as_mut().unwrap().policy = GrowthPolicy::AsNeeded;
        let report = engine::evaluate(&spec).unwrap();
        let list = engine::phases::move_list(&spec, &report, MOVES_IN_REPORT);
        let blocks = move_blocks(&plan, list, "/d/x/r/1/moves.csv");
        let Some(Block::Paragraph { text }) = blocks.get(1) else {
            panic!("{blocks:?}");
        };
        assert!(text.contains("/d/x/r/1/moves.csv"), "{text}");
        let Some(Block::Table(groups)) = blocks.get(2) else {
            panic!("{blocks:?}");
        };
        assert_eq!(groups.rows[0][3], "re-terminate");
        assert_eq!(
            (groups.rows[0][4].as_str(), groups.rows[0][5].as_str()),
            ("compute-spine-01", "compute-spine-09")
        );
        assert!(groups.rows.len() <= GROUPS_SHOWN);
        let refused = move_blocks(&plan, Some(Err("Too many.".into())), "/m.csv");
        assert!(
            matches!(&refused[1], Block::Paragraph { text } if text.starts_with("Too many. ") && text.contains("/m.csv"))
        );
        assert!(move_blocks(&plan, None, "/m.csv").is_empty());
    }
}
