//! Cables and optics by speed and reach [NVIDIA LinkX].

use super::{Provenance, ESTIMATE};
use crate::units::{Usd, Watts};

/// How far a link can reach, from cheapest to dearest.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReachClass {
    /// Passive copper, up to 2 m at 400G and above (3 m below) [MCP4Y10, MCP7Y00].
    Dac,
    /// Active copper, up to 5 m [LinkX ACC].
    Acc,
    /// Multimode optics (SR4), up to 50 m [MMA4Z00-NS].
    Multimode,
    /// Single-mode optics (DR4), up to 100 m [MMS4X00-NS].
    SingleMode,
    /// Single-mode long reach (FR4), up to 2 km.
    LongReach,
}

impl ReachClass {
    pub fn label(self) -> &'static str {
        match self {
            ReachClass::Dac => "passive copper (DAC)",
            ReachClass::Acc => "active copper (ACC)",
            ReachClass::Multimode => "multimode optics (SR)",
            ReachClass::SingleMode => "single-mode optics (DR)",
            ReachClass::LongReach => "single-mode optics (FR, 2 km)",
        }
    }

    /// The name used in BOM item keys.
    pub fn key(self) -> &'static str {
        match self {
            ReachClass::Dac => "dac",
            ReachClass::Acc => "acc",
            ReachClass::Multimode => "multimode",
            ReachClass::SingleMode => "singlemode",
            ReachClass::LongReach => "longreach",
        }
    }

    pub fn max_reach_m(self, speed_gbps: f64) -> f64 {
        match self {
            ReachClass::Dac if speed_gbps >= 400.0 => 2.0,
            ReachClass::Dac => 3.0,
            ReachClass::Acc => 5.0,
            ReachClass::Multimode => 50.0,
            ReachClass::SingleMode => 100.0,
            ReachClass::LongReach => 2000.0,
        }
    }

    pub fn is_optical(self) -> bool {
        matches!(
            self,
            ReachClass::Multimode | ReachClass::SingleMode | ReachClass::LongReach
        )
    }
}

/// What a transceiver (or the end of an active cable) in a switch's cage adds to the network's
/// power: nothing. Every switch's power figure is its maximum with every cage filled, which
/// already holds what its optics draw: "budget an optics-filled switch at its max rating"
/// (NVIDIA QM97x0 user manual: 1,720 W maximum with active cables, 747 W typical with passive
/// ones). A switch-end transceiver's own draw (`Media::switch_transceiver_w`) is part of that
/// figure and is counted once, there.
pub const SWITCH_END_W: Watts = Watts::new(0.0);

/// The cable or optics of one link of a given speed and length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Media {
    pub class: ReachClass,
    /// Price of the cable itself (copper assembly, or the fibre patch cord of an optical link).
    pub cable_price_usd: Usd,
    /// An optical link needs a transceiver at each end: the host end (one port) ...
    pub host_transceiver_price_usd: Usd,
    pub host_transceiver_w: Watts,
    /// ... and the switch end, where one cage may serve several links (twin-port OSFP).
    pub switch_transceiver_price_usd: Usd,
    pub switch_transceiver_w: Watts,
    pub power: Provenance,
    pub cost: Provenance,
}

const LINKX_POWER: Provenance = Provenance {
    source: "NVIDIA LinkX: twin-port 800G SR4 15 W, DR4 17 W; NIC-side 400G 9 W max (docs.nvidia.com LinkX MMA4Z00-NS, MMS4X00-NS, MMS4X00-NS400)",
    estimate: false,
};

impl ReachClass {
    /// The cheapest class that reaches `metres` at `speed_gbps`, on a link to a node or not.
    /// The one rule for which medium a link needs, used by the nominal bill and the floor:
    /// - passive copper (DAC) to 2 m at 400G and above, 3 m below;
    /// - active copper only between switches (linear active copper is a switch-to-switch cable);
    /// - no passive copper or multimode at 800G per port and above (XDR runs on active copper
    ///   and single-mode only);
    /// - then multimode to 50 m, single-mode DR to 100 m (500 m for the -NM parts, counted as FR
    ///   here), single-mode FR to 2 km.
    ///
    /// `None` when nothing in the catalog reaches that far.
    pub fn cheapest(speed_gbps: f64, metres: f64, to_node: bool) -> Option<ReachClass> {
        let xdr = speed_gbps >= 800.0;
        [
            ReachClass::Dac,
            ReachClass::Acc,
            ReachClass::Multimode,
            ReachClass::SingleMode,
            ReachClass::LongReach,
        ]
        .into_iter()
        .filter(|c| !(xdr && matches!(c, ReachClass::Dac | ReachClass::Multimode)))
        .filter(|c| !(to_node && *c == ReachClass::Acc))
        .find(|c| metres <= c.max_reach_m(speed_gbps) + 1e-9)
    }
}

/// The cheapest media that reaches `distance_m` at `speed_gbps` ([`ReachClass::cheapest`]),
/// with `links_per_cage` links sharing one switch-side transceiver. `None` when nothing in the
/// catalog reaches that far.
pub fn media_for(
    speed_gbps: f64,
    distance_m: f64,
    links_per_cage: u32,
    to_node: bool,
) -> Option<Media> {
    ReachClass::cheapest(speed_gbps, distance_m, to_node)
        .map(|class| Media::of(class, speed_gbps, links_per_cage))
}

impl Media {
    /// The catalog figures of `class` at `speed_gbps`, with `links_per_cage` links sharing one
    /// switch-side transceiver.
    pub fn of(class: ReachClass, speed_gbps: f64, links_per_cage: u32) -> Media {
        // Prices scale with speed from the 400G figures; all of them are estimates.
        let scale = (speed_gbps / 400.0).powf(0.8);
        let cage = f64::from(links_per_cage.max(1));
        let (cable, host, host_w, cage_price, cage_w) = match class {
            ReachClass::Dac => (180.0 * scale, 0.0, 0.0, 0.0, 0.0),
            // Active copper draws about 1.5 W per end (estimate); passive copper "near zero"
            // [MCP4Y10].
            ReachClass::Acc => (450.0 * scale, 0.0, 1.5, 0.0, 1.5),
            ReachClass::Multimode => (
                60.0,
                700.0 * scale,
                8.0 * scale,
                1_100.0 * scale * cage / 2.0,
                15.0 * scale * cage / 2.0,
            ),
            ReachClass::SingleMode => (
                80.0,
                950.0 * scale,
                9.0 * scale,
                1_500.0 * scale * cage / 2.0,
                17.0 * scale * cage / 2.0,
            ),
            ReachClass::LongReach => (
                120.0,
                1_400.0 * scale,
                12.0 * scale,
                2_300.0 * scale * cage / 2.0,
                22.0 * scale * cage / 2.0,
            ),
        };
        Media {
            class,
            cable_price_usd: Usd::new(cable),
            host_transceiver_price_usd: Usd::new(host),
            host_transceiver_w: Watts::new(host_w),
            switch_transceiver_price_usd: Usd::new(cage_price),
            switch_transceiver_w: Watts::new(cage_w),
            power: if class.is_optical() {
                LINKX_POWER
            } else {
                ESTIMATE
            },
            cost: ESTIMATE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_metre_400g_link_is_passive_copper_with_no_transceivers() {
        let media = media_for(400.0, 1.0, 2, false).unwrap();
        assert_eq!(media.class, ReachClass::Dac);
        assert_eq!(media.host_transceiver_price_usd, Usd::new(0.0));
    }

    #[test]
    fn a_30_metre_400g_link_is_multimode_with_a_twin_port_15_w_cage() {
        let media = media_for(400.0, 30.0, 2, false).unwrap();
        assert_eq!(media.class, ReachClass::Multimode);
        assert_eq!(media.switch_transceiver_w, Watts::new(15.0));
        assert_eq!(media.host_transceiver_w, Watts::new(8.0));
    }

    #[test]
    fn nothing_reaches_ten_kilometres() {
        assert_eq!(media_for(400.0, 10_000.0, 2, false), None);
    }

    #[test]
    fn copper_only_where_it_reaches_and_no_active_copper_to_a_node() {
        let cheapest = ReachClass::cheapest;
        assert_eq!(cheapest(400.0, 2.0, true), Some(ReachClass::Dac));
        assert_eq!(cheapest(400.0, 2.5, false), Some(ReachClass::Acc));
        assert_eq!(cheapest(400.0, 2.5, true), Some(ReachClass::Multimode));
        assert_eq!(cheapest(400.0, 70.0, false), Some(ReachClass::SingleMode));
        assert_eq!(cheapest(400.0, 150.0, false), Some(ReachClass::LongReach));
        assert_eq!(cheapest(400.0, 3000.0, false), None);
    }

    #[test]
    fn xdr_links_take_neither_passive_copper_nor_multimode() {
        assert_eq!(
            ReachClass::cheapest(800.0, 1.0, false),
            Some(ReachClass::Acc)
        );
        assert_eq!(
            ReachClass::cheapest(800.0, 10.0, false),
            Some(ReachClass::SingleMode)
        );
    }
}
