//! The switch a fabric gets when its spec names none: of the catalog's switches that carry the
//! fabric's technology at its port speed, the one that builds the fabric for the least money at
//! nominal runs (switches, optics and cables). Every page, the report, the comparison of
//! technologies and the search read this one choice; a spec that names a switch pins it.

use crate::bom::materials;
use crate::catalog::{Switch, SwitchFamily, SWITCHES};
use crate::sizing::size_fabric;
use crate::spec::{DesignSpec, Fabric};
use crate::technology::Technology;
use crate::units::{thousands, Usd};
use std::borrow::Cow;

pub use crate::report::SwitchChoice;

/// The catalog switches that can carry `technology` at `speed_gbps`: every Ethernet switch with
/// a port mode that fast, and the InfiniBand switch of the technology's own generation (a
/// subnet runs at one generation's signalling; a newer generation's switch run at an older
/// generation's rate is a port split the catalog does not price).
pub fn candidates(
    technology: Technology,
    speed_gbps: f64,
) -> impl Iterator<Item = &'static Switch> {
    SWITCHES.iter().filter(move |s| {
        let carries = match s.family {
            SwitchFamily::Ethernet => technology.is_ethernet(),
            SwitchFamily::InfiniBand => {
                !technology.is_ethernet()
                    && s.port_modes
                        .first()
                        .is_some_and(|(fastest, _)| (fastest - technology.port_gbps()).abs() < 1e-9)
            }
        };
        carries && s.port_mode_for(speed_gbps).is_some()
    })
}

/// One candidate switch, sized and priced for the fabric.
struct Priced {
    switch: &'static Switch,
    cost: f64,
    tiers: u32,
}

/// The switch for `fabric`, and why when the planner chose it. Err when no candidate builds
/// the fabric: the reason the default switch gives.
pub(crate) fn choose(
    spec: &DesignSpec,
    fabric: &Fabric,
) -> Result<(&'static Switch, Option<SwitchChoice>), String> {
    if let Some(key) = &fabric.switch {
        return crate::catalog::switch(key)
            .map(|s| (s, None))
            .ok_or_else(|| "the switch is not in the catalog".to_string());
    }
    choose_among(spec, fabric, |_| true)
}

/// [`choose`] among the candidates `allowed` lets through (a search's constraints).
pub(crate) fn choose_among(
    spec: &DesignSpec,
    fabric: &Fabric,
    allowed: impl Fn(&Switch) -> bool,
) -> Result<(&'static Switch, Option<SwitchChoice>), String> {
    let speed = fabric.port_gbps();
    let mut priced: Vec<Priced> = Vec::new();
    let mut first = None;
    for switch in candidates(fabric.technology, speed).filter(|s| allowed(s)) {
        first.get_or_insert(switch);
        if let Ok(plan) = size_fabric(spec, fabric, switch) {
            if !plan.two_tier_exceeded {
                let m = materials(&plan, switch, speed, &fabric.cable_runs, &spec.overrides);
                priced.push(Priced {
                    switch,
                    cost: m.lines.iter().map(|l| l.total_usd.dollars()).sum(),
                    tiers: plan.tiers,
                });
            }
        }
    }
    // Least cost; at equal cost fewer tiers (less latency), then the catalog's order.
    priced.sort_by(|a, b| a.cost.total_cmp(&b.cost).then(a.tiers.cmp(&b.tiers)));
    let Some(best) = priced.first() else {
        // Nothing builds it: the first candidate, whose sizing says why.
        return first.map(|s| (s, None)).ok_or_else(|| {
            format!(
                "no switch in the catalog carries {} at {} Gb/s",
                fabric.technology.label(),
                round(speed)
            )
        });
    };
    let runner_up = priced.get(1);
    // The browser's evaluation shows no reason (the report and the dashboard, which do, are
    // drawn on the server): not written there, which keeps its sentences out of the bundle.
    let reason = if cfg!(target_arch = "wasm32") {
        String::new()
    } else {
        reason(fabric, best, runner_up)
    };
    Ok((
        best.switch,
        Some(SwitchChoice {
            reason,
            cost_usd: Usd::new(best.cost),
            runner_up: runner_up.map(|r| r.switch.key.to_string()),
            runner_up_cost_usd: runner_up.map(|r| Usd::new(r.cost)),
        }),
    ))
}

/// `spec` with every fabric's switch named: the spec's own where it names one, the planner's
/// choice elsewhere. Borrowed when every fabric names its switch.
pub fn with_switches_chosen(spec: &DesignSpec) -> Cow<'_, DesignSpec> {
    choose_all(spec).0
}

/// [`with_switches_chosen`], with why the planner chose each switch it chose.
pub(crate) fn choose_all(spec: &DesignSpec) -> (Cow<'_, DesignSpec>, Vec<Option<SwitchChoice>>) {
    if spec.fabrics.iter().all(|f| f.switch.is_some()) {
        return (Cow::Borrowed(spec), vec![None; spec.fabrics.len()]);
    }
    let mut chosen = spec.clone();
    let mut why = Vec::with_capacity(spec.fabrics.len());
    for (fabric, named) in spec.fabrics.iter().zip(&mut chosen.fabrics) {
        match choose(spec, fabric) {
            Ok((switch, choice)) => {
                named.switch = Some(switch.key.to_string());
                why.push(choice);
            }
            Err(_) => why.push(None),
        }
    }
    (Cow::Owned(chosen), why)
}

/// One sentence: the chosen switch, why, and the runner-up with what it would cost more.
fn reason(fabric: &Fabric, best: &Priced, runner_up: Option<&Priced>) -> String {
    let speed = fabric.port_gbps();
    let ports = format!("{} Gb/s", round(speed));
    match runner_up {
        Some(r) => format!(
            "{}: the least-cost switch in the catalog for this fabric at {ports} (${} in switches, optics and cables at nominal runs); runner-up {} at ${} (+{:.0} %){}.",
            best.switch.short_name(),
            thousands(best.cost),
            r.switch.short_name(),
            thousands(r.cost),
            percent_more(r.cost, best.cost),
            if r.tiers != best.tiers {
                format!(", {} tiers against {}", r.tiers, best.tiers)
            } else {
                String::new()
            }
        ),
        None => format!(
            "{}: the only switch in the catalog that carries {} at {ports}.",
            best.switch.short_name(),
            fabric.technology.label()
        ),
    }
}

fn percent_more(more: f64, less: f64) -> f64 {
    if less > 0.0 {
        (more / less - 1.0) * 100.0
    } else {
        0.0
    }
}

fn round(speed: f64) -> String {
    if speed.fract() == 0.0 {
        format!("{speed:.0}")
    } else {
        format!("{speed}")
    }
}

#[cfg(test)]
mod tests;
