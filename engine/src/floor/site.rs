//! Where the ends of a design's links stand on its floor: each end's rack and rack unit, and the
//! routed and orderable length of a cable between two ends, for whatever names cables one by
//! one (the cabling sheet, the move list between growth phases).

use super::placement::{place, Placed};
use super::rack_name;
use super::routing::{orderable, Router, Spot, ORDERABLE_M};
use crate::cabling::End;
use crate::report::Report;
use crate::spec::DesignSpec;

/// The floor of a design, placed and routed once.
pub(crate) struct Site {
    placed: Placed,
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
            placed,
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

    /// The index of the rack at `spot`, as [`Site::rack_names`] lists them: none beside the
    /// racks.
    pub fn rack_index(&self, spot: Spot) -> Option<u32> {
        ((spot.rack as usize) < self.racks.len()).then_some(spot.rack)
    }

    /// Every rack's name, in the floor's order.
    pub fn rack_names(&self) -> Vec<String> {
        self.racks.clone()
    }

    /// The lowest rack unit of the device at `end` of fabric `fabric`: none for a device the
    /// floor does not place.
    pub fn rack_unit(&self, fabric: usize, end: End) -> Option<u32> {
        match end {
            End::Node { node, .. } => Some(self.placed.node(node).1),
            End::Switch { role, index, .. } => self.placed.switch(fabric, role, index).map(|s| s.1),
            End::Endpoint(_) => None,
        }
    }

    /// The routed length of a cable between `a` and `z`, metres, with slack.
    pub fn route_m(&self, a: Spot, z: Spot) -> f64 {
        self.router.route(a, z)
    }

    /// The orderable length of a cable between `a` and `z`, metres: none when no orderable
    /// length reaches.
    pub fn orderable_m(&self, a: Spot, z: Spot) -> Option<f64> {
        orderable(self.route_m(a, z)).map(|bin| ORDERABLE_M[bin])
    }
}
