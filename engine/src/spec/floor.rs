//! The physical layout of a design: rows of racks, where the switches stand, and the figures
//! that turn a switch count into cable lengths and rack power. Every field has a default, so a
//! design that never sets it still gets a plausible floor (see `crate::floor`).

use crate::units::{Kilowatts, Metres};
use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// Where a tier of switches stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// In a compute rack, above the nodes it serves first.
    TopOfRack,
    /// In network racks in the middle of each row of compute racks.
    MiddleOfRow,
    /// In network racks at the end of each row.
    EndOfRow,
    /// In a dedicated row of network racks beyond the compute rows.
    NetworkRow,
}

impl Placement {
    pub fn label(self) -> &'static str {
        match self {
            Placement::TopOfRack => "top of rack",
            Placement::MiddleOfRow => "middle of row",
            Placement::EndOfRow => "end of row",
            Placement::NetworkRow => "network row",
        }
    }
}

/// How a group of network racks holds its switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwitchRacks {
    /// Each tier's switches in turn over the group's racks, at least two where a tier has two
    /// switches there, so that one rack's loss (its power, its cooling, a hand in the wrong rack)
    /// never takes a whole tier.
    #[default]
    Spread,
    /// Each rack filled before the next opens: the fewest racks and the shortest cables.
    Packed,
}

impl SwitchRacks {
    pub fn label(self) -> &'static str {
        match self {
            SwitchRacks::Spread => "spread: no rack holds a whole tier",
            SwitchRacks::Packed => "packed: each rack full first",
        }
    }
}

/// How a rack is fed with power.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum Feeds {
    /// One feed carries the whole rack.
    Single,
    /// A and B feeds from independent sources, each able to carry the whole rack (N+N).
    #[default]
    Dual,
}

/// How racks are cooled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cooling {
    /// Room air: a rack above `air_limit_kw` needs more than air.
    #[default]
    Air,
    /// Direct liquid cooling: the air limit does not apply.
    DirectLiquid,
}

/// The floor: racks, rows and where the switches stand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Floor {
    /// GPU nodes per compute rack; the node type's reference layout when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes_per_rack: Option<u32>,
    /// Rows of compute racks; as many as the racks per row need when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u32>,
    /// Compute racks per row; one scalable unit (the nodes of one leaf) per row when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub racks_per_row: Option<u32>,
    /// Height of every rack, rack units (U).
    #[serde(default = "default_rack_units")]
    pub rack_units: u32,
    /// Power one rack may draw, kW.
    #[serde(default = "default_rack_power_kw")]
    pub rack_power_kw: Kilowatts,
    #[serde(default)]
    pub feeds: Feeds,
    #[serde(default)]
    pub cooling: Cooling,
    /// Rack power above which room air is not enough, kW.
    #[serde(default = "default_air_limit_kw")]
    pub air_limit_kw: Kilowatts,
    #[serde(default = "default_leaves")]
    pub leaves: Placement,
    /// Spines (and cores, which always stand in the network row).
    #[serde(default = "default_spines")]
    pub spines: Placement,
    /// How network racks hold their switches.
    #[serde(default)]
    pub switch_racks: SwitchRacks,
    /// Distance from one row of racks to the next, metres.
    #[serde(default = "default_row_pitch_m")]
    pub row_pitch_m: Metres,
    #[serde(default = "default_rack_width_m")]
    pub rack_width_m: Metres,
    /// Height of the overhead cable tray above the top of the racks, metres.
    #[serde(default = "default_tray_height_m")]
    pub tray_height_m: Metres,
    /// Extra length on every cable for dressing and service loops, percent of the route.
    #[serde(default = "default_slack_percent")]
    pub slack_percent: f64,
    /// Power usage effectiveness: facility power ÷ IT power.
    #[serde(default = "default_pue")]
    pub pue: f64,
    /// Maximum power of one GPU node, kW; the node type's when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_power_kw: Option<Kilowatts>,
    /// Height of one GPU node, U; the node type's when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_rack_units: Option<u32>,
}

pub fn default_rack_units() -> u32 {
    48
}
pub fn default_rack_power_kw() -> Kilowatts {
    Kilowatts::new(50.0)
}
pub fn default_air_limit_kw() -> Kilowatts {
    Kilowatts::new(45.0)
}
fn default_leaves() -> Placement {
    Placement::MiddleOfRow
}
fn default_spines() -> Placement {
    Placement::NetworkRow
}
pub fn default_row_pitch_m() -> Metres {
    // A 7-tile pitch (4.27 m) holds a pair of rows with their hot and cold aisles.
    Metres::new(4.27 / 2.0)
}
pub fn default_rack_width_m() -> Metres {
    Metres::new(0.6)
}
pub fn default_tray_height_m() -> Metres {
    Metres::new(0.6)
}
pub fn default_slack_percent() -> f64 {
    10.0
}
pub fn default_pue() -> f64 {
    1.56
}

/// One of the floor's defaults a design keeps, and why it is what it is.
pub struct DefaultKept {
    pub what: &'static str,
    /// The figure, with its unit.
    pub value: String,
    /// No public source gives it: the site's own figure should replace it.
    pub estimate: bool,
    /// What it rests on, and which figures and findings it decides.
    pub basis: &'static str,
}

/// The floor's defaults `floor` keeps, each with why it is what it is.
pub fn defaults_kept(floor: &Floor) -> Vec<DefaultKept> {
    let defaults = Floor::default();
    let mut out = Vec::new();
    let mut kept = |kept: bool, what, value: String, estimate, basis| {
        if kept {
            out.push(DefaultKept {
                what,
                value,
                estimate,
                basis,
            });
        }
    };
    kept(
        floor.rack_power_kw == defaults.rack_power_kw,
        "rack power budget",
        format!("{} kW per rack", defaults.rack_power_kw.kilowatts()),
        true,
        "no public figure for a site's budget: above the 40.8 kW of four DGX H100 of 10.2 kW each in a rack (DGX H100 User Guide; RA-11333-001), below the about 56 kW of four DGX B300 (DGX SuperPOD B300-XDR reference architecture); decides the rack-over-budget finding and how many switches a network rack holds",
    );
    kept(
        floor.cooling == Cooling::Air && floor.air_limit_kw == defaults.air_limit_kw,
        "air-cooling limit",
        format!("{} kW per rack", defaults.air_limit_kw.kilowatts()),
        true,
        "above the 40.8 kW rack of four air-cooled DGX H100 of 10.2 kW each in NVIDIA's reference architecture (DGX H100 User Guide; RA-11333-001); other operators give 25-30 kW as air's practical limit, so a room without rear-door heat exchangers may need less; decides the rack-past-air-limit finding",
    );
    kept(
        floor.pue == defaults.pue,
        "PUE",
        defaults.pue.to_string(),
        false,
        "the 2024 industry average in the Uptime Institute Global Data Center Survey; decides the facility power",
    );
    kept(
        floor.rack_width_m == defaults.rack_width_m,
        "rack width",
        format!("{} m", defaults.rack_width_m.metres()),
        true,
        "a common width of 19-inch (EIA-310) cabinets; with the row pitch, tray height and slack it decides every cable's length and medium",
    );
    kept(
        floor.row_pitch_m == defaults.row_pitch_m,
        "row pitch",
        format!("{} m", defaults.row_pitch_m.metres()),
        true,
        "half of a 7-tile (4.27 m) pitch, which holds a pair of rows with their hot and cold aisles",
    );
    kept(
        floor.tray_height_m == defaults.tray_height_m,
        "tray height above the racks",
        format!("{} m", defaults.tray_height_m.metres()),
        true,
        "no public figure: measure the site's",
    );
    kept(
        floor.slack_percent == defaults.slack_percent,
        "cable slack",
        format!("{} % of the route", defaults.slack_percent),
        true,
        "no public figure (SADDLE's routing adds none): dressing and service loops",
    );
    out
}

impl Default for Floor {
    fn default() -> Self {
        Floor {
            nodes_per_rack: None,
            rows: None,
            racks_per_row: None,
            rack_units: default_rack_units(),
            rack_power_kw: default_rack_power_kw(),
            feeds: Feeds::default(),
            cooling: Cooling::default(),
            air_limit_kw: default_air_limit_kw(),
            leaves: default_leaves(),
            spines: default_spines(),
            switch_racks: SwitchRacks::default(),
            row_pitch_m: default_row_pitch_m(),
            rack_width_m: default_rack_width_m(),
            tray_height_m: default_tray_height_m(),
            slack_percent: default_slack_percent(),
            pue: default_pue(),
            node_power_kw: None,
            node_rack_units: None,
        }
    }
}
