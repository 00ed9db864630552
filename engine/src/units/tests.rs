use super::*;

#[test]
fn integers_read_exactly_as_the_standard_library_writes_them() {
    let mut values: Vec<u64> = vec![0, 1, 9, 10, 15, 16, 99, 100, 255, 256, u64::MAX];
    values.extend((0..64).map(|b| 1u64 << b));
    values.extend((0..64).map(|b| (1u64 << b) - 1));
    values.extend((0..10_000u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (i % 64)));
    for n in values {
        for width in [0, 1, 2, 5, 16, 21] {
            let mut out = String::from("x");
            push_decimal(&mut out, n, width);
            push_hex(&mut out, n, width);
            assert_eq!(out, format!("x{n:0width$}{n:0width$x}"));
            let mut out = Vec::new();
            push_decimal(&mut out, n, width);
            push_hex(&mut out, n, width);
            assert_eq!(out, format!("{n:0width$}{n:0width$x}").into_bytes());
        }
    }
}

#[test]
fn fixed_point_numbers_read_exactly_as_the_standard_library_writes_them() {
    // Half-way points (exact and within rounding error of one), signs, zero, huge values,
    // then a million values spread over eighteen orders of magnitude.
    let mut values = vec![
        0.125,
        0.375,
        2.5,
        0.005,
        1.005,
        1.015,
        99.95,
        999.5,
        0.0,
        -0.0,
        -0.001,
        -2.5,
        f64::NAN,
        f64::INFINITY,
        1e300,
        4.2e9,
        123_456_789.5,
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    for _ in 0..1_000_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
        let sign = if state & 1 == 0 { 1.0 } else { -1.0 };
        values.push(sign * 10f64.powf(unit * 18.0 - 6.0));
    }
    for x in values {
        for decimals in 0..=5 {
            assert_eq!(
                fixed(x, decimals).to_string(),
                format!("{x:.decimals$}"),
                "{x:e} to {decimals} decimals"
            );
        }
    }
}

#[test]
fn four_hundred_gigabits_per_second_is_fifty_gigabytes_per_second() {
    let rate = BitRate::gbps(400.0).to_byte_rate();
    assert_eq!(rate.as_gigabytes_per_second(), 50.0);
    assert_eq!(rate.to_bit_rate().as_gbps(), 400.0);
}

#[test]
fn moving_bytes_over_a_dead_link_takes_forever_instead_of_panicking() {
    assert_eq!(Bytes(1.0) / ByteRate(0.0), Seconds(f64::INFINITY));
    assert_eq!(Bytes(1.0) / ByteRate(-5.0), Seconds(f64::INFINITY));
}

#[test]
fn quantities_print_with_three_significant_figures_and_their_unit() {
    assert_eq!(Bytes::gigabytes(280.0).to_string(), "280 GB");
    assert_eq!(Seconds::from_millis(42.614).to_string(), "42.6 ms");
    assert_eq!(
        ByteRate::gigabytes_per_second(1250.0).to_string(),
        "1.25 TB/s"
    );
    assert_eq!(BitRate::gbps(25.0).to_string(), "25.0 Gb/s");
    assert_eq!(Seconds(0.0).to_string(), "0 s");
    assert_eq!(Seconds(5.0 * 3600.0).to_string(), "5.00 h");
    assert_eq!(Seconds(1823.0).to_string(), "30.4 min");
    assert_eq!(Seconds(599.0).to_string(), "599 s");
    assert_eq!(Seconds(600.0).to_string(), "10.0 min");
}

#[test]
fn ratios_near_one_keep_two_decimals() {
    assert_eq!(Ratio(1.5).to_string(), "1.50×");
    assert_eq!(Ratio(0.25).to_string(), "0.25×");
    assert_eq!(Ratio(12.34).to_string(), "12.3×");
}

#[test]
fn large_ratios_print_three_significant_figures_with_thousands_separators() {
    assert_eq!(Ratio(85830.69).to_string(), "85,800×");
    assert_eq!(Ratio(123.4).to_string(), "123×");
    assert_eq!(Ratio(1_234_567.0).to_string(), "1,230,000×");
    assert_eq!(Ratio(f64::INFINITY).to_string(), "∞×");
}

#[test]
fn figures_group_their_whole_part_in_thousands_and_keep_their_decimals() {
    assert_eq!(grouped(23_877.44, 1), "23,877.4");
    assert_eq!(grouped(999.95, 1), "1,000.0");
    assert_eq!(grouped(-1_234_567.0, 0), "-1,234,567");
    assert_eq!(grouped(-0.04, 1), "0.0");
    assert_eq!(grouped(12.5, 2), "12.50");
    assert_eq!(thousands(100_000.0), "100,000");
}

#[test]
fn tiny_multiples_stay_multiples_and_never_print_as_zero() {
    // A multiple never switches to percent (a part of a whole is a `Share`).
    assert_eq!(Ratio(0.0042).to_string(), "0.004×");
    assert_eq!(Ratio(0.000_02).to_string(), "< 0.001×");
    assert_eq!(Ratio(0.0).to_string(), "0×");
    assert_eq!(Ratio(f64::NAN).to_string(), "—");
}

#[test]
fn an_entered_quantity_travels_as_the_number_typed_and_meets_base_units_only_by_conversion() {
    // A spec's JSON keeps 17 µs as 17, not 1.7e-5 s: what the architect typed reads back.
    let hop: Micros = serde_json::from_str("17.0").unwrap();
    assert_eq!(serde_json::to_string(&hop).unwrap(), "17.0");
    assert_eq!(hop.micros(), 17.0);
    // Each conversion is the one a bare number took before it was typed, bit for bit.
    assert_eq!(hop.to_seconds(), Seconds::from_micros(17.0));
    assert_eq!(Millis::new(50.0).to_seconds(), Seconds::from_millis(50.0));
    assert_eq!(
        GigabytesPerSecond::new(62.0).to_byte_rate(),
        ByteRate::gigabytes_per_second(62.0)
    );
    assert_eq!(
        GigabitsPerSecond::new(400.0).to_bit_rate(),
        BitRate::gbps(400.0)
    );
    assert_eq!(Gigabytes::new(140.0).to_bytes(), Bytes::gigabytes(140.0));
    // Steps of a latency are a latency; two rates of one unit make a plain share.
    assert_eq!(2.0 * hop + Micros::new(8.4), Micros::new(2.0 * 17.0 + 8.4));
    assert_eq!(
        GigabytesPerSecond::new(370.0) / GigabytesPerSecond::new(450.0),
        370.0 / 450.0
    );
}
