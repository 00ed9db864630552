use crate::components::NotFoundMessage;
use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    crate::status::set_status(404);
    view! {
        <Title text="Not found"/>
        <NotFoundMessage/>
    }
}
