//! The design wizard: cluster → workloads → fabrics → review. Every step edits the one spec the
//! page holds, so going back loses nothing.

mod cluster;
mod costs;
mod fabrics;
mod floor;
mod follow;
mod growth;
mod lens;
pub mod options;
mod review;
mod workloads;

use leptos::prelude::*;

const STEPS: [(&str, &str); 6] = [
    ("cluster", "1. Cluster"),
    ("workloads", "2. Workloads"),
    ("fabrics", "3. Fabrics"),
    ("floor", "4. Floor"),
    ("costs", "5. Prices & calibration"),
    ("review", "6. Review"),
];

#[component]
pub fn Wizard() -> AnyView {
    // Without JavaScript every step shows; once hydrated, one at a time.
    let current = RwSignal::new(None::<usize>);
    Effect::new(move |_| {
        if current.get_untracked().is_none() {
            current.set(Some(0));
        }
    });
    let shown = move |step: usize| move || current.get().is_none_or(|c| c == step);
    let go = move |step: usize| {
        move |_| {
            current.set(Some(step));
            focus_heading(STEPS[step].0);
        }
    };
    let nav = STEPS
        .iter()
        .enumerate()
        .map(|(i, (key, label))| {
            view! {
                <li>
                    <button
                        type="button"
                        id=format!("step-{key}")
                        class="step"
                        class:current=move || current.get() == Some(i)
                        aria-current=move || if current.get() == Some(i) { "step" } else { "false" }
                        on:click=go(i)
                    >
                        {*label}
                    </button>
                </li>
            }
        })
        .collect_view();
    let section = |i: usize, title: &'static str, body: AnyView| {
        let (key, _) = STEPS[i];
        view! {
            <section class="wizard-step" id=format!("{key}-step") class:hidden=move || !shown(i)() aria-labelledby=format!("{key}-heading")>
                <h2 id=format!("{key}-heading") tabindex="-1">{title}</h2>
                {body}
                <div class="step-buttons">
                    {(i > 0).then(|| view! { <button type="button" class="secondary" on:click=go(i - 1)>"Back"</button> })}
                    {(i + 1 < STEPS.len()).then(|| view! { <button type="button" class="next" on:click=go(i + 1)>"Next"</button> })}
                </div>
            </section>
        }
    };
    view! {
        <nav class="steps" aria-label="Wizard steps">
            <ol>{nav}</ol>
        </nav>
        {section(0, "Cluster", view! { <cluster::ClusterStep/> }.into_any())}
        {section(1, "Workloads", view! { <workloads::WorkloadsStep/> }.into_any())}
        {section(2, "Fabrics", view! { <fabrics::FabricsStep/> }.into_any())}
        {section(3, "Floor, racks and power", view! { <floor::FloorStep/> }.into_any())}
        {section(4, "Prices and calibration", view! { <costs::CostsStep/> }.into_any())}
        {section(5, "Review and save", view! { <review::ReviewStep/> }.into_any())}
    }
    .into_any()
}

/// Moves keyboard focus to the heading of the step just shown, once it is on screen, so that a
/// keyboard or screen-reader user continues from the top of the new step.
fn focus_heading(key: &'static str) {
    #[cfg(feature = "hydrate")]
    request_animation_frame(move || {
        use leptos::wasm_bindgen::JsCast;
        if let Some(heading) = document()
            .get_element_by_id(&format!("{key}-heading"))
            .and_then(|e| e.dyn_into::<leptos::web_sys::HtmlElement>().ok())
        {
            let _ = heading.focus();
        }
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = key;
}
