//! Links a user keeps: absolute, so that they work when pasted anywhere, with a button that
//! copies them.

use leptos::prelude::*;

/// `path` on this site as an absolute address. In the browser it takes the page's own origin;
/// on the server, where no request is at hand, it stays a path.
pub fn absolute(path: &str) -> String {
    #[cfg(feature = "hydrate")]
    if let Ok(origin) = window().location().origin() {
        return format!("{origin}{path}");
    }
    path.to_string()
}

/// Replaces the address in the browser's bar without reloading, so that a reload opens what is
/// on the page now.
pub fn replace_address(path: &str) {
    #[cfg(feature = "hydrate")]
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(path));
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = path;
}

fn copy_to_clipboard(text: &str) {
    #[cfg(feature = "hydrate")]
    {
        let _ = window().navigator().clipboard().write_text(text);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = text;
}

/// An absolute link with its label and a button that copies it; `id` names the link.
#[component]
pub fn CopyableLink(id: &'static str, label: &'static str, path: String) -> impl IntoView {
    let address = absolute(&path);
    // The labels are ASCII: ASCII case keeps Unicode's case tables (15 KB gzip) out of the bundle.
    let copy_label = format!(
        "Copy the {}",
        label.trim_end_matches(':').to_ascii_lowercase()
    );
    let copied = RwSignal::new(false);
    let to_copy = address.clone();
    view! {
        <span class="link-row">
            <span>{label}</span>
            <a id=id rel="external" href=address.clone()>{address.clone()}</a>
            <button type="button" class="copy secondary" id=format!("{id}-copy")
                aria-label=copy_label
                on:click=move |_| { copy_to_clipboard(&to_copy); copied.set(true); }>
                {move || if copied.get() { "Copied" } else { "Copy" }}
            </button>
        </span>
    }
}
