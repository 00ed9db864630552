//! The design spec: what the user describes. Versioned, so that a saved design keeps loading
//! after the spec grows.

use crate::error::{FieldError, SpecErrors};
use crate::precision::Precision;
use serde::{Deserialize, Serialize};

/// The schema version this engine writes. Older versions are upgraded when read.
pub const SPEC_VERSION: u32 = 1;

/// A design as the user describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DesignSpec {
    pub schema_version: u32,
    pub title: String,
    pub training: DataParallelTraining,
}

/// A data-parallel training job: every GPU holds the whole model and AllReduces its gradients
/// once per step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataParallelTraining {
    /// Model parameter count (70e9 for a 70B model).
    pub parameters: f64,
    /// Precision of the gradients on the wire.
    pub precision: Precision,
    /// GPUs in the data-parallel group.
    pub gpus: u32,
    pub gpus_per_node: u32,
    /// Network bandwidth available to each GPU, in Gb/s (one 400G NIC per GPU: 400).
    pub link_gbps: f64,
}

pub const MAX_TITLE_CHARS: usize = 200;
pub const MAX_PARAMETERS: f64 = 1e14;
pub const MAX_GPUS: u32 = 1_000_000;
pub const MAX_GPUS_PER_NODE: u32 = 576;
pub const MAX_LINK_GBPS: f64 = 6400.0;

impl Default for DesignSpec {
    /// The seed article's data-parallel example: a 70B model in FP16, here on 16 nodes of
    /// 8 GPUs with one 400G NIC per GPU.
    fn default() -> Self {
        DesignSpec {
            schema_version: SPEC_VERSION,
            title: "70B FP16 data-parallel training".to_string(),
            training: DataParallelTraining {
                parameters: 70e9,
                precision: Precision::Fp16,
                gpus: 128,
                gpus_per_node: 8,
                link_gbps: 400.0,
            },
        }
    }
}

impl DesignSpec {
    /// Reads a spec from JSON text, upgrading older schema versions, and validates it.
    pub fn from_json(text: &str) -> Result<DesignSpec, SpecErrors> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| SpecErrors::single("", format!("not valid JSON: {e}")))?;
        DesignSpec::from_value(value)
    }

    /// Reads a spec from a JSON value, upgrading older schema versions, and validates it.
    pub fn from_value(value: serde_json::Value) -> Result<DesignSpec, SpecErrors> {
        let version = match value.get("schema_version") {
            None => return Err(SpecErrors::single("schema_version", "is missing")),
            Some(v) => v.as_u64().ok_or_else(|| {
                SpecErrors::single("schema_version", format!("must be a whole number, not {v}"))
            })?,
        };
        if version == 0 || version > u64::from(SPEC_VERSION) {
            return Err(SpecErrors::single(
                "schema_version",
                format!(
                    "version {version} is not known to this engine (it reads 1 to {SPEC_VERSION})"
                ),
            ));
        }
        let spec: DesignSpec = serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().to_string();
            let path = if path == "." { String::new() } else { path };
            SpecErrors::single(path, plain_serde_message(&e.into_inner().to_string()))
        })?;
        spec.validate()?;
        Ok(spec)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Every error in the spec, each with its field path, or `Ok` when the spec can be evaluated.
    pub fn validate(&self) -> Result<(), SpecErrors> {
        let mut errors = Vec::new();
        if self.schema_version != SPEC_VERSION {
            errors.push(FieldError::new(
                "schema_version",
                format!("must be {SPEC_VERSION} once read"),
            ));
        }
        let title = self.title.trim();
        if title.is_empty() {
            errors.push(FieldError::new("title", "must not be empty"));
        } else if title.chars().count() > MAX_TITLE_CHARS {
            errors.push(FieldError::new(
                "title",
                format!("must be at most {MAX_TITLE_CHARS} characters"),
            ));
        }
        self.training.validate("training", &mut errors);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(SpecErrors(errors))
        }
    }
}

impl DataParallelTraining {
    fn validate(&self, at: &str, errors: &mut Vec<FieldError>) {
        check_positive(
            errors,
            &format!("{at}.parameters"),
            self.parameters,
            MAX_PARAMETERS,
            "",
        );
        check_positive(
            errors,
            &format!("{at}.link_gbps"),
            self.link_gbps,
            MAX_LINK_GBPS,
            " Gb/s",
        );
        if self.gpus == 0 {
            errors.push(FieldError::new(format!("{at}.gpus"), "must be at least 1"));
        } else if self.gpus > MAX_GPUS {
            errors.push(FieldError::new(
                format!("{at}.gpus"),
                format!("must be at most {MAX_GPUS}"),
            ));
        }
        if self.gpus_per_node == 0 {
            errors.push(FieldError::new(
                format!("{at}.gpus_per_node"),
                "must be at least 1",
            ));
        } else if self.gpus_per_node > MAX_GPUS_PER_NODE {
            errors.push(FieldError::new(
                format!("{at}.gpus_per_node"),
                format!("must be at most {MAX_GPUS_PER_NODE}"),
            ));
        } else if self.gpus > 0 && !self.gpus.is_multiple_of(self.gpus_per_node) {
            errors.push(FieldError::new(
                format!("{at}.gpus"),
                format!(
                    "{} GPUs do not fill whole nodes of {} GPUs",
                    self.gpus, self.gpus_per_node
                ),
            ));
        }
    }

    /// Whole nodes the job spans (valid specs only).
    pub fn nodes(&self) -> u32 {
        self.gpus.checked_div(self.gpus_per_node).unwrap_or(0)
    }
}

/// A finite value in (0, max].
fn check_positive(errors: &mut Vec<FieldError>, path: &str, value: f64, max: f64, unit: &str) {
    if !value.is_finite() {
        errors.push(FieldError::new(path, "must be a finite number"));
    } else if value <= 0.0 {
        errors.push(FieldError::new(
            path,
            format!("must be greater than 0{unit}"),
        ));
    } else if value > max {
        errors.push(FieldError::new(
            path,
            format!("must be at most {max}{unit}"),
        ));
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
