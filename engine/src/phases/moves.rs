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

use super::{TierMoves, MAX_COUNTED_CABLES};
use crate::cabling::{leaf_position, links, End, Role};
use crate::report::{FabricReport, Report};

/// What stands at one end of a link, by its place in the fabric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Place {
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
pub(super) struct PlacedLink {
    key: (u64, u64),
    pub(super) a: End,
    pub(super) z: End,
}

impl PlacedLink {
    pub(super) fn level(&self) -> usize {
        (self.key.0 >> 62) as usize
    }

    pub(super) fn lower(&self) -> Place {
        Place::unpacked(self.key.0)
    }

    pub(super) fn upper(&self) -> Place {
        Place::unpacked(self.key.1)
    }
}

/// What a step does to one cable.
pub(super) enum Change<'l> {
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
pub(super) fn placed_links(fabric: &FabricReport) -> Vec<PlacedLink> {
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
pub(super) fn step<'l>(
    old: &'l [PlacedLink],
    new: &'l [PlacedLink],
    visit: &mut impl FnMut(Change<'l>),
) {
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

pub(super) const TIERS: [&str; 3] = ["node-leaf", "leaf-spine", "spine-core"];

/// Cables of `report`'s fabrics.
pub(super) fn cables(report: &Report) -> u64 {
    crate::failures::cables(report)
}

/// Whether the step from `before` to `after` is small enough to match cable by cable.
pub(super) fn counted(before: &Report, after: &Report) -> bool {
    cables(before) + cables(after) <= MAX_COUNTED_CABLES
}

/// The links of the fabric of `before` named as `fabric` is.
pub(super) fn links_before(before: &Report, fabric: &FabricReport) -> Vec<PlacedLink> {
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
