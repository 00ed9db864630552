//! Per-client limits on the requests that cost the server: every save costs a transaction and a
//! stored revision, and every dashboard, evaluation, report, PDF or spreadsheet costs CPU. One
//! client cannot fill the database or take the machine from the others. Backed by the
//! `governor` crate (GCRA), keyed by the [`Client`](crate::client::Client).

use crate::client::Client;
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::{IpAddr, Ipv4Addr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

/// What a request costs the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cost {
    /// It writes to the store: the planner's saves, import, the API's creates and revisions,
    /// baselines, as-built checks (each parses and matches a dump of up to 16 MiB, and may
    /// keep it), claiming an edit link.
    Write,
    /// It computes or typesets: the dashboard, evaluation, reports, PDFs, spreadsheets.
    Compute,
    Cheap,
}

impl Cost {
    fn of(method: &Method, path: &str) -> Cost {
        let post = method == Method::POST;
        let writes = matches!(path, "/fn/save_design" | "/fn/save_revision" | "/import")
            || (path.starts_with("/d/")
                && (path.ends_with("/baselines")
                    || path.ends_with("/claim")
                    || path.ends_with("/asbuilt")))
            || path == "/api/designs"
            || path.starts_with("/api/designs/");
        let computes = matches!(
            path,
            "/fn/dashboard" | "/api/evaluate" | "/api/search" | "/fn/search_candidate"
        ) || (path.starts_with("/d/")
            && (path.ends_with("/report")
                || path.ends_with("/search")
                || path.ends_with("/report.pdf")
                || path.ends_with(".csv")
                || path.contains("/handoff")
                || path.contains("/asbuilt/")))
            || (path.starts_with("/api/designs/") && path.ends_with("/report"));
        if post && writes {
            Cost::Write
        } else if computes {
            Cost::Compute
        } else {
            Cost::Cheap
        }
    }
}

/// One limit: a steady rate per minute and a burst above it, per client.
#[derive(Clone)]
pub struct Limit {
    limiter: Option<Arc<DefaultKeyedRateLimiter<IpAddr>>>,
}

impl Limit {
    /// `per_minute` requests per client and minute, up to `burst` at once; 0 turns the limit off
    /// (load tests from one address).
    pub fn new(per_minute: u32, burst: u32) -> Limit {
        let limiter = NonZeroU32::new(per_minute).map(|rate| {
            let burst = NonZeroU32::new(burst).unwrap_or(rate);
            Arc::new(governor::RateLimiter::keyed(
                Quota::per_minute(rate).allow_burst(burst),
            ))
        });
        Limit { limiter }
    }

    /// Seconds `client` must wait, or `None` when the request may go ahead.
    fn wait(&self, client: IpAddr) -> Option<u64> {
        let limiter = self.limiter.as_ref()?;
        let not_until = limiter.check_key(&client).err()?;
        let now = governor::clock::Clock::now(&governor::clock::DefaultClock::default());
        Some(not_until.wait_time_from(now).as_secs().max(1))
    }

    /// Forgets clients whose allowance is whole again, so that the state stays bounded.
    fn prune(&self) {
        if let Some(limiter) = &self.limiter {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// The limits of a server: writes, and costly reads.
#[derive(Clone)]
pub struct Limits {
    pub writes: Limit,
    pub computes: Limit,
}

impl Limits {
    /// Prunes the limiters' state once a minute for as long as the server runs.
    pub fn prune_every_minute(&self) -> tokio::task::JoinHandle<()> {
        let limits = self.clone();
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(Duration::from_secs(60));
            loop {
                ticks.tick().await;
                limits.writes.prune();
                limits.computes.prune();
            }
        })
    }
}

/// Answers 429, with Retry-After and a JSON body like every other refusal, when the client has
/// used up its allowance; the request never reaches a handler.
pub async fn limit(State(limits): State<Limits>, request: Request, next: Next) -> Response {
    let (limit, what) = match Cost::of(request.method(), request.uri().path()) {
        Cost::Write => (&limits.writes, "saves"),
        Cost::Compute => (&limits.computes, "reports and evaluations"),
        Cost::Cheap => return next.run(request).await,
    };
    let client = request
        .extensions()
        .get::<Client>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0);
    if let Some(wait) = limit.wait(client) {
        let body = serde_json::json!({
            "error": "too_many_requests",
            "details": format!("too many {what} from this address: try again in {wait} s"),
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
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::{Cost, Method};

    #[test]
    fn saves_and_costly_reads_are_told_apart() {
        assert_eq!(Cost::of(&Method::POST, "/fn/save_design"), Cost::Write);
        assert_eq!(Cost::of(&Method::POST, "/d/x/claim"), Cost::Write);
        assert_eq!(Cost::of(&Method::GET, "/d/x/claim"), Cost::Cheap);
        assert_eq!(Cost::of(&Method::POST, "/d/x/r/1/asbuilt"), Cost::Write);
        assert_eq!(Cost::of(&Method::GET, "/d/x/r/1/asbuilt"), Cost::Cheap);
        assert_eq!(Cost::of(&Method::GET, "/d/x/r/1/asbuilt/2"), Cost::Compute);
        assert_eq!(Cost::of(&Method::POST, "/fn/dashboard"), Cost::Compute);
        assert_eq!(Cost::of(&Method::GET, "/d/x/r/1/report.pdf"), Cost::Compute);
        assert_eq!(
            Cost::of(&Method::GET, "/d/x/r/1/cabling.csv"),
            Cost::Compute
        );
        assert_eq!(Cost::of(&Method::GET, "/d/x/r/1/search"), Cost::Compute);
        assert_eq!(Cost::of(&Method::GET, "/d/x"), Cost::Cheap);
    }
}
