//! `/sources`: every public source the planner's figures and defaults cite.

use crate::resources::respond::html;
use axum::response::Response;
use axum::routing::get;
use axum::Router;

pub fn routes() -> Router {
    Router::new().route("/sources", get(sources))
}

async fn sources() -> Response {
    html(&app::pages::sources::sources_page())
}
