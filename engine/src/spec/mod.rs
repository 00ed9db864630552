//! The design spec: what the user describes. Versioned: a saved design keeps loading after the
//! spec grows, because older versions are upgraded when read.
//!
//! JSON (serde) is the spec's form everywhere it is stored, sent or exported. Every spec type
//! also derives borsh, a compact form with no field names, for one use: the planner's page
//! carries its spec to the browser in it, which reads it with a much smaller decoder. Both ends
//! are built from these same types, so borsh's form needs no versioning.

mod calibration;
mod calibration_fields;
mod cluster;
mod fabric;
mod floor;
mod growth;
pub mod names;
mod tenant;
mod workload;

pub use calibration::{
    numbered, Calibration, CalibrationSource, CatalogOverride, Fitted, LoadBalancing,
};
pub use calibration_fields::{CalibrationField, CALIBRATION_FIELDS};
pub use cluster::Cluster;
pub use fabric::{CableRuns, Fabric, Oversubscription, Role, Topology};
pub use floor::{defaults_kept, Cooling, DefaultKept, Feeds, Floor, Placement, SwitchRacks};
pub use growth::{Growth, GrowthPolicy, Phase};
pub use tenant::{Isolation, Tenant};
pub use workload::{
    default_checkpoint_bytes, default_overlap, default_read_headroom, Checkpoint, Compute,
    Inference, Model, Parallelism, Rag, Recompute, Sharding, Storage, Training, Workload,
};

use crate::error::{FieldError, SpecErrors};
use serde::{Deserialize, Serialize};

/// The schema version this engine writes. Version 1 (one data-parallel job) and version 2 (no
/// physical layout) are upgraded on read.
pub const SPEC_VERSION: u32 = 3;

/// A design as the user describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(borsh::BorshSerialize, borsh::BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct DesignSpec {
    pub schema_version: u32,
    /// One line of visible text, at most 200 characters: no control characters (NUL
    /// included) and no line or paragraph separators ([`names`]).
    pub title: String,
    pub cluster: Cluster,
    #[serde(default)]
    pub workloads: Vec<Workload>,
    #[serde(default)]
    pub fabrics: Vec<Fabric>,
    #[serde(default)]
    pub calibration: Calibration,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<CatalogOverride>,
    /// Racks and rows (version 3); a version-2 design gets the default floor.
    #[serde(default)]
    pub floor: Floor,
    /// The phases the cluster is installed in, when it grows over time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub growth: Option<Growth>,
    /// The teams or customers that share the cluster; none when it has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tenants: Vec<Tenant>,
}

impl DesignSpec {
    /// Renames fabric `i`, and the workloads that refer to it.
    pub fn rename_fabric(&mut self, i: usize, name: String) {
        let Some(old) = self.fabrics.get(i).map(|f| f.name.clone()) else {
            return;
        };
        for w in &mut self.workloads {
            if w.fabric() == old {
                *w.fabric_mut() = name.clone();
            }
        }
        self.fabrics[i].name = name;
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn fabric(&self, name: &str) -> Option<&Fabric> {
        self.fabrics.iter().find(|f| f.name == name)
    }
}

pub(crate) fn deserialize<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
) -> Result<T, SpecErrors> {
    // serde stops at the first field it cannot read. To report every such field at once, the
    // field is taken out (or given a stand-in of another type) and the rest read again, a
    // bounded number of times. Only these errors are reported: the stand-ins are never
    // validated or used.
    const MAX_SHAPE_ERRORS: usize = 20;
    let mut value = value;
    let mut errors: Vec<FieldError> = Vec::new();
    let mut outcome = serde_path_to_error::deserialize::<_, T>(value.clone());
    loop {
        let e = match outcome {
            Ok(read) if errors.is_empty() => return Ok(read),
            Ok(_) => return Err(SpecErrors(errors)),
            Err(e) => e,
        };
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        errors.push(FieldError::new(
            path.clone(),
            plain_serde_message(&e.into_inner().to_string()),
        ));
        if path.is_empty() || errors.len() >= MAX_SHAPE_ERRORS {
            return Err(SpecErrors(errors));
        }
        let stand_ins = [
            None,
            Some(serde_json::json!(1)),
            Some(serde_json::json!("")),
            Some(serde_json::json!(false)),
            Some(serde_json::json!({})),
            Some(serde_json::json!([])),
        ];
        let mut moved_on = None;
        for stand_in in stand_ins {
            let mut tried = value.clone();
            if !replace_at(&mut tried, &path, stand_in) {
                break;
            }
            let next = serde_path_to_error::deserialize::<_, T>(tried.clone());
            let same_field = next.as_ref().err().is_some_and(|e| {
                let next_path = e.path().to_string();
                next_path == path || path.starts_with(&format!("{next_path}."))
            });
            if !same_field {
                moved_on = Some((tried, next));
                break;
            }
        }
        match moved_on {
            Some((tried, next)) => {
                value = tried;
                outcome = next;
            }
            None => return Err(SpecErrors(errors)),
        }
    }
}

/// Replaces (or with `None`, removes) the value at a field path (`workloads[0].model.layers`)
/// in `value`; false when the path leads nowhere.
fn replace_at(value: &mut serde_json::Value, path: &str, with: Option<serde_json::Value>) -> bool {
    let mut steps: Vec<&str> = Vec::new();
    for part in path.split('.') {
        let mut rest = part;
        if let Some(open) = rest.find('[') {
            steps.push(&rest[..open]);
            rest = &rest[open..];
            while let Some(close) = rest.find(']') {
                steps.push(&rest[1..close]);
                rest = &rest[close + 1..];
            }
        } else {
            steps.push(rest);
        }
    }
    let Some((last, parents)) = steps.split_last() else {
        return false;
    };
    let mut at = value;
    for step in parents.iter().filter(|s| !s.is_empty()) {
        let next = match at {
            serde_json::Value::Object(map) => map.get_mut(*step),
            serde_json::Value::Array(items) => {
                step.parse::<usize>().ok().and_then(|i| items.get_mut(i))
            }
            _ => None,
        };
        match next {
            Some(next) => at = next,
            None => return false,
        }
    }
    match (at, with) {
        (serde_json::Value::Object(map), None) => {
            map.remove(*last);
            true
        }
        (serde_json::Value::Object(map), Some(with)) => {
            map.insert((*last).to_string(), with);
            true
        }
        _ => false,
    }
}

/// Why text is not JSON, in words, with where.
pub(crate) fn not_json(e: &serde_json::Error) -> String {
    let at = format!("line {}, column {}", e.line(), e.column());
    match e.classify() {
        serde_json::error::Category::Eof => {
            format!("is not complete JSON: it ends at {at} before a bracket or quote is closed")
        }
        _ => format!("is not valid JSON at {at}"),
    }
}

/// serde's messages, reworded for people: "invalid value: integer `-4`, expected u32" becomes
/// "must be a whole number of at least 0, not -4".
fn plain_serde_message(message: &str) -> String {
    let wanted = |expected: &str| match expected {
        "u32" | "u64" => Some("a whole number of at least 0"),
        "f64" | "f32" => Some("a number"),
        "a string" => Some("text"),
        _ => None,
    };
    if let Some((got, expected)) = message
        .strip_prefix("invalid value: ")
        .or_else(|| message.strip_prefix("invalid type: "))
        .and_then(|rest| rest.split_once(", expected "))
    {
        let expected = expected.split(" at line").next().unwrap_or(expected);
        if let Some(kind) = wanted(expected) {
            let got = got.replace('`', "");
            let got = got.strip_prefix("integer ").unwrap_or(&got);
            let got = got.strip_prefix("floating point ").unwrap_or(got);
            return format!("must be {kind}, not {got}");
        }
    }
    message.to_string()
}
