//! Work the resources share: pages and PDFs kept once made, jobs made once per key, one
//! evaluation per revision, and the heavy jobs run a few at a time across the whole server.

pub mod cache;
pub mod evaluations;
pub mod heavy;
pub(crate) mod kept;
pub mod search;
