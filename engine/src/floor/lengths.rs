//! The medium of each orderable length, looked up once per fabric for every link of it, and
//! the longest cables, kept for the floor plan.

use super::routing::{not_below_zero, orderable, Spot, ORDERABLE_M};
use crate::catalog::ReachClass;

/// One of the longest cables, kept for the floor plan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Long {
    pub fabric: usize,
    pub tier: &'static str,
    pub a: Spot,
    pub z: Spot,
    pub route_m: f64,
    pub bin: Option<usize>,
}

pub(crate) const LONGEST_KEPT: usize = 12;

/// The medium of each orderable length at one speed, to a node and between switches: looked up
/// once per fabric rather than once per link.
pub(crate) struct MediumTable {
    classes: [[Option<ReachClass>; ORDERABLE_M.len()]; 2],
}

const DIRECT_M: f64 = 100.0;

/// Index of [`DIRECT_M`] among the orderable lengths: every length before it is shorter.
const BEYOND_DIRECT: usize = 15;
const _: () = assert!(ORDERABLE_M[BEYOND_DIRECT] == DIRECT_M);

/// Orderable length index of each half metre up to the last length that is a multiple of half
/// a metre (100 m), so that most links find theirs without a search: [`orderable`] of `k / 2`
/// metres at `k`, worked out once when the engine is compiled.
const HALF_METRES: [u8; 201] = {
    let mut table = [0u8; 201];
    let mut k = 0;
    while k < table.len() {
        let metres = k as f64 / 2.0;
        let mut i = 0;
        while ORDERABLE_M[i] < metres - 1e-9 {
            i += 1;
        }
        table[k] = i as u8;
        k += 1;
    }
    table
};

impl MediumTable {
    pub fn new(speed: f64) -> Self {
        let mut classes = [[None; ORDERABLE_M.len()]; 2];
        for (to_node, row) in classes.iter_mut().enumerate() {
            for (bin, class) in row.iter_mut().enumerate() {
                *class = ReachClass::cheapest(speed, ORDERABLE_M[bin], to_node == 1);
            }
        }
        MediumTable { classes }
    }

    /// The orderable length index of a route, or `ORDERABLE_M.len()` when it is longer than
    /// every orderable length. Inlined into the walk over the cables even where the code is
    /// built for size (the browser's).
    #[inline(always)]
    pub fn bin(&self, route_m: f64) -> usize {
        let bin = if (0.0..=DIRECT_M).contains(&route_m) {
            // Every orderable length up to 100 m is a whole number of half metres.
            // Rounded up by hand: `ceil` is a library call on the baseline x86-64 target, and
            // a conversion to `u32` (at most 200 here) is a few instructions where one to
            // `usize` is a dozen.
            let x = not_below_zero(route_m * 2.0 - 2e-9);
            let whole = x as u32;
            let k = whole + u32::from(f64::from(whole) < x);
            HALF_METRES.get(k as usize).map(|b| usize::from(*b))
        } else if route_m > DIRECT_M {
            // Past 100 m: every shorter length is below it, so count the longer ones it passes
            // (as many comparisons as there are, without a search that is a call in the
            // browser's build).
            let mut i = BEYOND_DIRECT;
            for l in &ORDERABLE_M[BEYOND_DIRECT..] {
                i += usize::from(*l < route_m - 1e-9);
            }
            Some(i).filter(|&i| i < ORDERABLE_M.len())
        } else {
            orderable(route_m)
        };
        bin.unwrap_or(ORDERABLE_M.len())
    }

    /// The medium of orderable length `bin`, to a node or between switches.
    #[inline]
    pub fn class(&self, bin: usize, to_node: bool) -> Option<ReachClass> {
        self.classes[usize::from(to_node)]
            .get(bin)
            .copied()
            .flatten()
    }

    /// The medium of one link: (orderable length index, class); `None` when nothing reaches.
    #[inline]
    pub fn link(&self, route_m: f64, to_node: bool) -> (Option<usize>, Option<ReachClass>) {
        let bin = self.bin(route_m);
        let bin = (bin < ORDERABLE_M.len()).then_some(bin);
        (bin, bin.and_then(|b| self.class(b, to_node)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_half_metre_up_to_a_hundred_takes_the_orderable_length_rounding_up_gives() {
        for (k, bin) in HALF_METRES.iter().enumerate() {
            assert_eq!(
                orderable(k as f64 / 2.0),
                Some(usize::from(*bin)),
                "{k} half metres"
            );
        }
    }

    #[test]
    fn the_medium_table_agrees_with_rounding_up_and_choosing_at_every_length() {
        for speed in [100.0, 400.0, 800.0] {
            let table = MediumTable::new(speed);
            for cm in 0..300_000u32 {
                let metres = f64::from(cm) / 100.0;
                for to_node in [false, true] {
                    let bin = orderable(metres);
                    let expected = (
                        bin,
                        bin.and_then(|b| ReachClass::cheapest(speed, ORDERABLE_M[b], to_node)),
                    );
                    assert_eq!(
                        table.link(metres, to_node),
                        expected,
                        "{metres} m at {speed}G"
                    );
                }
            }
        }
    }
}
