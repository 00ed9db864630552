//! Work done once per key and kept: one job makes the value however many requests ask for it at
//! once, a few jobs run at a time (each holds its turn until it is done, even if every request
//! waiting for it has gone, so that memory stays bounded), more distinct jobs than the queue
//! holds are answered 503, and what was made is kept within a byte budget.

use crate::work::cache::{ByteCache, Weighed};
use app::pages::document::{message, Page};
use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use tokio::sync::{watch, Semaphore};

/// What a job ends with: the value, or the page that says why there is none.
pub type Made<V> = Result<V, Page>;

pub struct Jobs<K: Hash + Eq, V> {
    kept: Arc<ByteCache<K, V>>,
    /// Jobs queued or running, each watched by the requests that wait for it.
    running: Mutex<HashMap<K, watch::Receiver<Option<Made<V>>>>>,
    turns: Arc<Semaphore>,
    queued: usize,
    /// What the jobs make, as the busy page names it ("files", "evaluations").
    what: &'static str,
}

impl<K, V> Jobs<K, V>
where
    K: Hash + Eq + Clone + Send + Sync + 'static,
    V: Weighed + Clone + Send + Sync + 'static,
{
    /// `what` (as the busy page names it) kept within `budget` bytes, made `at_once` at a time,
    /// at most `queued` jobs waiting or running.
    pub fn new(
        what: &'static str,
        budget: usize,
        at_once: usize,
        queued: usize,
    ) -> Arc<Jobs<K, V>> {
        Arc::new(Jobs {
            kept: ByteCache::new(budget),
            running: Mutex::new(HashMap::new()),
            turns: Arc::new(Semaphore::new(at_once.max(1))),
            queued: queued.max(1),
            what,
        })
    }

    /// The value of `key`: kept, being made, or made now by `make` (a job of its own that
    /// outlives the request).
    pub async fn get<F>(self: &Arc<Self>, key: K, make: impl FnOnce() -> F) -> Made<V>
    where
        F: Future<Output = Made<V>> + Send + 'static,
    {
        if let Some(value) = self.kept.get(&key) {
            return Ok(value);
        }
        let mut waiting = self.job(key, make)?;
        let made = match waiting.wait_for(Option::is_some).await {
            Ok(made) => made.clone().unwrap_or_else(|| Err(gone())),
            Err(_) => Err(gone()),
        };
        made
    }

    /// The job making `key`: the one already running, or a new one.
    fn job<F>(
        self: &Arc<Self>,
        key: K,
        make: impl FnOnce() -> F,
    ) -> Result<watch::Receiver<Option<Made<V>>>, Page>
    where
        F: Future<Output = Made<V>> + Send + 'static,
    {
        let mut running = self.running.lock().map_err(|_| busy(self.what))?;
        if let Some(waiting) = running.get(&key) {
            return Ok(waiting.clone());
        }
        if running.len() >= self.queued {
            return Err(busy(self.what));
        }
        let (done, waiting) = watch::channel(None);
        running.insert(key.clone(), waiting.clone());
        let (jobs, work) = (self.clone(), make());
        let what = self.what;
        tokio::spawn(async move {
            let made = match jobs.turns.clone().acquire_owned().await {
                Ok(turn) => {
                    let made = work.await;
                    drop(turn);
                    made
                }
                Err(_) => Err(busy(what)),
            };
            if let Ok(value) = &made {
                jobs.kept.put(key.clone(), value.clone());
            }
            if let Ok(mut running) = jobs.running.lock() {
                running.remove(&key);
            }
            let _ = done.send(Some(made));
        });
        Ok(waiting)
    }
}

/// Every place in the queue for `what` is taken: 503 (answered with Retry-After).
pub fn busy(what: &str) -> Page {
    message(
        503,
        "Busy",
        format!(
            "Many {what} are being made: try again in {} s.",
            crate::work::heavy::RETRY_AFTER_S
        ),
    )
}

fn gone() -> Page {
    message(
        500,
        "Something went wrong",
        "The files could not be made.".into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[derive(Clone)]
    struct Blob(usize);

    impl Weighed for Blob {
        fn bytes(&self) -> usize {
            self.0
        }
    }

    #[tokio::test]
    async fn many_requests_for_one_key_make_it_once_and_it_is_kept() {
        let jobs: Arc<Jobs<u32, Blob>> = Jobs::new("blobs", 1 << 20, 1, 4);
        let made = Arc::new(AtomicUsize::new(0));
        let asks = (0..8).map(|_| {
            let (jobs, made) = (jobs.clone(), made.clone());
            tokio::spawn(async move {
                jobs.get(7, || async move {
                    made.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    Ok(Blob(10))
                })
                .await
                .map(|b| b.0)
            })
        });
        for ask in asks.collect::<Vec<_>>() {
            assert_eq!(ask.await.unwrap().ok(), Some(10));
        }
        assert_eq!(made.load(Ordering::SeqCst), 1);
        let again = jobs.get(7, || async { Err(busy("blobs")) }).await;
        assert!(again.is_ok(), "kept, not made again");
    }

    #[tokio::test]
    async fn beyond_the_queue_a_new_key_is_refused_with_503() {
        let jobs: Arc<Jobs<u32, Blob>> = Jobs::new("blobs", 1 << 20, 1, 1);
        let slow = {
            let jobs = jobs.clone();
            tokio::spawn(async move {
                jobs.get(1, || async {
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                    Ok(Blob(1))
                })
                .await
                .is_ok()
            })
        };
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        let refused = jobs.get(2, || async { Ok(Blob(1)) }).await;
        assert_eq!(refused.err().map(|p| p.status), Some(503));
        assert!(slow.await.unwrap());
    }
}
