//! What every request passes through before a resource answers it: who the client is, whether
//! another site sent it, how often it may ask, how long its connection may stay, and whether
//! the answer may be kept by a cache.

pub mod cache_policy;
pub mod client;
pub(crate) mod connections;
pub mod csrf;
pub mod rate_limit;
