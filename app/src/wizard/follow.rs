//! Values derived from another field follow it until the user sets them otherwise: a training
//! job that used the whole cluster keeps using it when the cluster grows, and a storage
//! workload that read one global batch per step keeps reading the training job's batch. A value
//! the user changed to something else is theirs and stays.

use engine::{DesignSpec, Workload};

fn cluster_gpus(spec: &DesignSpec) -> u64 {
    u64::from(spec.cluster.nodes) * u64::from(spec.cluster.gpus_per_node)
}

/// Applies `change` (to the cluster's size); data parallelism that filled the cluster before
/// fills it after, where the new size divides evenly.
pub fn cluster_change(spec: &mut DesignSpec, change: impl FnOnce(&mut DesignSpec)) {
    let before = cluster_gpus(spec);
    change(spec);
    // The final phase is the design: it follows the cluster's nodes.
    let nodes = spec.cluster.nodes;
    if let Some(last) = spec.growth.as_mut().and_then(|g| g.phases.last_mut()) {
        last.nodes = nodes;
    }
    let after = cluster_gpus(spec);
    if before == after {
        return;
    }
    for workload in &mut spec.workloads {
        if let Workload::Training(t) = workload {
            let p = &mut t.parallelism;
            let model_parallel = u64::from(p.tp) * u64::from(p.pp);
            let filled = u64::from(p.dp) * model_parallel == before;
            if filled
                && model_parallel > 0
                && after >= model_parallel
                && after.is_multiple_of(model_parallel)
            {
                if let Ok(dp) = u32::try_from(after / model_parallel) {
                    p.dp = dp;
                }
            }
        }
    }
}

/// Sets the global batch of training workload `i`; storage workloads that read the old batch
/// per step read the new one.
pub fn global_batch(spec: &mut DesignSpec, i: usize, batch: u32) {
    let Some(Workload::Training(t)) = spec.workloads.get_mut(i) else {
        return;
    };
    let before = f64::from(t.global_batch);
    t.global_batch = batch;
    for workload in &mut spec.workloads {
        if let Workload::Storage(s) = workload {
            if s.samples_per_step == before {
                s.samples_per_step = f64::from(batch);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::templates::first_design;

    fn training(spec: &DesignSpec) -> &engine::Training {
        match &spec.workloads[0] {
            Workload::Training(t) => t,
            _ => panic!("the first design trains first"),
        }
    }

    #[test]
    fn a_job_that_filled_the_cluster_follows_it_when_it_grows_to_64_nodes() {
        let mut spec = first_design();
        assert_eq!(training(&spec).parallelism.dp, 16);
        cluster_change(&mut spec, |s| s.cluster.nodes = 64);
        assert_eq!(
            training(&spec).parallelism.dp,
            64,
            "64 nodes × 8 GPUs ÷ TP 8"
        );
    }

    #[test]
    fn a_job_the_user_sized_on_part_of_the_cluster_stays_as_it_is() {
        let mut spec = first_design();
        if let Workload::Training(t) = &mut spec.workloads[0] {
            t.parallelism.dp = 4;
        }
        cluster_change(&mut spec, |s| s.cluster.nodes = 64);
        assert_eq!(training(&spec).parallelism.dp, 4);
    }

    #[test]
    fn storage_reads_the_training_batch_it_was_reading_until_set_otherwise() {
        let mut spec = first_design();
        global_batch(&mut spec, 0, 1024);
        let Workload::Storage(s) = &spec.workloads[1] else {
            panic!("storage second")
        };
        assert_eq!(s.samples_per_step, 1024.0);
    }
}
