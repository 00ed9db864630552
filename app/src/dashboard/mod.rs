//! The dashboard of a design: the same view for a design being edited and for a saved design.
//! Everything in it comes from the engine's report; it only lays it out and draws it.
//!
//! It is rendered on the server (its tables, diagrams and plotters charts stay out of the
//! browser bundle): a saved design's page carries it complete, and while a design is edited
//! the browser fetches it again after each change through [`dashboard_html`]. The headline
//! figures and findings beside the wizard are computed in the browser.

#[cfg(feature = "ssr")]
pub(crate) mod fabric;
#[cfg(feature = "ssr")]
mod workloads;

use crate::error::AppError;
use crate::wire::JsonReply;
use engine::DesignSpec;
use leptos::prelude::*;
use leptos::server_fn::codec::{Json, Post};

/// The dashboard of the design `spec` (its JSON), as HTML.
#[server(prefix = "/fn", endpoint = "dashboard", input = Json, output = Post<JsonReply>)]
#[middleware(crate::costs::COMPUTES)]
pub async fn dashboard_html(spec: String) -> Result<String, AppError> {
    use crate::server::fail;
    let spec = DesignSpec::from_json(&spec).map_err(|e| fail(e.into()))?;
    let placed = engine::evaluate_placed(&spec).map_err(|e| fail(e.into()))?;
    // Drawing every chart is CPU work: kept off the server's async workers.
    tokio::task::spawn_blocking(move || render::dashboard(&spec, &placed))
        .await
        .map_err(|_| {
            fail(AppError::Internal(
                "the dashboard could not be drawn".into(),
            ))
        })
}

/// The dashboard of the design `spec` holds, fetched from the server whenever it changes.
#[component]
pub fn DashboardView(#[prop(into)] spec: Signal<DesignSpec>) -> AnyView {
    let drawn = Resource::<_, crate::wire::TextInJson>::new_with_options(
        move || spec.with(|s| serde_json::to_string(s).unwrap_or_default()),
        |spec| async move { Drawn::from(dashboard_html(spec).await) },
        false,
    );
    view! {
        <Transition fallback=|| view! { <p class="note">"Preparing the dashboard…"</p> }>
            {move || Suspend::new(async move {
                match drawn.await {
                    Drawn::Html(html) => view! { <div class="dashboard-host" inner_html=html></div> }.into_any(),
                    Drawn::Invalid => view! { <p class="note">"The dashboard appears once the design is valid."</p> }.into_any(),
                    Drawn::Failed(why) => view! { <p class="note">{format!("The dashboard could not be prepared: {why}")}</p> }.into_any(),
                }
            })}
        </Transition>
    }
    .into_any()
}

/// The dashboard as the server drew it, or why it did not. The page carries it as this text
/// (its `Display`, read back by `FromStr`, in a JSON string: `crate::wire::TextInJson`): a first
/// line that says which, then the drawing as it is.
#[derive(Debug, Clone, PartialEq)]
enum Drawn {
    Html(String),
    Invalid,
    Failed(String),
}

impl From<Result<String, AppError>> for Drawn {
    fn from(answer: Result<String, AppError>) -> Drawn {
        match answer {
            Ok(html) => Drawn::Html(html),
            Err(AppError::Invalid(_)) => Drawn::Invalid,
            Err(e) => Drawn::Failed(e.to_string()),
        }
    }
}

impl std::fmt::Display for Drawn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Drawn::Html(html) => write!(f, "html\n{html}"),
            Drawn::Invalid => f.write_str("invalid\n"),
            Drawn::Failed(why) => write!(f, "failed\n{why}"),
        }
    }
}

impl std::str::FromStr for Drawn {
    type Err = ();

    fn from_str(text: &str) -> Result<Drawn, ()> {
        match text.split_once('\n') {
            Some(("html", html)) => Ok(Drawn::Html(html.to_string())),
            Some(("invalid", "")) => Ok(Drawn::Invalid),
            Some(("failed", why)) => Ok(Drawn::Failed(why.to_string())),
            _ => Err(()),
        }
    }
}

#[cfg(feature = "ssr")]
pub mod render {
    use super::{fabric, workloads};
    use crate::charts::studies::{self, Chart, Charts};
    use crate::report::html::blocks_view;
    use crate::report::{
        assumption_table, comparison_table, failure_blocks, floor_blocks, goodput_blocks,
        operating_blocks, phase_blocks, spine_loss_table, Block,
    };
    use engine::DesignSpec;
    use leptos::prelude::*;
    use leptos::tachys::view::RenderHtml;

    /// A chart, and its numbers in a table a reader can open.
    fn chart(c: Chart) -> AnyView {
        let head = c
            .data
            .columns
            .iter()
            .map(|h| view! { <th scope="col">{*h}</th> })
            .collect_view();
        let rows = c
            .data
            .rows
            .into_iter()
            .map(|row| {
                let mut cells = row.into_iter();
                let first = cells.next().unwrap_or_default();
                view! {
                    <tr>
                        <th scope="row">{first}</th>
                        {cells.map(|v| view! { <td class="num">{v}</td> }).collect_view()}
                    </tr>
                }
            })
            .collect_view();
        // A study whose answer does not move is said, not drawn as a flat line.
        let drawing = match c.flat {
            Some(words) => view! { <p class="chart-in-words" id=c.id.clone()>{words}</p> }.into_any(),
            None => view! { <div class="chart" id=c.id.clone() role="img" aria-label=c.label.clone() inner_html=c.svg></div> }.into_any(),
        };
        view! {
            <figure class="chart-with-data">
                {drawing}
                <details class="chart-data" id=format!("{}-data", c.id)>
                    <summary>"Data"<span class="visually-hidden">{format!(": {}", c.label)}</span></summary>
                    <table>
                        <caption>{c.label}</caption>
                        <thead><tr>{head}</tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </details>
            </figure>
        }
        .into_any()
    }

    fn chart_views(charts: Charts) -> AnyView {
        let comparison = comparison_table(&charts).map(Block::Table);
        let spine_losses = (!charts.spine_losses.is_empty())
            .then(|| Block::Table(spine_loss_table(&charts.spine_losses)));
        view! {
            <div class="charts">{charts.comparison.into_iter().map(chart).collect_view()}</div>
            <div>{blocks_view(&Vec::from_iter(comparison))}</div>
            <h3>"Bandwidth headroom per tier"</h3>
            <div class="charts">{charts.headroom.into_iter().map(chart).collect_view()}</div>
            <h3>"What if"</h3>
            <div class="charts">{charts.whatifs.into_iter().map(chart).collect_view()}</div>
            <div>{blocks_view(&Vec::from_iter(spine_losses))}</div>
        }
        .into_any()
    }

    /// The whole dashboard of `spec`, evaluated on its floor, as HTML.
    pub fn dashboard(spec: &DesignSpec, placed: &engine::PlacedReport) -> String {
        let (report, plan) = (&placed.report, &placed.floor);
        let charts = studies::charts(spec, report);
        let assumptions = blocks_view(&[Block::Table(assumption_table(spec))]);
        let floor = blocks_view(&floor_blocks(spec, report, plan));
        let failures = blocks_view(&failure_blocks(
            spec,
            report,
            &engine::failures::failures(spec, report),
        ));
        let time_intervals = engine::uncertainty::intervals(spec, report);
        let intervals = blocks_view(&crate::report::interval_blocks(&time_intervals));
        let tenants = blocks_view(&crate::report::tenant_blocks(
            spec,
            report,
            &engine::interference::interference(spec, report),
            plan,
        ));
        let goodput = blocks_view(&goodput_blocks(&engine::goodput::goodput(spec, report)));
        let phases = engine::phases::phases_on(spec, plan).and_then(Result::ok);
        let phases = blocks_view(&phase_blocks(phases.as_ref(), report, plan));
        let operations = blocks_view(&operating_blocks(spec, report));
        let fabrics = report
            .fabrics
            .iter()
            .cloned()
            .map(|fabric| view! { <fabric::FabricSection fabric tenants=report.tenants.clone()/> })
            .collect_view();
        let workloads = report
            .workloads
            .iter()
            .cloned()
            .enumerate()
            .map(|(index, report)| {
                let interval = time_intervals
                    .iter()
                    .find(|i| i.workload == report.name())
                    .cloned();
                view! { <workloads::WorkloadDetail report index interval/> }
            })
            .collect_view();
        let totals = report.network();
        let summary = format!(
            "Network for {} GPUs as placed on its floor: {} ({} per GPU), {} ({} per GPU). Engine {}.",
            report.cluster.gpus,
            crate::money::usd(totals.cost_usd),
            crate::money::usd(totals.cost_per_gpu_usd),
            crate::money::watts(totals.power_w),
            crate::money::watts(totals.power_per_gpu_w),
            report.engine_version
        );
        view! {
            <section class="dashboard" aria-labelledby="dashboard-heading">
                <h2 id="dashboard-heading">"Dashboard"</h2>
                <p class="totals" id="totals">{summary}</p>
                <h2>"Fabrics"</h2>
                {fabrics}
                <h2>"What the network costs the workloads"</h2>
                {chart_views(charts)}
                <h2>"Workloads, figure by figure"</h2>
                <p class="note">"Open “How” beside a figure for its formula, inputs and source."</p>
                {workloads}
                <div class="intervals">{intervals}</div>
                <div class="floor">{floor}</div>
                <div class="failures">{failures}</div>
                <div class="tenants">{tenants}</div>
                <div class="goodput">{goodput}</div>
                <div class="phases">{phases}</div>
                <div class="operating">{operations}</div>
                <h2>"Assumptions and sources"</h2>
                <div>{assumptions}</div>
            </section>
        }
        .to_html()
    }
}

#[cfg(test)]
mod tests {
    use super::Drawn;

    /// The page carries the dashboard as text and the browser reads back what was drawn.
    #[test]
    fn the_dashboard_reads_back_from_the_text_the_page_carries() {
        for drawn in [
            Drawn::Html("<section>\n<svg/>\n</section>".into()),
            Drawn::Html(String::new()),
            Drawn::Invalid,
            Drawn::Failed("server error: the dashboard could not be drawn".into()),
        ] {
            assert_eq!(drawn.to_string().parse(), Ok(drawn));
        }
        assert_eq!("<svg/>".parse::<Drawn>(), Err(()));
    }
}
