//! Pieces shared by pages.

mod figure;

pub use figure::FigureRow;
mod summary;
pub use summary::{workload_kind, DesignSummary};
mod site;
pub use site::{NotFoundMessage, SiteHeader};
