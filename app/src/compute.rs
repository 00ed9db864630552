//! Computation a request asks for (an evaluation, a floor, the pages and charts drawn from
//! them, a fit, a check of what was built) runs on the blocking pool, never on the async
//! workers every other request is answered on, and at most [`AT_ONCE`] such jobs run at once
//! across the server. The rest wait their turn, which the request's own time limit bounds:
//! many clients each within their limits then queue for the cores instead of each holding a
//! thread and the memory its design takes (the largest design's floor is tens of megabytes).

use tokio::sync::Semaphore;

/// Jobs at once: a few per core of the machine this is sized for (two), so that a quick job
/// is not stuck behind a couple of long ones.
pub const AT_ONCE: usize = 8;

static TURNS: Semaphore = Semaphore::const_new(AT_ONCE);

/// The floors laid lately, shared by every request: a design edited in the planner has its
/// dashboard drawn again after each edit, its floor plan and its technology comparison's floors
/// with it, and an edit that moves no cable lays none of them again.
pub static FLOORS: engine::SharedFloors = engine::SharedFloors::new();

/// Runs `job` on the blocking pool once a turn is free. The turn is held until `job` ends,
/// even if the request waiting for it has gone.
pub async fn run<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, tokio::task::JoinError> {
    // Never closed, so a turn always comes.
    let turn = TURNS.acquire().await.ok();
    tokio::task::spawn_blocking(move || {
        let _turn = turn;
        job()
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// Three times as many jobs as turns, each a while long: they run side by side up to the
    /// number of turns and never beyond, and every one runs.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_jobs_run_at_once_than_there_are_turns() {
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let jobs = (0..3 * AT_ONCE).map(|_| {
            let (running, most) = (running.clone(), most.clone());
            tokio::spawn(run(move || {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(100));
                running.fetch_sub(1, Ordering::SeqCst);
                1
            }))
        });
        let mut done = 0;
        for job in jobs.collect::<Vec<_>>() {
            done += job.await.unwrap().unwrap();
        }
        assert_eq!(done, 3 * AT_ONCE);
        assert_eq!(most.load(Ordering::SeqCst), AT_ONCE);
    }
}
