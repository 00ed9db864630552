//! What one failure takes away: every element of every fabric that can fail on its own (a NIC
//! port or its cable, a leaf, a spine, a core switch, a rail), ranked by the GPUs it takes, with
//! each workload's time re-evaluated when it runs on degraded and when it restarts without the
//! affected nodes; and the worst of them in a sentence for the executive summary.

use super::blocks::{findings_block, heading, note, table};
use super::Block;
use crate::words::{counted, number};
use engine::failures::{Failure, WorkloadAfter};

/// Rows the table shows; the rest are counted under it.
const SHOWN: usize = 12;

const POLICIES: &str = "Two policies: a job running on degraded keeps its nodes and runs at its slowest member's bandwidth (a ring runs at its slowest link), which it cannot do with a node cut off; a job restarting without the affected nodes drops every data-parallel replica (or service replica) that holds one; the others each do the work they did, so the global batch takes longer. Alike elements (the leaves of one rail, the spines of a tier) are one row.";

/// "a leaf switch of fabric compute".
fn element(f: &Failure) -> String {
    format!("a {} of fabric {}", f.element.label(), f.fabric)
}

/// "step time 40.4 s → 40.5 s", or why it cannot run on.
fn running_on(w: &WorkloadAfter, cut_off: u32) -> String {
    match w.degraded {
        Some(t) if t == w.before => format!("“{}”: {} {t}, unchanged", w.workload, w.measure),
        Some(t) => format!("“{}”: {} {} → {t}", w.workload, w.measure, w.before),
        None => format!(
            "“{}”: cannot run on ({} cut off)",
            w.workload,
            counted(cut_off, "node", "nodes")
        ),
    }
}

fn restarting(w: &WorkloadAfter) -> String {
    match w.restarted {
        Some(t) if w.gpus_given_up == 0 => format!("“{}”: {} {t}", w.workload, w.measure),
        Some(t) if t == w.before => format!(
            "“{}”: {} {t}, unchanged, without {}",
            w.workload,
            w.measure,
            counted(w.gpus_given_up, "GPU", "GPUs")
        ),
        Some(t) => format!(
            "“{}”: {} {} → {t} without {}",
            w.workload,
            w.measure,
            w.before,
            counted(w.gpus_given_up, "GPU", "GPUs")
        ),
        None => format!(
            "“{}”: no replica left ({} affected)",
            w.workload,
            counted(w.gpus_given_up, "GPU", "GPUs")
        ),
    }
}

/// The workloads' column of one policy.
fn each(f: &Failure, line: impl Fn(&WorkloadAfter) -> String) -> String {
    if f.workloads.is_empty() {
        "no workload slowed".into()
    } else {
        f.workloads.iter().map(line).collect::<Vec<_>>().join("; ")
    }
}

/// What one power feed's loss takes, by the floor's feeds.
fn feeds(feeds: engine::Feeds) -> &'static str {
    match feeds {
        engine::Feeds::Dual => "Power: every rack has A and B feeds from independent sources, each able to carry the whole rack (the floor checks each rack's load against its budget), so one feed's loss stops nothing; a rack over its budget is a finding of the floor.",
        engine::Feeds::Single => "Power: every rack has one feed, so a feed's loss is its rack's: the floor section says what losing each rack, and each row, takes away.",
    }
}

/// What one of a node's power supplies takes, where its documentation says.
fn supplies(spec: &engine::DesignSpec) -> Option<String> {
    let node = engine::catalog::node_preset(spec.cluster.node_preset.as_deref()?)?;
    let p = node.power_supplies?;
    let spare = p.fitted - p.full_performance;
    let slower = if p.running < p.full_performance {
        format!(", and it runs, slower, on {}", p.running)
    } else {
        String::new()
    };
    Some(format!(
        "Each {} has {} power supplies, {} of them spare: losing {} keeps it at full performance{slower} ({}).",
        node.name,
        p.fitted,
        spare,
        if spare == 1 { "one".to_string() } else { format!("up to {spare}") },
        p.source
    ))
}

/// The failures section of `spec` evaluated as `report`: what power takes, the fabrics one
/// failure cuts mostly off, then the table, ranked, or a note when the design has no fabric.
pub fn failure_blocks(
    spec: &engine::DesignSpec,
    report: &engine::Report,
    failures: &[Failure],
) -> Vec<Block> {
    let mut blocks = vec![heading(1, "failures", "What one failure takes away")];
    let power = [Some(feeds(spec.floor.feeds).to_string()), supplies(spec)];
    blocks.push(note(
        power.into_iter().flatten().collect::<Vec<_>>().join(" "),
    ));
    let found = engine::failures::domain_findings(report, failures);
    if !found.is_empty() {
        blocks.push(findings_block(&found));
    }
    if failures.is_empty() {
        blocks.push(note("The design has no fabric link that can fail."));
        return blocks;
    }
    blocks.push(note(POLICIES));
    let mut t = table(
        format!(
            "Single failures, ranked by the GPUs they take: {} of {}",
            failures.len().min(SHOWN),
            failures.len()
        ),
        &[
            ("What fails", false),
            ("Alike", true),
            ("Nodes cut off", true),
            ("Nodes on fewer links", true),
            ("Links lost", false),
            ("Running on degraded", false),
            ("Restarting without the affected nodes", false),
        ],
        failures
            .iter()
            .take(SHOWN)
            .map(|f| {
                let links = f
                    .tiers
                    .iter()
                    .map(|(tier, share)| format!("{tier} {share}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                vec![
                    element(f),
                    number(f.alike),
                    number(f.nodes_cut_off),
                    number(f.nodes_degraded),
                    links,
                    each(f, |w| running_on(w, f.nodes_cut_off)),
                    each(f, restarting),
                ]
            })
            .collect(),
    );
    t.id = Some("failure-domains".into());
    blocks.push(Block::Table(t));
    if failures.len() > SHOWN {
        blocks.push(note(format!(
            "{} take less and are left out.",
            counted(
                (failures.len() - SHOWN) as u64,
                "more failure",
                "more failures"
            )
        )));
    }
    blocks
}

/// The worst single failure in a sentence, for the executive summary.
pub fn worst_failure(failures: &[Failure]) -> Option<String> {
    let f = failures.first()?;
    let reach = if f.gpus_cut_off > 0 {
        format!(
            "cuts {} ({} GPUs) off fabric {}",
            counted(f.nodes_cut_off, "node", "nodes"),
            number(f.gpus_cut_off),
            f.fabric
        )
    } else if f.nodes_degraded > 0 {
        format!(
            "cuts no node off; it leaves {} on fewer links of fabric {}",
            counted(f.nodes_degraded, "node", "nodes"),
            f.fabric
        )
    } else {
        "cuts no node off and leaves every node its links".to_string()
    };
    let workloads = if f.workloads.is_empty() {
        " No workload slows.".to_string()
    } else {
        format!(
            " Running on degraded, {}. Restarting without the affected nodes, {}.",
            each(f, |w| running_on(w, f.nodes_cut_off)),
            each(f, restarting)
        )
    };
    let alike = if f.alike > 1 {
        format!(" (any of {} alike)", f.alike)
    } else {
        String::new()
    };
    Some(format!(
        "The worst single failure is {}{alike}: it {reach}.{workloads}",
        element(f)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The training example's table: a compute leaf leaves its 16 nodes on 7 of 8 rails, and
    /// the job runs on a little slower or has no replica left to restart on.
    #[test]
    fn a_rail_optimised_leaf_row_reads_as_its_rail_lost_not_its_nodes() {
        let spec = engine::DesignSpec::from_json(engine::examples::SEVENTY_B_TRAINING).unwrap();
        let report = engine::evaluate(&spec).unwrap();
        let failures = engine::failures::failures(&spec, &report);
        let blocks = failure_blocks(&spec, &report, &failures);
        let table = blocks
            .iter()
            .find_map(|b| match b {
                Block::Table(t) if t.id.as_deref() == Some("failure-domains") => Some(t),
                _ => None,
            })
            .expect("the failures table");
        let leaf = table
            .rows
            .iter()
            .find(|r| r[0] == "a leaf switch of fabric compute")
            .expect("a compute leaf row");
        assert_eq!(
            &leaf[1..5],
            ["8", "0", "16", "node-leaf 12 %, leaf-spine 12 %"]
        );
        assert!(
            leaf[5].starts_with("“Llama 3 70B pre-training”: step time 40.4 s → "),
            "{}",
            leaf[5]
        );
        assert_eq!(
            leaf[6],
            "“Llama 3 70B pre-training”: no replica left (128 GPUs affected)"
        );
        let worst = worst_failure(&failures).unwrap();
        assert!(
            worst.starts_with("The worst single failure is a leaf switch of fabric storage: it cuts 16 nodes (128 GPUs) off fabric storage."),
            "{worst}"
        );
    }
}

#[cfg(test)]
mod power {
    use super::*;

    /// A design of DGX H100 nodes says what losing a node's power supply takes, from its user
    /// guide; a node of no documented supplies says nothing of them.
    #[test]
    fn a_dgx_s_power_supplies_are_stated_from_its_user_guide() {
        let spec = engine::DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap();
        assert_eq!(
            supplies(&spec).unwrap(),
            "Each NVIDIA DGX H100 (8× H100, 8× ConnectX-7 NDR) has 6 power supplies, 2 of them spare: losing up to 2 keeps it at full performance, and it runs, slower, on 3 (NVIDIA DGX H100/H200 User Guide: six power supplies, 4+2; it runs, at reduced performance, on 3)."
        );
        let mut other = spec.clone();
        other.cluster.node_preset = Some("hgx-a100".into());
        assert_eq!(supplies(&other), None);
    }
}
