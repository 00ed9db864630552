use crate::dashboard::{DashboardView, Findings, Headline};
use crate::editor::Editor;
use crate::wizard::Wizard;
use leptos::prelude::*;
use leptos_meta::Title;

/// A new design, from the first template.
#[component]
pub fn NewDesign() -> impl IntoView {
    view! { <Planner spec=crate::templates::first_design() editing=None/> }
}

/// The planner: the wizard beside the results, and the dashboard below, all recomputed by the
/// engine in the browser on every change. `editing` is the stored design that saving adds a
/// revision to; without it, saving creates a new design.
#[component]
pub fn Planner(spec: engine::DesignSpec, editing: Option<String>) -> impl IntoView {
    let editor = Editor::new(spec);
    editor.editing.set(editing);
    provide_context(editor);
    let results = move || {
        match editor.evaluation.get() {
        Ok(report) => view! {
            <Headline report=report.clone()/>
            <h3>"Findings"</h3>
            <Findings report/>
        }
        .into_any(),
        Err(errors) => view! {
            <div class="invalid-design" role="status" id="invalid-design">
                <p>"Fix these inputs to see results:"</p>
                <ul>{errors.0.into_iter().map(|e| view! { <li>{e.to_string()}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any(),
    }
    };
    // The dashboard follows the last valid design, so it does not flicker while a field is
    // being corrected.
    let valid_spec = Memo::new(move |previous: Option<&engine::DesignSpec>| {
        let spec = editor.spec.get();
        match (editor.evaluation.with(|e| e.is_ok()), previous) {
            (false, Some(previous)) => previous.clone(),
            _ => spec,
        }
    });
    view! {
        <Title text="Plan a GPU cluster fabric"/>
        <div class="planner">
            <section class="panel inputs" aria-labelledby="wizard-heading">
                <h1 id="wizard-heading">"Design the fabric"</h1>
                <Wizard/>
            </section>
            <aside class="panel results-panel" aria-labelledby="results-heading" aria-live="polite">
                <h2 id="results-heading">"Results"</h2>
                {results}
            </aside>
        </div>
        <DashboardView spec=valid_spec/>
    }
}
