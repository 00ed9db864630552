//! The planner, the Leptos page that hydrates, and the shell every finished document the server
//! renders shares (`document`). The script-free pages live with their routes and handlers, one
//! resource module each (`server/src/resources/`).

mod planner;
pub mod starting_points;

pub use planner::{Planner, PlannerPage, PlannerStart};

#[cfg(feature = "ssr")]
pub mod document;
