//! What spreading each tier's switches over network racks costs against packing them (see
//! `placement`): the racks, cable and cabling cost it adds, to weigh against what one rack's
//! loss takes when a rack holds a whole tier.

use super::media::tally;
use super::placed::bill_totals;
use super::placement::place_as;
use super::routing::Router;
use super::{FloorReport, LengthCount, SharedFloors};
use crate::report::Report;
use crate::spec::{DesignSpec, SwitchRacks};
use crate::units::{Metres, Usd};
use serde::{Deserialize, Serialize};

/// A floor's network racks and cabling: what spreading changes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Racking {
    pub network_racks: u32,
    /// Every cable at its orderable length, end to end.
    pub cable_m: Metres,
    pub cabling_cost_usd: Usd,
}

fn cable_m(cables: &[LengthCount]) -> Metres {
    Metres::new(
        cables
            .iter()
            .map(|c| c.length_m.metres() * f64::from(c.count))
            .sum(),
    )
}

/// The design's floor `plan` (spread, as the design asks) and the same design with its network
/// racks packed: `None` when the design packs them or spreading changes nothing. The packed
/// floor is taken from `floors` when it was laid there lately (a design being edited), else
/// laid and kept there.
pub fn spread_against_packed(
    spec: &DesignSpec,
    report: &Report,
    plan: &FloorReport,
    floors: &SharedFloors,
) -> Option<(Racking, Racking)> {
    if spec.floor.switch_racks != SwitchRacks::Spread {
        return None;
    }
    let spread = Racking {
        network_racks: plan.racks.iter().filter(|r| r.network).count() as u32,
        cable_m: cable_m(&plan.cables),
        cabling_cost_usd: plan.cabling_cost_usd,
    };
    let mut packed_spec = spec.clone();
    packed_spec.floor.switch_racks = SwitchRacks::Packed;
    let packed = floors.racking(&packed_spec, &report.fabrics, || {
        let placed = place_as(spec, &report.fabrics, SwitchRacks::Packed);
        let router = Router::new(&placed, &spec.floor);
        let packed_tally = tally(spec, &report.fabrics, &placed, &router, false);
        Racking {
            network_racks: placed.racks.iter().filter(|r| r.network).count() as u32,
            cable_m: cable_m(&packed_tally.cables),
            cabling_cost_usd: bill_totals(&packed_tally.bom).0,
        }
    });
    (packed != spread).then_some((spread, packed))
}
