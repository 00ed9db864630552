//! Step 4: the floor. Racks, rows, where the switches stand, power and cooling per rack, and
//! the figures that turn the switch counts into cable lengths. Every field has a default from
//! the node type, so a design whose floor is never opened still gets a plausible one.

use super::{lens, options};
use crate::fields::{Kind, NumInput, SelectInput};
use engine::{Cooling, DesignSpec, Feeds, Kilowatts, Metres, SwitchRacks};
use leptos::prelude::*;

/// An optional count of the floor, as the form shows it.
fn optional_count(
    get: fn(&DesignSpec) -> Option<u32>,
    set: fn(&mut DesignSpec, Option<u32>),
) -> lens::Bound<Option<f64>> {
    let editor = crate::editor::Editor::get();
    (
        Signal::derive(move || editor.spec.with(|s| get(s).map(f64::from))),
        Callback::new(move |v: Option<f64>| editor.update(|s| set(s, v.map(lens::whole)))),
    )
}

/// A number of the floor.
fn number(get: fn(&DesignSpec) -> f64, set: fn(&mut DesignSpec, f64)) -> lens::Bound<Option<f64>> {
    let editor = crate::editor::Editor::get();
    (
        Signal::derive(move || editor.spec.with(|s| Some(get(s)))),
        Callback::new(move |v: Option<f64>| {
            if let Some(v) = v {
                editor.update(|s| set(s, v));
            }
        }),
    )
}

#[component]
pub fn FloorStep() -> AnyView {
    let (per_rack, set_per_rack) = optional_count(
        |s| s.floor.nodes_per_rack,
        |s, v| s.floor.nodes_per_rack = v,
    );
    let (rows, set_rows) = optional_count(|s| s.floor.rows, |s, v| s.floor.rows = v);
    let (racks, set_racks) =
        optional_count(|s| s.floor.racks_per_row, |s, v| s.floor.racks_per_row = v);
    let (rack_kw, set_rack_kw) = number(
        |s| s.floor.rack_power_kw.kilowatts(),
        |s, v| s.floor.rack_power_kw = Kilowatts::new(v),
    );
    let (air_kw, set_air_kw) = number(
        |s| s.floor.air_limit_kw.kilowatts(),
        |s, v| s.floor.air_limit_kw = Kilowatts::new(v),
    );
    let (pitch, set_pitch) = number(
        |s| s.floor.row_pitch_m.metres(),
        |s, v| s.floor.row_pitch_m = Metres::new(v),
    );
    let (tray, set_tray) = number(
        |s| s.floor.tray_height_m.metres(),
        |s, v| s.floor.tray_height_m = Metres::new(v),
    );
    let (slack, set_slack) = number(|s| s.floor.slack_percent, |s, v| s.floor.slack_percent = v);
    let (pue, set_pue) = number(|s| s.floor.pue, |s, v| s.floor.pue = v);
    let (node_kw, set_node_kw) = {
        let editor = crate::editor::Editor::get();
        (
            Signal::derive(move || {
                editor
                    .spec
                    .with(|s| s.floor.node_power_kw.map(|kw| kw.kilowatts()))
            }),
            Callback::new(move |v: Option<f64>| {
                editor.update(|s| s.floor.node_power_kw = v.map(Kilowatts::new))
            }),
        )
    };
    let (leaves, set_leaves) = lens::spec(
        |s| options::placement_key(s.floor.leaves),
        |s, key: String| {
            if let Some(p) = options::placement_from(&key) {
                s.floor.leaves = p;
            }
        },
    );
    let (spines, set_spines) = lens::spec(
        |s| options::placement_key(s.floor.spines),
        |s, key: String| {
            if let Some(p) = options::placement_from(&key) {
                s.floor.spines = p;
            }
        },
    );
    let (switch_racks, set_switch_racks) = lens::spec(
        |s| options::switch_racks_key(s.floor.switch_racks).to_string(),
        |s, key: String| {
            s.floor.switch_racks = if key == "packed" {
                SwitchRacks::Packed
            } else {
                SwitchRacks::Spread
            }
        },
    );
    let (feeds, set_feeds) = lens::spec(
        |s| match s.floor.feeds {
            Feeds::Single => "single".to_string(),
            Feeds::Dual => "dual".to_string(),
        },
        |s, key: String| {
            s.floor.feeds = if key == "single" {
                Feeds::Single
            } else {
                Feeds::Dual
            }
        },
    );
    let (cooling, set_cooling) = lens::spec(
        |s| match s.floor.cooling {
            Cooling::Air => "air".to_string(),
            Cooling::DirectLiquid => "direct_liquid".to_string(),
        },
        |s, key: String| {
            s.floor.cooling = if key == "direct_liquid" {
                Cooling::DirectLiquid
            } else {
                Cooling::Air
            }
        },
    );
    view! {
        <p class="help">"Where every node and switch stands decides each cable's length, and so its medium, cost and power, and what every rack draws. Leave a field empty for the node type's reference layout."</p>
        <h3>"Racks and rows"</h3>
        <div class="field-row">
            <NumInput path="floor.nodes_per_rack".into() label="GPU nodes per rack" help="empty: the node type's reference layout" kind=Kind::Count optional=true value=per_rack set=set_per_rack/>
            <NumInput path="floor.racks_per_row".into() label="Compute racks per row" help="empty: one leaf's nodes per row" kind=Kind::Count optional=true value=racks set=set_racks/>
            <NumInput path="floor.rows".into() label="Rows of compute racks" help="empty: as many as the racks need" kind=Kind::Count optional=true value=rows set=set_rows/>
            <NumInput path="floor.node_power_kw".into() label="Power of one node" unit="kW" help="empty: the node type's maximum" optional=true value=node_kw set=set_node_kw/>
        </div>
        <h3>"Where the switches stand"</h3>
        <div class="field-row">
            <SelectInput path="floor.leaves".into() label="Leaves" options=options::placements() value=leaves set=set_leaves/>
            <SelectInput path="floor.spines".into() label="Spines and cores" options=options::placements() value=spines set=set_spines/>
            <SelectInput path="floor.switch_racks".into() label="Network racks" help="packed: the fewest racks, a tier in one rack" options=options::switch_racks() value=switch_racks set=set_switch_racks/>
        </div>
        <h3>"Power and cooling"</h3>
        <div class="field-row">
            <NumInput path="floor.rack_power_kw".into() label="Power one rack may draw" unit="kW" value=rack_kw set=set_rack_kw/>
            <SelectInput path="floor.feeds".into() label="Feeds" help="N+N: each feed carries the whole rack" options=options::feeds() value=feeds set=set_feeds/>
            <SelectInput path="floor.cooling".into() label="Cooling" options=options::coolings() value=cooling set=set_cooling/>
            <NumInput path="floor.air_limit_kw".into() label="Air cooling limit per rack" unit="kW" value=air_kw set=set_air_kw/>
            <NumInput path="floor.pue".into() label="Power usage effectiveness" help="facility power ÷ IT power" value=pue set=set_pue/>
        </div>
        <h3>"Cable routes"</h3>
        <div class="field-row">
            <NumInput path="floor.row_pitch_m".into() label="Row pitch" unit="m" value=pitch set=set_pitch/>
            <NumInput path="floor.tray_height_m".into() label="Tray above the racks" unit="m" value=tray set=set_tray/>
            <NumInput path="floor.slack_percent".into() label="Slack on every cable" unit="%" value=slack set=set_slack/>
        </div>
    }
    .into_any()
}
