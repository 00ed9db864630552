//! The Fabric Planner server: the HTTP router (`routes`) with its resources and middleware, the
//! work they share, and the commands of the binary.

pub mod command;
pub mod middleware;
pub mod public_url;
pub mod resources;
pub mod routes;
pub mod work;
