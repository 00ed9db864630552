//! Opening an edit link: a page that asks before this browser takes the design's edit key. A
//! link followed by a preview bot or prefetch changes nothing; the key is kept only when the
//! user confirms, by a POST from this page.

use super::document::{document, Page};
use crate::store::{DesignId, EditKey};
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// Asks whether to keep the edit key of design `id`, titled `title`, in this browser.
pub fn claim_page(id: &DesignId, key: &EditKey, title: &str) -> Page {
    let action = format!("/d/{}/claim", id.as_str());
    let share = format!("/d/{}", id.as_str());
    let heading = format!("Edit “{title}”");
    let body = view! {
        <section class="panel" aria-labelledby="claim-heading">
            <h1 id="claim-heading">{heading}</h1>
            <p>"This is the design's edit link. Keeping its key in this browser lets this browser save new revisions of the design; anyone else with the link can do the same."</p>
            <form method="post" action=action class="claim-form">
                <input type="hidden" name="key" value=key.as_str().to_string()/>
                <button type="submit" id="claim-confirm">"Edit in this browser"</button>
            </form>
            <p>"Only looking? The design's share link is " <a href=share.clone()>{share.clone()}</a> "."</p>
        </section>
    }
    .to_html();
    Page::ok(document("Edit a design", body))
}
