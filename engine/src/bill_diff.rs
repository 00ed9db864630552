//! What changes in the bill to order from one design (or revision, or phase) to another: each
//! item of each fabric added, removed, or changed in quantity or price, with the cost and power
//! it adds or takes away. The bills are those the reports order (as placed on their floors), so
//! the deltas add up to the difference of their headline costs.

pub use crate::report::growth::{BillDiff, Change, ItemChange};
use crate::report::{BomLine, FabricReport, Report};
use crate::units::{Usd, Watts};
use std::collections::BTreeMap;

impl Change {
    pub fn label(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Changed => "changed",
        }
    }
}

/// Each fabric's bill lines by (fabric, item).
fn lines(fabrics: &[FabricReport]) -> BTreeMap<(&str, &str), &BomLine> {
    fabrics
        .iter()
        .flat_map(|f| {
            f.bom
                .iter()
                .map(move |l| ((f.name.as_str(), l.item.as_str()), l))
        })
        .collect()
}

/// What changes in the bill from `before` to `after`.
pub fn bill_diff(before: &Report, after: &Report) -> BillDiff {
    fabrics_diff(&before.fabrics, &after.fabrics)
}

/// What changes in the bill from the fabrics `before` to the fabrics `after` (from none, for
/// what a first phase buys).
pub(crate) fn fabrics_diff(before: &[FabricReport], after: &[FabricReport]) -> BillDiff {
    let (a, b) = (lines(before), lines(after));
    let mut keys: Vec<(&str, &str)> = a.keys().chain(b.keys()).copied().collect();
    keys.sort_unstable();
    keys.dedup();
    let mut items: Vec<ItemChange> = keys
        .into_iter()
        .filter_map(|key| {
            let (was, is) = (a.get(&key), b.get(&key));
            let (change, description) = match (was, is) {
                (None, Some(l)) => (Change::Added, &l.description),
                (Some(l), None) => (Change::Removed, &l.description),
                (Some(x), Some(y))
                    if x.total_usd != y.total_usd
                        || x.total_power_w != y.total_power_w
                        || x.quantity != y.quantity =>
                {
                    (Change::Changed, &y.description)
                }
                _ => return None,
            };
            let cost = |l: Option<&&BomLine>| l.map_or(0.0, |l| l.total_usd.dollars());
            let power = |l: Option<&&BomLine>| l.map_or(0.0, |l| l.total_power_w.watts());
            Some(ItemChange {
                fabric: key.0.to_string(),
                item: key.1.to_string(),
                description: description.clone(),
                change,
                quantity_before: was.map_or(0, |l| l.quantity),
                quantity_after: is.map_or(0, |l| l.quantity),
                cost_delta: Usd::new(cost(is) - cost(was)),
                power_delta: Watts::new(power(is) - power(was)),
            })
        })
        .collect();
    items.sort_by(|x, y| {
        y.cost_delta
            .dollars()
            .abs()
            .total_cmp(&x.cost_delta.dollars().abs())
            .then_with(|| (&x.fabric, &x.item).cmp(&(&y.fabric, &y.item)))
    });
    let total = |fabrics: &[FabricReport]| {
        fabrics
            .iter()
            .flat_map(|f| &f.bom)
            .map(|l| (l.total_usd.dollars(), l.total_power_w.watts()))
            .fold((0.0, 0.0), |(c, p), (x, y)| (c + x, p + y))
    };
    let ((cost_before, power_before), (cost_after, power_after)) = (total(before), total(after));
    BillDiff {
        items,
        cost_before: Usd::new(cost_before),
        cost_after: Usd::new(cost_after),
        cost_delta: Usd::new(cost_after - cost_before),
        power_delta: Watts::new(power_after - power_before),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DesignSpec;

    fn report(nodes: u32) -> Report {
        let mut spec = DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap();
        spec.cluster.nodes = nodes;
        for w in &mut spec.workloads {
            if let crate::Workload::Training(t) = w {
                t.parallelism.dp = nodes * 8 / (t.parallelism.tp * t.parallelism.pp);
                t.global_batch = t.parallelism.dp * t.micro_batch * 16;
            }
        }
        crate::evaluate(&spec).unwrap()
    }

    /// Growing the training example from 16 to 32 nodes adds switches, cables and optics: the
    /// items' deltas add up to the difference of the two bills to order, which is the
    /// difference of the headline network costs.
    #[test]
    fn the_changes_add_up_to_the_difference_of_the_bills_to_order() {
        let (before, after) = (report(16), report(32));
        let diff = bill_diff(&before, &after);
        let summed: f64 = diff.items.iter().map(|i| i.cost_delta.dollars()).sum();
        assert!((summed - diff.cost_delta.dollars()).abs() < 1e-6);
        let headline = after.network().cost_usd.dollars() - before.network().cost_usd.dollars();
        assert!(
            (diff.cost_delta.dollars() - headline).abs() < 1e-6,
            "{} against {headline}",
            diff.cost_delta.dollars()
        );
        assert!(diff.cost_delta.dollars() > 0.0);
        assert!(diff
            .items
            .iter()
            .any(|i| i.item.starts_with("switch:") && i.quantity_after > i.quantity_before));
        assert!(diff
            .items
            .windows(2)
            .all(|w| w[0].cost_delta.dollars().abs() >= w[1].cost_delta.dollars().abs()));
    }

    /// A bill compared with itself has nothing to order.
    #[test]
    fn the_same_bill_changes_nothing() {
        let r = report(16);
        let diff = bill_diff(&r, &r);
        assert!(diff.items.is_empty());
        assert_eq!(diff.cost_delta, Usd::new(0.0));
    }

    /// Taking a fabric away removes every line of it.
    #[test]
    fn a_fabric_taken_away_removes_its_lines() {
        let before = report(16);
        let mut after = before.clone();
        let gone = after.fabrics.remove(1);
        let diff = bill_diff(&before, &after);
        assert_eq!(diff.items.len(), gone.bom.len());
        assert!(diff
            .items
            .iter()
            .all(|i| i.change == Change::Removed && i.quantity_after == 0));
    }
}
