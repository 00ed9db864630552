//! Power and cooling per rack, and for the facility.
//!
//! - Rack load = its nodes at their maximum power + its switches at their maximum (which
//!   includes their optics) + the transceivers in its nodes' cages.
//! - A/B feeds (N+N): each feed carries half the load and must carry all of it when the other
//!   fails, so the rack budget applies to each feed; one feed carries it all.
//! - Air cooling stops being enough above the air limit.
//! - Facility power = IT power × PUE (The Green Grid, ISO/IEC 30134-2).

use super::placement::Placed;
use super::Rack;
use crate::report::{Finding, Severity};
use crate::spec::{Cooling, Feeds, Floor};
use crate::units::Kilowatts;

pub const RACK_LOAD_FORMULA: &str = "nodes × node maximum power + switches at their maximum rating (optics included) + node-end transceivers";
pub const PUE_SOURCE: &str = "The Green Grid PUE (WP #49), ISO/IEC 30134-2; default 1.56, the 2024 industry average in the Uptime Institute survey";

fn finding(severity: Severity, rule: &'static str, rack: &str, message: String) -> Finding {
    Finding {
        severity,
        rule: rule.into(),
        subject: rack.to_string(),
        message,
    }
}

/// Load, feeds and findings of every rack; `names` and `devices` as the report shows them.
pub(crate) fn racks(
    floor: &Floor,
    placed: &Placed,
    optics_w: &[f64],
    names: Vec<String>,
    devices: Vec<Vec<super::Device>>,
    findings: &mut Vec<Finding>,
) -> Vec<Rack> {
    let budget = floor.rack_power_kw.kilowatts();
    // A verdict on a default names it as one: the site's own figure may differ.
    let defaults = Floor::default();
    let assumed = |kept: bool| {
        if kept {
            " (the planner's default: set the site's)"
        } else {
            ""
        }
    };
    let budget_assumed = assumed(floor.rack_power_kw == defaults.rack_power_kw);
    let air_assumed = assumed(floor.air_limit_kw == defaults.air_limit_kw);
    let air = match floor.cooling {
        Cooling::Air => Some(floor.air_limit_kw.kilowatts()),
        Cooling::DirectLiquid => None,
    };
    placed
        .racks
        .iter()
        .zip(names)
        .zip(devices)
        .enumerate()
        .map(|(i, ((r, name), devices))| {
            let watts: f64 = r.slots.iter().map(|s| s.power_w).sum::<f64>()
                + optics_w.get(i).copied().unwrap_or(0.0);
            let load_kw = watts / 1000.0;
            let units: u32 = r.slots.iter().map(|s| s.height).sum();
            let feed_kw = match floor.feeds {
                Feeds::Dual => load_kw / 2.0,
                Feeds::Single => load_kw,
            };
            let over_budget = load_kw > budget + 1e-9;
            let past_air = air.is_some_and(|limit| load_kw > limit + 1e-9);
            if over_budget {
                let feeds = match floor.feeds {
                    Feeds::Dual => format!(
                        "; with A/B feeds each carries {feed_kw:.1} kW and must carry all {load_kw:.1} kW when the other fails"
                    ),
                    Feeds::Single => String::new(),
                };
                findings.push(finding(
                    Severity::Critical,
                    "rack-over-budget",
                    &name,
                    format!("Rack {name} draws {load_kw:.1} kW, over its {budget} kW budget{budget_assumed}{feeds}: put fewer nodes in it or raise the budget."),
                ));
            }
            if let (true, Some(limit)) = (past_air, air) {
                findings.push(finding(
                    Severity::Warning,
                    "rack-past-air-limit",
                    &name,
                    format!("Rack {name} draws {load_kw:.1} kW, past the {limit} kW room air removes{air_assumed}: plan rear-door heat exchangers or direct liquid cooling, or spread the nodes."),
                ));
            }
            if units > floor.rack_units {
                findings.push(finding(
                    Severity::Critical,
                    "rack-over-height",
                    &name,
                    format!("Rack {name} needs {units}U but is {}U: move its switches to network racks or use fewer nodes per rack.", floor.rack_units),
                ));
            }
            Rack {
                name,
                row: r.row,
                position: r.position,
                network: r.network,
                devices,
                units_used: units,
                load_kw: Kilowatts::new(load_kw),
                feed_kw: Kilowatts::new(feed_kw),
                over_budget,
                past_air_limit: past_air,
            }
        })
        .collect()
}
