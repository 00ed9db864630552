//! Money, power and length: what a design costs, draws and runs. Each travels as its plain number
//! in JSON (the field names keep the unit: `cost_usd`, `power_w`, `load_kw`, `length_m`), and
//! watts meet kilowatts only through [`Watts::to_kilowatts`] and [`Kilowatts::to_watts`].
//!
//! Inside the floor's walk, which counts every cable of a design on every evaluation, lengths and
//! power stay plain numbers named for their unit (`route_m`, `power_w`) and take their type where
//! they leave it; so do the search's objectives, compared as one vector with NaN for a candidate
//! not evaluated.
//!
//! None of them implements `Display`: each file and page writes its own form (a CSV a bare
//! number, a page "$946,040" or "28.8 kW"), so writing one takes its number (`cost.dollars()`, `load.kilowatts()`) on purpose.

use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// Money in US dollars (list prices and estimates).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct Usd(f64);

/// Electrical power in watts (a switch, an optic, a fabric).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct Watts(f64);

/// Electrical power in kilowatts (a node, a rack, a facility).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct Kilowatts(f64);

/// A length in metres (a cable, a route, a rack's width).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct Metres(f64);

impl Watts {
    pub fn to_kilowatts(self) -> Kilowatts {
        Kilowatts(self.0 / 1e3)
    }
}

impl Kilowatts {
    pub fn to_watts(self) -> Watts {
        Watts(self.0 * 1e3)
    }
}

super::linear::linear_quantity!(Usd, Watts, Kilowatts, Metres);
super::linear::number_in! {
    Usd: dollars, "US dollars";
    Watts: watts, "watts";
    Kilowatts: kilowatts, "kilowatts";
    Metres: metres, "metres";
}
