//! The dashboard of a design: the same view for a design being edited and for a saved design.
//! Everything in it comes from the engine's report, assembled into blocks on the server
//! (`crate::report::dashboard_blocks`: its charts are drawn there, out of the browser bundle)
//! and rendered by the blocks' one renderer, on the server for a saved design's page and in the
//! browser while a design is edited, which fetches the blocks again after each change through
//! [`dashboard`]. The headline figures and findings beside the wizard are computed in the
//! browser.

use crate::blocks::html::blocks_view;
use crate::blocks::Block;
use crate::error::AppError;
use crate::wire::answer::{FromAnswer, Json};
use crate::wire::{AnswerInJson, JsonReply};
use engine::DesignSpec;
use leptos::prelude::*;
use leptos::server_fn::codec::{Json as JsonArgs, Post};
use std::sync::Arc;

/// The dashboard of the design `spec` (its JSON), as blocks.
#[server(prefix = "/fn", endpoint = "dashboard", input = JsonArgs, output = Post<JsonReply>)]
#[middleware(crate::costs::COMPUTES)]
pub async fn dashboard(spec: String) -> Result<Vec<Block>, AppError> {
    use crate::server::fail;
    // As the planner's page renders, its design was evaluated on its floor before the page
    // began: the dashboard of that design is drawn from that evaluation.
    let laid = use_context::<crate::editor::LaidFloor>();
    // Reading, evaluating and drawing every chart are CPU work: kept off the server's async
    // workers. The response's status is set here, where the request's context is.
    let drawn = crate::compute::run(move || -> Result<Vec<Block>, AppError> {
        let spec = DesignSpec::from_json(&spec)?;
        if let Some(placed) = laid.as_ref().and_then(|laid| laid.placed_for(&spec)) {
            return Ok(crate::report::dashboard_blocks(&spec, placed));
        }
        let placed = engine::evaluate_placed_sharing(&spec, &crate::compute::FLOORS)?;
        Ok(crate::report::dashboard_blocks(&spec, &placed))
    })
    .await
    .map_err(|_| {
        fail(AppError::Internal(
            "the dashboard could not be drawn".into(),
        ))
    })?;
    drawn.map_err(fail)
}

/// The dashboard's `blocks` under its heading.
pub fn dashboard_view(blocks: &[Block]) -> AnyView {
    view! {
        <section class="dashboard" aria-labelledby="dashboard-heading">
            <h2 id="dashboard-heading">"Dashboard"</h2>
            {blocks_view(blocks)}
        </section>
    }
    .into_any()
}

/// The dashboard of the design `spec` holds, fetched from the server whenever it changes.
#[component]
pub fn DashboardView(#[prop(into)] spec: Signal<DesignSpec>) -> AnyView {
    let drawn = Resource::<_, AnswerInJson>::new_with_options(
        move || spec.with(|s| serde_json::to_string(s).unwrap_or_default()),
        |spec| async move { Drawn::from(dashboard(spec).await) },
        false,
    );
    view! {
        <Transition fallback=|| view! { <p class="note">"Preparing the dashboard…"</p> }>
            {move || Suspend::new(async move {
                match drawn.await {
                    Drawn::Blocks(blocks) => view! { <div class="dashboard-host">{dashboard_view(&blocks)}</div> }.into_any(),
                    Drawn::Invalid => view! { <p class="note">"The dashboard appears once the design is valid."</p> }.into_any(),
                    Drawn::Failed(why) => view! { <p class="note">{format!("The dashboard could not be prepared: {why}")}</p> }.into_any(),
                }
            })}
        </Transition>
    }
    .into_any()
}

/// The dashboard as the server assembled it, or why it did not. The page carries it as serde's
/// JSON, which the browser reads back with [`FromAnswer`]. The blocks are shared, not copied,
/// each time the page reads them.
#[derive(Debug, Clone, PartialEq)]
enum Drawn {
    Blocks(Arc<[Block]>),
    Invalid,
    Failed(String),
}

/// As serde derives it for an enum: a unit variant is its name, the others an object of one
/// member.
impl serde::Serialize for Drawn {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Drawn::Blocks(blocks) => {
                serializer.serialize_newtype_variant("Drawn", 0, "blocks", &blocks[..])
            }
            Drawn::Invalid => serializer.serialize_unit_variant("Drawn", 1, "invalid"),
            Drawn::Failed(why) => serializer.serialize_newtype_variant("Drawn", 2, "failed", why),
        }
    }
}

impl From<Result<Vec<Block>, AppError>> for Drawn {
    fn from(answer: Result<Vec<Block>, AppError>) -> Drawn {
        match answer {
            Ok(blocks) => Drawn::Blocks(blocks.into()),
            Err(AppError::Invalid(_)) => Drawn::Invalid,
            Err(e) => Drawn::Failed(e.to_string()),
        }
    }
}

/// serde writes a unit variant as its name, the others as an object of one member.
impl FromAnswer for Drawn {
    fn from_answer(answer: &impl Json) -> Option<Drawn> {
        if answer.string().as_deref() == Some("invalid") {
            return Some(Drawn::Invalid);
        }
        if let Some(blocks) = answer.get::<Vec<Block>>("blocks") {
            return Some(Drawn::Blocks(blocks.into()));
        }
        answer.get("failed").map(Drawn::Failed)
    }
}

#[cfg(test)]
mod tests {
    use super::Drawn;
    use crate::blocks::Block;
    use crate::wire::answer::FromAnswer;

    /// The page carries the dashboard as JSON and the browser reads back what was drawn.
    #[test]
    fn the_dashboard_reads_back_from_the_json_the_page_carries() {
        for drawn in [
            Drawn::Blocks(
                vec![Block::Paragraph {
                    text: "<svg/> & co".into(),
                }]
                .into(),
            ),
            Drawn::Blocks(Vec::new().into()),
            Drawn::Invalid,
            Drawn::Failed("server error: the dashboard could not be drawn".into()),
        ] {
            let json = serde_json::to_value(&drawn).unwrap();
            assert_eq!(Drawn::from_answer(&json), Some(drawn), "{json}");
        }
        assert_eq!(Drawn::from_answer(&serde_json::json!("html")), None);
    }
}
