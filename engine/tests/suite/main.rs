//! The engine's tests, read as its specification: the seed's claims and the published
//! measurements as test cases, properties over random designs, every example, the hand-off files
//! read by their real consumers. One binary, one module per subject.

mod asbuilt;
mod asbuilt_properties;
mod catalog;
mod claims;
mod common;
mod examples;
mod fidelity;
mod findings;
mod floor;
mod floor_properties;
mod handoff;
mod handoff_consumers;
mod handoff_netbox;
mod handoff_nvue;
mod handoff_schedulers;
mod inference;
mod limits;
mod measurements;
mod nccl_tests_properties;
mod properties;
mod search;
mod search_properties;
mod sources;
mod spec_json;
mod support;
mod tenants;
mod training;
mod validation;
mod worked;
