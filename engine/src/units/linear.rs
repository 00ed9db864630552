//! The arithmetic every quantity shares.

/// Sums, differences and scaling of one unit; every quantity of [`super`] has them.
macro_rules! linear_quantity {
    ($($unit:ident),*) => {$(
        impl std::ops::Add for $unit {
            type Output = $unit;
            fn add(self, other: $unit) -> $unit {
                $unit(self.0 + other.0)
            }
        }
        impl std::ops::Sub for $unit {
            type Output = $unit;
            fn sub(self, other: $unit) -> $unit {
                $unit(self.0 - other.0)
            }
        }
        impl std::ops::AddAssign for $unit {
            fn add_assign(&mut self, other: $unit) {
                self.0 += other.0;
            }
        }
        impl std::iter::Sum for $unit {
            fn sum<I: Iterator<Item = $unit>>(items: I) -> $unit {
                // Added in order from zero, as a sum of the bare numbers would be.
                $unit(items.fold(0.0, |total, x| total + x.0))
            }
        }
        impl<'a> std::iter::Sum<&'a $unit> for $unit {
            fn sum<I: Iterator<Item = &'a $unit>>(items: I) -> $unit {
                items.copied().sum()
            }
        }
        impl std::ops::MulAssign<f64> for $unit {
            fn mul_assign(&mut self, factor: f64) {
                self.0 *= factor;
            }
        }
        impl std::ops::Mul<f64> for $unit {
            type Output = $unit;
            fn mul(self, factor: f64) -> $unit {
                $unit(self.0 * factor)
            }
        }
        /// So many times a quantity (steps of a latency).
        impl std::ops::Mul<$unit> for f64 {
            type Output = $unit;
            fn mul(self, quantity: $unit) -> $unit {
                $unit(self * quantity.0)
            }
        }
        /// How many times one quantity holds another of the same unit.
        impl std::ops::Div for $unit {
            type Output = f64;
            fn div(self, other: $unit) -> f64 {
                self.0 / other.0
            }
        }
        impl std::ops::Div<f64> for $unit {
            type Output = $unit;
            fn div(self, divisor: f64) -> $unit {
                $unit(self.0 / divisor)
            }
        }
    )*};
}
pub(crate) use linear_quantity;

/// The only ways into and out of a quantity: from its number in its unit, and its number,
/// each named for the unit so that a conversion reads where it is written.
macro_rules! number_in {
    ($($unit:ident: $get:ident, $what:literal;)*) => {$(
        impl $unit {
            #[doc = concat!("The quantity of so many ", $what, ".")]
            #[inline]
            pub const fn new(value: f64) -> $unit {
                $unit(value)
            }
            #[doc = concat!("Its number of ", $what, ".")]
            #[inline]
            pub const fn $get(self) -> f64 {
                self.0
            }
        }
    )*};
}
pub(crate) use number_in;
