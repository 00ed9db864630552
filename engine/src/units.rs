//! Quantities with their units. Bits and bytes never meet as bare `f64`: a rate in bits per
//! second becomes a rate in bytes per second only through [`BitRate::to_byte_rate`].
//!
//! Conventions: GB = 10^9 B, GiB = 2^30 B, Gb/s = 10^9 bit/s (as nccl-tests and the datasheets use them).

mod entered;
mod linear;
mod physical;
mod relative;
use borsh::{BorshDeserialize, BorshSerialize};
pub use entered::{
    GigabitsPerSecond, Gigabytes, GigabytesPerSecond, Micros, Millis, Minutes, PerSecond, Teraflops,
};
use linear::{linear_quantity, number_in};
pub use physical::{Kilowatts, Metres, Usd, Watts};
pub use relative::{Share, Slowdown};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Div;

/// An amount of data in bytes.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct Bytes(f64);

/// A data rate in bits per second (how links and NICs are sold: "400 Gb/s").
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct BitRate(f64);

/// A data rate in bytes per second (how collectives and storage are measured: "46 GB/s").
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct ByteRate(f64);

/// A duration in seconds.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct Seconds(f64);

/// A dimensionless multiple (a storage headroom of 2.5 is "2.50×"); a slowdown is a
/// [`Slowdown`] and a part of a whole a [`Share`].
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(transparent)]
pub struct Ratio(f64);

pub const GB: f64 = 1e9;
pub const GIB: f64 = 1_073_741_824.0;
const BITS_PER_BYTE: f64 = 8.0;

impl Bytes {
    pub fn gigabytes(gb: f64) -> Self {
        Bytes(gb * GB)
    }
    pub fn gibibytes(gib: f64) -> Self {
        Bytes(gib * GIB)
    }
    pub fn as_gigabytes(self) -> f64 {
        self.0 / GB
    }
}

impl BitRate {
    pub fn gbps(gigabits_per_second: f64) -> Self {
        BitRate(gigabits_per_second * 1e9)
    }
    pub fn as_gbps(self) -> f64 {
        self.0 / 1e9
    }
    /// The same rate counted in bytes: 400 Gb/s is 50 GB/s.
    pub fn to_byte_rate(self) -> ByteRate {
        ByteRate(self.0 / BITS_PER_BYTE)
    }
}

impl ByteRate {
    pub fn gigabytes_per_second(gb_per_s: f64) -> Self {
        ByteRate(gb_per_s * GB)
    }
    pub fn as_gigabytes_per_second(self) -> f64 {
        self.0 / GB
    }
    /// The same rate counted in bits: 50 GB/s is 400 Gb/s.
    pub fn to_bit_rate(self) -> BitRate {
        BitRate(self.0 * BITS_PER_BYTE)
    }
}

impl Seconds {
    pub fn from_millis(ms: f64) -> Self {
        Seconds(ms / 1e3)
    }
    pub fn from_micros(us: f64) -> Self {
        Seconds(us / 1e6)
    }
    pub fn as_millis(self) -> f64 {
        self.0 * 1e3
    }
    pub fn as_micros(self) -> f64 {
        self.0 * 1e6
    }
}

/// Time to move `bytes` at `rate`. A zero or negative rate gives an infinite time rather than a
/// panic or a NaN: validation refuses such rates before they reach a model.
impl Div<ByteRate> for Bytes {
    type Output = Seconds;
    fn div(self, rate: ByteRate) -> Seconds {
        if rate.0 > 0.0 {
            Seconds(self.0 / rate.0)
        } else {
            Seconds(f64::INFINITY)
        }
    }
}

linear_quantity!(Bytes, BitRate, ByteRate, Seconds, Ratio);
number_in! {
    Bytes: bytes, "bytes";
    BitRate: bits_per_second, "bits per second";
    ByteRate: bytes_per_second, "bytes per second";
    Seconds: seconds, "seconds";
    Ratio: get, "times";
}

/// Writes `value` with an SI prefix chosen so that the mantissa is below 1000, keeping three
/// significant figures ("280 GB", "42.6 ms", "1.25 TB/s").
pub(crate) fn write_si(
    f: &mut fmt::Formatter<'_>,
    value: f64,
    unit: &str,
    prefixes: &[(f64, &str)],
) -> fmt::Result {
    if !value.is_finite() {
        return write!(f, "∞ {unit}");
    }
    let magnitude = value.abs();
    if magnitude == 0.0 {
        return write!(f, "0 {unit}");
    }
    let (scale, prefix) = prefixes
        .iter()
        .copied()
        .find(|(scale, _)| magnitude >= *scale)
        .unwrap_or(prefixes[prefixes.len() - 1]);
    let mantissa = value / scale;
    let decimals = if mantissa.abs() >= 100.0 {
        0
    } else if mantissa.abs() >= 10.0 {
        1
    } else {
        2
    };
    write_fixed(f, mantissa, decimals)?;
    write!(f, " {prefix}{unit}")
}

/// Writes `x` with `decimals` digits after the point, exactly as `{x:.decimals$}` does. The
/// standard library expands every float to its exact decimal first, which made number formatting
/// most of an evaluation's time (the planner writes about a hundred numbers per keystroke). Here
/// the value is scaled and rounded in integers; only a value within rounding error of a half-way
/// point, or too large for the integers to be exact, goes the standard library's way.
pub(crate) fn write_fixed(f: &mut fmt::Formatter<'_>, x: f64, decimals: usize) -> fmt::Result {
    const SCALES: [u64; 5] = [1, 10, 100, 1_000, 10_000];
    let Some(&scale) = SCALES.get(decimals) else {
        return write!(f, "{x:.decimals$}");
    };
    let scaled = x.abs() * scale as f64;
    // Below 1e9 the product is within 1e-7 of the exact one; NaN and infinities fail the test.
    if !scaled.is_finite() || scaled >= 1e9 {
        return write!(f, "{x:.decimals$}");
    }
    let whole = scaled.floor();
    let fraction = scaled - whole;
    if (fraction - 0.5).abs() < 1e-6 {
        return write!(f, "{x:.decimals$}");
    }
    let mut rounded = whole as u64 + u64::from(fraction > 0.5);
    // Digits are written from the right into a buffer: "-", up to ten digits, ".", four.
    let mut buffer = [0u8; 20];
    let mut at = buffer.len();
    for place in 0.. {
        if place == decimals && decimals > 0 {
            at -= 1;
            buffer[at] = b'.';
        }
        at -= 1;
        buffer[at] = b'0' + (rounded % 10) as u8;
        rounded /= 10;
        if rounded == 0 && place >= decimals {
            break;
        }
    }
    if x.is_sign_negative() {
        at -= 1;
        buffer[at] = b'-';
    }
    // Only ASCII digits, a point and a minus sign were written.
    f.write_str(std::str::from_utf8(&buffer[at..]).unwrap_or_default())
}

/// Text that digits are appended to: a `String`, or the bytes of a large file being written
/// (which is checked as UTF-8 once, at the end, rather than number by number).
pub(crate) trait Ascii {
    /// Appends `bytes`, which are ASCII.
    fn push_ascii(&mut self, bytes: &[u8]);
}

impl Ascii for String {
    fn push_ascii(&mut self, bytes: &[u8]) {
        // Byte by byte: checking a few bytes as UTF-8 would cost more than pushing them. The
        // mask is no change to ASCII, and tells the compiler that each char is one byte.
        self.extend(bytes.iter().map(|b| char::from(b & 0x7f)));
    }
}

impl Ascii for Vec<u8> {
    fn push_ascii(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Appends `n` in `RADIX` (10 or 16, lower case), zero-padded to at least `width` digits, as
/// `{n:0width$}` and `{n:0width$x}` write it. The hand-off files and the cabling sheet write a
/// few hundred thousand port numbers, labels and GUIDs, where `fmt`'s machinery costs several
/// times the digits themselves.
fn push_digits<const RADIX: u64>(out: &mut impl Ascii, mut n: u64, width: usize) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    // Filled with zeros, so that padding up to its length is only a matter of where to start.
    let mut buffer = [b'0'; 20];
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = DIGITS[(n % RADIX) as usize];
        n /= RADIX;
        if n == 0 {
            break;
        }
    }
    for _ in buffer.len()..width {
        out.push_ascii(b"0");
    }
    out.push_ascii(&buffer[at.min(buffer.len().saturating_sub(width))..]);
}

/// Appends `n` in decimal, zero-padded to at least `width` digits (`{n:0width$}`).
pub(crate) fn push_decimal(out: &mut impl Ascii, n: u64, width: usize) {
    push_digits::<10>(out, n, width);
}

/// Appends `n` in lower-case hexadecimal, zero-padded to at least `width` digits
/// (`{n:0width$x}`).
pub(crate) fn push_hex(out: &mut impl Ascii, n: u64, width: usize) {
    push_digits::<16>(out, n, width);
}

/// `x` with `decimals` digits after the point, as [`write_fixed`] writes it.
pub(crate) fn fixed(x: f64, decimals: usize) -> impl fmt::Display {
    struct Fixed(f64, usize);
    impl fmt::Display for Fixed {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_fixed(f, self.0, self.1)
        }
    }
    Fixed(x, decimals)
}

pub(crate) const DECIMAL_PREFIXES: &[(f64, &str)] = &[
    (1e15, "P"),
    (1e12, "T"),
    (1e9, "G"),
    (1e6, "M"),
    (1e3, "k"),
    (1.0, ""),
];

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_si(f, self.0, "B", DECIMAL_PREFIXES)
    }
}

impl fmt::Display for BitRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_si(f, self.0, "b/s", DECIMAL_PREFIXES)
    }
}

impl fmt::Display for ByteRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_si(f, self.0, "B/s", DECIMAL_PREFIXES)
    }
}

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const TIME_PREFIXES: &[(f64, &str)] = &[(1.0, ""), (1e-3, "m"), (1e-6, "µ"), (1e-9, "n")];
        if self.0 >= 3600.0 && self.0.is_finite() {
            return write!(f, "{:.2} h", self.0 / 3600.0);
        }
        // From ten minutes a time reads in minutes ("30.4 min", not "1823 s").
        if self.0 >= 600.0 && self.0.is_finite() {
            return write!(f, "{:.1} min", self.0 / 60.0);
        }
        write_si(f, self.0, "s", TIME_PREFIXES)
    }
}

/// Ratios print with the precision a reader can use: "1.50×", "12.3×"; from 100× on three
/// significant figures without decimals ("85,800×", where 85830.69× claims a precision no
/// input has); below 1 % as a percentage ("0.42 %", and "< 0.01 %" rather than "0.00×", which
/// reads as nothing at all).
impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.0;
        if r.is_nan() {
            return f.write_str("—");
        }
        if r.is_infinite() {
            return f.write_str(if r > 0.0 { "∞×" } else { "−∞×" });
        }
        let sign = if r < 0.0 { "−" } else { "" };
        let m = r.abs();
        if m == 0.0 {
            f.write_str("0×")
        } else if m < 0.001 {
            // A multiple stays a multiple, however small: a part of a whole is a `Share`.
            write!(f, "{sign}< 0.001×")
        } else if m < 0.01 {
            write!(f, "{sign}{}×", fixed(m, 3))
        } else if m < 10.0 {
            write!(f, "{sign}{}×", fixed(m, 2))
        } else if m < 100.0 {
            write!(f, "{sign}{}×", fixed(m, 1))
        } else {
            write!(f, "{sign}{}×", thousands(three_significant(m)))
        }
    }
}

/// `x` rounded to three significant figures (`85830.69` → `85800`).
fn three_significant(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let step = 10f64.powi(x.abs().log10().floor() as i32 - 2);
    (x / step).round() * step
}

/// A figure for a sentence: whole numbers from 1,000 up, fewer decimals as figures grow.
pub fn rounded(v: f64) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    let decimals = match v.abs() {
        a if a >= 1000.0 => return thousands(v),
        a if a >= 10.0 => 1,
        a if a >= 1.0 => 2,
        _ => 4,
    };
    let text = format!("{v:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// A whole number with thousands separators: "85,800".
pub fn thousands(x: f64) -> String {
    grouped(x, 0)
}

/// `x` to `decimals` places, its whole part in thousands: "23,877.4".
pub fn grouped(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return "∞".into();
    }
    let mut text = fixed(x.abs(), decimals).to_string();
    let mut at = text.find('.').unwrap_or(text.len());
    while at > 3 {
        at -= 3;
        text.insert(at, ',');
    }
    if x < 0.0 && text.bytes().any(|b| matches!(b, b'1'..=b'9')) {
        text.insert(0, '-');
    }
    text
}

impl Seconds {
    pub fn max(self, other: Seconds) -> Seconds {
        if other.0 > self.0 {
            other
        } else {
            self
        }
    }

    pub fn min(self, other: Seconds) -> Seconds {
        if other.0 < self.0 {
            other
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests;
