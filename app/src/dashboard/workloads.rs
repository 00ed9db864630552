use crate::components::FigureRow;
use crate::report::html::blocks_view;
use crate::report::{collectives_table, workload_figures, workload_heading};
use engine::WorkloadReport;
use leptos::prelude::*;

/// Every figure of one workload with its formula and source ("show your work"): the report's
/// figures, each with its "How" to open.
#[component]
pub fn WorkloadDetail(
    report: WorkloadReport,
    index: usize,
    interval: Option<engine::uncertainty::TimeInterval>,
) -> AnyView {
    let over = matches!(&report, WorkloadReport::Inference(i) if !i.inter_token_verdict().meets);
    let rows = workload_figures(&report, interval.as_ref())
        .into_iter()
        .map(|s| view! { <FigureRow label=s.label figure=s.figure id=format!("w{index}-{}", s.key) interval=s.interval/> })
        .collect_view();
    let collectives = match &report {
        WorkloadReport::Training(t) => {
            Some(blocks_view(&[collectives_table(t, interval.as_ref())]))
        }
        _ => None,
    };
    view! {
        <article class="workload-report" id=format!("workload-report-{index}") class:over-target=over>
            <h3>{workload_heading(&report)}</h3>
            <table class="results">
                <tbody>{rows}</tbody>
            </table>
            <div>{collectives}</div>
        </article>
    }
    .into_any()
}
