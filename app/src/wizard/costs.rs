//! Step 4: the design's own prices and power per item (quotes), and the calibration of the
//! network model, each beside the catalog figure it replaces and that figure's source.

use crate::editor::{field_id, Editor};
use crate::fields::{parse, show, Kind, NumInput};
use engine::{BomLine, CatalogOverride, DesignSpec, CALIBRATION_FIELDS};
use leptos::prelude::*;

/// Which figure of an item a quote gives.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quoted {
    Price,
    Power,
}

impl Quoted {
    fn field(self) -> &'static str {
        match self {
            Quoted::Price => "unit_price_usd",
            Quoted::Power => "power_w",
        }
    }

    fn of(self, o: &CatalogOverride) -> Option<f64> {
        match self {
            Quoted::Price => o.unit_price_usd.map(|p| p.dollars()),
            Quoted::Power => o.power_w.map(|w| w.watts()),
        }
    }
}

/// Sets (or with `None`, clears) the design's own figure for `item`; an item with neither
/// figure left has no override.
fn set_quote(spec: &mut DesignSpec, item: &str, quoted: Quoted, value: Option<f64>) {
    let at = match spec.overrides.iter().position(|o| o.item == item) {
        Some(at) => at,
        None if value.is_none() => return,
        None => {
            spec.overrides.push(CatalogOverride {
                item: item.to_string(),
                unit_price_usd: None,
                power_w: None,
            });
            spec.overrides.len() - 1
        }
    };
    let o = &mut spec.overrides[at];
    match quoted {
        Quoted::Price => o.unit_price_usd = value.map(engine::Usd::new),
        Quoted::Power => o.power_w = value.map(engine::Watts::new),
    }
    if o.unit_price_usd.is_none() && o.power_w.is_none() {
        spec.overrides.remove(at);
    }
}

/// An item of the bill of materials as the catalog has it: what does not change when a quote
/// is typed, so that the table keeps its inputs (and their focus) meanwhile.
#[derive(Clone, PartialEq)]
struct CatalogItem {
    item: String,
    description: String,
    price_usd: f64,
    power_w: f64,
    source: String,
}

/// The items of every fabric's bill of materials, each once.
fn items<'a>(lines: impl Iterator<Item = &'a BomLine>) -> Vec<CatalogItem> {
    let mut out: Vec<CatalogItem> = Vec::new();
    for line in lines {
        if !out.iter().any(|o| o.item == line.item) {
            out.push(CatalogItem {
                item: line.item.clone(),
                description: line.description.clone(),
                price_usd: line.catalog_unit_price_usd.dollars(),
                power_w: line.catalog_unit_power_w.watts(),
                source: if line.estimate && !line.source.starts_with("estimate") {
                    format!("{} (estimate)", line.source)
                } else {
                    line.source.to_string()
                },
            });
        }
    }
    out
}

/// The design's own figure for one item: empty keeps the catalog's.
#[component]
fn QuoteInput(item: String, quoted: Quoted, label: String) -> impl IntoView {
    let editor = Editor::get();
    let id = format!(
        "quote-{}-{}",
        field_id(&item.replace(':', "-")),
        quoted.field()
    );
    let current = {
        let item = item.clone();
        move || {
            editor.spec.with(|s| {
                s.overrides
                    .iter()
                    .find(|o| o.item == item)
                    .and_then(|o| quoted.of(o))
            })
        }
    };
    let text = RwSignal::new(current().map(show).unwrap_or_default());
    // The engine's path for this figure: where its errors are filed.
    let path = {
        let item = item.clone();
        move || {
            let at = editor.spec.with(|s| {
                s.overrides
                    .iter()
                    .position(|o| o.item == item)
                    .unwrap_or(s.overrides.len())
            });
            format!("overrides[{at}].{}", quoted.field())
        }
    };
    let error = {
        let path = path.clone();
        // The path is read from the design, so only while some field shows a message.
        Signal::derive(move || {
            editor
                .shows_any_error()
                .then(&path)
                .and_then(|path| editor.error_at(&path))
        })
    };
    let error_id = format!("{id}-error");
    let input_id = id.clone();
    view! {
        <input id=input_id type="text" inputmode="decimal" autocomplete="off" class="quote"
            aria-label=label
            aria-describedby=error_id.clone()
            aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
            placeholder="catalog"
            prop:value=move || text.get()
            on:input=move |ev| {
                let typed = event_target_value(&ev);
                text.set(typed.clone());
                match parse(&typed, Kind::Number, true) {
                    Ok(value) => {
                        editor.set_unparsed(&path(), None);
                        let item = item.clone();
                        editor.update(move |s| set_quote(s, &item, quoted, value));
                    }
                    Err(reason) => editor.set_unparsed(&path(), Some(reason)),
                }
            }/>
        <span class="field-error" id=error_id role="alert">{move || error.get()}</span>
    }
}

/// A row of the quotes table: the item, its catalog price and power with their source, and the
/// design's own.
fn quote_row(line: CatalogItem) -> impl IntoView {
    view! {
        <tbody class="quote-item">
            <tr>
                <th scope="rowgroup" colspan="4">{line.description.clone()}<span class="source">{line.source.clone()}</span></th>
            </tr>
            <tr>
                <td class="num">{crate::money::usd(engine::Usd::new(line.price_usd))}</td>
                <td><QuoteInput item=line.item.clone() quoted=Quoted::Price label=format!("Your unit price of {}, USD", line.description)/></td>
                <td class="num">{crate::money::watts(engine::Watts::new(line.power_w))}</td>
                <td><QuoteInput item=line.item.clone() quoted=Quoted::Power label=format!("Your power per unit of {}, W", line.description)/></td>
            </tr>
        </tbody>
    }
}

#[component]
pub fn CostsStep() -> AnyView {
    let editor = Editor::get();
    // The items of the last valid design: a quote being typed does not empty the table.
    let lines = Memo::new(move |previous: Option<&Vec<CatalogItem>>| {
        editor.evaluation.with(|e| match e {
            Ok(report) => items(report.fabrics.iter().flat_map(|f| f.bom.iter())),
            Err(_) => previous.cloned().unwrap_or_default(),
        })
    });
    // A row per item; its inputs keep their text while the table follows the design.
    let quotes = move || lines.get().into_iter().map(quote_row).collect_view();
    let calibration = CALIBRATION_FIELDS
        .iter()
        .map(|f| {
            let value = Signal::derive(move || Some(editor.spec.with(|s| (f.get)(&s.calibration))));
            let set = Callback::new(move |v: Option<f64>| {
                if let Some(v) = v {
                    editor.update(|s| (f.set)(&mut s.calibration, v));
                }
            });
            let help = format!(
                "catalog: {} {}; {}{}",
                show(f.default_value()),
                f.unit,
                f.source,
                if f.estimate { " (estimate)" } else { "" }
            );
            view! { <NumInput path=format!("calibration.{}", f.field) label=f.label help value set/> }
        })
        .collect_view();
    view! {
        <p class="help">"Your quotes replace the catalog's prices and power: the bill of materials, the report and the spreadsheets mark them quoted. Leave a field empty to keep the catalog's figure."</p>
        <h3>"Prices and power"</h3>
        <div class="table-scroll">
            <table class="quotes" id="quotes">
                <thead><tr><th scope="col" class="num">"Catalog price"</th><th scope="col">"Your price, USD"</th><th scope="col" class="num">"Catalog power"</th><th scope="col">"Your power, W"</th></tr></thead>
                {quotes}
            </table>
        </div>
        <h3>"Calibration"</h3>
        <p class="help">"Achievable share of line rate and latencies, from published measurements; set your own from nccl-tests on your hardware."</p>
        <div class="field-row">{calibration}</div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_is_added_changed_and_removed_with_its_last_figure() {
        let mut spec = crate::templates::first_design();
        set_quote(&mut spec, "switch:qm9700", Quoted::Price, Some(25_000.0));
        set_quote(&mut spec, "switch:qm9700", Quoted::Power, Some(900.0));
        assert_eq!(spec.overrides.len(), 1);
        assert_eq!(
            spec.overrides[0].unit_price_usd,
            Some(engine::Usd::new(25_000.0))
        );
        set_quote(&mut spec, "switch:qm9700", Quoted::Price, None);
        assert_eq!(spec.overrides.len(), 1, "power is still quoted");
        set_quote(&mut spec, "switch:qm9700", Quoted::Power, None);
        assert!(spec.overrides.is_empty());
    }
}
