//! The design being edited: the spec in a signal, the text that did not parse, and the engine's
//! evaluation, recomputed in the browser on every change.

use engine::{DesignSpec, FieldError, Report, SpecErrors};
use leptos::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One evaluation of the design, shared by every part of the page that reads it, and told from
/// the next by identity: each change evaluates anew, and comparing two reports field by field
/// (to spare the results a redraw) cost the browser's bundle more than the redraw costs.
#[derive(Debug, Clone)]
pub struct Evaluated(pub Arc<Report>);

impl PartialEq for Evaluated {
    fn eq(&self, other: &Evaluated) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for Evaluated {
    type Target = Report;
    fn deref(&self) -> &Report {
        &self.0
    }
}

/// The floor the last evaluation laid, shared by the evaluations of one page: an edit that
/// moves no cable is not laid again.
type Floor = Arc<std::sync::Mutex<engine::LastFloor>>;

/// On the server: the floor of a page's design, laid with its plan on the blocking pool before
/// the page is rendered (as every evaluation is), and provided for the page: its planner then
/// evaluates the design on the async workers for the cost of its sizing alone, and its
/// dashboard is drawn from the same evaluation.
#[cfg(feature = "ssr")]
#[derive(Clone)]
pub struct LaidFloor {
    floor: Floor,
    /// The design and its evaluation on that floor; `None` for a design that is not valid.
    placed: Option<Arc<(DesignSpec, engine::PlacedReport)>>,
}

#[cfg(feature = "ssr")]
impl LaidFloor {
    /// `spec`'s floor, laid.
    pub fn of(spec: &DesignSpec) -> LaidFloor {
        let mut last = engine::LastFloor::default();
        // An invalid design has no floor: the page shows its errors, which cost no floor.
        let placed = engine::evaluate_placed_keeping(spec, &mut last)
            .ok()
            .map(|placed| Arc::new((spec.clone(), placed)));
        LaidFloor {
            floor: Arc::new(std::sync::Mutex::new(last)),
            placed,
        }
    }

    /// How many floors have been laid on it (by [`LaidFloor::of`] and by the page's editor).
    pub fn floors_laid(&self) -> u32 {
        self.floor.lock().map_or(0, |last| last.floors_laid())
    }

    /// The evaluation on this floor, if it is `spec`'s.
    pub fn placed_for(&self, spec: &DesignSpec) -> Option<&engine::PlacedReport> {
        self.placed
            .as_deref()
            .filter(|(laid, _)| laid == spec)
            .map(|(_, placed)| placed)
    }
}

#[derive(Clone, Copy)]
pub struct Editor {
    pub spec: RwSignal<DesignSpec>,
    /// Inputs whose text is not a value, by field path, with the reason.
    pub unparsed: RwSignal<BTreeMap<String, String>>,
    /// The engine's report, or every error: unparsed text first, then the engine's own.
    pub evaluation: Memo<Result<Evaluated, SpecErrors>>,
    /// The stored design that saving adds a revision to; `None` until the design is saved.
    pub editing: RwSignal<Option<Stored>>,
    /// Whether the spec has changed since it was opened or last saved.
    pub unsaved: RwSignal<bool>,
    /// False from a change until the inputs have been still for `GRACE_MS`: the engine's
    /// errors wait until then, so that "2" on the way to "24" does not flash a complaint, and
    /// so does the dashboard drawn on the server.
    pub settled: RwSignal<bool>,
    /// Counts changes, so that only the newest change's timer settles the inputs.
    changes: RwSignal<u64>,
    /// Whether any field shows a message. Compared when it is worked out: a change of a design
    /// that shows none (most changes) reads no field's message again.
    any_shown: Memo<bool>,
}

/// How long the inputs must be still before the engine's errors show and the dashboard is asked
/// for again, ms.
#[cfg(feature = "hydrate")]
const GRACE_MS: u64 = 700;

/// The stored design being edited: its id, newest revision and title when it was saved.
/// Carried in the planner's page with its spec (`crate::wire::Borsh`).
#[derive(Debug, Clone, PartialEq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Stored {
    pub id: String,
    pub revision: u32,
    pub title: String,
}

impl Editor {
    pub fn new(spec: DesignSpec) -> Editor {
        let spec = RwSignal::new(spec);
        let unparsed = RwSignal::new(BTreeMap::<String, String>::new());
        // On the server, the floor laid before the page began; in the browser, none yet.
        #[cfg(feature = "ssr")]
        let last: Floor = use_context::<LaidFloor>()
            .map(|laid| laid.floor)
            .unwrap_or_default();
        #[cfg(not(feature = "ssr"))]
        let last: Floor = Floor::default();
        let evaluation = Memo::new(move |_| {
            let report = spec
                .with(|spec| {
                    // Nothing panics while it is held: a poisoned lock still holds a floor.
                    let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
                    engine::evaluate_reusing(spec, &mut last)
                })
                .map(|r| Evaluated(Arc::new(r)));
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
        let settled = RwSignal::new(true);
        let any_shown = Memo::new(move |_| {
            unparsed.with(|u| !u.is_empty()) || (settled.get() && evaluation.with(|e| e.is_err()))
        });
        Editor {
            spec,
            unparsed,
            evaluation,
            editing: RwSignal::new(None),
            unsaved: RwSignal::new(false),
            settled,
            changes: RwSignal::new(0),
            any_shown,
        }
    }

    /// The editor of the page, provided by the planner.
    pub fn get() -> Editor {
        expect_context::<Editor>()
    }

    pub fn update(&self, change: impl FnOnce(&mut DesignSpec)) {
        self.spec.update(change);
        self.unsaved.set(true);
        self.unsettle();
    }

    /// Starts the grace period again.
    fn unsettle(&self) {
        self.changes.update(|n| *n += 1);
        #[cfg(feature = "hydrate")]
        {
            let (changes, settled) = (self.changes, self.settled);
            let this_change = changes.get_untracked();
            settled.set(false);
            set_timeout(
                move || {
                    if changes.get_untracked() == this_change {
                        settled.set(true);
                    }
                },
                std::time::Duration::from_millis(GRACE_MS),
            );
        }
    }

    /// The message for the field at `path`, if its text does not parse (at once) or the engine
    /// refuses it (once the inputs have settled).
    pub fn error(&self, path: String) -> Signal<Option<String>> {
        let this = *self;
        Signal::derive(move || this.error_at(&path))
    }

    /// Whether any field shows a message: while none does, no field's message need be read.
    pub fn shows_any_error(&self) -> bool {
        self.any_shown.get()
    }

    /// [`Editor::error`], read once.
    pub fn error_at(&self, path: &str) -> Option<String> {
        if !self.shows_any_error() {
            return None;
        }
        if let Some(reason) = self.unparsed.with(|u| u.get(path).cloned()) {
            return Some(reason);
        }
        if !self.settled.get() {
            return None;
        }
        self.evaluation.with(|e| match e {
            Err(errors) => errors.for_path(path).map(|e| e.reason.clone()),
            Ok(_) => None,
        })
    }

    /// Whether the design is invalid and the inputs have settled: the moment to say so.
    pub fn shows_errors(&self) -> bool {
        self.settled.get() && self.evaluation.with(|e| e.is_err())
    }

    pub fn set_unparsed(&self, path: &str, reason: Option<String>) {
        let present = self.unparsed.with_untracked(|u| u.get(path).cloned());
        if present != reason {
            self.unsettle();
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
    /// On the server the planner evaluates its design as the page renders, on the async
    /// workers: it takes the floor laid before on the blocking pool, its dashboard the
    /// evaluation laid with it, and an edit that moves cables lays its floor on the same.
    #[cfg(feature = "ssr")]
    #[test]
    fn on_the_server_the_planner_takes_the_floor_laid_before_its_page() {
        use leptos::prelude::*;
        let spec = crate::templates::first_design();
        let laid = super::LaidFloor::of(&spec);
        assert_eq!(laid.floors_laid(), 1);
        // The dashboard reads the design as the page sends it, as JSON: the same design, whose
        // evaluation on the floor laid is the fresh one; an edited design is not.
        let sent = engine::DesignSpec::from_json(&serde_json::to_string(&spec).unwrap()).unwrap();
        assert_eq!(
            laid.placed_for(&sent),
            Some(&engine::evaluate_placed(&spec).unwrap())
        );
        let mut edited = spec.clone();
        edited.cluster.nodes += 8;
        assert_eq!(laid.placed_for(&edited), None);
        Owner::new().with(|| {
            provide_context(laid.clone());
            let editor = super::Editor::new(spec.clone());
            assert!(editor.evaluation.get_untracked().is_ok());
            assert_eq!(laid.floors_laid(), 1, "the page's evaluation lays no floor");
            editor.update(|s| s.cluster.nodes += 8);
            assert!(editor.evaluation.get_untracked().is_ok());
            assert_eq!(
                laid.floors_laid(),
                2,
                "the editor lays on the floor it was given"
            );
        });
    }

    #[test]
    fn field_ids_are_paths_with_dashes() {
        assert_eq!(
            super::field_id("workloads[0].model.parameters"),
            "workloads-0-model-parameters"
        );
        assert_eq!(super::field_id("cluster.nodes"), "cluster-nodes");
    }
}
