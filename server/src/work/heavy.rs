//! Heavy work: the jobs whose cost grows with what a request asks for (a design search, a
//! hand-off bundle) run at most a few at once across the whole server, one per core, on the
//! blocking pool. A request that finds every turn taken is answered 503 with Retry-After at
//! once rather than queued, and work nobody waits for any more is stopped ([`Cancel`]).

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Heavy jobs at once: one per core of the machine this is sized for.
pub const AT_ONCE: usize = 2;

/// Seconds a refused request is told to wait.
pub const RETRY_AFTER_S: u64 = 5;

/// The turns of one kind of heavy work.
#[derive(Clone)]
pub struct Turns(Arc<Semaphore>);

impl Turns {
    pub fn new(at_once: usize) -> Turns {
        Turns(Arc::new(Semaphore::new(at_once.max(1))))
    }

    /// A turn, or `None` when every one is taken.
    pub fn take(&self) -> Option<OwnedSemaphorePermit> {
        self.0.clone().try_acquire_owned().ok()
    }
}

/// The turns of design searches, shared by the JSON API and the search page.
pub fn searches() -> &'static Turns {
    static SEARCHES: std::sync::OnceLock<Turns> = std::sync::OnceLock::new();
    SEARCHES.get_or_init(|| Turns::new(AT_ONCE))
}

/// 503 with Retry-After, as JSON: every turn of `what` is taken.
pub fn busy_json(what: &str) -> Response {
    let body = serde_json::json!({
        "error": "unavailable",
        "details": format!("{what}: every turn is taken; try again in {RETRY_AFTER_S} s"),
    });
    with_retry_after(
        (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CONTENT_TYPE, "application/json")],
            body.to_string(),
        )
            .into_response(),
    )
}

/// `response` with Retry-After.
pub fn with_retry_after(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_S));
    response
}

/// A flag that work on the blocking pool reads between slices: set when the request that
/// started the work ends, whether answered, timed out or abandoned by its client (the server
/// drops a request's future when its connection closes).
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// The flag, and the guard that sets it when dropped.
    pub fn new() -> (Cancel, CancelOnDrop) {
        let flag = Arc::new(AtomicBool::new(false));
        (Cancel(flag.clone()), CancelOnDrop(flag))
    }

    pub fn cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Sets its [`Cancel`] when dropped.
pub struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_is_refused_while_every_one_is_taken() {
        let turns = Turns::new(2);
        let (a, b) = (turns.take(), turns.take());
        assert!(a.is_some() && b.is_some());
        assert!(turns.take().is_none());
        drop(a);
        assert!(turns.take().is_some());
    }

    #[test]
    fn dropping_the_guard_cancels_the_work() {
        let (cancel, guard) = Cancel::new();
        assert!(!cancel.cancelled());
        drop(guard);
        assert!(cancel.cancelled());
    }
}
