use crate::components::{NumberField, TrainingResults};
use crate::design::SaveDesign;
use crate::form::TrainingForm;
use engine::{Precision, SpecErrors};
use leptos::prelude::*;
use leptos_meta::Title;

/// The planner: the user describes a data-parallel training job and sees, computed by the
/// engine in the browser as they type, what its gradient AllReduce costs on the network.
#[component]
pub fn Planner() -> impl IntoView {
    let initial = TrainingForm::default();
    let title = RwSignal::new(initial.title);
    let parameters = RwSignal::new(initial.parameters_billions);
    let precision = RwSignal::new(initial.precision);
    let gpus = RwSignal::new(initial.gpus);
    let gpus_per_node = RwSignal::new(initial.gpus_per_node);
    let link_gbps = RwSignal::new(initial.link_gbps);

    let evaluation = Memo::new(move |_| {
        let form = TrainingForm {
            title: title.get(),
            parameters_billions: parameters.get(),
            precision: precision.get(),
            gpus: gpus.get(),
            gpus_per_node: gpus_per_node.get(),
            link_gbps: link_gbps.get(),
        };
        form.to_spec()
            .and_then(|spec| engine::evaluate(&spec).map(|report| (spec, report)))
    });
    let error_for = move |path: &'static str| {
        Signal::derive(move || {
            evaluation.with(|e| match e {
                Err(errors) => errors.for_path(path).map(|e| e.reason.clone()),
                Ok(_) => None,
            })
        })
    };

    let save = ServerAction::<SaveDesign>::new();
    let on_save = move |_| {
        if let Ok((spec, _)) = evaluation.get_untracked() {
            if let Ok(spec) = serde_json::to_value(&spec) {
                save.dispatch(SaveDesign { spec });
            }
        }
    };

    view! {
        <Title text="Plan a training fabric"/>
        <div class="planner">
            <section class="panel inputs" aria-labelledby="inputs-heading">
                <h1 id="inputs-heading">"Data-parallel training job"</h1>
                <p class="lede">
                    "Every GPU holds the whole model and AllReduces its gradients once per step. "
                    "Describe the job and the network bandwidth each GPU gets."
                </p>
                <div class="field">
                    <label for="title">"Design title"</label>
                    <input
                        id="title"
                        name="title"
                        type="text"
                        maxlength="200"
                        prop:value=move || title.get()
                        on:input=move |ev| title.set(event_target_value(&ev))
                    />
                    <p class="field-error" role="alert">{move || error_for("title").get()}</p>
                </div>
                <NumberField id="parameters" label="Model parameters" unit="billion" value=parameters error=error_for("training.parameters")/>
                <div class="field">
                    <label for="precision">"Gradient precision"</label>
                    <select
                        id="precision"
                        name="precision"
                        on:change=move |ev| {
                            if let Some(p) = Precision::from_key(&event_target_value(&ev)) {
                                precision.set(p);
                            }
                        }
                    >
                        {Precision::ALL
                            .into_iter()
                            .map(|p| {
                                view! {
                                    <option value=p.key() selected=move || precision.get() == p>
                                        {format!("{} ({} B per value)", p.label(), p.bytes_per_element())}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </div>
                <NumberField id="gpus" label="GPUs in the job" value=gpus error=error_for("training.gpus")/>
                <NumberField id="gpus-per-node" label="GPUs per node" value=gpus_per_node error=error_for("training.gpus_per_node")/>
                <NumberField id="link-gbps" label="Network bandwidth per GPU" unit="Gb/s" value=link_gbps error=error_for("training.link_gbps")/>
            </section>
            <section class="panel results-panel" aria-labelledby="results-heading" aria-live="polite">
                <h2 id="results-heading">"Per training step"</h2>
                {move || match evaluation.get() {
                    Ok((_, report)) => view! { <TrainingResults report/> }.into_any(),
                    Err(errors) => view! { <InvalidDesign errors/> }.into_any(),
                }}
                <div class="save">
                    <button
                        id="save"
                        type="button"
                        on:click=on_save
                        disabled=move || evaluation.with(|e| e.is_err()) || save.pending().get()
                    >
                        {move || if save.pending().get() { "Saving…" } else { "Save design" }}
                    </button>
                    {move || {
                        save.value().get().map(|result| match result {
                            Ok(saved) => {
                                let path = saved.share_path();
                                view! {
                                    <p class="saved" id="share">
                                        "Saved. Share link: " <a id="share-link" href=path.clone()>{path.clone()}</a>
                                    </p>
                                }
                                    .into_any()
                            }
                            Err(error) => view! { <p class="save-error" role="alert">{error.to_string()}</p> }.into_any(),
                        })
                    }}
                </div>
            </section>
        </div>
    }
}

#[component]
fn InvalidDesign(errors: SpecErrors) -> impl IntoView {
    view! {
        <div class="invalid-design" role="status">
            <p>"Fix these inputs to see results:"</p>
            <ul>{errors.0.into_iter().map(|e| view! { <li>{e.to_string()}</li> }).collect_view()}</ul>
        </div>
    }
}
