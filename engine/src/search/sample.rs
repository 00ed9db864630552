//! Where a sampled search looks: a quasi-random sequence spread evenly over every freedom at
//! once, so that a sample of a space too large to visit represents all of it whatever the order
//! of the request's lists.
//!
//! Draw `k` is the point frac(½ + (k + seed)·α_d) in each dimension d, with α_d = g^−(d+1) and g
//! the positive root of x^(D+1) = x + 1 for D dimensions: the R_D sequence of Roberts, "The
//! unreasonable effectiveness of quasirandom sequences" (2018), a Kronecker sequence whose
//! points fill every dimension and every pair of dimensions evenly. The point is scaled to each
//! dimension's number of values; the fractions are kept as 64-bit fixed point so that draw ten
//! million lands where draw one does.

/// The R_D sequence over `dimensions` dimensions, started `seed` draws in.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sequence {
    /// α_d as a fraction of 2^64.
    steps: Vec<u64>,
    seed: u64,
}

/// ½ as a fraction of 2^64.
const HALF: u64 = 1 << 63;

impl Sequence {
    pub fn new(dimensions: usize, seed: u64) -> Sequence {
        let dimensions = dimensions.max(1);
        // g: the positive root of x^(D+1) = x + 1, by Newton's method from 2 (it converges
        // from above: g lies in (1, 2) and the function is convex there).
        let power = dimensions as i32 + 1;
        let mut g = 2.0f64;
        for _ in 0..64 {
            let next = g - (g.powi(power) - g - 1.0) / (f64::from(power) * g.powi(power - 1) - 1.0);
            if (next - g).abs() < 1e-15 {
                break;
            }
            g = next;
        }
        let steps = (1..=dimensions as i32)
            .map(|d| {
                let alpha = g.powi(-d).fract();
                // alpha in (0, 1): its 64-bit fixed-point fraction.
                (alpha * 2f64.powi(64)) as u64
            })
            .collect();
        Sequence { steps, seed }
    }

    /// Draw `k`'s value in dimension `d`, scaled to one of `values` values.
    pub fn value(&self, k: u64, d: usize, values: usize) -> usize {
        let step = self.steps[d % self.steps.len()];
        let at = HALF.wrapping_add(k.wrapping_add(self.seed).wrapping_mul(step));
        ((u128::from(at) * values as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_golden_ratio_is_the_one_dimensional_step() {
        let s = Sequence::new(1, 0);
        let alpha = s.steps[0] as f64 / 2f64.powi(64);
        assert!((alpha - 0.618_033_988_749_895).abs() < 1e-12, "{alpha}");
    }

    #[test]
    fn every_dimension_is_filled_evenly() {
        // 1,000 draws over three dimensions of 7, 10 and 32 values: each value drawn within
        // a few of its even share.
        let s = Sequence::new(3, 0);
        for (d, values) in [(0, 7), (1, 10), (2, 32)] {
            let mut counts = vec![0u32; values];
            for k in 0..1000 {
                counts[s.value(k, d, values)] += 1;
            }
            let even = 1000.0 / values as f64;
            for c in counts {
                assert!(
                    (f64::from(c) - even).abs() <= 3.0,
                    "dimension {d}: {c} against {even}"
                );
            }
        }
    }

    #[test]
    fn every_pair_of_values_of_two_dimensions_is_drawn() {
        let s = Sequence::new(4, 7);
        let mut seen = [[false; 8]; 8];
        for k in 0..256 {
            seen[s.value(k, 1, 8)][s.value(k, 3, 8)] = true;
        }
        assert!(seen.iter().flatten().all(|&x| x));
    }
}
