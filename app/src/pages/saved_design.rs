use crate::error::AppError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;
use serde::{Deserialize, Serialize};

/// A saved design's page, rendered on the server from the stored spec.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RenderedDesign {
    pub title: String,
    pub html: String,
}

/// The page of design `id` at its latest revision; 404 when there is none.
#[server(prefix = "/fn", endpoint = "design_page")]
pub async fn design_page(id: String) -> Result<RenderedDesign, AppError> {
    let stored = crate::design::load_design(id).await?;
    Ok(render::page(stored))
}

/// A saved design at its share link. Everything on it is rendered on the server, complete
/// without JavaScript; the browser only receives the finished HTML.
#[component]
pub fn SavedDesign() -> impl IntoView {
    let params = use_params_map();
    let page = Resource::new(
        move || params.read().get("id").unwrap_or_default(),
        design_page,
    );
    view! {
        <Suspense fallback=|| view! { <p>"Loading the design…"</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(page) => view! {
                        <Title text=page.title/>
                        <div class="saved-design" inner_html=page.html></div>
                    }
                    .into_any(),
                    Err(_) => view! { <crate::pages::NotFound/> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[cfg(feature = "ssr")]
mod render {
    use super::RenderedDesign;
    use crate::components::DesignSummary;
    use crate::dashboard::{render::dashboard, Findings, Headline};
    use crate::design::StoredDesign;
    use leptos::prelude::*;
    use leptos::tachys::view::RenderHtml;

    pub fn page(stored: StoredDesign) -> RenderedDesign {
        let spec = stored.spec;
        let title = spec.title.clone();
        let meta = format!(
            "Revision {} · saved by engine {}",
            stored.revision, stored.engine_version
        );
        let html = match engine::evaluate(&spec) {
            Ok(report) => {
                let top = view! {
                    <div class="planner">
                        <section class="panel inputs" aria-labelledby="design-title">
                            <h1 id="design-title">{title.clone()}</h1>
                            <p class="meta">{meta}</p>
                            <DesignSummary spec=spec.clone()/>
                        </section>
                        <aside class="panel results-panel" aria-labelledby="results-heading">
                            <h2 id="results-heading">"Results"</h2>
                            <Headline report=report.clone()/>
                            <h3>"Findings"</h3>
                            <Findings report=report.clone()/>
                        </aside>
                    </div>
                }
                .to_html();
                top + &dashboard(spec, report)
            }
            Err(errors) => view! {
                <h1 id="design-title">{title.clone()}</h1>
                <p class="save-error">{errors.to_string()}</p>
            }
            .to_html(),
        };
        RenderedDesign { title, html }
    }
}
