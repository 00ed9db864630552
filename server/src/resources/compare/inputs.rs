//! The inputs of two designs side by side, in the form's words: each field by its label and
//! the workload or fabric it belongs to, each value as the form shows it (the catalog's names,
//! the select boxes' words, numbers with their units), the inputs that differ first.

use app::wizard::options;
use engine::catalog::{GPUS, SWITCHES};
use engine::{DesignSpec, GrowthPolicy, LoadBalancing, CALIBRATION_FIELDS};
use std::collections::BTreeMap;

/// One input of the comparison: its name in the form's words and its value on each side
/// (`None` where that design does not set it).
#[derive(Debug, Clone, PartialEq)]
pub struct InputRow {
    pub name: String,
    pub a: Option<String>,
    pub b: Option<String>,
}

impl InputRow {
    pub fn differs(&self) -> bool {
        self.a != self.b
    }
}

/// Every input either design sets, the ones that differ first, each group in the spec's order.
pub fn input_rows(a: &DesignSpec, b: &DesignSpec) -> Vec<InputRow> {
    let (flat_a, flat_b) = (flatten(a), flatten(b));
    let mut paths: Vec<&String> = flat_a.keys().chain(flat_b.keys()).collect();
    paths.sort();
    paths.dedup();
    let mut rows: Vec<InputRow> = paths
        .into_iter()
        .map(|path| {
            // Named after the design that has the entry (a workload only B has is B's).
            let named_by = if flat_a.contains_key(path) { a } else { b };
            InputRow {
                name: app::labels::field_name(named_by, path),
                a: flat_a.get(path).map(|v| shown(path, v)),
                b: flat_b.get(path).map(|v| shown(path, v)),
            }
        })
        .collect();
    // Stable: each group keeps the spec's order.
    rows.sort_by_key(|r| !r.differs());
    rows
}

/// Every leaf of the spec's JSON by its path: `fabrics[0].technology` → `"ib_ndr"`.
fn flatten(spec: &DesignSpec) -> BTreeMap<String, serde_json::Value> {
    fn walk(value: serde_json::Value, path: String, out: &mut BTreeMap<String, serde_json::Value>) {
        match value {
            serde_json::Value::Object(map) if !map.is_empty() => {
                for (key, v) in map {
                    let p = if path.is_empty() {
                        key
                    } else {
                        format!("{path}.{key}")
                    };
                    walk(v, p, out);
                }
            }
            serde_json::Value::Array(items) if !items.is_empty() => {
                for (i, v) in items.into_iter().enumerate() {
                    walk(v, format!("{path}[{i}]"), out);
                }
            }
            // The version of the spec's format is no input of the design.
            _ if path == "schema_version" => {}
            other => {
                out.insert(path, other);
            }
        }
    }
    let mut value = serde_json::to_value(spec).unwrap_or_default();
    // Where the calibration comes from is one input, in words, rather than the fit's record.
    if let Some(calibration) = value.get_mut("calibration").and_then(|c| c.as_object_mut()) {
        calibration.remove("fitted");
    }
    let mut out = BTreeMap::new();
    walk(value, String::new(), &mut out);
    out.insert(
        "calibration.source".into(),
        app::labels::calibration_source(&spec.calibration).into(),
    );
    out
}

/// The field at `path` without its list index: `workloads[0].model.preset` → `model.preset`.
fn field(path: &str) -> &str {
    match path.split_once("].") {
        Some((_, rest)) => rest,
        None => path,
    }
}

/// A value as the form shows it.
fn shown(path: &str, value: &serde_json::Value) -> String {
    let field = field(path);
    match value {
        serde_json::Value::String(key) => choice(field, key).unwrap_or_else(|| key.clone()),
        serde_json::Value::Number(n) => {
            let value = n.as_f64().unwrap_or_default();
            // A calibration the form shows carries its unit there ("µs per ring step").
            match field
                .strip_prefix("calibration.")
                .and_then(|f| CALIBRATION_FIELDS.iter().find(|c| c.field == f))
            {
                Some(c) => format!("{value} {}", c.unit),
                None => with_unit(field, value),
            }
        }
        serde_json::Value::Bool(true) => "yes".into(),
        serde_json::Value::Bool(false) => "no".into(),
        serde_json::Value::Null => "—".into(),
        other => other.to_string(),
    }
}

/// What a select box of the form, or the catalog, calls `key` in `field`; `None` for free text.
fn choice(field: &str, key: &str) -> Option<String> {
    let offered = |options: options::Options| {
        options
            .into_iter()
            .find(|(k, _)| k == key)
            .map(|(_, name)| name)
    };
    match field {
        "cluster.gpu" => GPUS
            .iter()
            .find(|g| g.key == key)
            .map(|g| g.name.to_string()),
        "cluster.node_preset" => offered(options::node_presets()),
        "model.preset" => offered(options::model_presets()),
        "switch" => SWITCHES
            .iter()
            .find(|s| s.key == key)
            .map(|s| s.name.to_string()),
        "technology" => offered(options::technologies()),
        "role" => offered(options::roles()),
        "topology" => offered(options::topologies()),
        "parallelism.sharding" => offered(options::shardings()),
        "recompute" => offered(options::recomputations()),
        "model.precision" | "embedding_precision" => offered(options::precisions()),
        "floor.leaves" | "floor.spines" => offered(options::placements()),
        "floor.feeds" => offered(options::feeds()),
        "floor.switch_racks" => offered(options::switch_racks()),
        "floor.cooling" => offered(options::coolings()),
        "kind" => Some(options::kind_label(key).to_string()),
        "calibration.ethernet_load_balancing" => {
            serde_json::from_value::<LoadBalancing>(serde_json::Value::String(key.to_string()))
                .ok()
                .map(|l| l.label().to_string())
        }
        "growth.policy" => {
            serde_json::from_value::<GrowthPolicy>(serde_json::Value::String(key.to_string()))
                .ok()
                .map(|p| p.label().to_string())
        }
        // Free text (a title, a name), or a key the catalog no longer has: as written.
        _ => None,
    }
}

/// A number with the unit its field's name carries (`_m` metres, `_gbps` Gb/s, `_usd`
/// dollars…), in thousands where it is whole: `70000000000.0` → "70,000,000,000".
fn with_unit(field: &str, value: f64) -> String {
    let last = field.rsplit('.').next().unwrap_or(field);
    let number = if value.fract() == 0.0 && value.abs() < 1e18 {
        engine::thousands(value)
    } else {
        format!("{value}")
    };
    const UNITS: [(&str, &str); 14] = [
        ("_gbytes_per_s", "GB/s"),
        ("_per_s", "per s"),
        ("_gbps", "Gb/s"),
        ("_minutes", "min"),
        ("_ms", "ms"),
        ("_us", "µs"),
        ("_units", "U"),
        ("_kw", "kW"),
        ("_m", "m"),
        ("_w", "W"),
        ("_s", "s"),
        ("_gb", "GB"),
        ("_percent", "%"),
        ("_bytes", "B"),
    ];
    if last.ends_with("_usd") {
        return format!("${number}");
    }
    match UNITS.iter().find(|(suffix, _)| last.ends_with(suffix)) {
        Some((_, unit)) => format!("{number} {unit}"),
        None => number,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(json: &str) -> DesignSpec {
        DesignSpec::from_json(json).unwrap()
    }

    #[test]
    fn inputs_read_in_the_forms_words_with_the_catalogs_names_and_units() {
        let a = example(engine::examples::SEVENTY_B_INFERENCE_25G);
        let b = example(engine::examples::SEVENTY_B_INFERENCE_400G);
        let rows = input_rows(&a, &b);
        let technology = rows
            .iter()
            .find(|r| r.name.ends_with("· Technology"))
            .unwrap();
        assert_eq!(technology.a.as_deref(), Some("Ethernet 25GbE (TCP)"));
        assert_eq!(technology.b.as_deref(), Some("RoCE v2 400GbE"));
        for row in &rows {
            let text = format!("{} {:?} {:?}", row.name, row.a, row.b);
            assert!(
                !text.contains(['[', '_']) && !text.contains("roce400") && !text.contains(".0\""),
                "{text}"
            );
        }
    }

    /// A fitted calibration compares as where it came from, in words, not as the fit's record.
    #[test]
    fn a_fitted_calibration_compares_as_where_it_came_from() {
        let a = example(engine::examples::SEVENTY_B_TRAINING);
        let mut b = a.clone();
        b.calibration.infiniband_efficiency = 0.8;
        b.calibration.fitted = Some(engine::Fitted {
            fabric: "compute".into(),
            baselines: vec![1, 2],
            on: "2026-12-06".into(),
            efficiency_field: "infiniband_efficiency".into(),
            efficiency: 0.8,
            network_hop_latency_us: None,
            ll128_network_hop_latency_us: None,
            ll_network_hop_latency_us: None,
            worst_error_percent: None,
        });
        let rows = input_rows(&a, &b);
        let source = rows.iter().find(|r| r.name == "Calibration from").unwrap();
        assert_eq!(
            source.a.as_deref(),
            Some("the defaults, each from its published source")
        );
        assert_eq!(
            source.b.as_deref(),
            Some("fitted on 2026-12-06 to baselines #1, #2 of fabric compute")
        );
        assert!(rows
            .iter()
            .all(|r| !r.name.to_lowercase().contains("fitted")));
    }

    #[test]
    fn the_inputs_that_differ_come_first_and_the_same_after() {
        let a = example(engine::examples::SEVENTY_B_INFERENCE_25G);
        let b = example(engine::examples::SEVENTY_B_INFERENCE_400G);
        let rows = input_rows(&a, &b);
        let first_same = rows.iter().position(|r| !r.differs()).unwrap();
        assert!(first_same > 0, "some inputs differ");
        assert!(rows[first_same..].iter().all(|r| !r.differs()));
        assert!(rows.iter().any(|r| r.name == "Design title" && r.differs()));
    }

    #[test]
    fn a_workloads_kind_reads_as_the_form_names_it() {
        let a = example(engine::examples::RAG);
        let b = example(engine::examples::SEVENTY_B_TRAINING);
        let rows = input_rows(&a, &b);
        assert!(
            rows.iter()
                .any(|r| r.name.ends_with("· Kind") && r.a.as_deref() == Some("RAG")),
            "{rows:?}"
        );
    }

    #[test]
    fn numbers_carry_the_unit_their_field_names() {
        assert_eq!(with_unit("checkpoint.parameters", 7e10), "70,000,000,000");
        assert_eq!(with_unit("cable_runs.node_leaf_m", 2.0), "2 m");
        assert_eq!(with_unit("port_gbps", 400.0), "400 Gb/s");
        assert_eq!(with_unit("floor.rack_power_kw", 40.0), "40 kW");
        assert_eq!(with_unit("target_inter_token_ms", 50.0), "50 ms");
        assert_eq!(with_unit("unit_price_usd", 1200.0), "$1,200");
        assert_eq!(with_unit("compute.mfu", 0.4), "0.4");
        assert_eq!(with_unit("steps_per_s", 0.05), "0.05 per s");
        assert_eq!(with_unit("floor.rack_units", 48.0), "48 U");
    }
}
