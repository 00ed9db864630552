//! Rules of the physical layout: a rack must hold at least one node, rows and racks are counted
//! from one, and no length or power is negative.

use super::{At, Checker};
use crate::catalog::chassis;
use crate::spec::{DesignSpec, Placement};

pub const MAX_RACK_UNITS: u32 = 60;
pub const MAX_ROWS: u32 = 10_000;

pub(super) fn floor(check: &mut Checker, spec: &DesignSpec) {
    let f = &spec.floor;
    let at = "floor";
    check.count(At(at, "rack_units"), f.rack_units, 1, MAX_RACK_UNITS);
    if let Some(u) = f.node_rack_units {
        check.count(At(at, "node_rack_units"), u, 1, MAX_RACK_UNITS);
    }
    if let Some(kw) = f.node_power_kw {
        check.positive(At(at, "node_power_kw"), kw.kilowatts(), 1000.0, " kW");
    }
    let node_u = f
        .node_rack_units
        .unwrap_or_else(|| chassis(&spec.cluster).rack_units);
    if (1..=MAX_RACK_UNITS).contains(&f.rack_units) && f.rack_units < node_u {
        check.fail(
            At(at, "rack_units"),
            format!("a {}U rack cannot hold one {node_u}U node", f.rack_units),
        );
    }
    if let Some(n) = f.nodes_per_rack {
        check.count(At(at, "nodes_per_rack"), n, 1, MAX_RACK_UNITS);
        if n >= 1 && u64::from(n) * u64::from(node_u) > u64::from(f.rack_units) {
            check.fail(
                At(at, "nodes_per_rack"),
                format!("{n} nodes of {node_u}U do not fit a {}U rack", f.rack_units),
            );
        }
    }
    if let Some(rows) = f.rows {
        check.count(At(at, "rows"), rows, 1, MAX_ROWS);
    }
    if let Some(racks) = f.racks_per_row {
        check.count(At(at, "racks_per_row"), racks, 1, MAX_ROWS);
    }
    if let (Some(rows), Some(per_row)) = (f.rows, f.racks_per_row) {
        let per_rack = f
            .nodes_per_rack
            .unwrap_or_else(|| chassis(&spec.cluster).nodes_per_rack)
            .max(1);
        let racks = spec.cluster.nodes.div_ceil(per_rack);
        if rows >= 1 && u64::from(rows) * u64::from(per_row) < u64::from(racks) {
            check.fail(
                At(at, "rows"),
                format!("{rows} rows of {per_row} racks hold fewer than the {racks} compute racks"),
            );
        }
    }
    check.positive(
        At(at, "rack_power_kw"),
        f.rack_power_kw.kilowatts(),
        1000.0,
        " kW",
    );
    check.positive(
        At(at, "air_limit_kw"),
        f.air_limit_kw.kilowatts(),
        1000.0,
        " kW",
    );
    check.positive(At(at, "row_pitch_m"), f.row_pitch_m.metres(), 100.0, " m");
    check.positive(At(at, "rack_width_m"), f.rack_width_m.metres(), 5.0, " m");
    check.number(
        At(at, "tray_height_m"),
        f.tray_height_m.metres(),
        0.0,
        false,
        10.0,
        " m",
    );
    check.number(
        At(at, "slack_percent"),
        f.slack_percent,
        0.0,
        false,
        100.0,
        " %",
    );
    check.number(At(at, "pue"), f.pue, 1.0, false, 5.0, "");
    if f.spines == Placement::TopOfRack {
        check.fail(
            At(at, "spines"),
            "spines stand in network racks: middle of row, end of row or the network row",
        );
    }
}
