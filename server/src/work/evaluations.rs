//! One evaluation per revision, kept. A revision's spec never changes and the engine is this
//! build's, so its design page, report page, PDF, sheets and hand-off files all draw from one
//! evaluation on its floor, made once however many of them ask at once, on the blocking pool,
//! and kept within a byte budget. (`report.json` and the API's report are the revision's saved
//! report, as it was evaluated when it was saved, on today's floor.)

use crate::work::cache::Weighed;
use crate::work::kept::Jobs;
use app::pages::document::{message, Page};
use app::store::DesignId;
use engine::{DesignSpec, PlacedReport};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Evaluations kept, in bytes (a 2,048-node design's is about half a megabyte with its floor, a
/// 100,000-GPU design's about 3 MB): twice the weight of the largest the engine accepts (a
/// million endpoints on one fabric, about 30 MB), so that it too is kept.
const KEPT_BYTES: usize = 64 << 20;
/// Evaluations made since the server started (what a test counts).
pub static EVALUATIONS_MADE: AtomicUsize = AtomicUsize::new(0);

/// Evaluations made at once, and at most waiting or running.
const AT_ONCE: usize = 2;
const QUEUED: usize = 64;

/// A revision evaluated on its floor, or why today's engine refuses it (each page says so in
/// its own words).
pub type Evaluated = Result<Arc<PlacedReport>, Arc<str>>;

/// The revision a kept evaluation belongs to: the design and its revision number.
type Key = (DesignId, u32);

#[derive(Clone)]
pub struct Evaluations {
    jobs: Arc<Jobs<Key, Kept>>,
}

#[derive(Clone)]
struct Kept(Evaluated);

impl Weighed for Kept {
    /// About what the evaluation holds: its racks and their devices, its cables and bills, its
    /// fabrics and workloads with their figures' formulas.
    fn bytes(&self) -> usize {
        let Ok(placed) = &self.0 else {
            return 256;
        };
        let floor = &placed.floor;
        let devices: usize = floor.racks.iter().map(|r| r.devices.len()).sum();
        let report = &placed.report;
        std::mem::size_of::<PlacedReport>()
            + 160 * floor.racks.len()
            + 96 * devices
            + 128 * (floor.cables.len() + floor.bom.len() + floor.transceivers.len())
            + 16_384 * (report.fabrics.len() + report.workloads.len())
            + 512 * report.findings.len()
    }
}

impl Evaluations {
    pub fn new() -> Evaluations {
        Evaluations {
            jobs: Jobs::new("evaluations", KEPT_BYTES, AT_ONCE, QUEUED),
        }
    }

    /// Revision `number` of design `id`, whose spec is `spec`, evaluated on its floor: kept, being
    /// evaluated, or evaluated now. `Err` is a page when the server is too busy to evaluate it.
    pub async fn of(
        &self,
        id: &DesignId,
        number: u32,
        spec: DesignSpec,
    ) -> Result<Evaluated, Page> {
        let made = self
            .jobs
            .get((id.clone(), number), || async move {
                app::compute::run(move || {
                    EVALUATIONS_MADE.fetch_add(1, Ordering::SeqCst);
                    Kept(
                        engine::evaluate_placed(&spec)
                            .map(Arc::new)
                            .map_err(|errors| errors.to_string().into()),
                    )
                })
                .await
                .map_err(|_| {
                    message(
                        500,
                        "Something went wrong",
                        "The design could not be evaluated.".into(),
                    )
                })
            })
            .await;
        made.map(|kept| kept.0)
    }
}

impl Default for Evaluations {
    fn default() -> Evaluations {
        Evaluations::new()
    }
}
