use leptos::prelude::*;

/// The band at the top of every page.
#[component]
pub fn SiteHeader() -> impl IntoView {
    view! {
        <header class="site-header">
            <a class="brand" href="/">"Fabric Planner"</a>
            <span class="tagline">"Size the network of a GPU cluster before you buy it"</span>
        </header>
    }
}

/// What an address with nothing behind it shows.
#[component]
pub fn NotFoundMessage() -> impl IntoView {
    view! {
        <section class="panel">
            <h1>"Page not found"</h1>
            <p>"There is nothing at this address. " <a href="/">"Start a new design"</a> "."</p>
        </section>
    }
}
