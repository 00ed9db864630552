//! The starting points of a new design: blank, or one of the shipped examples, each with its
//! address and the label the planner shows.

use leptos::prelude::*;

/// Where a new design can start, by the name in its address, with the label the planner shows.
pub const STARTING_POINTS: [(&str, &str); 7] = [
    ("blank", "Blank design"),
    ("seventy-b-training", "70B training on 16 nodes"),
    ("seventy-b-inference-25g", "70B served over 25GbE"),
    ("seventy-b-inference-400g", "70B served over 400GbE"),
    ("rag", "RAG service"),
    ("superpod-4su", "SuperPOD, 4 scalable units"),
    ("hybrid", "Hybrid InfiniBand and Ethernet"),
];

/// The links to every starting point, shown above a new design's wizard.
#[component]
pub fn StartingPoints() -> impl IntoView {
    let links = STARTING_POINTS
        .iter()
        .map(|(name, label)| {
            view! { <li><a id=format!("start-{name}") rel="external" href=format!("/new/{name}")>{*label}</a></li> }
        })
        .collect_view();
    view! {
        <nav class="starting-points" aria-label="Start from">
            <span>"Start from: "</span>
            <ul>{links}</ul>
        </nav>
    }
}
