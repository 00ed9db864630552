use super::*;

#[test]
fn axis_numbers_keep_three_significant_digits() {
    assert_eq!(axis_number(10000.0), "10,000");
    assert_eq!(axis_number(10_000_000.0), "10,000,000");
    assert_eq!(axis_number(-2500.0), "-2,500");
    assert_eq!(axis_number(12.5), "12.5");
    assert_eq!(axis_number(0.125), "0.125");
    assert_eq!(axis_number(1.0), "1");
    assert_eq!(axis_number(0.0), "0");
}
use engine::{ByteRate, Seconds, Share, Slowdown, Technology};

#[test]
fn a_headroom_chart_is_svg_with_the_tiers_and_the_bottleneck() {
    let tiers = vec![
        TierHeadroom {
            tier: "node-leaf".into(),
            available: ByteRate::new(6e12),
            required: ByteRate::new(1e10),
            headroom_percent: Some(59900.0),
            formula: "".into(),
        },
        TierHeadroom {
            tier: "leaf-spine".into(),
            available: ByteRate::new(3e12),
            required: ByteRate::new(4e12),
            headroom_percent: Some(-25.0),
            formula: "".into(),
        },
    ];
    let svg = headroom("compute", &tiers, Some("leaf-spine"));
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("leaf-spine (bottleneck)"));
    assert!(
        svg.contains("#A4161A") || svg.contains("#a4161a"),
        "the short tier is drawn in red"
    );
}

#[test]
fn the_other_charts_draw_their_points() {
    let tech = technologies(
        &[TechnologyPoint {
            technology: Technology::IbNdr,
            switch: "qm9700".into(),
            switch_reason: None,
            communication: Seconds::new(0.5),
            network_cost_usd: engine::Usd::new(1e6),
            critical_findings: 0,
        }],
        "per step",
    );
    assert!(tech.contains("IB NDR 400G"));
    let scale = scaling(&[
        ScalingPoint {
            nodes: 8,
            step_time: Seconds::new(10.0),
            communication_share: Share::new(0.1),
        },
        ScalingPoint {
            nodes: 64,
            step_time: Seconds::new(12.0),
            communication_share: Share::new(0.3),
        },
    ]);
    assert!(scale.contains("<polyline") || scale.contains("<path"));
    let degraded = degraded(&[
        DegradedPoint {
            remaining: Share::new(1.0),
            slowdown: Slowdown::new(1.0),
        },
        DegradedPoint {
            remaining: Share::new(0.5),
            slowdown: Slowdown::new(1.8),
        },
    ]);
    assert!(degraded.contains("<svg"));
}

#[test]
fn a_rate_axis_is_in_the_unit_of_its_lowest_value() {
    assert_eq!(rate_unit(4e10), (1e9, "GB/s"));
    assert_eq!(rate_unit(1.5e13), (1e12, "TB/s"));
    assert_eq!(rate_unit(2e15), (1e15, "PB/s"));
}
