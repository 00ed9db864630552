//! The browser tests, one binary: the built server driven by a real headless Chromium. One
//! binary links the crate once for every test; cargo-nextest (as `scripts/test.sh` runs them)
//! gives each test a process of its own.

mod cleanup;
mod designs;
mod first_hour;
mod planner;
mod report;
mod search;
