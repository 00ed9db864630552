//! Per-client limits on the requests that cost the server: every save costs a transaction and a
//! stored revision, and every dashboard, evaluation, report, PDF or spreadsheet costs CPU. One
//! client cannot fill the database or take the machine from the others. Backed by the
//! `governor` crate (GCRA), keyed by the [`Client`](crate::middleware::client::Client).

use crate::middleware::client::Client;
use app::costs::{Allowance, Cost};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::{IpAddr, Ipv4Addr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

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

/// Gives every request its client's [`Allowance`]: the routes that cost something spend it
/// (`app::costs`), and are answered 429 before their handler runs when it is used up.
pub async fn meter(State(limits): State<Limits>, mut request: Request, next: Next) -> Response {
    let client = request
        .extensions()
        .get::<Client>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0);
    let allowance = Allowance(Arc::new(move |cost| {
        match cost {
            Cost::Write => &limits.writes,
            Cost::Compute => &limits.computes,
        }
        .wait(client)
    }));
    request.extensions_mut().insert(allowance);
    next.run(request).await
}
