//! The HTTP resources, one module each with its routes, its handlers and its page's view: the
//! JSON API, the planner's addresses, a design's pages (its share link and revisions, the edit
//! link, report, hand-off, search, baselines, calibration, tenants, as-built check), the designs
//! this browser holds, compare, import, the sources, the catalog, and the downloads; and what
//! their handlers share (a revision as an address names it, the answers a page gives, the forms
//! that take a tool's output).
//!
//! A new page or download is a module here with its `routes` and its view, declared below and
//! merged in [`pages`] (or, for an upload larger than a form, beside the as-built check in
//! `routes.rs`); a module that outgrows one file is a folder with its view in `view.rs`.

use crate::public_url::PublicUrl;
use crate::work::evaluations::Evaluations;
use app::store::Store;
use axum::Router;

pub mod api;
pub(crate) mod asbuilt;
pub mod baselines;
pub(crate) mod calibration;
pub(crate) mod catalog;
pub(crate) mod claim;
pub(crate) mod compare;
pub(crate) mod design;
pub mod exports;
pub mod handoff;
pub(crate) mod import;
pub(crate) mod multipart;
pub(crate) mod my_designs;
pub mod pdf;
pub(crate) mod planner;
pub(crate) mod records;
pub mod report;
pub(crate) mod respond;
pub(crate) mod revisions;
pub(crate) mod search_page;
pub(crate) mod sources;
pub(crate) mod tenants;

/// The script-free pages, the downloads and the JSON API, each resource's routes merged: what
/// takes a request body no larger than a form's.
pub(crate) fn pages(store: &Store, public_url: Option<PublicUrl>) -> Router {
    // A revision's page, report, PDF, sheets and hand-off files draw from one evaluation.
    let evaluations = Evaluations::new();
    Router::new()
        .merge(design::routes(store.clone(), evaluations.clone()))
        .merge(claim::routes(store.clone()))
        .merge(my_designs::routes(store.clone()))
        .merge(sources::routes())
        .merge(catalog::routes())
        .merge(compare::routes(store.clone()))
        .merge(import::routes(store.clone()))
        .merge(report::routes(
            store.clone(),
            public_url,
            evaluations.clone(),
        ))
        .merge(exports::routes(store.clone(), evaluations.clone()))
        .merge(handoff::routes(store.clone(), evaluations))
        .merge(api::routes(store.clone()))
        .merge(search_page::routes(store.clone()))
        .merge(calibration::routes(store.clone()))
        .merge(tenants::routes(store.clone()))
}
