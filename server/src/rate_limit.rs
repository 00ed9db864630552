//! Per-client limits on the requests that write: every save costs a transaction and a stored
//! revision, so one client cannot fill the database or starve the others. Reads are not
//! limited. Backed by the `governor` crate (GCRA, keyed by the client's IP address).

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;

/// Whether a request writes to the store: the saves of the planner, the import form and the
/// API's creates and revisions, and the baselines added to a design.
fn writes(method: &Method, path: &str) -> bool {
    method == Method::POST
        && (matches!(path, "/fn/save_design" | "/fn/save_revision" | "/import")
            || (path.starts_with("/d/") && path.ends_with("/baselines"))
            || path == "/api/designs"
            || path.starts_with("/api/designs/"))
}

/// Writes allowed per client: a steady rate per minute and a burst above it.
#[derive(Clone)]
pub struct WriteLimit {
    limiter: Option<Arc<DefaultKeyedRateLimiter<IpAddr>>>,
}

impl WriteLimit {
    /// `per_minute` writes per client and minute, up to `burst` at once; 0 turns the limit off
    /// (load tests from one address).
    pub fn new(per_minute: u32, burst: u32) -> WriteLimit {
        let limiter = NonZeroU32::new(per_minute).map(|rate| {
            let burst = NonZeroU32::new(burst).unwrap_or(rate);
            Arc::new(governor::RateLimiter::keyed(
                Quota::per_minute(rate).allow_burst(burst),
            ))
        });
        WriteLimit { limiter }
    }
}

/// Answers 429, with Retry-After and a JSON body like every other refusal, when the client has
/// used up its writes; the request never reaches the store.
pub async fn limit_writes(
    State(limit): State<WriteLimit>,
    request: Request,
    next: Next,
) -> Response {
    let writes = writes(request.method(), request.uri().path());
    if let (true, Some(limiter)) = (writes, &limit.limiter) {
        // Without connection info (a router driven in process) every request is one client.
        let client = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        if let Err(not_until) = limiter.check_key(&client) {
            let wait = not_until
                .wait_time_from(governor::clock::Clock::now(
                    &governor::clock::DefaultClock::default(),
                ))
                .as_secs()
                .max(1);
            let body = serde_json::json!({
                "error": "too_many_requests",
                "details": format!("too many saves from this address: try again in {wait} s"),
            });
            return (
                StatusCode::TOO_MANY_REQUESTS,
                [
                    (header::RETRY_AFTER, wait.to_string()),
                    (header::CONTENT_TYPE, "application/json".to_string()),
                ],
                body.to_string(),
            )
                .into_response();
        }
    }
    next.run(request).await
}
