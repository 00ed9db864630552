//! One module per page.

mod not_found;
mod planner;
mod saved_design;

pub use not_found::NotFound;
pub use planner::Planner;
pub use saved_design::SavedDesign;
