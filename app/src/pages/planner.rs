use super::starting_points::StartingPoints;
use crate::components::{Findings, Headline, SummaryBar};
use crate::dashboard::DashboardView;
use crate::editor::{Editor, Evaluated, Stored};
use crate::wizard::Wizard;
use leptos::prelude::*;
use leptos_meta::Title;
use std::sync::Arc;

/// What the planner opens: a design, and the stored design that saving adds a revision to
/// (none for a new design or a copy). The server decides it for the address (a new design, a
/// starting point, a stored design, a search's candidate) and the page carries it to the
/// browser as borsh (`crate::wire::Borsh`), which hydrates from it: the bundle holds no loaders
/// and no router, and decodes one spec, already upgraded and validated on the server.
#[derive(Debug, Clone, PartialEq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct PlannerStart {
    pub spec: engine::DesignSpec,
    pub editing: Option<Stored>,
}

impl PlannerStart {
    /// `spec` as a new design: saving it creates a design.
    pub fn new_design(spec: engine::DesignSpec) -> PlannerStart {
        PlannerStart {
            spec,
            editing: None,
        }
    }
}

/// The planner on the start the server chose for this page.
#[component]
pub fn PlannerPage() -> impl IntoView {
    // On the server, from the request's context; in the browser, from the page.
    let PlannerStart { spec, editing } =
        SharedValue::<_, crate::wire::Borsh>::new_with_encoding(expect_context::<PlannerStart>)
            .into_inner();
    view! { <Planner spec editing/> }
}

/// The planner: the wizard beside the results, and the dashboard below, all recomputed by the
/// engine in the browser on every change. `editing` is the stored design that saving adds a
/// revision to; without it, saving creates a new design.
#[component]
pub fn Planner(spec: engine::DesignSpec, editing: Option<Stored>) -> impl IntoView {
    let editor = Editor::new(spec);
    editor.editing.set(editing);
    provide_context(editor);
    ask_before_leaving_unsaved_edits(editor);
    let stale = Memo::new(move |_| editor.evaluation.with(|e| e.is_err()));
    let showing_errors = Memo::new(move |_| editor.shows_errors());
    // The newest report of a valid design: shown, marked stale, while the inputs are invalid
    // but still changing.
    let last_report =
        Memo::new(
            move |previous: Option<&Option<Evaluated>>| match editor.evaluation.get() {
                Ok(report) => Some(report),
                Err(_) => previous.cloned().flatten(),
            },
        );
    let results = move || match (showing_errors.get(), last_report.get()) {
        (false, Some(Evaluated(report))) => view! {
            <Headline report=report.clone()/>
            <h3>"Findings"</h3>
            <MemoryRemedies report=report.clone()/>
            <Findings report/>
        }
        .into_any(),
        _ => {
            let errors: Vec<String> = editor.evaluation.with(|e| match e {
                Err(errors) => editor.spec.with(|spec| {
                    errors
                        .0
                        .iter()
                        .map(|e| crate::labels::describe(spec, e))
                        .collect()
                }),
                Ok(_) => Vec::new(),
            });
            view! {
                <div class="invalid-design" role="status" id="invalid-design">
                    <p>"Fix these inputs to see results:"</p>
                    <ul>{errors.into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}</ul>
                </div>
            }
            .into_any()
        }
    };
    // The dashboard follows the last valid design, so it does not flicker while a field is
    // being corrected; it says so while it does.
    let valid_spec = Memo::new(move |previous: Option<&engine::DesignSpec>| {
        let spec = editor.spec.get();
        match (editor.evaluation.with(|e| e.is_ok()), previous) {
            (false, Some(previous)) => previous.clone(),
            _ => spec,
        }
    });
    // The dashboard is drawn on the server from the whole design and drawn again in the page,
    // which at 100,000 GPUs holds the page a quarter of a second: it follows the design once
    // the inputs have settled, so a node count typed a digit at a time asks for one dashboard,
    // not one per digit, and no keystroke waits behind one. The results follow every keystroke.
    let dashboard_spec =
        Memo::new(
            move |shown: Option<&engine::DesignSpec>| match (editor.settled.get(), shown) {
                (false, Some(shown)) => shown.clone(),
                _ => valid_spec.get(),
            },
        );
    let heading = move || {
        match editor.editing.get() {
        Some(Stored {
            id,
            revision,
            title,
        }) => view! {
            <h1 id="wizard-heading">{format!("Editing {title}, revision {revision}")}</h1>
            <p class="note" id="editing-note">
                "Saving adds revision " {revision + 1} ". "
                <a rel="external" href=format!("/d/{id}")>"View the saved design"</a> " · "
                <a rel="external" id="editing-search" href=format!("/d/{id}/r/{revision}/search")>"Search for the cheapest fabric"</a>
            </p>
        }
        .into_any(),
        None => view! {
            <h1 id="wizard-heading">"Design the fabric"</h1>
            <StartingPoints/>
        }
        .into_any(),
    }
    };
    view! {
        // The server writes a reactive title as it is: markup characters are left out of it.
        <Title text=move || match editor.editing.get() {
            Some(stored) => format!("Editing {}", stored.title.replace(['<', '>', '&'], "")),
            None => "Plan a GPU cluster fabric".to_string(),
        }/>
        <div class="planner">
            <section class="panel inputs" aria-labelledby="wizard-heading">
                {heading}
                <Wizard/>
            </section>
            <aside class="panel results-panel" class:stale=move || stale.get() aria-labelledby="results-heading" aria-live="polite">
                <h2 id="results-heading">"Results"</h2>
                {results}
            </aside>
            {move || last_report.get().map(|Evaluated(report)| view! { <SummaryBar report/> })}
        </div>
        <div class="dashboard-frame" class:stale=move || stale.get()>
            {move || stale.get().then(|| view! {
                <p class="stale-note" id="stale-note" role="status">
                    "These results are for the last valid inputs: fix the inputs marked above to bring them up to date."
                </p>
            })}
            <DashboardView spec=dashboard_spec/>
        </div>
    }
}

/// Leaving the page with edits that are not saved asks first.
fn ask_before_leaving_unsaved_edits(editor: Editor) {
    #[cfg(feature = "hydrate")]
    {
        let handle = window_event_listener(leptos::ev::beforeunload, move |ev| {
            if editor.unsaved.get_untracked() {
                ev.prevent_default();
                ev.set_return_value("You have edits that are not saved.");
            }
        });
        on_cleanup(move || handle.remove());
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = editor;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::Borsh;
    use codee::{Decoder, Encoder};
    use engine::DesignSpec;

    fn carried<T>(value: &T) -> T
    where
        Borsh: Encoder<T, Encoded = Vec<u8>> + Decoder<T, Encoded = [u8]>,
        <Borsh as Encoder<T>>::Error: std::fmt::Debug,
        <Borsh as Decoder<T>>::Error: std::fmt::Debug,
    {
        Borsh::decode(&Borsh::encode(value).unwrap()).unwrap()
    }

    fn examples() -> Vec<DesignSpec> {
        let mut specs: Vec<DesignSpec> = engine::examples::ALL
            .iter()
            .map(|(_, text)| DesignSpec::from_json(text).unwrap())
            .collect();
        specs.extend([
            crate::templates::first_design(),
            crate::templates::blank_design(),
        ]);
        specs
    }

    /// The planner opens in the browser on exactly the start the server chose: every example,
    /// every workload kind, fabric, floor and calibration field comes through.
    #[test]
    fn the_planners_start_arrives_as_the_server_sent_it() {
        let specs = examples();
        assert!(specs.len() >= 8, "{}", specs.len());
        for spec in specs {
            let new = PlannerStart::new_design(spec.clone());
            assert_eq!(carried(&new), new);
            let editing = PlannerStart {
                spec,
                editing: Some(Stored {
                    id: "k3j5v9q2".into(),
                    revision: 7,
                    title: "Pod «B», rev 7".into(),
                }),
            };
            assert_eq!(carried(&editing), editing);
        }
    }

    /// A start that is cut short is refused, not read as something else.
    #[test]
    fn a_truncated_start_is_refused() {
        let start = PlannerStart::new_design(crate::templates::first_design());
        let bytes = Borsh::encode(&start).unwrap();
        let cut: Result<PlannerStart, _> = Borsh::decode(&bytes[..bytes.len() - 1]);
        assert!(cut.is_err());
    }
}

/// For each training job the GPUs cannot hold, a button that applies the parallelism (and
/// recomputation) the engine found it fits with.
#[component]
fn MemoryRemedies(report: Arc<engine::Report>) -> AnyView {
    let editor = Editor::get();
    let buttons: Vec<AnyView> = report
        .workloads
        .iter()
        .enumerate()
        .filter_map(|(i, w)| {
            let engine::WorkloadReport::Training(t) = w else {
                return None;
            };
            let fits = t.memory.as_ref()?.fits_with?;
            let full = if fits.recompute == engine::Recompute::Full {
                ", full recomputation"
            } else {
                ""
            };
            let label = format!(
                "Make “{}” fit: tensor {}, pipeline {}, data {}{full}",
                t.name, fits.tp, fits.pp, fits.dp
            );
            let apply = move |_| {
                editor.update(|s| {
                    if let Some(engine::Workload::Training(t)) = s.workloads.get_mut(i) {
                        fits.apply_to(t);
                    }
                })
            };
            Some(view! { <li><button type="button" class="secondary memory-remedy" on:click=apply>{label}</button></li> }.into_any())
        })
        .collect();
    if buttons.is_empty() {
        return ().into_any();
    }
    view! { <ul class="remedies" id="memory-remedies">{buttons}</ul> }.into_any()
}
