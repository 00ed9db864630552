//! Rules of the growth phases: at least two, each larger than the one before, the last the
//! design itself, dated in order.

use super::{entry, At, Checker};
use crate::spec::DesignSpec;

/// Phases in one design: a phase a quarter over four years is 16.
pub const MAX_PHASES: usize = 16;

pub(super) fn growth(check: &mut Checker, spec: &DesignSpec) {
    let Some(growth) = &spec.growth else {
        return;
    };
    let phases = &growth.phases;
    if phases.len() < 2 {
        check.fail(
            "growth.phases",
            "must list at least two phases: the first installed and the final, which is the design",
        );
        return;
    }
    check.at_most("growth.phases", phases.len(), MAX_PHASES, "phases");
    let last = phases.len() - 1;
    let mut date_before: Option<&str> = None;
    for (i, phase) in phases.iter().enumerate() {
        let at = entry("growth.phases", i);
        check.name(At(&at, "label"), &phase.label);
        let nodes = At(&at, "nodes");
        if phase.nodes == 0 {
            check.fail(nodes, "must be at least 1");
        } else if phase.nodes > spec.cluster.nodes {
            check.fail(
                nodes,
                format!(
                    "must be at most the final phase's {} nodes (the cluster's)",
                    spec.cluster.nodes
                ),
            );
        } else if i == last && phase.nodes != spec.cluster.nodes {
            check.fail(
                nodes,
                format!(
                    "the final phase is the design: it must have the cluster's {} nodes",
                    spec.cluster.nodes
                ),
            );
        } else if i > 0 && phase.nodes <= phases[i - 1].nodes {
            check.fail(
                nodes,
                format!(
                    "must be more than the {} nodes of the phase before: phases do not shrink",
                    phases[i - 1].nodes
                ),
            );
        }
        if let Some(date) = phase.date.as_deref() {
            if !is_date(date) {
                check.fail(
                    At(&at, "date"),
                    "must be a date written YYYY-MM or YYYY-MM-DD",
                );
            } else {
                if date_before.is_some_and(|before| date < before) {
                    check.fail(
                        At(&at, "date"),
                        "must not be before the date of an earlier phase",
                    );
                }
                date_before = Some(date);
            }
        }
    }
}

/// `YYYY-MM` or `YYYY-MM-DD`, with a month and a day that can exist.
pub(super) fn is_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let number = |s: &str, digits: usize, most: u32| {
        s.len() == digits
            && s.bytes().all(|b| b.is_ascii_digit())
            && s.parse::<u32>().is_ok_and(|n| (1..=most).contains(&n))
    };
    match parts[..] {
        [y, m] => number(y, 4, 9999) && number(m, 2, 12),
        [y, m, d] => number(y, 4, 9999) && number(m, 2, 12) && number(d, 2, 31),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_are_a_year_and_month_or_a_whole_day() {
        for good in ["2027-01", "2027-12-31"] {
            assert!(super::is_date(good), "{good}");
        }
        for bad in [
            "2027",
            "2027-13",
            "2027-1",
            "27-01",
            "2027-01-32",
            "2027-01-01-01",
            "２０２７-01",
        ] {
            assert!(!super::is_date(bad), "{bad}");
        }
    }
}
