//! Pieces shared by pages.

mod figure;
mod headline;
mod link;
mod site;
mod summary;

pub use figure::FigureRow;
pub use headline::{headline_figures, Findings, Headline, SummaryBar};
pub use link::{absolute, replace_address, CopyableLink};
pub use site::{NotFoundMessage, SiteHeader};
pub use summary::{workload_kind, DesignSummary};
