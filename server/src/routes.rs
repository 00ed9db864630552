//! The HTTP router: every resource module's routes, the server functions, static files, and
//! the middleware every response passes through.

use crate::middleware::client::{identify, TrustedProxies};
use crate::middleware::csrf::{same_origin, AllowedHosts, Origin};
use crate::middleware::rate_limit::{meter, Limits};
use crate::public_url::PublicUrl;
use app::store::Store;
use axum::http::{header, HeaderValue, Method};
use axum::routing::{on, MethodFilter};
use axum::Router;
use leptos::prelude::*;
use std::time::Duration;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

/// Largest request body accepted; larger ones get 413 before any handler reads them.
pub const MAX_BODY_BYTES: usize = 256 * 1024;
/// Largest baseline form (`POST /d/{id}/baselines`): room for an nccl-tests log four times
/// the size the parser reads.
pub const MAX_BASELINE_BODY_BYTES: usize = 4 * 1024 * 1024;

/// For every other response (server functions, files, errors): nothing to run or frame.
const DEFAULT_POLICY: &str = "default-src 'none'; frame-ancestors 'none'";

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

/// What the router needs besides the store and the Leptos settings.
#[derive(Clone)]
pub struct Settings {
    pub request_timeout: Duration,
    pub limits: Limits,
    pub public_url: Option<PublicUrl>,
    pub trusted_proxies: TrustedProxies,
    /// Requests served at once; more are answered 503 with Retry-After.
    pub max_concurrent_requests: usize,
    /// The host names requests may name.
    pub allowed_hosts: AllowedHosts,
}

/// Seconds a shed request is told to wait before trying again.
const RETRY_AFTER_SHED_S: &str = "2";

/// The answer to a request shed because the server is at its concurrency limit.
async fn shed(_: tower::BoxError) -> axum::response::Response {
    use axum::response::IntoResponse;
    let body = serde_json::json!({
        "error": "unavailable",
        "details": "the server is busy: try again in a moment",
    });
    (
        axum::http::StatusCode::SERVICE_UNAVAILABLE,
        [
            (header::RETRY_AFTER, RETRY_AFTER_SHED_S),
            (header::CONTENT_TYPE, "application/json"),
        ],
        body.to_string(),
    )
        .into_response()
}

/// Whether a response may be compressed whole: not a page streamed as it is made, which the
/// encoder would hold back until its buffer fills.
fn buffered(
    _: axum::http::StatusCode,
    _: axum::http::Version,
    headers: &axum::http::HeaderMap,
    _: &axum::http::Extensions,
) -> bool {
    let (name, value) = crate::resources::respond::UNBUFFERED;
    headers.get(name).is_none_or(|v| v != value)
}

/// A handler that panicked: logged, and answered with the usual error page.
fn panicked(cause: Box<dyn std::any::Any + Send + 'static>) -> axum::response::Response {
    let what = cause
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| cause.downcast_ref::<&str>().copied())
        .unwrap_or("a panic");
    tracing::error!(panic = what, "a request handler panicked");
    crate::resources::respond::html(&app::pages::document::message(
        500,
        "Something went wrong",
        "The server could not answer this request. Nothing was changed; try again, and if it happens again, report it.".into(),
    ))
}

/// The server functions (`/fn/…`, declared with `#[server]` in the app), each with the store
/// in its context; their `#[middleware]` charges what they cost.
fn server_functions(store: Store) -> Router {
    let context = move || provide_context(store.clone());
    leptos::server_fn::axum::server_fn_paths().fold(Router::new(), |router, (path, method)| {
        let context = context.clone();
        let filter = if method == Method::GET {
            MethodFilter::GET
        } else {
            MethodFilter::POST
        };
        router.route(
            path,
            on(filter, move |request| {
                leptos_axum::handle_server_fns_with_context(context, request)
            }),
        )
    })
}

/// The whole application as a router, ready to serve or to test.
pub fn router(store: Store, options: LeptosOptions, settings: Settings) -> Router {
    // Server functions and pages run their futures on Tokio.
    let _ = any_spawner::Executor::init_tokio();
    // The built bundle, stylesheet and public files; any other address is not found. The
    // bundle reads what the planner's page carries in a form only the same build reads
    // (`app::wire::Borsh`), so a bundle kept from before an upgrade must not meet a newer page:
    // its files keep their names from build to build, and browsers ask each time whether they
    // changed (304 when not).
    let files = tower::ServiceBuilder::new()
        .layer(
            tower_http::set_header::SetResponseHeaderLayer::if_not_present(
                axum::http::header::CACHE_CONTROL,
                axum::http::HeaderValue::from_static("no-cache"),
            ),
        )
        .service(
            leptos_axum::site_pkg_dir_service(&options)
                .call_fallback_on_method_not_allowed(true)
                .fallback(axum::handler::HandlerWithoutStateExt::into_service(
                    crate::resources::planner::not_found,
                )),
        );
    let router = Router::new()
        .merge(crate::resources::planner::routes(store.clone(), options))
        .merge(server_functions(store.clone()))
        .fallback_service(files)
        // Saved designs and the other script-free documents, the downloads and the JSON API.
        .merge(crate::resources::pages(&store, settings.public_url.clone()))
        .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES))
        // An uploaded dump or nccl-tests log may be larger, so that the parser can say what is
        // wrong with it rather than the server refusing it unread.
        .merge(crate::resources::asbuilt::routes(store.clone()))
        .merge(
            crate::resources::baselines::routes(store)
                .layer(axum::extract::DefaultBodyLimit::max(
                    MAX_BASELINE_BODY_BYTES,
                ))
                .layer(RequestBodyLimitLayer::new(MAX_BASELINE_BODY_BYTES)),
        )
        .layer(axum::middleware::from_fn_with_state(settings.limits, meter))
        .layer(axum::middleware::from_fn_with_state(
            Origin {
                public_url: settings.public_url.clone(),
                allowed_hosts: settings.allowed_hosts.clone(),
            },
            same_origin,
        ))
        .layer(axum::middleware::from_fn_with_state(
            settings.trusted_proxies,
            identify,
        ))
        .layer(axum::middleware::from_fn(
            crate::middleware::cache_policy::cache_policy,
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(DEFAULT_POLICY),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            settings.request_timeout,
        ))
        .layer(CompressionLayer::new().compress_when(DefaultPredicate::new().and(buffered)))
        .layer(CatchPanicLayer::custom(panicked))
        // A layer of the router wraps each route on its own: the limit is one semaphore that
        // every route shares.
        .layer(
            tower::ServiceBuilder::new()
                .layer(axum::error_handling::HandleErrorLayer::new(shed))
                .load_shed()
                .layer(tower::limit::GlobalConcurrencyLimitLayer::with_semaphore(
                    std::sync::Arc::new(tokio::sync::Semaphore::new(
                        settings.max_concurrent_requests.max(1),
                    )),
                )),
        )
        // One span per request: method and path, never the query (an edit link carries its
        // key there). Failures are logged where they happen (the store, typesetting, a panic)
        // with their cause; a status alone is not, so that shedding load cannot flood the log.
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &axum::http::Request<axum::body::Body>| {
                    tracing::info_span!(
                        "request",
                        method = %request.method(),
                        path = %request.uri().path()
                    )
                })
                .on_failure(()),
        );
    match &settings.public_url {
        // Browsers that reached the planner over TLS keep to it for a year.
        Some(url) if url.is_https() => router.layer(SetResponseHeaderLayer::overriding(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        )),
        _ => router,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::routing::get;
    use tower::ServiceExt;

    #[tokio::test]
    async fn a_handler_that_panics_is_answered_with_a_500_page() {
        let boom = Router::new()
            .route(
                "/boom",
                get(|| async {
                    if true {
                        panic!("a defect");
                    }
                }),
            )
            .layer(CatchPanicLayer::custom(panicked));
        let request = axum::http::Request::get("/boom")
            .body(Body::empty())
            .unwrap();
        let response = boom.oneshot(request).await.unwrap();
        assert_eq!(response.status(), 500);
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        let page = String::from_utf8(body.to_vec()).unwrap();
        assert!(page.contains("Something went wrong"), "{page}");
        assert!(!page.contains("a defect"), "the cause stays in the log");
    }
}
