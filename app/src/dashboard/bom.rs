use crate::money::{usd, watts};
use engine::BomLine;
use leptos::prelude::*;

/// What a marked line means, under every bill of materials.
pub const ESTIMATE_NOTE: &str = "* Catalog estimate: no public price or power figure was found. Enter your quote in the Prices and calibration step.";

/// A line's item as the tables show it: estimates marked with *, quotes said to be quoted.
pub fn item_text(line: &BomLine) -> String {
    match line.basis() {
        engine::Basis::Estimate => format!("{} *", line.description),
        engine::Basis::Quoted => format!("{} (quoted)", line.description),
        engine::Basis::Catalog => line.description.clone(),
    }
}

/// The bill of materials of one fabric, with its totals; estimates are marked.
#[component]
pub fn BomTable(lines: Vec<BomLine>, fabric: String) -> AnyView {
    let total: f64 = lines.iter().map(|l| l.total_usd).sum();
    let power: f64 = lines.iter().map(|l| l.total_power_w).sum();
    let any_estimate = lines.iter().any(|l| l.basis() == engine::Basis::Estimate);
    let rows = lines
        .into_iter()
        .map(|l| {
            view! {
                <tr>
                    <td>{item_text(&l)}</td>
                    <td class="num">{l.quantity}</td>
                    <td class="num">{usd(l.unit_price_usd)}</td>
                    <td class="num">{usd(l.total_usd)}</td>
                    <td class="num">{watts(l.total_power_w)}</td>
                    <td class="source">{l.source_text()}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="bom">
            <caption>{format!("Bill of materials, fabric {fabric}")}</caption>
            <thead>
                <tr><th scope="col">"Item"</th><th scope="col" class="num">"Qty"</th><th scope="col" class="num">"Unit price"</th><th scope="col" class="num">"Total"</th><th scope="col" class="num">"Power"</th><th scope="col">"Source"</th></tr>
            </thead>
            <tbody>{rows}</tbody>
            <tfoot>
                <tr><th scope="row">"Total"</th><td></td><td></td><td class="num bom-total">{usd(total)}</td><td class="num">{watts(power)}</td><td></td></tr>
            </tfoot>
        </table>
        {any_estimate.then(|| view! { <p class="note">{ESTIMATE_NOTE}</p> })}
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    #[test]
    fn money_is_grouped_in_thousands() {
        assert_eq!(super::usd(4_108_040.4), "$4,108,040");
        assert_eq!(super::usd(950.0), "$950");
    }
}
