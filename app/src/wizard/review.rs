use crate::design::SaveDesign;
use crate::editor::Editor;
use engine::Workload;
use leptos::prelude::*;

/// Step 4: what the design holds, and saving it.
#[component]
pub fn ReviewStep() -> AnyView {
    let editor = Editor::get();
    let save = ServerAction::<SaveDesign>::new();
    let invalid = Memo::new(move |_| editor.evaluation.with(|e| e.is_err()));
    let on_save = move |_| {
        if editor.evaluation.with_untracked(|e| e.is_ok()) {
            // Through text, so that the bundle serialises a spec only one way.
            let json = editor.spec.with_untracked(serde_json::to_string);
            if let Ok(spec) = json.and_then(|j| serde_json::from_str(&j)) {
                save.dispatch(SaveDesign { spec });
            }
        }
    };
    let summary = move || {
        editor.spec.with(|s| {
            let c = &s.cluster;
            let workloads = s
                .workloads
                .iter()
                .map(|w| {
                    let kind = match w {
                        Workload::Training(_) => "training",
                        Workload::Inference(_) => "inference",
                        Workload::Rag(_) => "RAG",
                        Workload::Storage(_) => "storage",
                    };
                    view! { <li>{format!("{} ({kind}) on {}", w.name(), w.fabric())}</li> }
                })
                .collect_view();
            let fabrics = s
                .fabrics
                .iter()
                .map(|f| view! { <li>{format!("{}: {} ({})", f.name, f.technology.label(), f.role.label())}</li> })
                .collect_view();
            view! {
                <dl class="summary">
                    <dt>"Cluster"</dt>
                    <dd>{format!("{} nodes × {} GPUs ({}), {} compute NICs per node", c.nodes, c.gpus_per_node, engine::catalog::gpu(&c.gpu).map_or(c.gpu.as_str(), |g| g.name), c.nics_per_node)}</dd>
                    <dt>"Workloads"</dt>
                    <dd><ul>{workloads}</ul></dd>
                    <dt>"Fabrics"</dt>
                    <dd><ul>{fabrics}</ul></dd>
                </dl>
            }
        })
    };
    view! {
        {summary}
        <div class="save">
            <button id="save" type="button" on:click=on_save disabled=move || invalid.get() || save.pending().get()>
                {move || if save.pending().get() { "Saving…" } else { "Save design" }}
            </button>
            {move || invalid.get().then(|| view! { <p class="help">"Fix the inputs marked in the steps before saving."</p> })}
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
    }
    .into_any()
}
