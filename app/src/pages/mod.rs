//! One module per page. The planner is a Leptos page that hydrates; the others are finished
//! documents rendered on the server, without scripts.

mod candidate;
mod edit;
mod not_found;
mod planner;
pub mod start;
mod starting_points;

pub use candidate::OpenCandidate;
pub use edit::{DuplicateDesign, EditDesign};
pub use not_found::NotFound;
pub use planner::{NewDesign, Planner};
pub use start::StartFrom;

#[cfg(feature = "ssr")]
pub mod asbuilt;
#[cfg(feature = "ssr")]
pub mod baselines;
#[cfg(feature = "ssr")]
pub mod claim;
#[cfg(feature = "ssr")]
pub mod compare;
#[cfg(feature = "ssr")]
pub mod design_view;
#[cfg(feature = "ssr")]
pub mod document;
#[cfg(feature = "ssr")]
pub mod handoff;
#[cfg(feature = "ssr")]
pub mod import;
#[cfg(feature = "ssr")]
pub mod my_designs;
#[cfg(feature = "ssr")]
pub mod sources;
