//! Quantities relative to another: how much slower a time is than its reference, and what part
//! of a whole something is. Both read in percent, whatever their size, so that a column, an
//! axis or a target never mixes "0.05×" with "0.88 %".

use super::fixed;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How much longer a time is than the same on its reference (an ideal network, a healthy link,
/// a non-blocking fabric). It holds the time ÷ the reference and reads as the time added, in
/// percent: 1.18 is "18 %", 3.0 (a 4-hour job that takes 12) is "200 %". The search's targets
/// are stated in the same unit.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct Slowdown(f64);

super::linear::number_in! {
    Slowdown: factor, "times the reference";
    Share: fraction, "the whole";
}

impl Slowdown {
    /// The time added, percent of the reference.
    pub fn percent(self) -> f64 {
        (self.0 - 1.0) * 100.0
    }
}

/// A part of a whole (a share of the step, of the time, of a link's speed), read in percent:
/// 0.0088 is "0.88 %", 0.45 is "45 %".
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct Share(f64);

impl Share {
    pub fn percent(self) -> f64 {
        self.0 * 100.0
    }
}

impl fmt::Display for Slowdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        percent(f, self.percent())
    }
}

impl fmt::Display for Share {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        percent(f, self.percent())
    }
}

/// A percentage with as many decimals as its size needs to show a change: "0.88 %", "5.3 %",
/// "18 %", "1,250 %".
fn percent(f: &mut fmt::Formatter<'_>, p: f64) -> fmt::Result {
    if p.is_nan() {
        return f.write_str("—");
    }
    if p.is_infinite() {
        return f.write_str(if p > 0.0 { "∞ %" } else { "−∞ %" });
    }
    let sign = if p < 0.0 { "−" } else { "" };
    let m = p.abs();
    if m == 0.0 {
        f.write_str("0 %")
    } else if m < 0.01 {
        write!(f, "{sign}< 0.01 %")
    } else if m < 1.0 {
        write!(f, "{sign}{} %", fixed(m, 2))
    } else if m < 10.0 {
        write!(f, "{sign}{} %", fixed(m, 1))
    } else {
        write!(f, "{sign}{} %", super::thousands(m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slowdown_reads_as_the_time_it_adds_in_percent() {
        assert_eq!(Slowdown(1.18).to_string(), "18 %");
        assert_eq!(Slowdown(3.0).to_string(), "200 %");
        assert_eq!(Slowdown(1.0088).to_string(), "0.88 %");
        assert_eq!(Slowdown(1.053).to_string(), "5.3 %");
        assert_eq!(Slowdown(1.0).to_string(), "0 %");
        assert_eq!(Slowdown(13.5).to_string(), "1,250 %");
        assert_eq!(Slowdown(1.18).percent(), (1.18 - 1.0) * 100.0);
    }

    #[test]
    fn a_share_reads_in_percent_whatever_its_size() {
        assert_eq!(Share(0.0088).to_string(), "0.88 %");
        assert_eq!(Share(0.05).to_string(), "5.0 %");
        assert_eq!(Share(0.45).to_string(), "45 %");
        assert_eq!(Share(1.0).to_string(), "100 %");
        assert_eq!(Share(0.0).to_string(), "0 %");
        assert_eq!(Share(0.000_01).to_string(), "< 0.01 %");
    }
}
