//! The HTTP resources, one module each with its routes and handlers: the JSON API, the planner's
//! addresses, a design's pages (its revisions, report, hand-off, search, baselines, calibration,
//! tenants, as-built check) and the downloads; and what their handlers share (a revision as an
//! address names it, the answers a page gives, the forms that take a tool's output).

pub mod api;
pub(crate) mod asbuilt;
pub mod baselines;
pub(crate) mod calibration;
pub mod exports;
pub mod handoff;
pub(crate) mod multipart;
pub mod pages;
pub mod pdf;
pub(crate) mod planner;
pub(crate) mod records;
pub mod report;
pub(crate) mod respond;
pub(crate) mod revisions;
pub(crate) mod search_page;
pub(crate) mod tenants;
