//! A stored design opened in the planner: to save new revisions of it (with its edit key), or
//! to duplicate it as a new design (anyone with its share link). Rendered only once the design
//! is loaded, so that a missing design or key gets its status (404, 403).

use super::planner::Planner;
use crate::design::{design_to_edit, OpenedDesign};
use crate::editor::Stored;
use crate::error::AppError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

/// What the planner shows in place of a design it could not open: `heading`, the reason, and
/// the way back to a new design.
pub(super) fn problem_panel(heading: &'static str, error: AppError) -> AnyView {
    view! {
        <Title text=heading/>
        <section class="panel message">
            <h1>{heading}</h1>
            <p>{error.to_string()}</p>
            <p><a href="/">"Start a new design"</a></p>
        </section>
    }
    .into_any()
}

fn problem(error: AppError) -> AnyView {
    let heading = match &error {
        AppError::NotFound(_) => "Design not found",
        _ => "The design could not be opened",
    };
    problem_panel(heading, error)
}

/// `/d/:id/edit`: the planner on the newest revision, saving new revisions of the design.
#[component]
pub fn EditDesign() -> impl IntoView {
    let params = use_params_map();
    let loaded = Resource::new(
        move || params.read().get("id").unwrap_or_default(),
        |id| design_to_edit(id, None),
    );
    view! {
        <Suspense fallback=|| view! { <p class="note">"Opening the design…"</p> }>
            {move || Suspend::new(async move {
                match loaded.await {
                    Ok(OpenedDesign { id, revision, spec, editable: true }) => {
                        let editing = Stored { id, revision, title: spec.title.clone() };
                        view! { <Planner spec editing=Some(editing)/> }.into_any()
                    }
                    Ok(design) => {
                        #[cfg(feature = "ssr")]
                        crate::status::set_status(403);
                        let duplicate = format!("/d/{}/duplicate", design.id);
                        let view_link = format!("/d/{}", design.id);
                        view! {
                            <Title text="Not your design to edit"/>
                            <section class="panel message" id="not-editable">
                                <h1>"This browser cannot edit this design"</h1>
                                <p>"Only a browser holding the design's edit key can save revisions of it. Open the edit link you were given when it was created, or make your own copy."</p>
                                <p><a id="duplicate-instead" href=duplicate>"Duplicate as a new design"</a> " · " <a href=view_link>"View it"</a></p>
                            </section>
                        }
                        .into_any()
                    }
                    Err(e) => problem(e),
                }
            })}
        </Suspense>
    }
}

/// `/d/:id/duplicate?revision=N`: the planner on a copy of the revision, saved as a new design.
#[component]
pub fn DuplicateDesign() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let loaded = Resource::new(
        move || {
            (
                params.read().get("id").unwrap_or_default(),
                query
                    .read()
                    .get("revision")
                    .and_then(|n| n.parse::<u32>().ok()),
            )
        },
        |(id, revision)| design_to_edit(id, revision),
    );
    view! {
        <Suspense fallback=|| view! { <p class="note">"Opening the design…"</p> }>
            {move || Suspend::new(async move {
                match loaded.await {
                    Ok(OpenedDesign { mut spec, .. }) => {
                        spec.title = format!("{} (copy)", spec.title);
                        view! { <Planner spec editing=None/> }.into_any()
                    }
                    Err(e) => problem(e),
                }
            })}
        </Suspense>
    }
}
