//! Pictures of the floor as SVG text, for the web app to embed: deterministic, every label
//! escaped.

use super::FloorReport;
use crate::units::Kilowatts;
use std::fmt::Write;

/// Text safe inside SVG elements and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The bands of a rack's load against its budget, lightest first: up to the share (of 1) each
/// holds, its colour and what it means (green when light, through amber, to red over it).
const HEAT: [(f64, &str, &str); 5] = [
    (0.4, "#f7fcb9", "up to 40 % of budget"),
    (0.7, "#d9f0a3", "40–70 %"),
    (0.9, "#fdcc8a", "70–90 %"),
    (1.0, "#fc8d59", "90–100 %"),
    (f64::INFINITY, "#d7301f", "over budget"),
];

/// Fill colour of a rack drawing `load` against `budget`.
fn heat(load: Kilowatts, budget: Kilowatts) -> &'static str {
    let share = if budget.kilowatts() > 0.0 {
        load.kilowatts() / budget.kilowatts()
    } else {
        1.0
    };
    HEAT.iter()
        .find(|(most, _, _)| share <= *most)
        .map_or(HEAT[HEAT.len() - 1].1, |(_, colour, _)| colour)
}

/// Pixels per metre of the floor plan.
const SCALE: f64 = 40.0;
const MARGIN: f64 = 20.0;

/// Racks a floor plan draws one by one. A larger floor is drawn smaller, its rows in columns
/// side by side (without the cables' routes, which would cross from one column to another),
/// and the racks side by side in a row that take one colour drawn as one block (titled with the
/// racks it holds), so that a floor of thousands of racks stays a picture of its rows rather
/// than thousands of shapes.
pub const RACKS_DRAWN_ONE_BY_ONE: usize = 1_000;
/// The most pixels a column of a large floor's plan takes down the page.
const MOST_PX: f64 = 1_200.0;
/// Pixels of one rack's width on a large floor's plan.
const BLOCK_RACK_PX: f64 = 6.0;
/// Pixels between two racks side by side, at [`SCALE`].
const RACK_GAP_PX: f64 = 2.0;

/// The floor plan: rows of racks seen from above, coloured by power against the rack budget,
/// with the tray routes of the longest cables.
pub fn floor_plan(floor: &FloorReport) -> String {
    let legend = HEAT.map(|(_, colour, meaning)| (colour, meaning));
    drawn(
        floor,
        |_, rack| {
            (
                heat(rack.load_kw, floor.rack_power_kw),
                format!("{} {:.1} kW", rack.name, rack.load_kw.kilowatts()),
            )
        },
        true,
        &legend,
    )
}

/// Colours of the phases on [`floor_plan_by_phase`], the first phase darkest.
pub const PHASE_COLOURS: [&str; 8] = [
    "#08519c", "#3182bd", "#6baed6", "#9ecae1", "#c6dbef", "#e5d8bd", "#fddaec", "#f2f2f2",
];

/// The floor plan with each rack coloured by the phase that first uses it (`phase_of[i]` of
/// rack i, an index into `labels`): the racks a phase keeps for later ones stand out.
pub fn floor_plan_by_phase(floor: &FloorReport, phase_of: &[usize], labels: &[String]) -> String {
    let colour = |p: usize| PHASE_COLOURS[p.min(PHASE_COLOURS.len() - 1)];
    let legend: Vec<(&str, &str)> = labels
        .iter()
        .enumerate()
        .map(|(p, label)| (colour(p), label.as_str()))
        .collect();
    drawn(
        floor,
        |i, rack| {
            let p = phase_of.get(i).copied().unwrap_or(0);
            let label = labels.get(p).map_or("", String::as_str);
            (colour(p), format!("{}: {label}", rack.name))
        },
        false,
        &legend,
    )
}

/// Rows of racks seen from above, each filled as `fill` (its index and the rack) says with the
/// title it gives; with the tray routes of the longest cables when `routes`, and a line of
/// `legend` entries (colour, label) under the rows. A floor of more than
/// [`RACKS_DRAWN_ONE_BY_ONE`] racks is drawn smaller, in blocks of racks of one colour.
pub(crate) fn drawn(
    floor: &FloorReport,
    fill: impl Fn(usize, &super::Rack) -> (&'static str, String),
    routes: bool,
    legend: &[(&str, &str)],
) -> String {
    let width_m = floor.rack_width_m.metres().max(0.1);
    let pitch_m = floor.row_pitch_m.metres();
    let depth = (pitch_m * 0.45).clamp(0.3, 1.2);
    let positions = floor
        .racks
        .iter()
        .map(|r| r.position + 1)
        .max()
        .unwrap_or(1);
    let in_blocks = floor.racks.len() > RACKS_DRAWN_ONE_BY_ONE;
    // A large floor: racks a few pixels wide, and its rows in columns of as many as fit
    // [`MOST_PX`], side by side, so that the picture keeps its rows legible.
    let (scale, per_column) = if in_blocks {
        let scale = SCALE.min(BLOCK_RACK_PX / width_m);
        let per_column = (MOST_PX / (pitch_m.max(0.1) * scale)).floor().max(1.0) as u32;
        (scale, per_column)
    } else {
        (SCALE, floor.rows.max(1))
    };
    let rows = floor.rows.max(1);
    let columns = rows.div_ceil(per_column);
    let row_w = f64::from(positions) * width_m * scale;
    let column_w = row_w + 80.0;
    let w = (2.0 * MARGIN + f64::from(columns) * column_w)
        .max(2.0 * MARGIN + legend.len() as f64 * LEGEND_PX);
    let rows_h = 2.0 * MARGIN + f64::from(rows.min(per_column)) * pitch_m * scale;
    let h = rows_h + if legend.is_empty() { 20.0 } else { 40.0 };
    // Where a point `along` metres down row `row` is drawn.
    let at = |row: u32, along: f64| {
        (
            MARGIN + f64::from(row / per_column) * column_w + along * scale,
            MARGIN + f64::from(row % per_column) * pitch_m * scale,
        )
    };
    let blocks = blocks(floor, &fill, in_blocks);
    let mut s = String::with_capacity(200 + blocks.len() * 220);
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.0} {h:.0}" width="{w:.0}" height="{h:.0}" font-family="sans-serif" font-size="9"><title>Floor plan</title>"##
    );
    let gap = RACK_GAP_PX * scale / SCALE;
    for Block {
        first,
        racks,
        colour,
        title,
    } in blocks
    {
        let rack = &floor.racks[first];
        let stroke = if rack.network { "#2b5b84" } else { "#555" };
        let title = match racks {
            1 => title,
            n => {
                let meaning = legend
                    .iter()
                    .find(|(c, _)| *c == colour)
                    .map_or(String::new(), |(_, label)| format!(", {label}"));
                format!(
                    "{} to {}: {} racks{meaning}",
                    rack.name,
                    floor.racks[first + n - 1].name,
                    crate::units::thousands(n as f64)
                )
            }
        };
        let (rx, ry) = at(rack.row, f64::from(rack.position) * width_m);
        let _ = write!(
            s,
            r##"<g><title>{}</title><rect x="{rx:.1}" y="{ry:.1}" width="{:.1}" height="{:.1}" fill="{colour}" stroke="{stroke}"{}/></g>"##,
            escape(&title),
            racks as f64 * width_m * scale - gap,
            depth * scale,
            if in_blocks {
                r##" stroke-width="0.5""##
            } else {
                ""
            },
        );
    }
    // Every row is named where rows are far enough apart for a line of text, else every few.
    let every = (12.0 / (pitch_m * scale).max(0.1)).ceil().max(1.0) as usize;
    for row in (0..floor.rows).step_by(every) {
        let (lx, ly) = at(row, 0.0);
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.1}">Row {}</text>"##,
            lx + row_w + 6.0,
            ly + 12.0_f64.min(depth * scale + 8.0),
            row + 1
        );
    }
    // Tray routes: up from each rack, along the row, across the rows (not on a large floor,
    // whose columns of rows a route would cross where it does not run).
    for route in floor.longest.iter().filter(|_| routes && !in_blocks) {
        let x = |m: f64| MARGIN + m * scale;
        let (ax, ay) = (x(route.a_xy.0 + width_m / 2.0), x(route.a_xy.1));
        let (zx, zy) = (x(route.z_xy.0 + width_m / 2.0), x(route.z_xy.1));
        let _ = write!(
            s,
            r##"<polyline points="{ax:.1},{ay:.1} {zx:.1},{ay:.1} {zx:.1},{zy:.1}" fill="none" stroke="#6a3d9a" stroke-width="1.5"><title>{} {} {} to {}: {:.1} m</title></polyline>"##,
            escape(&route.fabric),
            escape(&route.tier),
            escape(&route.a_rack),
            escape(&route.z_rack),
            route.route_m.metres()
        );
    }
    for (i, (colour, label)) in legend.iter().enumerate() {
        let lx = MARGIN + i as f64 * LEGEND_PX;
        let _ = write!(
            s,
            r##"<rect x="{lx:.1}" y="{:.1}" width="10" height="10" fill="{colour}" stroke="#555"/><text x="{:.1}" y="{:.1}">{}</text>"##,
            rows_h + 4.0,
            lx + 14.0,
            rows_h + 13.0,
            escape(label)
        );
    }
    s.push_str("</svg>");
    s
}

/// Racks drawn as one shape: `racks` racks from rack `first`, side by side in one row, of one
/// colour and kind (network or not); the title is the first rack's own.
struct Block {
    first: usize,
    racks: usize,
    colour: &'static str,
    title: String,
}

/// The floor's racks, each a block of its own, or (`in_blocks`) gathered into blocks of the
/// racks side by side that take one colour.
fn blocks(
    floor: &FloorReport,
    fill: &impl Fn(usize, &super::Rack) -> (&'static str, String),
    in_blocks: bool,
) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for (i, rack) in floor.racks.iter().enumerate() {
        let (colour, title) = fill(i, rack);
        if let Some(last) = out.last_mut().filter(|_| in_blocks) {
            let before = &floor.racks[i - 1];
            let joins = before.row == rack.row
                && before.position + 1 == rack.position
                && before.network == rack.network
                && last.colour == colour;
            if joins {
                last.racks += 1;
                continue;
            }
        }
        out.push(Block {
            first: i,
            racks: 1,
            colour,
            title,
        });
    }
    out
}

/// Width of one entry of a floor plan's legend.
const LEGEND_PX: f64 = 130.0;

const U_PX: f64 = 6.0;
const RACK_PX: f64 = 90.0;
const GAP_PX: f64 = 14.0;

/// Rack elevations: every rack from the front, what stands in which U, in rows as on the floor.
pub fn rack_elevations(floor: &FloorReport) -> String {
    rack_elevations_reserved(floor, &|_| None)
}

/// [`rack_elevations`] with what a later phase installs drawn dashed in the rack units kept for
/// it: `later` names the phase a device arrives in, `None` for one standing from the first.
pub fn rack_elevations_reserved(
    floor: &FloorReport,
    later: &dyn Fn(&super::Device) -> Option<String>,
) -> String {
    let positions = floor
        .racks
        .iter()
        .map(|r| r.position + 1)
        .max()
        .unwrap_or(1);
    let rack_h = f64::from(floor.rack_units) * U_PX;
    let w = f64::from(positions) * (RACK_PX + GAP_PX) + GAP_PX;
    let h = f64::from(floor.rows.max(1)) * (rack_h + 30.0) + GAP_PX;
    let devices: usize = floor.racks.iter().map(|r| r.devices.len()).sum();
    let mut s = String::with_capacity(200 + floor.racks.len() * 200 + devices * 200);
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.0} {h:.0}" width="{w:.0}" height="{h:.0}" font-family="sans-serif" font-size="7"><title>Rack elevations</title>"##
    );
    for rack in &floor.racks {
        let left = GAP_PX + f64::from(rack.position) * (RACK_PX + GAP_PX);
        let top = GAP_PX + f64::from(rack.row) * (rack_h + 30.0) + 10.0;
        let _ = write!(
            s,
            r##"<text x="{left:.1}" y="{:.1}">{} {:.1} kW</text><rect x="{left:.1}" y="{top:.1}" width="{RACK_PX}" height="{rack_h:.1}" fill="#fafafa" stroke="{}"/>"##,
            top - 2.0,
            escape(&rack.name),
            rack.load_kw.kilowatts(),
            if rack.over_budget { "#d7301f" } else { "#555" },
        );
        for d in &rack.devices {
            let dy = top + rack_h - f64::from(d.u.saturating_sub(1) + d.height_u) * U_PX;
            let reserved = later(d);
            let fill = match (&reserved, d.role.as_str()) {
                (Some(_), _) => "#ffffff",
                (None, "node") => "#9ecae1",
                (None, "leaf") => "#a1d99b",
                (None, "spine") => "#fdae6b",
                (None, _) => "#bcbddc",
            };
            let (dash, kept) = match &reserved {
                Some(phase) => (
                    r##" stroke-dasharray="3 2""##,
                    format!(": kept for {}", escape(phase)),
                ),
                None => ("", String::new()),
            };
            let _ = write!(
                s,
                r##"<g><title>{} U{}{kept}</title><rect x="{:.1}" y="{dy:.1}" width="{:.1}" height="{:.1}" fill="{fill}" stroke="#333" stroke-width="0.5"{dash}/><text x="{:.1}" y="{:.1}">{}</text></g>"##,
                escape(&d.label),
                d.u,
                left + 2.0,
                RACK_PX - 4.0,
                f64::from(d.height_u) * U_PX - 1.0,
                left + 4.0,
                dy + f64::from(d.height_u) * U_PX / 2.0 + 2.5,
                escape(&d.label),
            );
        }
    }
    s.push_str("</svg>");
    s
}
