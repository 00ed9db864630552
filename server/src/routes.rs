//! The HTTP router: the Leptos pages and server functions, static files, and the middleware
//! every response passes through.

use app::store::Store;
use app::{shell, App};
use axum::Router;
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};
use std::time::Duration;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

/// Largest request body accepted; larger ones get 413 before any handler reads them.
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// Leptos settings for a site whose built files are in `site_root`.
pub fn leptos_options(site_root: &std::path::Path, addr: std::net::SocketAddr) -> LeptosOptions {
    LeptosOptions::builder()
        .output_name("fabric-planner")
        .site_root(site_root.to_string_lossy().as_ref())
        .site_pkg_dir("pkg")
        .site_addr(addr)
        .env(leptos::config::Env::PROD)
        .build()
}

/// The whole application as a router, ready to serve or to test.
pub fn router(store: Store, options: LeptosOptions, request_timeout: Duration) -> Router {
    let routes = generate_route_list(App);
    let context = {
        let store = store.clone();
        move || provide_context(store.clone())
    };
    Router::new()
        .leptos_routes_with_context(&options, routes, context.clone(), {
            let options = options.clone();
            move || shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler_with_context(
            context, shell,
        ))
        .with_state(options)
        .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES))
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            request_timeout,
        ))
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
}
