//! The design being edited: the spec in a signal, the text that did not parse, and the engine's
//! evaluation, recomputed in the browser on every change.

use engine::{DesignSpec, FieldError, Report, SpecErrors};
use leptos::prelude::*;
use std::collections::BTreeMap;

#[derive(Clone, Copy)]
pub struct Editor {
    pub spec: RwSignal<DesignSpec>,
    /// Inputs whose text is not a value, by field path, with the reason.
    pub unparsed: RwSignal<BTreeMap<String, String>>,
    /// The engine's report, or every error: unparsed text first, then the engine's own.
    pub evaluation: Memo<Result<Report, SpecErrors>>,
    /// The stored design that saving adds a revision to; `None` until the design is saved.
    pub editing: RwSignal<Option<String>>,
}

impl Editor {
    pub fn new(spec: DesignSpec) -> Editor {
        let spec = RwSignal::new(spec);
        let unparsed = RwSignal::new(BTreeMap::<String, String>::new());
        let evaluation = Memo::new(move |_| {
            let report = spec.with(engine::evaluate);
            let unparsed = unparsed.get();
            if unparsed.is_empty() {
                return report;
            }
            let mut errors: Vec<FieldError> = unparsed
                .iter()
                .map(|(p, r)| FieldError::new(p.clone(), r.clone()))
                .collect();
            if let Err(SpecErrors(engine_errors)) = report {
                errors.extend(
                    engine_errors
                        .into_iter()
                        .filter(|e| !unparsed.contains_key(&e.path)),
                );
            }
            Err(SpecErrors(errors))
        });
        Editor {
            spec,
            unparsed,
            evaluation,
            editing: RwSignal::new(None),
        }
    }

    /// The editor of the page, provided by the planner.
    pub fn get() -> Editor {
        expect_context::<Editor>()
    }

    pub fn update(&self, change: impl FnOnce(&mut DesignSpec)) {
        self.spec.update(change);
    }

    /// The message for the field at `path`, if its text does not parse or the engine refuses it.
    pub fn error(&self, path: String) -> Signal<Option<String>> {
        let evaluation = self.evaluation;
        Signal::derive(move || {
            evaluation.with(|e| match e {
                Err(errors) => errors.for_path(&path).map(|e| e.reason.clone()),
                Ok(_) => None,
            })
        })
    }

    pub fn set_unparsed(&self, path: &str, reason: Option<String>) {
        let present = self.unparsed.with_untracked(|u| u.get(path).cloned());
        if present != reason {
            self.unparsed.update(|u| match reason {
                Some(r) => {
                    u.insert(path.to_string(), r);
                }
                None => {
                    u.remove(path);
                }
            });
        }
    }

    /// Forget unparsed text under `prefix` (a removed workload or fabric).
    pub fn clear_unparsed_under(&self, prefix: &str) {
        if self
            .unparsed
            .with_untracked(|u| u.keys().any(|k| k.starts_with(prefix)))
        {
            self.unparsed
                .update(|u| u.retain(|k, _| !k.starts_with(prefix)));
        }
    }
}

/// An element id for a field path: `workloads[0].model.parameters` → `workloads-0-model-parameters`.
pub fn field_id(path: &str) -> String {
    path.chars()
        .filter_map(|c| match c {
            '[' | '.' => Some('-'),
            ']' => None,
            c => Some(c),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn field_ids_are_paths_with_dashes() {
        assert_eq!(
            super::field_id("workloads[0].model.parameters"),
            "workloads-0-model-parameters"
        );
        assert_eq!(super::field_id("cluster.nodes"), "cluster-nodes");
    }
}
