use super::super::tests::{superpod, SU};
use crate::phases::move_list as list;
use crate::phases::{CableMove, MoveAction, MoveGroup, UpperEnd};
use crate::spec::GrowthPolicy;
use crate::units::Metres;
use std::collections::HashMap;

fn of(action: MoveAction, rows: &[CableMove]) -> Vec<&CableMove> {
    rows.iter().filter(|r| r.action == action).collect()
}

/// Bought as needed from 2 SU to 4 SU, the list has a row for each of the 256 uplinks the phase
/// table counts as moved: each stays on its leaf's port and moves from one of the 8 spines of
/// the first phase to one of the 8 the second adds; every cable added is listed, none removed.
#[test]
fn the_move_list_has_a_row_for_every_cable_the_phase_table_counts() {
    let (spec, plan) = superpod(4 * SU, &[2 * SU, 4 * SU], GrowthPolicy::AsNeeded);
    let report = crate::evaluate(&spec).unwrap();
    let moved = list(&spec, &report, 100_000).unwrap().unwrap();
    let second = &plan.phases[1];
    let moving = of(MoveAction::ReTerminate, &moved.rows);
    assert_eq!(moving.len() as u64, second.re_terminated());
    assert_eq!(moving.len(), 256);
    assert_eq!(
        of(MoveAction::Add, &moved.rows).len() as u64,
        second.added()
    );
    assert!(of(MoveAction::Remove, &moved.rows).is_empty());
    let spine = |r: &Option<UpperEnd>| {
        let device = &r.as_ref().unwrap().device;
        device
            .strip_prefix("compute-spine-")
            .unwrap_or_else(|| panic!("{device}"))
            .parse::<u32>()
            .unwrap()
    };
    for row in &moving {
        assert_eq!((row.phase, row.tier), (1, "leaf-spine"));
        assert!(row.device.starts_with("compute-leaf-"), "{row:?}");
        assert!(row.port.starts_with('p'), "{row:?}");
        assert!(spine(&row.from) <= 8 && spine(&row.to) > 8, "{row:?}");
        assert!(row.rack.is_some() && row.to.as_ref().unwrap().rack.is_some());
    }
    // Each of the first 16 leaves moves 16 of its 32 uplinks, each from its own port.
    let mut per_leaf: HashMap<&str, Vec<&str>> = HashMap::new();
    for row in &moving {
        per_leaf.entry(&row.device).or_default().push(&row.port);
    }
    assert_eq!(per_leaf.len(), 16);
    for ports in per_leaf.values_mut() {
        ports.sort_unstable();
        ports.dedup();
        assert_eq!(ports.len(), 16);
    }
}

/// Provisioned for the final size, the last phase lays its cables where the final design's
/// cabling sheet has them: the same two ends and ports, the same racks and the same orderable
/// length, for every cable the list adds; it moves nothing in service.
#[test]
fn the_cables_the_last_phase_adds_are_the_cabling_sheet_s() {
    let (spec, _) = superpod(4 * SU, &[2 * SU, 4 * SU], GrowthPolicy::ProvisionFinal);
    let report = crate::evaluate(&spec).unwrap();
    let moved = list(&spec, &report, 100_000).unwrap().unwrap();
    assert!(moved.rows.iter().all(|r| r.action == MoveAction::Add));
    let sheet = crate::floor::cabling(&spec, &report).unwrap();
    let by_end: HashMap<(&str, &str), &crate::cabling::Cable> = sheet
        .iter()
        .map(|c| ((c.a_device.as_str(), c.a_port.as_str()), c))
        .collect();
    assert_eq!(moved.rows.len(), 2 * 32 * 8 + 16 * 32);
    for row in &moved.rows {
        let cable = by_end[&(row.device.as_str(), row.port.as_str())];
        let to = row.to.as_ref().unwrap();
        assert_eq!(
            (to.device.as_str(), to.rack.as_deref(), to.length_m),
            (
                cable.z_device.as_str(),
                cable.z_rack.as_deref(),
                cable.length_m
            ),
            "{row:?}"
        );
        assert_eq!(row.rack, cable.a_rack);
    }
}

/// A list longer than its limit is refused with the reason, rather than built.
#[test]
fn a_move_list_longer_than_its_limit_is_refused() {
    let (spec, _) = superpod(4 * SU, &[2 * SU, 4 * SU], GrowthPolicy::AsNeeded);
    let report = crate::evaluate(&spec).unwrap();
    let why = list(&spec, &report, 100).unwrap().unwrap_err();
    assert!(why.contains("more than 100 cables"), "{why}");
    assert!(list(&spec, &report, 2_000).unwrap().is_ok());
}

/// A re-terminated cable whose new run is longer than the cable in place is replaced.
#[test]
fn a_cable_too_short_for_its_new_run_is_replaced() {
    let at = |m: Option<f64>| UpperEnd {
        device: "s".into(),
        rack: None,
        length_m: m.map(Metres::new),
    };
    let row = |from: Option<f64>, to: Option<f64>| CableMove {
        phase: 1,
        fabric: "compute".into(),
        tier: "leaf-spine",
        action: MoveAction::ReTerminate,
        device: "compute-leaf-01".into(),
        port: "p33".into(),
        rack: None,
        from: Some(at(from)),
        to: Some(at(to)),
    };
    assert!(row(Some(5.0), Some(7.0)).needs_longer_cable());
    assert!(!row(Some(7.0), Some(5.0)).needs_longer_cable());
    assert!(
        row(Some(7.0), None).needs_longer_cable(),
        "nothing orderable reaches"
    );
}

/// The list and the phase table are one matching: on every step, through the jump from two
/// tiers to three, each action has as many rows per fabric and tier as the table counts.
#[test]
fn the_list_and_the_table_agree_on_every_step() {
    for (sizes, policy) in [
        (&[4 * SU, 8 * SU, 16 * SU][..], GrowthPolicy::AsNeeded),
        (&[SU, 3 * SU, 16 * SU][..], GrowthPolicy::ProvisionFinal),
        (&[SU, 2 * SU, 3 * SU, 4 * SU][..], GrowthPolicy::AsNeeded),
    ] {
        let (spec, plan) = superpod(*sizes.last().unwrap(), sizes, policy);
        let report = crate::evaluate(&spec).unwrap();
        let moved = list(&spec, &report, 1_000_000).unwrap().unwrap();
        assert!(moved.not_listed.is_empty());
        for (phase, p) in plan.phases.iter().enumerate().skip(1) {
            for t in &p.moves {
                let count = |action| {
                    moved
                        .rows
                        .iter()
                        .filter(|r| r.phase == phase && r.tier == t.tier && r.action == action)
                        .count() as u64
                };
                assert_eq!(
                    (
                        count(MoveAction::Add),
                        count(MoveAction::Remove),
                        count(MoveAction::ReTerminate)
                    ),
                    (t.added, t.removed, t.re_terminated),
                    "{sizes:?} {policy:?} phase {phase} {}",
                    t.tier
                );
            }
        }
    }
}

/// Grouped by switch, the 256 moves of the 2-SU to 4-SU step are 8 groups of 32: each first
/// spine hands 2 uplinks of each of the 16 leaves to one of the added spines.
#[test]
fn grouped_by_switch_each_old_spine_hands_its_share_to_one_new_spine() {
    let (spec, _) = superpod(4 * SU, &[2 * SU, 4 * SU], GrowthPolicy::AsNeeded);
    let report = crate::evaluate(&spec).unwrap();
    let groups = list(&spec, &report, 100_000).unwrap().unwrap().by_switch();
    let moving: Vec<&MoveGroup> = groups
        .iter()
        .filter(|g| g.action == MoveAction::ReTerminate)
        .collect();
    assert_eq!(groups[0].action, MoveAction::ReTerminate, "moves first");
    assert_eq!(moving.len(), 8, "{moving:#?}");
    assert!(moving.iter().all(|g| g.cables == 32));
    let total: u64 = groups.iter().map(|g| g.cables).sum();
    assert_eq!(total, 256 + 1_024);
}
