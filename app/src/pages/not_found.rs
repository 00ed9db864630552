use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    crate::respond::set_status(404);
    view! {
        <Title text="Not found"/>
        <section class="panel">
            <h1>"Page not found"</h1>
            <p>"There is nothing at this address. " <a href="/">"Start a new design"</a> "."</p>
        </section>
    }
}
