//! Pieces shared by pages.

mod headline;
mod link;
mod site;
mod summary;

pub use headline::{headline_figures, Findings, Headline, SummaryBar};
pub use link::{absolute, replace_address, CopyableLink};
pub use site::{NotFoundMessage, SiteHeader};
pub use summary::{design_summary, workload_kind};
