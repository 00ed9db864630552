use crate::components::DesignSummary;
use crate::design::SaveDesign;
use crate::editor::Editor;
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
    let summary = move || view! { <DesignSummary spec=editor.spec.get()/> };
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
                                "Saved. Share link: " <a id="share-link" rel="external" href=path.clone()>{path.clone()}</a>
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
