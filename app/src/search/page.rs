//! `/d/<id>/r/<n>/search`: the cheapest fabrics that meet the design's targets. The question
//! (targets, budget, technologies) is a form; the answer is the frontier as a chart and a
//! table, each candidate explained on demand and opened in the planner from there.

use super::form::{isolation_fields, technology_field, SearchForm, ARRANGEMENTS};
use crate::blocks::html::chart_view;
use crate::charts::search::{frontier_chart, Point};
use crate::money::{usd, watts};
use crate::pages::document::{document, Page};
use engine::search::{describe_choice, Candidate, Explanation, Progress, SearchResult};
use engine::thousands;
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// What the search found, and the candidate asked about.
pub struct Outcome {
    pub result: SearchResult,
    pub explanation: Option<Explanation>,
    /// The searched design itself.
    pub base: Point,
    /// The y axis is the added latency per token (nothing trains).
    pub per_token: bool,
    /// The limit every workload is held to on the y axis's figure, drawn on the chart.
    pub target: Option<f64>,
}

/// The revision searched: where its pages are.
pub struct Searched<'a> {
    pub id: &'a str,
    pub revision: u32,
    pub title: &'a str,
    /// The design has tenants: the form offers their isolation.
    pub tenants: bool,
}

fn number(v: f64, digits: usize) -> String {
    if v.is_finite() {
        format!("{v:.digits$}")
    } else {
        "–".into()
    }
}

fn form_view(at: &Searched, form: &SearchForm) -> impl IntoView {
    let technologies = engine::Technology::ALL
        .into_iter()
        .map(|t| {
            let field = technology_field(t);
            view! {
                <label class="check">
                    <input type="checkbox" name=field.clone() id=field checked=form.technologies.contains(&t)/>
                    {t.label()}
                </label>
            }
        })
        .collect_view();
    let arrangements = ARRANGEMENTS
        .into_iter()
        .map(|(a, field, label)| {
            view! {
                <label class="check">
                    <input type="checkbox" name=field id=field checked=form.arrangements.contains(&a)/>
                    {label}
                </label>
            }
        })
        .collect_view();
    let tenants = at.tenants.then(|| {
        let levels = isolation_fields()
            .map(|(level, field)| {
                view! {
                    <label class="check">
                        <input type="checkbox" name=field.clone() id=field checked=form.tenant_isolation.contains(&level)/>
                        {format!("Tenants: {}", level.label())}
                    </label>
                }
            })
            .collect_view();
        view! {
            <div class="checks" id="search-isolation">{levels}</div>
            <div class="choice-lists">
                <label for="search-stranded">"Most GPUs the tenants' isolation may strand"</label>
                <input id="search-stranded" name="stranded" type="text" inputmode="numeric" value=form.stranded_gpus.clone() placeholder="any"/>
            </div>
        }
    });
    view! {
        <form method="get" action=format!("/d/{}/r/{}/search", at.id, at.revision) class="search-form" id="search-form">
            <input type="hidden" name="run" value="1"/>
            <fieldset>
                <legend>"Targets"</legend>
                <label for="search-slowdown">"Largest training slowdown, %"</label>
                <input id="search-slowdown" name="slowdown" type="text" inputmode="decimal" value=form.slowdown_percent.clone()/>
                <label for="search-latency">"Largest added latency per token, ms"</label>
                <input id="search-latency" name="latency" type="text" inputmode="decimal" value=form.added_latency_ms.clone()/>
                <p class="help">"Every checkpoint is written within its budget. Leave a target empty to leave it free."</p>
            </fieldset>
            <fieldset>
                <legend>"Constraints"</legend>
                <label for="search-budget">"Network budget, USD"</label>
                <input id="search-budget" name="budget" type="text" inputmode="decimal" value=form.budget_usd.clone() placeholder="none"/>
                <label for="search-power">"Network power, kW"</label>
                <input id="search-power" name="power" type="text" inputmode="decimal" value=form.power_kw.clone() placeholder="none"/>
                <label for="search-read-headroom">"Smallest storage read headroom, ×"</label>
                <input id="search-read-headroom" name="read-headroom" type="text" inputmode="decimal" value=form.read_headroom.clone() placeholder="none"/>
                <label for="search-tiers">"Most switch tiers"</label>
                <input id="search-tiers" name="tiers" type="text" inputmode="numeric" value=form.max_tiers.clone() placeholder="any"/>
                <label for="search-failure-gpus">"Most GPUs one failure may cut off"</label>
                <input id="search-failure-gpus" name="failure-gpus" type="text" inputmode="numeric" value=form.failure_gpus.clone() placeholder="any"/>
                <label for="search-goodput">"Smallest training goodput, %"</label>
                <input id="search-goodput" name="goodput" type="text" inputmode="decimal" value=form.goodput_percent.clone() placeholder="any"/>
                <label for="search-growth">"Grow to, nodes, without re-cabling"</label>
                <input id="search-growth" name="growth" type="text" inputmode="numeric" value=form.growth_nodes.clone() placeholder="as designed"/>
            </fieldset>
            <fieldset class="choices">
                <legend>"What the search may choose"</legend>
                <div class="checks">{technologies}</div>
                <label class="check">
                    <input type="checkbox" name="every-switch" id="every-switch" checked=form.every_switch/>
                    "Every switch model that carries the technology"
                </label>
                <div class="checks">{arrangements}</div>
                <div class="choice-lists">
                    <label for="search-leaf-oversubscription">"Leaf oversubscriptions to try"</label>
                    <input id="search-leaf-oversubscription" name="leaf-oversubscription" type="text" value=form.leaf_oversubscription.clone() placeholder="as designed, e.g. 1, 2, 3"/>
                    <label for="search-nics">"NICs per node to try"</label>
                    <input id="search-nics" name="nics" type="text" value=form.nics_per_node.clone() placeholder="as designed, e.g. 1, 2, 4, 8"/>
                </div>
                {tenants}
            </fieldset>
            <button type="submit" id="search-run">"Search"</button>
        </form>
    }
}

/// One row of the frontier: candidate `c`, and `same`, the ids of the candidates with its
/// figures, which differ only in choices that change none of them.
fn frontier_row(at: &Searched, query: &str, c: &Candidate, same: &[u64]) -> impl IntoView {
    let id = c.record.id;
    let explain = format!(
        "/d/{}/r/{}/search?{query}&candidate={id}#explanation",
        at.id, at.revision
    );
    let open = format!(
        "/d/{}/r/{}/search/open?{query}&candidate={id}",
        at.id, at.revision
    );
    view! {
        <tr id=format!("candidate-{id}")>
            <td class="num">{id}</td>
            <td>
                {describe_choice(&c.choice)}
                {(!same.is_empty()).then(|| {
                    let ids: Vec<String> = same.iter().map(u64::to_string).collect();
                    view! { <span class="note same-figures">{format!(" Also candidates {}: the same figures, with other choices that change none of them.", ids.join(", "))}</span> }
                })}
            </td>
            <td class="num">{usd(c.network().0)}</td>
            <td class="num">{watts(c.network().1)}</td>
            <td class="num">{number(c.record.slowdown_percent, 2)}</td>
            <td class="num">{number(c.record.added_latency_ms, 2)}</td>
            <td><a href=explain>"Explain"</a> " · " <a rel="external" href=open class="open-candidate">"Open in the planner"</a></td>
        </tr>
    }
}

fn explanation_view(e: &Explanation) -> impl IntoView {
    view! {
        <section class="panel" id="explanation" aria-labelledby="explanation-heading">
            <h2 id="explanation-heading">{format!("Candidate {}", e.candidate.record.id)}</h2>
            <p>{describe_choice(&e.candidate.choice)}</p>
            <p id="explanation-summary">{e.summary.clone()}</p>
        </section>
    }
}

fn outcome_view(at: &Searched, form: &SearchForm, outcome: &Outcome) -> impl IntoView {
    let r = &outcome.result;
    let query = form.query();
    let rows = r
        .distinct_frontier()
        .into_iter()
        .map(|(c, same)| frontier_row(at, &query, c, &same))
        .collect_view();
    let chart = frontier_chart(
        &r.frontier,
        Some(outcome.base),
        outcome.per_token,
        outcome.target,
    );
    let data = if r.frontier.is_empty() {
        view! { <p class="invalid-design" id="no-design" role="status">{r.summary.clone()}</p> }
            .into_any()
    } else {
        view! {
            {chart_view(Some("chart-frontier"), "Network cost against performance of every frontier candidate, and this design", chart)}
            <table class="headroom" id="frontier">
                <caption>"The frontier: no other candidate is cheaper, leaner and faster at once"</caption>
                <thead><tr><th scope="col" class="num">"Candidate"</th><th scope="col">"What it chooses"</th><th scope="col" class="num">"Network cost as placed"</th><th scope="col" class="num">"Power as placed"</th><th scope="col" class="num">"Slowdown, %"</th><th scope="col" class="num">"Added per token, ms"</th><th scope="col"></th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
        .into_any()
    };
    view! {
        <section class="panel" aria-labelledby="answer-heading">
            <h2 id="answer-heading">"The answer"</h2>
            <p id="search-summary">{r.summary.clone()}</p>
            <p class="meta">{format!(
                "{}, {} visited, {} evaluated, {} meet every check; {}.",
                if r.space_counted {
                    format!("{} candidates in the space", thousands(r.space as f64))
                } else {
                    "More candidates in the space than can be counted".to_string()
                },
                thousands(r.visited as f64), thousands(r.evaluated as f64), thousands(r.feasible as f64),
                if r.exhaustive {
                    "every candidate was visited, so the frontier is exact"
                } else {
                    "the frontier is the best of those visited"
                }
            )}</p>
            {data}
        </section>
        {outcome.explanation.as_ref().map(explanation_view)}
    }
}

/// The page's heading, its form and then `shown`, as a whole document.
fn document_of(at: &Searched, form: &SearchForm, shown: AnyView) -> String {
    let body = view! {
        <section class="panel" aria-labelledby="search-heading">
            <h1 id="search-heading">{format!("Search: the cheapest fabric for “{}”", at.title)}</h1>
            <p class="meta">
                <a href=format!("/d/{}/r/{}", at.id, at.revision)>{format!("Back to revision {}", at.revision)}</a>
            </p>
            <p class="note">"The search varies the fabrics' technology and switches, keeps the cluster and workloads, and returns the candidates that meet every target: none of them is beaten on cost, power and performance at once."</p>
            {form_view(at, form)}
        </section>
        {shown}
    }
    .to_html();
    document(&format!("Search: {}", at.title), body)
}

/// The search page of revision `at`: the form, and the outcome once it has run (or the
/// form's errors, 422).
pub fn search_page(
    at: &Searched,
    form: &SearchForm,
    outcome: Option<Result<Outcome, Vec<String>>>,
) -> Page {
    let status = match &outcome {
        Some(Err(_)) => 422,
        _ => 200,
    };
    let shown = match &outcome {
        None => ().into_any(),
        Some(Err(errors)) => view! {
            <div class="invalid-design" id="search-errors" role="alert">
                <p>"The search did not run:"</p>
                <ul>{errors.iter().map(|e| view! { <li>{e.clone()}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any(),
        Some(Ok(o)) => outcome_view(at, form, o).into_any(),
    };
    Page {
        status,
        html: document_of(at, form, shown),
    }
}

/// The page of a search under way, sent as it runs: `head`, then a [`progress_line`] every
/// so often, then `progress_end`, the outcome ([`outcome_html`]) and `tail`. The browser shows
/// each part as it arrives; the style sheet shows only the last progress line.
pub struct Streamed {
    pub head: String,
    pub progress_end: &'static str,
    pub tail: String,
}

/// Marks where the progress and the outcome go in the page: the page is cut there.
const SLOT: &str = r#"<div id="search-slot"></div>"#;

pub fn streamed_page(at: &Searched, form: &SearchForm) -> Streamed {
    let html = document_of(at, form, view! { <div id="search-slot"></div> }.into_any());
    let (head, tail) = html.split_once(SLOT).unwrap_or((&html, ""));
    Streamed {
        head: format!(
            "{head}<div class=\"search-progress\" id=\"search-progress\" role=\"status\" aria-live=\"polite\">"
        ),
        progress_end: "</div>",
        tail: tail.to_string(),
    }
}

/// One line of progress: how far the search is, in candidates and seconds.
pub fn progress_line(p: &Progress, seconds: f64) -> String {
    let words = if p.done {
        format!(
            "Searched {} candidates in {seconds:.1} s: {} meet every check.",
            thousands(p.visited as f64),
            thousands(p.feasible as f64)
        )
    } else {
        format!(
            "Searching: {} of {} candidates visited in {seconds:.1} s, {} meet every check so far, {} on the frontier.",
            thousands(p.visited as f64),
            thousands(p.planned as f64),
            thousands(p.feasible as f64),
            p.frontier
        )
    };
    view! { <p class:done=p.done>{words}</p> }.to_html()
}

/// The outcome of a search that ran, as the page shows it.
pub fn outcome_html(at: &Searched, form: &SearchForm, outcome: &Outcome) -> String {
    outcome_view(at, form, outcome).to_html()
}
