use crate::components::{design_summary, replace_address, CopyableLink};
use crate::design::{save_design, save_revision, SavedDesign};
use crate::editor::{Editor, Stored};
use crate::error::AppError;
use leptos::prelude::*;

/// What a save sends: the design it adds a revision to (none for a new design), the spec as
/// JSON text and the note.
type SaveInput = (Option<String>, Box<serde_json::value::RawValue>, String);

/// Step 4: what the design holds, and saving it: a new design the first time, then a new
/// revision of it on every save.
#[component]
pub fn ReviewStep() -> AnyView {
    let editor = Editor::get();
    let note = RwSignal::new(String::new());
    let save = Action::new(|(editing, spec, note): &SaveInput| {
        let (editing, spec, note) = (editing.clone(), spec.clone(), Some(note.clone()));
        async move {
            match editing {
                Some(id) => save_revision(id, spec, note).await,
                None => save_design(spec, note).await,
            }
        }
    });
    // The edit link of a design created here, kept for as long as the page is open.
    let edit_link = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        if let Some(Ok(saved)) = save.value().get() {
            let title = editor.spec.with_untracked(|s| s.title.clone());
            editor.editing.set(Some(Stored {
                id: saved.id.clone(),
                revision: saved.revision,
                title,
            }));
            editor.unsaved.set(false);
            if let Some(path) = saved.edit_path() {
                edit_link.set(Some(path));
            }
            // A reload now opens the saved design, not a new one.
            replace_address(&saved.editor_path());
            note.set(String::new());
        }
    });
    let invalid = Memo::new(move |_| editor.evaluation.with(|e| e.is_err()));
    let on_save = move |_| {
        if editor.evaluation.with_untracked(|e| e.is_ok()) {
            // As text the server reads with the engine, so that the bundle neither serialises
            // a spec another way nor parses one.
            if let Ok(spec) = editor.spec.with_untracked(serde_json::value::to_raw_value) {
                let editing = editor
                    .editing
                    .with_untracked(|e| e.as_ref().map(|e| e.id.clone()));
                save.dispatch((editing, spec, note.get_untracked()));
            }
        }
    };
    let summary = move || editor.spec.with(design_summary);
    let label = move || match (save.pending().get(), editor.editing.get().is_some()) {
        (true, _) => "Saving…",
        (false, true) => "Save a new revision",
        (false, false) => "Save design",
    };
    view! {
        {summary}
        <div class="save">
            <label for="save-note">"Note for this revision (optional)"</label>
            <input id="save-note" type="text" maxlength="500" placeholder="what changed"
                prop:value=move || note.get() on:input=move |ev| note.set(event_target_value(&ev))/>
            <button id="save" type="button" on:click=on_save disabled=move || invalid.get() || save.pending().get()>
                {label}
            </button>
            {move || invalid.get().then(|| view! { <p class="help">"Fix the inputs marked in the steps before saving."</p> })}
            {move || save.value().get().map(outcome)}
            {move || edit_link.get().map(|path| view! {
                <div class="edit-link" id="edit-link-note">
                    <p>"Keep the edit link private: it is shown only this once, and it lets any browser change the design."</p>
                    <CopyableLink id="edit-link" label="Edit link:" path/>
                </div>
            })}
        </div>
    }
    .into_any()
}

fn outcome(result: Result<SavedDesign, AppError>) -> AnyView {
    match result {
        Ok(saved) => {
            let path = saved.share_path();
            let revision = saved.revision_path();
            view! {
                <div class="saved" id="share">
                    <p>{format!("Saved revision {}.", saved.revision)}</p>
                    <CopyableLink id="share-link" label="Share link:" path/>
                    <CopyableLink id="revision-link" label="This revision:" path=revision/>
                </div>
            }
            .into_any()
        }
        Err(error) => {
            view! { <p class="save-error" role="alert">{error.to_string()}</p> }.into_any()
        }
    }
}
