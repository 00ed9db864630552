//! One module per page.

mod not_found;
mod planner;
#[cfg(feature = "ssr")]
mod saved_design;

pub use not_found::NotFound;
pub use planner::Planner;
#[cfg(feature = "ssr")]
pub use saved_design::saved_design_page;
