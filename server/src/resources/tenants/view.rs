//! A design's tenants: where each runs, its partition, how much the others slow it and what its
//! isolation costs (the report's tenants section), and, for the browser holding the edit key, the
//! form that lists them (a row per tenant and a blank row to add one), whose save is the
//! design's next revision.

use app::pages::document::{document, Page};
use app::store::DesignHead;
use engine::{DesignSpec, FieldError, Isolation, Tenant};
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// The form's field names for row `i`.
pub fn field(name: &str, i: usize) -> String {
    format!("{name}.{i}")
}

/// The tenants the form's fields (`name.N`, `workload.N` once per workload, `nodes.N`,
/// `isolation.N`, `first_unit.N`, `remove.N`) list, in row order, rows with no name left out.
/// A number that does not read is an error naming its row's field.
pub fn read_form(fields: &[(String, String)]) -> Result<Vec<Tenant>, Vec<FieldError>> {
    let mut rows: std::collections::BTreeMap<usize, (Tenant, bool)> = Default::default();
    let mut errors = Vec::new();
    for (key, value) in fields {
        let Some((name, row)) = key.split_once('.') else {
            continue;
        };
        let Ok(row) = row.parse::<usize>() else {
            continue;
        };
        // A row per tenant a design may have, and the blank one.
        if row > engine::MAX_TENANTS {
            continue;
        }
        let (t, removed) = rows.entry(row).or_insert_with(|| {
            (
                Tenant {
                    name: String::new(),
                    workloads: Vec::new(),
                    nodes: None,
                    isolation: Isolation::default(),
                    first_unit: None,
                },
                false,
            )
        });
        let value = value.trim();
        let number = |errors: &mut Vec<FieldError>, what: &str| -> Option<u32> {
            if value.is_empty() {
                return None;
            }
            value.parse().map_or_else(
                |_| {
                    errors.push(FieldError::new(
                        format!("tenants[{row}].{what}"),
                        "must be a whole number",
                    ));
                    None
                },
                Some,
            )
        };
        match name {
            "name" => t.name = value.to_string(),
            "workload" if !value.is_empty() => t.workloads.push(value.to_string()),
            "nodes" => t.nodes = number(&mut errors, "nodes"),
            "first_unit" => t.first_unit = number(&mut errors, "first_unit"),
            "isolation" => match app::labels::ISOLATIONS.iter().find(|(_, v)| *v == value) {
                Some((level, _)) => t.isolation = *level,
                None => errors.push(FieldError::new(
                    format!("tenants[{row}].isolation"),
                    "must be shared, node, scalable_unit or fabric",
                )),
            },
            "remove" => *removed = true,
            _ => {}
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(rows
        .into_values()
        .filter(|(t, removed)| !removed && !t.name.is_empty())
        .map(|(t, _)| t)
        .collect())
}

/// The tenants page of design `head`, whose newest revision is `spec` evaluated on its floor
/// as `placed`; `rows` are what the form shows (the spec's tenants, or what was sent back
/// with `errors`).
pub fn tenants_page(
    head: &DesignHead,
    spec: &DesignSpec,
    placed: Option<&engine::PlacedReport>,
    rows: &[Tenant],
    errors: &[FieldError],
    editable: bool,
) -> Page {
    let id = head.id.clone();
    // The tenants' placement and costs, when there are tenants to place: no empty panel.
    let section = placed.and_then(|placed| {
        let r = &placed.report;
        let blocks = app::report::tenant_blocks(spec, r, &r.interference, &placed.floor);
        (!blocks.is_empty()).then(|| {
            view! { <section class="panel report">{app::blocks::html::blocks_view(&blocks)}</section> }
        })
    });
    let none = rows.is_empty().then(|| {
        view! { <p class="note" id="no-tenants">"The design has one tenant: every node and workload is shared. List the teams or customers that share it to place each, give each its partition and see how much they slow each other."</p> }
    });
    let errors_view = (!errors.is_empty()).then(|| {
        // Each error in the form's words, its tenant named as the form sent it.
        let sent = DesignSpec {
            tenants: rows.to_vec(),
            ..spec.clone()
        };
        let items = errors
            .iter()
            .map(|e| view! { <li>{app::labels::describe(&sent, e)}</li> })
            .collect_view();
        view! { <div class="save-error" id="tenants-errors" role="alert"><p>"Nothing was stored:"</p><ul>{items}</ul></div> }
    });
    let form = editable.then(|| form_view(&id, head.latest_revision, spec, rows));
    let body = view! {
        <section class="panel" aria-labelledby="tenants-heading">
            <h1 id="tenants-heading">{format!("Tenants of “{}”", head.title)}</h1>
            <p class="meta"><a href=format!("/d/{id}")>"Back to the design"</a></p>
            {none}
            {errors_view}
            {form}
        </section>
        {section}
    }
    .to_html();
    Page::ok(document(&format!("Tenants of {}", head.title), body))
}

fn form_view(id: &str, latest: u32, spec: &DesignSpec, rows: &[Tenant]) -> AnyView {
    let blank = Tenant {
        name: String::new(),
        workloads: Vec::new(),
        nodes: None,
        isolation: Isolation::default(),
        first_unit: None,
    };
    let workloads: Vec<String> = spec
        .workloads
        .iter()
        .filter(|w| w.takes_nodes())
        .map(|w| w.name().to_string())
        .collect();
    let row_views = rows
        .iter()
        .chain(std::iter::once(&blank))
        .enumerate()
        .map(|(i, t)| row_view(i, t, &workloads, i == rows.len()))
        .collect_view();
    view! {
        <form method="post" action=format!("/d/{id}/tenants") id="tenants-form">
            <table class="data" id="tenants-table">
                <thead><tr><th>"Name"</th><th>"Workloads"</th><th>"Nodes"</th><th>"Isolation"</th><th>"First unit"</th><th>"Remove"</th></tr></thead>
                <tbody>{row_views}</tbody>
            </table>
            <p class="help">"Name: at most 15 lower-case letters, digits and hyphens, and none the switches, Slurm or Kubernetes already use (default, mgmt, kube-…, lo, swp1): it names the tenant's Slurm partition, Kubernetes namespace, VRF and partition key. Nodes: by default those its workloads take. First unit: the scalable unit, from 1, to pin it to."</p>
            <button type="submit" class="primary" id="tenants-save">{format!("Save as revision {}", latest + 1)}</button>
        </form>
    }
    .into_any()
}

fn row_view(i: usize, t: &Tenant, workloads: &[String], new: bool) -> impl IntoView {
    let number = |n: Option<u32>| n.map(|n| n.to_string()).unwrap_or_default();
    let checks = workloads
        .iter()
        .enumerate()
        .map(|(j, w)| {
            let id = format!("tenant-{i}-workload-{j}");
            let label_for = id.clone();
            view! {
                <label for=label_for>
                    <input type="checkbox" id=id name=field("workload", i) value=w.clone() checked=t.workloads.contains(w)/>
                    {format!(" {w}")}
                </label>
                <br/>
            }
        })
        .collect_view();
    let options = app::labels::ISOLATIONS
        .iter()
        .map(|(level, value)| {
            view! { <option value=*value selected=*level == t.isolation>{level.label()}</option> }
        })
        .collect_view();
    let remove = (!new).then(|| {
        view! { <input type="checkbox" id=format!("tenant-{i}-remove") name=field("remove", i) value="1" aria-label="Remove"/> }
    });
    view! {
        <tr>
            <td><input type="text" id=format!("tenant-{i}-name") name=field("name", i) value=t.name.clone() aria-label="Name" maxlength="15"/></td>
            <td>{checks}</td>
            <td><input type="number" id=format!("tenant-{i}-nodes") name=field("nodes", i) value=number(t.nodes) min="1" aria-label="Nodes"/></td>
            <td><select id=format!("tenant-{i}-isolation") name=field("isolation", i) aria-label="Isolation">{options}</select></td>
            <td><input type="number" id=format!("tenant-{i}-first-unit") name=field("first_unit", i) value=number(t.first_unit) min="1" aria-label="First unit"/></td>
            <td>{remove}</td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn the_form_reads_rows_in_order_leaving_out_blank_and_removed_ones() {
        let tenants = read_form(&pairs(&[
            ("name.0", "research"),
            ("workload.0", "pretrain"),
            ("workload.0", "eval"),
            ("isolation.0", "scalable_unit"),
            ("nodes.0", ""),
            ("name.1", "gone"),
            ("remove.1", "1"),
            ("name.2", "guests"),
            ("nodes.2", "8"),
            ("isolation.2", "shared"),
            ("first_unit.2", "3"),
            ("name.3", ""),
        ]))
        .unwrap();
        assert_eq!(tenants.len(), 2);
        assert_eq!(tenants[0].workloads, ["pretrain", "eval"]);
        assert_eq!(tenants[0].isolation, Isolation::ScalableUnit);
        assert_eq!(
            (tenants[1].nodes, tenants[1].first_unit),
            (Some(8), Some(3))
        );
    }

    #[test]
    fn a_number_or_a_level_that_does_not_read_names_its_field() {
        let errors = read_form(&pairs(&[
            ("name.0", "a"),
            ("nodes.0", "many"),
            ("isolation.0", "vlan"),
        ]))
        .unwrap_err();
        let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["tenants[0].nodes", "tenants[0].isolation"]);
    }
}
