//! Numbers written into worked formulas that have no unit type of their own: counts of
//! parameters, tokens and GPUs, and FLOP rates.

use std::fmt;

/// A count with three significant figures and a word for its size: "70.0 billion",
/// "4.19 million", "8,192".
pub struct Count(pub f64);

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const WORDS: &[(f64, &str)] = &[(1e12, "trillion"), (1e9, "billion"), (1e6, "million")];
        let x = self.0;
        if let Some((scale, word)) = WORDS.iter().find(|(scale, _)| x.abs() >= *scale) {
            let mantissa = x / scale;
            let decimals = significant_decimals(mantissa);
            crate::units::write_fixed(f, mantissa, decimals)?;
            return write!(f, " {word}");
        }
        if x.fract() == 0.0 {
            f.write_str(&crate::units::thousands(x))
        } else {
            crate::units::write_fixed(f, x, significant_decimals(x))
        }
    }
}

/// A compute rate, "989 TFLOP/s".
pub struct FlopRate(pub f64);

impl fmt::Display for FlopRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::units::write_si(f, self.0, "FLOP/s", crate::units::DECIMAL_PREFIXES)
    }
}

/// Decimals that keep three significant figures of `x`.
fn significant_decimals(x: f64) -> usize {
    let magnitude = x.abs();
    if magnitude >= 100.0 {
        0
    } else if magnitude >= 10.0 {
        1
    } else if magnitude >= 1.0 || magnitude == 0.0 {
        2
    } else {
        // 0.0421 → 4 decimals.
        (2.0 - magnitude.log10().floor()).clamp(2.0, 12.0) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_in_words_with_three_significant_figures() {
        assert_eq!(Count(70e9).to_string(), "70.0 billion");
        assert_eq!(Count(4_194_304.0).to_string(), "4.19 million");
        assert_eq!(Count(8192.0).to_string(), "8,192");
        assert_eq!(Count(0.5).to_string(), "0.500");
        assert_eq!(FlopRate(989e12).to_string(), "989 TFLOP/s");
    }
}
