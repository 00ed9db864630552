//! The pages the planner's addresses answer with when there is nothing to open: no such
//! starting point, design or candidate, or a design this browser may not edit. Finished
//! documents with their status; the planner itself is not sent.

use app::pages::document::{document, message, Page};
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// `/new/{from}` names no starting point.
pub fn no_starting_point(from: &str) -> Page {
    message(
        404,
        "No such starting point",
        format!("There is no example called {from:?}."),
    )
}

/// `/d/{id}/edit` or `/d/{id}/duplicate` names no design, or no such revision of it.
pub fn no_design(id: &str, revision: Option<u32>) -> Page {
    message(
        404,
        "Design not found",
        match revision {
            Some(n) => format!("Design {id:?} has no revision {n}."),
            None => format!("No design has the id {id:?}."),
        },
    )
}

/// A search's candidate that cannot be opened, with the reason.
pub fn no_candidate(status: u16, reason: String) -> Page {
    message(status, "The candidate could not be opened", reason)
}

/// `/d/{id}/edit` from a browser without the design's edit key: the ways on from here.
pub fn not_editable(id: &str) -> Page {
    let duplicate = format!("/d/{id}/duplicate");
    let view_link = format!("/d/{id}");
    Page {
        status: 403,
        html: document(
            "Not your design to edit",
            view! {
                <section class="panel message" id="not-editable">
                    <h1>"This browser cannot edit this design"</h1>
                    <p>"Only a browser holding the design's edit key can save revisions of it. Open the edit link you were given when it was created, or make your own copy."</p>
                    <p><a id="duplicate-instead" href=duplicate>"Duplicate as a new design"</a> " · " <a href=view_link>"View it"</a></p>
                </section>
            }
            .to_html(),
        ),
    }
}
