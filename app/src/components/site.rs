use leptos::prelude::*;

/// The places every page links to, in the header.
const SITE_LINKS: [(&str, &str, &str); 5] = [
    ("nav-new", "/", "New design"),
    ("nav-designs", "/designs", "My designs"),
    ("nav-import", "/import", "Import"),
    ("nav-compare", "/compare", "Compare"),
    ("nav-sources", "/sources", "Sources"),
];

/// The band at the top of every page: a link past it for keyboard and screen-reader users,
/// the product's name, and the site's places.
#[component]
pub fn SiteHeader() -> impl IntoView {
    let links = SITE_LINKS
        .iter()
        .map(|(id, href, label)| view! { <li><a id=*id href=*href>{*label}</a></li> })
        .collect_view();
    view! {
        <a class="skip-link" href="#content">"Skip to content"</a>
        <header class="site-header">
            <a class="brand" href="/">"Fabric Planner"</a>
            <span class="tagline">"Size the network of a GPU cluster before you buy it"</span>
            <nav class="site-nav" aria-label="Site">
                <ul>{links}</ul>
            </nav>
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
