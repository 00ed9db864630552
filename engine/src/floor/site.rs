//! Where the ends of a design's links stand on its floor: each end's rack, and the orderable
//! length of a cable between two ends, for lists that name cables one by one outside the
//! cabling sheet (the move list between growth phases).

use super::placement::place;
use super::rack_name;
use super::routing::{orderable, Router, Spot, ORDERABLE_M};
use crate::cabling::End;
use crate::report::Report;
use crate::spec::DesignSpec;

/// The floor of a design, placed and routed once.
pub(crate) struct Site {
    router: Router,
    racks: Vec<String>,
}

impl Site {
    /// The floor of `spec`, evaluated as `report`.
    pub fn new(spec: &DesignSpec, report: &Report) -> Self {
        let placed = place(spec, &report.fabrics);
        Site {
            router: Router::new(&placed, &spec.floor),
            racks: placed
                .racks
                .iter()
                .map(|r| rack_name(r.row, r.position))
                .collect(),
        }
    }

    /// Where `end` of fabric `fabric` (its index in the report) stands; `other` is the far end
    /// (an endpoint the floor does not place stands beside it).
    pub fn spot(&self, fabric: usize, end: End, other: Option<Spot>) -> Spot {
        self.router.end(fabric, end, other)
    }

    /// The rack at `spot`: none beside the racks.
    pub fn rack(&self, spot: Spot) -> Option<String> {
        self.racks.get(spot.rack as usize).cloned()
    }

    /// The orderable length of a cable between `a` and `z`, metres: none when no orderable
    /// length reaches.
    pub fn orderable_m(&self, a: Spot, z: Spot) -> Option<f64> {
        orderable(self.router.route(a, z)).map(|bin| ORDERABLE_M[bin])
    }
}
