//! One module per page. The planner is a Leptos page that hydrates; the others are finished
//! documents rendered on the server, without scripts.

mod planner;
pub mod starting_points;

pub use planner::{Planner, PlannerPage, PlannerStart};

#[cfg(feature = "ssr")]
pub mod asbuilt;
#[cfg(feature = "ssr")]
pub mod baselines;
#[cfg(feature = "ssr")]
pub mod calibration;
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
pub mod opening;
#[cfg(feature = "ssr")]
pub mod sources;
#[cfg(feature = "ssr")]
pub mod tenants;
