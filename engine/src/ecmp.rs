//! Ethernet multipath: how much of a leaf's uplink bandwidth static ECMP hashing loses when a
//! few long RDMA flows are hashed onto the uplinks.
//!
//! The model is the balls-into-bins expectation: n flows hashed uniformly onto m equal uplinks
//! leave m·(1 − 1/m)^n uplinks without a flow. When each flow could fill an uplink on its own
//! (collectives' elephant flows), the flows get at most the uplinks that carry one, so they
//! deliver m·(1 − (1 − 1/m)^n) ÷ min(n, m) of what perfect spreading gives. With as many flows as
//! uplinks that tends to 1 − 1/e ≈ 63 %; four flows per uplink (more queue pairs per connection)
//! bring it to 1 − e⁻⁴ ≈ 98 %. This is why Meta hashes on the queue pair and raises
//! NCCL_IB_QPS_PER_CONNECTION (Gangidi et al., SIGCOMM 2024, "enhanced ECMP"), and why adaptive
//! routing (InfiniBand, Spectrum-X) and packet spraying do not lose it.

use crate::figure::Figure;
use crate::spec::{Calibration, LoadBalancing, Role};
use crate::technology::Transport;
use crate::topology::Plan;
use crate::units::Share;

pub const SOURCE: &str = "balls-into-bins expectation (Mitzenmacher & Upfal, Probability and Computing, 2005, ch. 5); ECMP collisions of RDMA flows and QP scaling: Gangidi et al., RDMA over Ethernet for Distributed AI Training at Meta Scale, SIGCOMM 2024";

/// Share of the flows' demand that `flows` flows hashed onto `uplinks` uplinks get:
/// m·(1 − (1 − 1/m)^n) ÷ min(n, m). 1 when there is nothing to hash.
pub fn delivered_share(flows: f64, uplinks: f64) -> f64 {
    let hashed = flows.is_finite() && uplinks.is_finite() && flows >= 1.0 && uplinks > 1.0;
    if !hashed {
        return 1.0;
    }
    let used = uplinks * (1.0 - (1.0 - 1.0 / uplinks).powf(flows));
    (used / flows.min(uplinks)).clamp(0.0, 1.0)
}

/// How one fabric spreads traffic over its leaf uplinks, and what that costs.
#[derive(Debug, Clone, PartialEq)]
pub struct Multipath {
    pub balancing: LoadBalancing,
    /// Flows hashed onto one leaf's uplinks: each port on the leaf opens one connection per
    /// ring neighbour, times the queue pairs per connection.
    pub flows: f64,
    pub uplinks: f64,
    /// Share of the uplinks' bandwidth the flows can use.
    pub share: Figure<Share>,
}

fn balancing(transport: Transport, calibration: &Calibration) -> LoadBalancing {
    match transport {
        // InfiniBand switches route adaptively (Quantum adaptive routing).
        Transport::InfiniBand => LoadBalancing::Adaptive,
        _ => calibration.ethernet_load_balancing,
    }
}

/// Whether a fabric of `transport` hashes its flows onto the uplinks (static ECMP).
pub fn hashes(transport: Transport, calibration: &Calibration) -> bool {
    balancing(transport, calibration) == LoadBalancing::Ecmp
}

/// Flows hashed onto one leaf's uplinks, the uplinks, and the queue pairs per connection.
pub(crate) fn flows(calibration: &Calibration, plan: &Plan) -> (f64, f64, f64) {
    let qps = f64::from(calibration.qps_per_connection.max(1));
    (
        f64::from(plan.leaf_ports_in_use()) * qps,
        f64::from(plan.leaf_uplinks),
        qps,
    )
}

/// Whether a fabric's traffic is a few long collective flows per port, which is what the
/// collision model describes: GPU fabrics. Storage and front-end traffic is many short flows
/// from many clients, which hashing spreads well.
pub fn applies(role: Role) -> bool {
    matches!(role, Role::Compute | Role::Inference)
}

/// The share of a fabric's uplink bandwidth flows can use on `plan`: [`multipath`]'s figure
/// without its formula, for the evaluation's inner loop.
pub fn usable_share(transport: Transport, calibration: &Calibration, plan: &Plan) -> f64 {
    let (flows, uplinks, _) = flows(calibration, plan);
    match balancing(transport, calibration) {
        LoadBalancing::Ecmp if plan.leaf_spine_links > 0 => delivered_share(flows, uplinks),
        _ => 1.0,
    }
}

/// The multipath behaviour of a fabric on `plan`.
pub fn multipath(transport: Transport, calibration: &Calibration, plan: &Plan) -> Multipath {
    let balancing = balancing(transport, calibration);
    let (flows, uplinks, qps) = flows(calibration, plan);
    let (value, formula) = match balancing {
        LoadBalancing::Ecmp if plan.leaf_spine_links > 0 => (
            delivered_share(flows, uplinks),
            format!(
                "ECMP: m·(1 − (1 − 1/m)^n) ÷ min(n, m) with n = {flows:.0} flows ({} ports × {qps:.0} QPs per connection) on m = {uplinks:.0} uplinks",
                plan.leaf_ports_in_use()
            ),
        ),
        LoadBalancing::Ecmp => (1.0, "one switch: no uplinks to hash onto".to_string()),
        other => (
            1.0,
            format!("{}: every uplink is used, no hash collisions", other.label()),
        ),
    };
    Multipath {
        balancing,
        flows,
        uplinks,
        share: Figure::new(Share::new(value), formula, SOURCE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The balls-into-bins figures the model is built from: one flow per uplink leaves
    // (1 − 1/m)^m of the uplinks idle, 1/e ≈ 36.8 % for many uplinks; 64 uplinks: 36.5 %.
    #[test]
    fn one_flow_per_uplink_loses_about_one_uplink_in_e() {
        let share = delivered_share(64.0, 64.0);
        assert!((share - (1.0 - (63.0f64 / 64.0).powi(64))).abs() < 1e-12);
        assert!((share - 0.635).abs() < 0.001, "{share}");
        let many = delivered_share(100_000.0, 100_000.0);
        assert!((many - (1.0 - (-1.0f64).exp())).abs() < 1e-4, "{many}");
    }

    // Two and four flows per uplink (NCCL_IB_QPS_PER_CONNECTION=2, 4): 1 − e⁻² ≈ 86.5 %,
    // 1 − e⁻⁴ ≈ 98.2 % of the uplink bandwidth.
    #[test]
    fn more_queue_pairs_per_connection_recover_the_lost_uplinks() {
        assert!((delivered_share(128.0, 64.0) - 0.866).abs() < 0.002);
        assert!((delivered_share(256.0, 64.0) - 0.982).abs() < 0.002);
    }

    #[test]
    fn few_flows_on_many_uplinks_mostly_find_their_own() {
        // 8 flows on 64 uplinks: 64·(1 − (63/64)^8)/8 ≈ 94.7 %.
        assert!((delivered_share(8.0, 64.0) - 0.947).abs() < 0.001);
        assert_eq!(delivered_share(0.0, 64.0), 1.0);
        assert_eq!(delivered_share(64.0, 1.0), 1.0);
        assert_eq!(delivered_share(f64::NAN, 8.0), 1.0);
    }
}
