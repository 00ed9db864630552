#![recursion_limit = "256"]
//! The Fabric Planner web application. Compiled twice: with `ssr` into the server, and with
//! `hydrate` into the WebAssembly bundle that makes the pages live in the browser.

pub mod blocks;
#[cfg(feature = "ssr")]
pub mod charts;
pub mod components;
#[cfg(feature = "ssr")]
pub mod compute;
#[cfg(feature = "ssr")]
pub mod costs;
pub mod dashboard;
pub mod design;
pub mod editor;
pub mod error;
pub mod fields;
pub mod labels;
pub mod money;
#[cfg(feature = "ssr")]
pub mod ownership;
pub mod pages;
#[cfg(feature = "ssr")]
pub mod report;
#[cfg(feature = "ssr")]
pub mod search;
#[cfg(feature = "ssr")]
pub mod server;
#[cfg(feature = "ssr")]
pub mod status;
#[cfg(feature = "ssr")]
pub mod store;
pub mod templates;
pub mod wire;
pub mod wizard;
pub mod words;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Stylesheet, Title};

/// The HTML document around the planner.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <meta name=wire::BUILD_META content=wire::BUILD/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// The planner, the one page that hydrates. Every other page is a finished document the
/// server renders in the shell of `pages::document`, from its resource module (`server/src/resources/`);
/// so are the planner's own refusals.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    view! {
        <Stylesheet id="leptos" href="/pkg/fabric-planner.css"/>
        <Title formatter=|page: String| format!("{page} · Fabric Planner")/>
        <components::SiteHeader/>
        <main id="content" tabindex="-1">
            <pages::PlannerPage/>
        </main>
    }
}

/// The browser entry point: attaches the server-rendered page to the app.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    if wire::page_is_this_builds() {
        leptos::mount::hydrate_body(App);
    }
}
