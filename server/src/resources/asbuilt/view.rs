//! `/d/<id>/r/<n>/asbuilt`: what a built fabric reports about itself (`ibnetdiscover` on
//! InfiniBand, an LLDP neighbour table on Ethernet) checked against the revision's cabling
//! plan, cable by cable: the counts, by switch and by rail, and every cable that is not as
//! planned. The key holder may keep a check with the revision; the kept checks are listed
//! and charted, and any of them is run again from its output.

use app::blocks::html::chart_view;
use app::charts::asbuilt::{history, CheckPoint};
use app::pages::document::{document, escape, Page};
use app::report::{kept_cells, last_verdict, KEPT_COLUMNS};
use app::store::StoredCheck;
use app::words::number;
use engine::asbuilt::{AsBuiltCheck, CableCheck, Status, Summary, MAX_LISTED};
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// The form as last submitted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AsBuiltForm {
    pub fabric: String,
    /// `ibnetdiscover` or `lldp`.
    pub tool: String,
    /// The device whose LLDP table it is.
    pub device: String,
    pub output: String,
    /// Keep the check with the revision (key holder only).
    pub keep: bool,
    pub label: String,
    /// The day the output was taken, `YYYY-MM-DD`.
    pub checked_on: String,
}

/// What the page shows besides the form.
pub struct AsBuiltPage<'a> {
    pub id: &'a str,
    pub revision: u32,
    pub title: &'a str,
    pub fabrics: &'a [String],
    /// Whether this browser holds the design's edit key (and so may keep a check).
    pub editable: bool,
    /// The revision's kept checks, in the order taken.
    pub kept: &'a [StoredCheck],
    /// The kept check being shown again, if any.
    pub showing: Option<&'a StoredCheck>,
}

fn summary_row(s: &Summary) -> impl IntoView {
    let short = s.findings() > 0;
    view! {
        <tr class:short=short>
            <th scope="row">{s.name.clone()}</th>
            <td class="num">{s.as_planned}</td>
            <td class="num">{s.missing}</td>
            <td class="num">{s.swapped}</td>
            <td class="num">{s.degraded}</td>
            <td class="num">{s.extra}</td>
        </tr>
    }
}

fn summary_table<'a>(
    id: &'static str,
    caption: String,
    rows: impl Iterator<Item = &'a Summary>,
) -> AnyView {
    view! {
        <table class="headroom" id=id>
            <caption>{caption}</caption>
            <thead><tr><th scope="col"></th><th scope="col" class="num">"As planned"</th><th scope="col" class="num">"Missing"</th><th scope="col" class="num">"Swapped"</th><th scope="col" class="num">"Degraded"</th><th scope="col" class="num">"Extra"</th></tr></thead>
            <tbody>{rows.map(summary_row).collect_view()}</tbody>
        </table>
    }
    .into_any()
}

/// Switches the by-switch table lists one by one; a larger fabric's table lists those with a
/// cable not as planned or a link on no planned port, so that a few among thousands stand out.
const SWITCHES_LISTED: usize = 100;

/// The check by switch: every switch of a small fabric; of a large one, those with a finding.
fn by_switch(switches: &[Summary]) -> AnyView {
    if switches.len() <= SWITCHES_LISTED {
        return summary_table("asbuilt-by-switch", "By switch".into(), switches.iter());
    }
    let short = switches.iter().filter(|s| s.findings() > 0).count();
    if short == 0 {
        return view! {
            <p id="asbuilt-by-switch">{format!("Each of the {} switches has every cable as planned.", number(switches.len() as u64))}</p>
        }
        .into_any();
    }
    let listed = short.min(MAX_LISTED);
    let caption = format!(
        "By switch: {} of the {} switches have a cable not as planned or a link on no planned port{}",
        number(short as u64),
        number(switches.len() as u64),
        if listed < short {
            format!(" (the first {} listed)", number(listed as u64))
        } else {
            String::new()
        }
    );
    let rows = switches.iter().filter(|s| s.findings() > 0).take(listed);
    summary_table("asbuilt-by-switch", caption, rows)
}

fn what_was_found(c: &CableCheck) -> String {
    match (&c.status, c.status.detail()) {
        (_, Some(detail)) => detail,
        (Status::Missing, None) => "missing: no link on either end".into(),
        (_, None) => "as planned".into(),
    }
}

fn result_view(check: &AsBuiltCheck) -> impl IntoView {
    let t = &check.total;
    let not_as_planned = (t.missing + t.swapped + t.degraded) as usize;
    let verdict = if t.findings() == 0 {
        format!(
            "All {} cables are as planned.",
            number(check.cables() as u64)
        )
    } else {
        format!(
            "{} of {} cables are as planned; {} missing, {} swapped, {} degraded, and {} links on no planned port.",
            number(t.as_planned),
            number(check.cables() as u64),
            number(t.missing),
            number(t.swapped),
            number(t.degraded),
            number(t.extra)
        )
    };
    let rows = check
        .findings
        .iter()
        .take(MAX_LISTED)
        .map(|c| {
            view! {
                <tr>
                    <th scope="row">{c.label.clone()}</th>
                    <td>{c.status.key()}</td>
                    <td>{format!("{}:{}", c.a_device, c.a_port)}</td>
                    <td>{format!("{}:{}", c.z_device, c.z_port)}</td>
                    <td>{what_was_found(c)}</td>
                </tr>
            }
        })
        .collect_view();
    let extra = check
        .extra
        .iter()
        .take(MAX_LISTED)
        .map(|l| view! { <li>{format!("line {}: {}:{} to {}:{}", l.line, l.device, l.port, l.peer_device, l.peer_port)}</li> })
        .collect_view();
    view! {
        <section class="panel" aria-labelledby="asbuilt-result-heading">
            <h2 id="asbuilt-result-heading">"As built against the plan"</h2>
            <p id="asbuilt-verdict" role="status">{verdict}</p>
            {by_switch(&check.by_switch)}
            {(!check.by_rail.is_empty()).then(|| summary_table("asbuilt-by-rail", "By rail".into(), check.by_rail.iter()))}
            {(!check.findings.is_empty()).then(|| view! {
                <table class="headroom" id="asbuilt-findings">
                    <caption>{format!("Cables not as planned{}", if not_as_planned > check.findings.len().min(MAX_LISTED) { format!(" (the first {} of {not_as_planned})", check.findings.len().min(MAX_LISTED)) } else { String::new() })}</caption>
                    <thead><tr><th scope="col">"Cable"</th><th scope="col">"Found"</th><th scope="col">"A end"</th><th scope="col">"Z end"</th><th scope="col">"What was found"</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            })}
            {(!check.extra.is_empty()).then(|| view! {
                <h3>"Links on no planned port"</h3>
                <ul id="asbuilt-extra">{extra}</ul>
            })}
        </section>
    }
}

/// Kept checks listed with the report's columns, each linked to the check run again.
fn kept_view(page: &AsBuiltPage) -> impl IntoView {
    let (id, n) = (page.id, page.revision);
    let rows = page
        .kept
        .iter()
        .map(|c| {
            let mut cells = kept_cells(c).into_iter();
            let check = cells.next().unwrap_or_default();
            let numbers = cells.enumerate().map(|(i, cell)| {
                let class = if KEPT_COLUMNS[i + 1].1 { "num" } else { "" };
                view! { <td class=class>{cell}</td> }
            }).collect_view();
            let short = c.found.findings() > 0;
            view! {
                <tr id=format!("check-{}", c.number) class:short=short>
                    <th scope="row"><a href=format!("/d/{id}/r/{n}/asbuilt/{}", c.number)>{check}</a></th>
                    {numbers}
                </tr>
            }
        })
        .collect_view();
    let head = KEPT_COLUMNS
        .iter()
        .map(|(title, numeric)| view! { <th scope="col" class:num=*numeric>{*title}</th> })
        .collect_view();
    let points: Vec<CheckPoint> = page
        .kept
        .iter()
        .map(|c| CheckPoint {
            checked_on: &c.checked_on,
            found: &c.found,
        })
        .collect();
    let last = page.kept.last().map(last_verdict).unwrap_or_default();
    view! {
        <section class="panel" aria-labelledby="asbuilt-kept-heading" id="asbuilt-kept">
            <h2 id="asbuilt-kept-heading">{format!("Checks kept with revision {n}")}</h2>
            <p id="asbuilt-last">{last}</p>
            {chart_view(None, "The findings of each kept check in the order they were taken: missing, swapped, degraded and unplanned links", history(&points))}
            <table class="headroom" id="asbuilt-kept-table">
                <caption>"Each kept check as it was found on the day; open one to see it cable by cable"</caption>
                <thead><tr>{head}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
}

/// The fields that keep a check, for the key holder.
fn keep_fields(form: &AsBuiltForm) -> impl IntoView {
    view! {
        <fieldset class="stated" id="asbuilt-keep">
            <legend>"Keep this check with the revision (only this browser holds the design's edit key)"</legend>
            <label for="asbuilt-keep-box"><input id="asbuilt-keep-box" type="checkbox" name="keep" value="on" checked=form.keep/>" Keep it"</label>
            <label for="asbuilt-label">"Label"</label>
            <input id="asbuilt-label" type="text" name="label" maxlength="200" value=form.label.clone() placeholder="after recabling rail 3"/>
            <label for="asbuilt-date">"Output taken on"</label>
            <input id="asbuilt-date" type="date" name="checked_on" value=form.checked_on.clone()/>
        </fieldset>
    }
}

/// The page of a revision: the form, the check of its last submission or of the kept check
/// shown again (or why it could not be read, 422), and the checks kept with the revision.
pub fn asbuilt_page(
    page: &AsBuiltPage,
    form: &AsBuiltForm,
    outcome: Option<Result<AsBuiltCheck, Vec<String>>>,
) -> Page {
    let (id, n, title) = (page.id, page.revision, page.title);
    let status = match &outcome {
        Some(Err(_)) => 422,
        _ => 200,
    };
    let fabric_options = page
        .fabrics
        .iter()
        .map(|f| view! { <option value=f.clone() selected=*f == form.fabric>{f.clone()}</option> })
        .collect_view();
    let shown = match &outcome {
        None => ().into_any(),
        Some(Err(errors)) => view! {
            <div class="invalid-design" id="asbuilt-errors" role="alert">
                <p>"The output was not checked, and nothing was kept:"</p>
                <ul>{errors.iter().map(|e| view! { <li>{e.clone()}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any(),
        Some(Ok(check)) => view! {
            {page.showing.map(|c| view! {
                <p class="note" id="asbuilt-showing">{format!("Kept check {} “{}”, output taken on {}, run again against revision {n}.", c.number, c.label, c.checked_on)}</p>
            })}
            {result_view(check)}
        }
        .into_any(),
    };
    let lldp = form.tool == "lldp";
    let kept_note = if page.editable {
        "Tick “Keep it” to keep the output and what it found with this revision."
    } else {
        "Nothing is stored: only a browser holding the design's edit key keeps checks."
    };
    let upload_note = format!(
        "A file over {} MB is uploaded gzipped: a 100,000-GPU fabric's ibnetdiscover is 63 MB, 6 MB gzipped.",
        super::MAX_ASBUILT_BODY_BYTES >> 20
    );
    let body = view! {
        <section class="panel" aria-labelledby="asbuilt-heading">
            <h1 id="asbuilt-heading">{format!("As-built check of “{title}”, revision {n}")}</h1>
            <p class="meta"><a href=format!("/d/{id}/r/{n}")>"Back to the design"</a></p>
            <p class="note">{format!("Paste or upload what the built fabric reports about itself: ibnetdiscover on InfiniBand, or a switch's LLDP neighbour table (lldpd, SONiC, Cumulus NVUE or Arista EOS as JSON) on Ethernet. Every link is compared with the cabling sheet of this revision. {kept_note}")}</p>
            <form method="post" action=format!("/d/{id}/r/{n}/asbuilt") enctype="multipart/form-data" class="baseline-form" id="asbuilt-form">
                <label for="asbuilt-fabric">"Fabric"</label>
                <select id="asbuilt-fabric" name="fabric">{fabric_options}</select>
                <label for="asbuilt-tool">"Output of"</label>
                <select id="asbuilt-tool" name="tool">
                    <option value="ibnetdiscover" selected=!lldp>"ibnetdiscover (InfiniBand)"</option>
                    <option value="lldp" selected=lldp>"an LLDP neighbour table (Ethernet)"</option>
                </select>
                <label for="asbuilt-device">"Switch of the LLDP table"</label>
                <input id="asbuilt-device" type="text" name="device" value=form.device.clone() placeholder="as the cabling sheet names it"/>
                <label for="asbuilt-output">"The output (paste it)"</label>
                <textarea id="asbuilt-output" name="output" rows="14" cols="100" spellcheck="false" inner_html=escape(&form.output)></textarea>
                <label for="asbuilt-file">"or upload it"</label>
                <input id="asbuilt-file" type="file" name="file" aria-describedby="asbuilt-file-note" accept=".txt,.log,.json,.gz,text/plain,application/json,application/gzip"/>
                <p class="note" id="asbuilt-file-note">{upload_note}</p>
                {page.editable.then(|| keep_fields(form))}
                <button type="submit" id="asbuilt-submit">"Check against the plan"</button>
            </form>
        </section>
        {shown}
        {(!page.kept.is_empty()).then(|| kept_view(page))}
    }
    .to_html();
    Page {
        status,
        html: document(&format!("As built: {title}"), body),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn switches(count: usize, short: &[usize]) -> Vec<Summary> {
        (0..count)
            .map(|i| Summary {
                name: format!("compute-leaf-{:04}", i + 1),
                as_planned: 64,
                missing: u32::from(short.contains(&i)),
                swapped: 0,
                degraded: 0,
                extra: 0,
            })
            .collect()
    }

    fn rows(html: &str) -> usize {
        html.matches("<tr").count() - 1
    }

    #[test]
    fn a_small_fabric_lists_every_switch_and_a_large_one_those_with_a_finding() {
        let small = by_switch(&switches(SWITCHES_LISTED, &[3])).to_html();
        assert_eq!(rows(&small), SWITCHES_LISTED, "{small}");

        let large = by_switch(&switches(3_984, &[7, 2_500])).to_html();
        assert_eq!(rows(&large), 2, "{large}");
        assert!(large.contains("compute-leaf-0008") && large.contains("compute-leaf-2501"));
        assert!(large.contains("2 of the 3,984 switches have a cable not as planned"));

        let clean = by_switch(&switches(3_984, &[])).to_html();
        assert!(!clean.contains("<table"), "{clean}");
        assert!(clean.contains("Each of the 3,984 switches has every cable as planned."));
    }
}
