//! The cables of a growth step: which are kept, added, removed and re-terminated, counted per
//! tier for the phase table and listed cable by cable for the move list, by one matching.
//!
//! Links are matched per lower end (a node's port, a leaf, a spine), by where each end stands
//! in the fabric rather than by its number, which can change as the fabric grows: each lower
//! end keeps as many of its links to each upper switch as both phases give it; its other links
//! of the phase before are paired, in order, with its other links of the new phase, each pair
//! one cable re-terminated (its lower end stays plugged in, its upper end moves to another
//! switch), and what is left over is removed or added. So the count is the fewest cables
//! touched: a leaf of U uplinks spread over S spines that are then spread over S' moves
//! U·(1 − S/S') of them.
//!
//! The list names each cable by the final design's devices and racks, as its floor plan and
//! cabling sheet do; the lower end's port is the one the cable holds (a re-terminated cable's
//! stays where it was). An upper end takes a free port of its switch: after a step that moves
//! cables, a switch's ports are those the cables kept hold, not a fresh cabling sheet's.

use super::{TierMoves, MAX_COUNTED_CABLES};
use crate::cabling::{leaf_position, links, End, Names, Role};
use crate::floor::Site;
use crate::report::{FabricReport, Report};
use crate::units::Metres;
use serde::Serialize;
use std::collections::HashMap;

/// What stands at one end of a link, by its place in the fabric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Place {
    NodePort(u32, u32),
    Endpoint(u32),
    Leaf(u32, u32),
    Spine(u32),
    Core(u32),
}

impl Place {
    /// The place as one number that sorts as the place does: its kind in three bits below the
    /// top two (left for the tier's level), then its first number (27 bits, more than any
    /// fabric's nodes) and its second.
    fn packed(self) -> u64 {
        let (kind, a, b) = match self {
            Place::NodePort(n, nic) => (0, n, nic),
            Place::Endpoint(e) => (1, e, 0),
            Place::Leaf(block, rail) => (2, block, rail),
            Place::Spine(s) => (3, s, 0),
            Place::Core(c) => (4, c, 0),
        };
        (kind << 59) | (u64::from(a.min((1 << 27) - 1)) << 32) | u64::from(b)
    }

    /// The place [`Place::packed`] gives `x` (its two top bits aside).
    fn unpacked(x: u64) -> Place {
        let (a, b) = (((x >> 32) & ((1 << 27) - 1)) as u32, x as u32);
        match (x >> 59) & 7 {
            0 => Place::NodePort(a, b),
            1 => Place::Endpoint(a),
            2 => Place::Leaf(a, b),
            3 => Place::Spine(a),
            _ => Place::Core(a),
        }
    }
}

/// One link of a phase: its tier level and its ends by place, packed so that links sort as
/// (level, lower end, upper end) by comparing two numbers (sorting a large fabric's links is
/// most of what a step costs), and its ends by number in that phase.
#[derive(Debug, Clone, Copy)]
struct PlacedLink {
    key: (u64, u64),
    a: End,
    z: End,
}

impl PlacedLink {
    fn level(&self) -> usize {
        (self.key.0 >> 62) as usize
    }

    fn lower(&self) -> Place {
        Place::unpacked(self.key.0)
    }

    fn upper(&self) -> Place {
        Place::unpacked(self.key.1)
    }
}

/// What a step does to one cable.
enum Change<'l> {
    Kept(&'l PlacedLink),
    Added(&'l PlacedLink),
    Removed(&'l PlacedLink),
    /// In service before (the first), plugged at its upper end where the second is.
    ReTerminated(&'l PlacedLink, &'l PlacedLink),
}

impl Change<'_> {
    fn level(&self) -> usize {
        match self {
            Change::Kept(l) | Change::Added(l) | Change::Removed(l) => l.level(),
            Change::ReTerminated(l, _) => l.level(),
        }
    }
}

fn place(fabric: &FabricReport, end: End) -> Place {
    match end {
        End::Node { node, nic } => Place::NodePort(node, nic),
        End::Endpoint(e) => Place::Endpoint(e),
        End::Switch { role, index, .. } => match role {
            Role::Leaf => {
                let (block, rail) = leaf_position(fabric, index);
                Place::Leaf(block, rail)
            }
            Role::Spine => Place::Spine(index),
            Role::Core => Place::Core(index),
        },
    }
}

/// Every link of `fabric`, sorted by tier, lower end and upper end.
fn placed_links(fabric: &FabricReport) -> Vec<PlacedLink> {
    let mut all = Vec::with_capacity(fabric.endpoints as usize * 2);
    // A fabric whose links do not fit has no cabling to compare; its report says why.
    let _ = links(fabric, &mut |l: crate::cabling::Link| {
        all.push(PlacedLink {
            // The level in the top two bits, above the lower end.
            key: (
                ((l.level.min(2) as u64) << 62) | place(fabric, l.a).packed(),
                place(fabric, l.z).packed(),
            ),
            a: l.a,
            z: l.z,
        })
    });
    all.sort_unstable_by_key(|l| l.key);
    all
}

/// Each cable of the step from `old` to `new` (both sorted), to `visit`.
fn step<'l>(old: &'l [PlacedLink], new: &'l [PlacedLink], visit: &mut impl FnMut(Change<'l>)) {
    let (mut i, mut j) = (0, 0);
    let (mut gone, mut came) = (Vec::new(), Vec::new());
    loop {
        // The next lower end, and its links in each phase.
        let end = match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) => a.key.0.min(b.key.0),
            (Some(a), None) => a.key.0,
            (None, Some(b)) => b.key.0,
            (None, None) => break,
        };
        let run = |links: &'l [PlacedLink], from: usize| {
            let n = links[from..].iter().take_while(|l| l.key.0 == end).count();
            &links[from..from + n]
        };
        let (a, b) = (run(old, i), run(new, j));
        i += a.len();
        j += b.len();
        gone.clear();
        came.clear();
        let (mut x, mut y) = (0, 0);
        while x < a.len() || y < b.len() {
            match (a.get(x), b.get(y)) {
                (Some(p), Some(q)) if p.key.1 == q.key.1 => {
                    visit(Change::Kept(p));
                    x += 1;
                    y += 1;
                }
                (Some(p), Some(q)) if p.key.1 < q.key.1 => {
                    gone.push(p);
                    x += 1;
                }
                (Some(p), None) => {
                    gone.push(p);
                    x += 1;
                }
                (_, Some(q)) => {
                    came.push(q);
                    y += 1;
                }
                (None, None) => break,
            }
        }
        for k in 0..gone.len().max(came.len()) {
            visit(match (gone.get(k), came.get(k)) {
                (Some(p), Some(q)) => Change::ReTerminated(p, q),
                (Some(p), None) => Change::Removed(p),
                (None, Some(q)) => Change::Added(q),
                (None, None) => break,
            });
        }
    }
}

const TIERS: [&str; 3] = ["node-leaf", "leaf-spine", "spine-core"];

/// Cables of `report`'s fabrics.
pub(super) fn cables(report: &Report) -> u64 {
    crate::failures::cables(report)
}

/// Whether the step from `before` to `after` is small enough to match cable by cable.
pub(super) fn counted(before: &Report, after: &Report) -> bool {
    cables(before) + cables(after) <= MAX_COUNTED_CABLES
}

/// The links of the fabric of `before` named as `fabric` is.
fn links_before(before: &Report, fabric: &FabricReport) -> Vec<PlacedLink> {
    before
        .fabrics
        .iter()
        .find(|f| f.name == fabric.name)
        .map(placed_links)
        .unwrap_or_default()
}

/// The cables of each fabric of `after` against `before`, per tier.
pub(super) fn moves(before: &Report, after: &Report) -> Vec<TierMoves> {
    let mut out = Vec::new();
    for fabric in &after.fabrics {
        let (old, new) = (links_before(before, fabric), placed_links(fabric));
        let mut tiers: [TierMoves; 3] = TIERS.map(|tier| TierMoves {
            fabric: fabric.name.clone(),
            tier: tier.to_string(),
            kept: 0,
            added: 0,
            removed: 0,
            re_terminated: 0,
        });
        step(&old, &new, &mut |change| {
            let t = &mut tiers[change.level().min(2)];
            match change {
                Change::Kept(_) => t.kept += 1,
                Change::Added(_) => t.added += 1,
                Change::Removed(_) => t.removed += 1,
                Change::ReTerminated(..) => t.re_terminated += 1,
            }
        });
        out.extend(
            tiers
                .into_iter()
                .filter(|t| t.kept + t.added + t.removed + t.re_terminated > 0),
        );
    }
    out
}

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
                (Some(had), Some(needs)) => needs.0 > had.0,
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
                .map(Metres),
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
