//! The move list between growth phases: every cable a step adds, removes or re-terminates, from
//! the matching that counts the phase table's moves ([`super::moves`]), named by the final
//! design's devices and racks, as its floor plan and cabling sheet do, with the orderable length
//! of each run on the final floor. The lower end's port is the one the cable holds (a
//! re-terminated cable's stays where it was). An upper end takes a free port of its switch:
//! after a step that moves cables, a switch's ports are those the cables kept hold, not a fresh
//! cabling sheet's.

use super::moves::{counted, links_before, placed_links, step, Change, Place, PlacedLink, TIERS};
use crate::cabling::{leaf_position, End, Names, Role};
use crate::floor::Site;
use crate::report::{FabricReport, Report};
use crate::units::Metres;
use serde::Serialize;
use std::collections::HashMap;

/// What a step does to a cable of the move list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveAction {
    /// In service before, unplugged at its upper end and plugged into another switch.
    ReTerminate,
    Remove,
    Add,
}

impl MoveAction {
    pub fn label(self) -> &'static str {
        match self {
            MoveAction::ReTerminate => "re-terminate",
            MoveAction::Remove => "remove",
            MoveAction::Add => "add",
        }
    }
}

/// A switch a cable's upper end is plugged into, on the final floor.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UpperEnd {
    pub device: String,
    /// Its rack; none for a device beside the racks.
    pub rack: Option<String>,
    /// The orderable length of a cable from the lower end to this switch; none when no
    /// orderable length reaches.
    pub length_m: Option<Metres>,
}

/// One cable a growth step adds, removes or re-terminates.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CableMove {
    /// The phase the step reaches: an index into the plan's phases, from 1.
    pub phase: usize,
    pub fabric: String,
    /// `node-leaf`, `leaf-spine` or `spine-core`.
    pub tier: &'static str,
    pub action: MoveAction,
    /// The lower end, which stays: its device, the port the cable holds, its rack.
    pub device: String,
    pub port: String,
    pub rack: Option<String>,
    /// The upper end before the step: none for a cable added.
    pub from: Option<UpperEnd>,
    /// The upper end after the step: none for a cable removed.
    pub to: Option<UpperEnd>,
}

impl CableMove {
    /// Whether a re-terminated cable is shorter than its new run needs, so is replaced.
    pub fn needs_longer_cable(&self) -> bool {
        match (&self.from, &self.to) {
            (Some(from), Some(to)) => match (from.length_m, to.length_m) {
                (Some(had), Some(needs)) => needs.metres() > had.metres(),
                (_, None) => true,
                (None, Some(_)) => false,
            },
            _ => false,
        }
    }
}

/// The final design's names and places for the devices of one fabric at any phase.
struct Finals<'r> {
    index: usize,
    fabric: &'r FabricReport,
    names: Names<'r>,
    /// Each leaf's number by its (block, rail).
    leaves: HashMap<(u32, u32), u32>,
}

impl<'r> Finals<'r> {
    fn new(report: &'r Report, name: &str) -> Option<Self> {
        let index = report.fabrics.iter().position(|f| f.name == name)?;
        let fabric = &report.fabrics[index];
        Some(Finals {
            index,
            fabric,
            names: Names::of(fabric),
            leaves: (0..fabric.plan.leaves)
                .map(|l| (leaf_position(fabric, l), l))
                .collect(),
        })
    }

    /// The final design's end standing at `place`, with the port of `end` (its number in the
    /// phase); none when the final design has no device there.
    fn end(&self, place: Place, end: End) -> Option<End> {
        let port = match end {
            End::Switch { port, .. } => port,
            _ => 0,
        };
        let plan = &self.fabric.plan;
        let switch =
            |role, index, count: u32| (index < count).then_some(End::Switch { role, index, port });
        match place {
            Place::NodePort(node, nic) => Some(End::Node { node, nic }),
            Place::Endpoint(e) => Some(End::Endpoint(e)),
            Place::Leaf(block, rail) => self.leaves.get(&(block, rail)).map(|&index| End::Switch {
                role: Role::Leaf,
                index,
                port,
            }),
            Place::Spine(i) => switch(Role::Spine, i, plan.spines),
            Place::Core(i) => switch(Role::Core, i, plan.cores),
        }
    }
}

/// A device of the final design, named and placed: its device and port labels and where it
/// stands; none stands where the final design has no device (named as its phase names it).
struct Located {
    device: String,
    port: String,
    spot: Option<crate::floor::Spot>,
}

impl Finals<'_> {
    /// The device at `place` (`end` in its phase, whose names are `names`), standing beside
    /// `other` if the floor does not place it.
    fn locate(
        &self,
        site: &Site,
        place: Place,
        end: End,
        names: &Names,
        other: Option<crate::floor::Spot>,
    ) -> Located {
        let (device, port) = match self.end(place, end) {
            Some(final_end) => {
                let (device, port) = self.names.end(final_end);
                return Located {
                    device,
                    port,
                    spot: Some(site.spot(self.index, final_end, other)),
                };
            }
            None => names.end(end),
        };
        Located {
            device,
            port,
            spot: None,
        }
    }

    /// The upper end of `link` (of a phase whose names are `names`), with the length of a
    /// cable to it from the link's lower end.
    fn upper(&self, site: &Site, link: &PlacedLink, names: &Names) -> UpperEnd {
        let upper = self.locate(site, link.upper(), link.z, names, None);
        let lower = self.locate(site, link.lower(), link.a, names, upper.spot);
        UpperEnd {
            rack: upper.spot.and_then(|s| site.rack(s)),
            length_m: lower
                .spot
                .zip(upper.spot)
                .and_then(|(a, z)| site.orderable_m(a, z))
                .map(Metres::new),
            device: upper.device,
        }
    }
}

/// The phases' names of one fabric: before the step (none for a fabric the step adds) and
/// after it.
struct StepNames<'r> {
    before: Option<Names<'r>>,
    after: Names<'r>,
}

impl StepNames<'_> {
    fn before(&self) -> &Names<'_> {
        self.before.as_ref().unwrap_or(&self.after)
    }
}

/// The row of the move list for `change` in the step to the phase numbered `phase`; none for a
/// cable kept.
fn row(
    phase: usize,
    finals: &Finals,
    site: &Site,
    names: &StepNames,
    change: Change,
) -> Option<CableMove> {
    let (action, lower, lower_names, from, to) = match change {
        Change::Kept(_) => return None,
        Change::Added(q) => (MoveAction::Add, q, &names.after, None, Some(q)),
        Change::Removed(p) => (MoveAction::Remove, p, names.before(), Some(p), None),
        Change::ReTerminated(p, q) => {
            (MoveAction::ReTerminate, p, names.before(), Some(p), Some(q))
        }
    };
    let from = from.map(|l| finals.upper(site, l, names.before()));
    let to = to.map(|l| finals.upper(site, l, &names.after));
    let beside = finals
        .locate(site, lower.upper(), lower.z, lower_names, None)
        .spot;
    let stays = finals.locate(site, lower.lower(), lower.a, lower_names, beside);
    Some(CableMove {
        phase,
        fabric: finals.fabric.name.clone(),
        tier: TIERS[lower.level().min(2)],
        action,
        rack: stays.spot.and_then(|s| site.rack(s)),
        device: stays.device,
        port: stays.port,
        from,
        to,
    })
}

/// The move list of a design grown in phases: every cable each step adds, removes or
/// re-terminates, step by step; the steps too large to match cable by cable (as the phase
/// table counts them) are named in `not_listed`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveList {
    pub rows: Vec<CableMove>,
    /// Why a step's cables are not listed, per phase reached.
    pub not_listed: Vec<(usize, String)>,
}

/// The cables of a move list done alike between the same two switches in one step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveGroup {
    pub phase: usize,
    pub fabric: String,
    pub tier: &'static str,
    pub action: MoveAction,
    /// The upper end's switch before and after the step.
    pub from: Option<String>,
    pub to: Option<String>,
    pub cables: u64,
    /// Of them, re-terminated cables too short for their new run.
    pub longer_cables: u64,
}

impl MoveList {
    /// The cables in service it re-terminates, and of them those too short for their new run.
    pub fn re_terminated(&self) -> (u64, u64) {
        self.rows
            .iter()
            .filter(|r| r.action == MoveAction::ReTerminate)
            .fold((0, 0), |(n, longer), r| {
                (n + 1, longer + u64::from(r.needs_longer_cable()))
            })
    }

    /// The rows grouped by step, what is done and the two switches: re-terminations first
    /// (cables in service), then removals, then additions.
    pub fn by_switch(&self) -> Vec<MoveGroup> {
        let mut groups: std::collections::BTreeMap<_, MoveGroup> = Default::default();
        for row in &self.rows {
            let device = |end: &Option<UpperEnd>| end.as_ref().map(|e| e.device.clone());
            let (from, to) = (device(&row.from), device(&row.to));
            let key = (
                row.phase,
                row.action,
                row.fabric.clone(),
                row.tier,
                from.clone(),
                to.clone(),
            );
            let group = groups.entry(key).or_insert_with(|| MoveGroup {
                phase: row.phase,
                fabric: row.fabric.clone(),
                tier: row.tier,
                action: row.action,
                from,
                to,
                cables: 0,
                longer_cables: 0,
            });
            group.cables += 1;
            group.longer_cables += u64::from(row.needs_longer_cable());
        }
        groups.into_values().collect()
    }
}

/// The move list of the steps between `phases` (each phase's design, earliest first) on the
/// floor of the final design `report` of `spec`; `Err` once it has more than `most` rows.
pub(super) fn move_list(
    spec: &crate::spec::DesignSpec,
    report: &Report,
    phases: &[Report],
    most: usize,
) -> Result<MoveList, usize> {
    let site = Site::new(spec, report);
    let mut list = MoveList {
        rows: Vec::new(),
        not_listed: Vec::new(),
    };
    for (phase, pair) in phases.windows(2).enumerate().map(|(i, p)| (i + 1, p)) {
        let (before, after) = (&pair[0], &pair[1]);
        if !counted(before, after) {
            list.not_listed
                .push((phase, super::not_counted(before, after)));
            continue;
        }
        for fabric in &after.fabrics {
            let Some(finals) = Finals::new(report, &fabric.name) else {
                continue;
            };
            let old = links_before(before, fabric);
            let new = placed_links(fabric);
            let names = StepNames {
                before: before
                    .fabrics
                    .iter()
                    .find(|f| f.name == fabric.name)
                    .map(Names::of),
                after: Names::of(fabric),
            };
            let mut full = false;
            step(&old, &new, &mut |change| {
                if full {
                    return;
                }
                if let Some(row) = row(phase, &finals, &site, &names, change) {
                    list.rows.push(row);
                    full = list.rows.len() > most;
                }
            });
            if full {
                return Err(list.rows.len());
            }
        }
    }
    Ok(list)
}

#[cfg(test)]
mod tests;
