//! Reading a spec: from JSON text or a value, upgrading older schema versions, then checking
//! every rule; a spec the store kept under earlier rules has its names mapped to today's.

use super::v1::SpecV1;
use crate::error::SpecErrors;
use crate::spec::{deserialize, names, not_json, DesignSpec, SPEC_VERSION};

impl DesignSpec {
    /// Reads a spec from JSON text, upgrading older schema versions, and validates it.
    pub fn from_json(text: &str) -> Result<DesignSpec, SpecErrors> {
        if text.trim().is_empty() {
            return Err(SpecErrors::single(
                "",
                "is empty: paste the JSON of a design spec, as Fabric Planner exports it",
            ));
        }
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| SpecErrors::single("", not_json(&e)))?;
        DesignSpec::from_value(value)
    }

    /// Reads a spec the store kept, which may have been saved under an earlier engine's rules:
    /// fabric names and texts that today's rules ([`names`]) refuse are mapped to ones they
    /// accept (`Compute Fabric` becomes `compute-fabric`, a line break a space), so that a saved
    /// design keeps opening; new input is refused instead ([`DesignSpec::from_json`]). Says
    /// too whether anything was mapped: then what was saved with the spec under its old names
    /// (a report) no longer matches it.
    pub fn from_stored_json(text: &str) -> Result<(DesignSpec, bool), SpecErrors> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| SpecErrors::single("", not_json(&e)))?;
        let mut spec = DesignSpec::read_value(value)?;
        let before = spec.clone();
        spec.keep_todays_name_rules();
        spec.validate()?;
        let mapped = spec != before;
        Ok((spec, mapped))
    }

    /// Maps the names and texts that break [`names`]' rules (see [`Self::from_stored_json`]).
    fn keep_todays_name_rules(&mut self) {
        let one_line = |text: &mut String, blank: &str| {
            if names::is_blank(text) {
                *text = blank.to_string();
            } else if names::text_error(text).is_some() {
                *text = names::one_line(text).into_owned();
            }
        };
        one_line(&mut self.title, "Untitled design");
        for (i, w) in self.workloads.iter_mut().enumerate() {
            one_line(w.name_mut(), &format!("Workload {}", i + 1));
        }
        for o in &mut self.overrides {
            one_line(&mut o.item, "unnamed item");
        }
        // A tenant named what its files already use is numbered instead; nothing else names it.
        for i in 0..self.tenants.len() {
            if names::tenant_name_error(&self.tenants[i].name).is_none() {
                continue;
            }
            let taken = |name: &str| self.tenants.iter().any(|t| t.name == name);
            let mut name = format!("tenant-{}", i + 1);
            for n in 2.. {
                if !taken(&name) {
                    break;
                }
                name = format!("tenant-{}-{n}", i + 1);
            }
            self.tenants[i].name = name;
        }
        for i in 0..self.fabrics.len() {
            if names::fabric_name_error(&self.fabrics[i].name).is_none() {
                continue;
            }
            let base = names::safe_fabric_name(&self.fabrics[i].name);
            let taken = |name: &str| self.fabrics.iter().any(|f| f.name == name);
            let mut name = base.clone();
            for n in 2.. {
                if !taken(&name) {
                    break;
                }
                let suffix = format!("-{n}");
                let keep = names::MAX_FABRIC_NAME_CHARS - suffix.len();
                name = format!(
                    "{}{suffix}",
                    base[..base.len().min(keep)].trim_end_matches('-')
                );
            }
            self.rename_fabric(i, name);
        }
    }

    /// Reads a spec from a JSON value, upgrading older schema versions, and validates it.
    pub fn from_value(value: serde_json::Value) -> Result<DesignSpec, SpecErrors> {
        let spec = DesignSpec::read_value(value)?;
        spec.validate()?;
        Ok(spec)
    }

    /// A spec from a JSON value, upgraded from older schema versions, not yet validated.
    fn read_value(value: serde_json::Value) -> Result<DesignSpec, SpecErrors> {
        let version = match value.get("schema_version") {
            None => return Err(SpecErrors::single("schema_version", "is missing")),
            Some(v) => v.as_u64().ok_or_else(|| {
                SpecErrors::single("schema_version", format!("must be a whole number, not {v}"))
            })?,
        };
        let spec = match version {
            1 => {
                let v1 = deserialize::<SpecV1>(value)?;
                v1.validate()?;
                v1.upgrade()
            }
            // Version 2 has every field of version 3 but the floor, which takes its default.
            2 | 3 => {
                let mut spec = deserialize::<DesignSpec>(value)?;
                spec.schema_version = SPEC_VERSION;
                spec
            }
            _ => {
                return Err(SpecErrors::single(
                    "schema_version",
                    format!(
                    "version {version} is not known to this engine (it reads 1 to {SPEC_VERSION})"
                ),
                ))
            }
        };
        Ok(spec)
    }

    /// Every error in the spec, each with its field path, or `Ok` when it can be evaluated.
    pub fn validate(&self) -> Result<(), SpecErrors> {
        let errors = super::errors(self);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(SpecErrors(errors))
        }
    }
}

/// Every spec `DesignSpec::from_value` reads, for describing what it accepts: the current
/// shape (versions 2 and 3 share it) or version 1, both upgraded on reading.
#[cfg(feature = "schema")]
#[derive(schemars::JsonSchema)]
#[schemars(untagged)]
pub enum AnySpecVersion {
    Current(Box<DesignSpec>),
    Version1(SpecV1),
}
