//! The planner's form: what the user typed, as text, turned into a spec. Text that is not a
//! number is reported here; ranges and combinations are the engine's to judge.

use engine::{DesignSpec, FieldError, Precision, SpecErrors, SpecV1, TrainingV1, WorkloadReport};

/// The planner's inputs exactly as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainingForm {
    pub title: String,
    /// Parameter count in billions.
    pub parameters_billions: String,
    pub precision: Precision,
    pub gpus: String,
    pub gpus_per_node: String,
    pub link_gbps: String,
}

impl Default for TrainingForm {
    /// The seed article's data-parallel example: a 70B model in FP16, here on 16 nodes of
    /// 8 GPUs with one 400G NIC per GPU.
    fn default() -> Self {
        TrainingForm {
            title: "70B FP16 data-parallel training".to_string(),
            parameters_billions: "70".to_string(),
            precision: Precision::Fp16,
            gpus: "128".to_string(),
            gpus_per_node: "8".to_string(),
            link_gbps: "400".to_string(),
        }
    }
}

impl TrainingForm {
    /// The form of a design saved from it: the job is its first training workload.
    pub fn from_spec(spec: &DesignSpec) -> Self {
        let mut form = TrainingForm {
            title: spec.title.clone(),
            ..TrainingForm::default()
        };
        if let Some(engine::Workload::Training(t)) = spec.workloads.first() {
            let p = &t.parallelism;
            form.parameters_billions = trim_number(t.model.parameters / 1e9);
            form.precision = t.model.precision;
            form.gpus = (p.dp * p.tp * p.pp).to_string();
        }
        form.gpus_per_node = spec.cluster.gpus_per_node.to_string();
        if let Some(f) = spec.fabrics.first() {
            form.link_gbps = trim_number(f.port_gbps());
        }
        form
    }

    /// The spec these inputs describe, or every error in them, each with its field path. The
    /// form is the engine's version-1 schema (one data-parallel job), upgraded to today's.
    pub fn to_spec(&self) -> Result<DesignSpec, SpecErrors> {
        let mut errors = Vec::new();
        let parameters_billions = number(
            &mut errors,
            "training.parameters",
            &self.parameters_billions,
        );
        let link_gbps = number(&mut errors, "training.link_gbps", &self.link_gbps);
        let gpus = count(&mut errors, "training.gpus", &self.gpus);
        let gpus_per_node = count(&mut errors, "training.gpus_per_node", &self.gpus_per_node);
        let v1 = SpecV1 {
            schema_version: 1,
            title: self.title.trim().to_string(),
            training: TrainingV1 {
                parameters: parameters_billions * 1e9,
                precision: self.precision,
                gpus,
                gpus_per_node,
                link_gbps,
            },
        };
        // Report the engine's judgement of the fields that did parse, next to the parse errors.
        if let Err(SpecErrors(engine_errors)) = v1.validate() {
            for error in engine_errors {
                if !errors.iter().any(|e: &FieldError| e.path == error.path) {
                    errors.push(error);
                }
            }
        }
        if !errors.is_empty() {
            return Err(SpecErrors(errors));
        }
        let spec = v1.upgrade();
        spec.validate()?;
        Ok(spec)
    }
}

/// The data-parallel job's report within a design's report.
pub fn training_report(report: &engine::Report) -> Option<&engine::TrainingReport> {
    report.workloads.iter().find_map(|w| match w {
        WorkloadReport::Training(t) => Some(t),
        _ => None,
    })
}

fn number(errors: &mut Vec<FieldError>, path: &str, text: &str) -> f64 {
    match text.trim().parse::<f64>() {
        Ok(value) if value.is_finite() => value,
        _ => {
            errors.push(FieldError::new(path, "must be a number"));
            f64::NAN
        }
    }
}

/// A whole number. Negative values pass through as 0 so that the engine names the range.
fn count(errors: &mut Vec<FieldError>, path: &str, text: &str) -> u32 {
    let value = number(errors, path, text);
    if value.is_nan() {
        return 0;
    }
    if value.fract() != 0.0 {
        errors.push(FieldError::new(path, "must be a whole number"));
        return 0;
    }
    value.clamp(0.0, f64::from(u32::MAX)) as u32
}

/// `70` rather than `70.0`, `0.5` as is.
fn trim_number(value: f64) -> String {
    let text = format!("{value}");
    text.strip_suffix(".0").map(str::to_string).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> TrainingForm {
        TrainingForm::default()
    }

    #[test]
    fn a_saved_spec_gives_back_the_form_it_came_from() {
        let spec = form().to_spec().unwrap();
        assert_eq!(TrainingForm::from_spec(&spec), form());
        assert_eq!(spec.cluster.nodes, 16);
    }

    #[test]
    fn text_that_is_not_a_number_is_named_by_its_field() {
        let mut form = form();
        form.link_gbps = "fast".into();
        let errors = form.to_spec().unwrap_err();
        assert_eq!(
            errors.0,
            [FieldError::new("training.link_gbps", "must be a number")]
        );
    }

    #[test]
    fn a_negative_gpu_count_gets_the_engines_range_message() {
        let mut form = form();
        form.gpus = "-4".into();
        let errors = form.to_spec().unwrap_err();
        assert_eq!(
            errors.for_path("training.gpus").unwrap().reason,
            "must be at least 1"
        );
    }

    #[test]
    fn a_fractional_gpu_count_is_refused() {
        let mut form = form();
        form.gpus_per_node = "7.5".into();
        let errors = form.to_spec().unwrap_err();
        assert_eq!(
            errors.for_path("training.gpus_per_node").unwrap().reason,
            "must be a whole number"
        );
    }

    #[test]
    fn nan_is_not_a_number() {
        let mut form = form();
        form.parameters_billions = "NaN".into();
        assert!(form
            .to_spec()
            .unwrap_err()
            .for_path("training.parameters")
            .is_some());
    }
}
