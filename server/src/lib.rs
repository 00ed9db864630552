//! The Fabric Planner server: configuration, the HTTP router with its middleware, and the
//! commands of the binary.

pub mod api;
mod asbuilt;
pub mod baselines;
pub mod cache;
pub mod cache_policy;
mod calibration;
pub mod cli;
pub mod client;
mod connections;
pub mod csrf;
pub mod evaluate;
pub mod exports;
pub mod fit;
pub mod handoff;
pub mod heavy;
mod kept;
mod multipart;
pub mod pages;
pub mod pdf;
mod planner;
pub mod rate_limit;
mod records;
pub mod report;
mod respond;
mod revisions;
pub mod routes;
pub mod search;
mod search_page;
pub mod serve;
mod tenants;
