//! How workloads are spread over fabrics: as designed, all on one shared fabric, or on
//! separate compute, inference and storage fabrics (seed C7, C12).

use super::request::Arrangement;
use crate::spec::{DesignSpec, Fabric, Role, Workload};

fn set_fabric(w: &mut Workload, name: &str) {
    let fabric = match w {
        Workload::Training(x) => &mut x.fabric,
        Workload::Inference(x) => &mut x.fabric,
        Workload::Rag(x) => &mut x.fabric,
        Workload::Storage(x) => &mut x.fabric,
    };
    *fabric = name.to_string();
}

/// `base` with its workloads spread over fabrics as `arrangement` says.
pub(crate) fn arrange(base: &DesignSpec, arrangement: Arrangement) -> DesignSpec {
    let mut spec = base.clone();
    match arrangement {
        Arrangement::AsDesigned => {}
        Arrangement::Shared => {
            let Some(shared) = base
                .fabrics
                .iter()
                .find(|f| f.role == Role::Compute)
                .or_else(|| base.fabrics.first())
            else {
                return spec;
            };
            for w in &mut spec.workloads {
                set_fabric(w, &shared.name);
            }
            spec.fabrics = vec![shared.clone()];
        }
        Arrangement::Separate => {
            let mut fabrics: Vec<Fabric> = Vec::new();
            for role in [Role::Compute, Role::Inference, Role::Storage] {
                let carried: Vec<usize> = (0..spec.workloads.len())
                    .filter(|&i| role_of(&spec.workloads[i]) == role)
                    .collect();
                let Some(&first) = carried.first() else {
                    continue;
                };
                let fabric = match base.fabrics.iter().find(|f| f.role == role) {
                    Some(f) => f.clone(),
                    None => {
                        // No fabric of this role yet: start from the one the workload uses.
                        let from = base
                            .fabric(base.workloads[first].fabric())
                            .or_else(|| base.fabrics.first());
                        let Some(from) = from else { continue };
                        let mut f = from.clone();
                        f.role = role;
                        f.ports_per_node = None;
                        f.name = unique_name(base, &fabrics, role.label());
                        f
                    }
                };
                for &i in &carried {
                    set_fabric(&mut spec.workloads[i], &fabric.name);
                }
                fabrics.push(fabric);
            }
            if !fabrics.is_empty() {
                spec.fabrics = fabrics;
            }
        }
    }
    spec
}

fn role_of(w: &Workload) -> Role {
    match w {
        Workload::Training(_) => Role::Compute,
        Workload::Inference(_) | Workload::Rag(_) => Role::Inference,
        Workload::Storage(_) => Role::Storage,
    }
}

fn unique_name(base: &DesignSpec, taken: &[Fabric], wanted: &str) -> String {
    let free =
        |n: &str| !base.fabrics.iter().any(|f| f.name == n) && !taken.iter().any(|f| f.name == n);
    if free(wanted) {
        return wanted.to_string();
    }
    (2..)
        .map(|i| format!("{wanted}-{i}"))
        .find(|n| free(n))
        .unwrap_or_else(|| wanted.to_string())
}
