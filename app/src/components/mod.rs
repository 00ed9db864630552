//! Pieces shared by pages.

mod figure;

pub use figure::FigureRow;
mod summary;
pub use summary::DesignSummary;
mod site;
pub use site::{NotFoundMessage, SiteHeader};
