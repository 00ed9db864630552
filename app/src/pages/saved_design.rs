use crate::components::TrainingResults;
use crate::design::{load_design, StoredDesign};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

/// A saved design at its share link, rendered on the server from the stored spec: complete
/// without JavaScript.
#[component]
pub fn SavedDesign() -> impl IntoView {
    let params = use_params_map();
    let design = Resource::new(
        move || params.read().get("id").unwrap_or_default(),
        load_design,
    );
    view! {
        <Suspense fallback=|| view! { <p>"Loading the design…"</p> }>
            {move || Suspend::new(async move {
                match design.await {
                    Ok(stored) => view! { <DesignView stored/> }.into_any(),
                    Err(_) => view! { <crate::pages::NotFound/> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn DesignView(stored: StoredDesign) -> impl IntoView {
    let spec = stored.spec.clone();
    let job = crate::form::TrainingForm::from_spec(&spec);
    let results = match engine::evaluate(&spec) {
        Ok(report) => view! { <TrainingResults report/> }.into_any(),
        Err(errors) => view! { <p class="save-error">{errors.to_string()}</p> }.into_any(),
    };
    view! {
        <Title text=spec.title.clone()/>
        <div class="planner">
            <section class="panel inputs" aria-labelledby="design-title">
                <h1 id="design-title">{spec.title.clone()}</h1>
                <p class="meta">
                    "Revision " {stored.revision} " · engine " {stored.engine_version.clone()}
                </p>
                <table class="inputs-table">
                    <caption>"Data-parallel training job"</caption>
                    <tbody>
                        <tr><th scope="row">"Model parameters"</th><td id="in-parameters">{format!("{} billion", job.parameters_billions)}</td></tr>
                        <tr><th scope="row">"Gradient precision"</th><td id="in-precision">{job.precision.label()}</td></tr>
                        <tr><th scope="row">"GPUs in the job"</th><td id="in-gpus">{job.gpus.clone()}</td></tr>
                        <tr><th scope="row">"GPUs per node"</th><td id="in-gpus-per-node">{job.gpus_per_node.clone()}</td></tr>
                        <tr><th scope="row">"Network bandwidth per GPU"</th><td id="in-link-gbps">{format!("{} Gb/s", job.link_gbps)}</td></tr>
                    </tbody>
                </table>
            </section>
            <section class="panel results-panel" aria-labelledby="results-heading">
                <h2 id="results-heading">"Per training step"</h2>
                {results}
            </section>
        </div>
    }
}
