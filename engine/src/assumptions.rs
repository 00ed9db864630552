//! The assumptions behind a design's figures: every catalog entry it uses, every calibration
//! value and every floor default it keeps, each with its source, so the user can check what the
//! engine took for granted.

use crate::catalog::{gpu, model_preset, node_preset, switch};
use crate::spec::{DesignSpec, Workload};
use crate::units::{rounded, thousands};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// One figure the engine took from the catalog or the calibration, not from the user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Assumption {
    /// What it is about: "GPU H100 SXM", "Switch QM9700 (fabric compute)", "Calibration".
    pub subject: String,
    /// The figure, with its unit.
    pub value: String,
    pub source: Cow<'static, str>,
    /// No public source confirms it: check it with the vendor, or override it.
    pub estimate: bool,
}

fn item(
    subject: impl Into<String>,
    value: impl Into<String>,
    source: impl Into<Cow<'static, str>>,
    estimate: bool,
) -> Assumption {
    Assumption {
        subject: subject.into(),
        value: value.into(),
        source: source.into(),
        estimate,
    }
}

/// A bill-of-materials key in words: the switch's name, or the kind of part.
fn item_words(item: &str) -> String {
    let mut parts = item.split(':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("switch"), Some(key), _) => {
            switch(key).map_or_else(|| "a switch".to_string(), |s| s.name.to_string())
        }
        (Some("cable"), _, Some(speed)) => format!("{speed} Gb/s cables"),
        (Some("optic"), _, Some(speed)) => format!("{speed} Gb/s transceivers"),
        (Some("fibre"), _, _) => "fibre patch cords".to_string(),
        _ => "a part of the bill of materials".to_string(),
    }
}

/// Every catalog figure, calibration value and floor default `spec` relies on, in the order the
/// engine uses them: cluster, models, fabrics, calibration, floor, then the design's own
/// overrides.
pub fn assumptions(spec: &DesignSpec) -> Vec<Assumption> {
    let spec = &*crate::switch_choice::with_switches_chosen(spec);
    let mut out = Vec::new();
    let c = &spec.cluster;
    if let Some(n) = c.node_preset.as_deref().and_then(node_preset) {
        out.push(item(
            format!("Node {}", n.name),
            format!(
                "{} GPUs, {} compute NICs per node",
                n.gpus_per_node, n.nics_per_node
            ),
            n.source,
            false,
        ));
    }
    if let Some(g) = gpu(&c.gpu) {
        out.push(item(
            format!("GPU {}", g.name),
            format!(
                "{} TFLOP/s dense BF16, {} TFLOP/s FP8, {} GB HBM",
                rounded(g.bf16_tflops.tflops()),
                rounded(g.fp8_tflops.tflops()),
                rounded(g.hbm_gb.gigabytes())
            ),
            g.provenance.source,
            g.provenance.estimate,
        ));
        let scale_up = match c.scale_up_gbytes_per_s {
            Some(own) => format!(
                "{} GB/s per GPU per direction (the design's figure)",
                own.gigabytes_per_second()
            ),
            None => format!(
                "{} GB/s per GPU per direction line rate, {} GB/s achieved by a ring, {} GPUs per domain",
                g.scale_up_gbytes_per_s.gigabytes_per_second(),
                g.scale_up_effective_gbytes_per_s.gigabytes_per_second(),
                g.scale_up_domain
            ),
        };
        out.push(item(
            format!("Scale-up of {}", g.name),
            scale_up,
            "NCCL topo.h and nccl-tests #212: H100 ring busbw about 370 GB/s",
            false,
        ));
        out.push(item(
            format!("NVLink SHARP of {}", g.name),
            if g.nvlink_sharp {
                "NVSwitch reduces AllReduces inside the node (NVLS)"
            } else {
                "no NVLink SHARP: AllReduces inside the node run as rings"
            },
            crate::catalog::NVLINK_SHARP_SOURCE,
            false,
        ));
        out.push(item(
            format!("Power of {}", g.name),
            format!("{} W TDP", rounded(g.tdp_w.watts())),
            g.provenance.source,
            g.provenance.estimate,
        ));
    }
    let mut models: Vec<&str> = Vec::new();
    for w in &spec.workloads {
        let preset = match w {
            Workload::Training(t) => t.model.preset.as_deref(),
            Workload::Inference(i) => i.model.preset.as_deref(),
            _ => None,
        };
        if let Some(p) = preset.and_then(model_preset) {
            if !models.contains(&p.key) {
                models.push(p.key);
                out.push(item(
                    format!("Model {}", p.name),
                    format!(
                        "{:.0} B parameters, {} layers, hidden size {}",
                        p.parameters / 1e9,
                        p.layers,
                        p.hidden
                    ),
                    p.source,
                    false,
                ));
            }
        }
    }
    let mut priced: Vec<&str> = Vec::new();
    for f in &spec.fabrics {
        out.push(item(
            format!("Fabric {}: {}", f.name, f.technology.label()),
            format!(
                "{} Gb/s per port, {} transport",
                f.port_gbps(),
                match f.technology.transport() {
                    crate::technology::Transport::InfiniBand => "InfiniBand RDMA",
                    crate::technology::Transport::Roce => "RoCE v2 RDMA",
                    crate::technology::Transport::Tcp => "kernel TCP (no RDMA)",
                }
            ),
            "IEEE 802.3 and InfiniBand Trade Association line rates",
            false,
        ));
        if let Some(s) = switch(f.switch_key()) {
            let modes = s
                .port_modes
                .iter()
                .map(|(speed, ports)| format!("{ports} × {speed} Gb/s"))
                .collect::<Vec<_>>()
                .join(" or ");
            out.push(item(
                format!("Switch {} (fabric {})", s.name, f.name),
                modes,
                s.ports.source,
                s.ports.estimate,
            ));
            out.push(item(
                format!("In-network reduction of {} (fabric {})", s.name, f.name),
                match (s.sharp, spec.calibration.in_network_reduction) {
                    (true, true) => "SHARP: AllReduces between nodes may reduce in the switches",
                    (true, false) => {
                        "SHARP capable; not used (calibration: in-network reduction off)"
                    }
                    (false, _) => "none",
                },
                s.sharp_source,
                false,
            ));
            if !priced.contains(&s.key) {
                priced.push(s.key);
                out.push(item(
                    format!("Price and power of {}", s.name),
                    format!(
                        "${} each, {} W at most with every cage filled (its optics' power is in \
                         it: switch-end transceivers add cost, not power)",
                        thousands(s.price_usd.dollars()),
                        rounded(s.power_w.watts())
                    ),
                    s.cost.source,
                    s.cost.estimate,
                ));
            }
        }
    }
    let k = &spec.calibration;
    // A value fitted to the design's own baselines, and unchanged since, has the fit for its
    // source.
    let fitted = match k.source() {
        crate::spec::CalibrationSource::Fitted(f) => Some(f),
        _ => None,
    };
    let fit_source = fitted.map(|f| format!("{} (this design's nccl-tests runs)", f.summary()));
    let calibration = crate::spec::CALIBRATION_FIELDS.iter().map(|f| {
        let was_fitted = fitted.is_some_and(|x| {
            f.field == x.efficiency_field
                || (f.field == "network_hop_latency_us" && x.network_hop_latency_us.is_some())
        });
        let (source, estimate) = match &fit_source {
            Some(s) if was_fitted => (std::borrow::Cow::Owned(s.clone()), false),
            _ => (std::borrow::Cow::Borrowed(f.source), f.estimate),
        };
        (
            f.label,
            format!("{} {}", (f.get)(k), f.unit),
            source,
            estimate,
        )
    });
    const TUNING: &str = "NCCL src/graph/tuning.cc";
    let protocols = [
        (
            "LL protocol",
            format!(
                "{} µs base, {} µs per NVLink step, {} µs per network step, {} of the bandwidth",
                k.ll_base_latency_us.micros(), k.ll_scale_up_hop_latency_us.micros(), k.ll_network_hop_latency_us.micros(), k.ll_bandwidth_share
            ),
            TUNING,
            false,
        ),
        (
            "LL128 protocol",
            format!(
                "{} µs base, {} µs per NVLink step, {} µs per network step, {} of the bandwidth",
                k.ll128_base_latency_us.micros(), k.ll128_scale_up_hop_latency_us.micros(), k.ll128_network_hop_latency_us.micros(), k.ll128_bandwidth_share
            ),
            "NCCL src/graph/tuning.cc (LL128 bandwidth 0.85 on Hopper)",
            false,
        ),
        (
            "NVLink SHARP (NVLS)",
            format!(
                "{}; algorithm bandwidth {} of the scale-up line rate, {} µs latency",
                if k.nvls { "used where the GPU has it" } else { "off" },
                k.nvls_efficiency,
                k.nvls_latency_us.micros()
            ),
            "nccl-tests #290, #347 and NVIDIA/nccl #1455 (8 × H100: busbw about 480 GB/s); NCCL src/graph/tuning.cc (NVLS latency)",
            false,
        ),
        (
            "In-network reduction (SHARP)",
            format!(
                "{}; {} of the NICs' rate, {} µs latency",
                if k.in_network_reduction { "used where the switch supports it" } else { "off" },
                k.in_network_efficiency,
                k.in_network_latency_us.micros()
            ),
            "NCCL src/graph/tuning.cc (CollNet latency); efficiency is an estimate",
            true,
        ),
        (
            "Ethernet multipath",
            format!(
                "{}, {} queue pairs per connection",
                k.ethernet_load_balancing.label(),
                k.qps_per_connection
            ),
            crate::ecmp::SOURCE,
            false,
        ),
    ];
    let protocols = protocols
        .into_iter()
        .map(|(what, value, source, estimate)| {
            (what, value, std::borrow::Cow::Borrowed(source), estimate)
        });
    for (what, value, source, estimate) in calibration.chain(protocols) {
        out.push(item(
            format!("Calibration: {what}"),
            value,
            source,
            estimate,
        ));
    }
    if let Some(e) = k.scale_up_efficiency {
        out.push(item(
            "Calibration: scale-up efficiency",
            format!("{e} of the NVLink line rate"),
            "the design's figure",
            false,
        ));
    }
    for kept in crate::spec::defaults_kept(&spec.floor) {
        out.push(item(
            format!("Floor: {} (default)", kept.what),
            kept.value,
            kept.basis,
            kept.estimate,
        ));
    }
    for o in &spec.overrides {
        let mut parts = Vec::new();
        if let Some(p) = o.unit_price_usd {
            parts.push(format!("${:.0} each", p.dollars()));
        }
        if let Some(w) = o.power_w {
            parts.push(format!("{} W", w.watts()));
        }
        out.push(item(
            format!("Quote for {}", item_words(&o.item)),
            parts.join(", "),
            "the design's figure, replacing the catalog's",
            false,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seventy_b_training_design_lists_its_gpu_model_switches_and_calibration() {
        let spec = DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap();
        let list = assumptions(&spec);
        let subjects: Vec<&str> = list.iter().map(|a| a.subject.as_str()).collect();
        assert!(
            subjects
                .iter()
                .any(|s| s.starts_with("GPU ") && s.contains("H100")),
            "{subjects:?}"
        );
        assert!(
            subjects.iter().any(|s| s.starts_with("Model Llama 3 70B")),
            "{subjects:?}"
        );
        assert!(subjects
            .iter()
            .any(|s| s.starts_with("Switch ") && s.ends_with("(fabric compute)")));
        let ib = list
            .iter()
            .find(|a| a.subject == "Calibration: InfiniBand efficiency")
            .unwrap();
        assert_eq!(ib.value, "0.95 of line rate");
        assert!(ib.source.contains("nccl-tests"));
        assert!(list
            .iter()
            .all(|a| !a.source.is_empty() && !a.value.is_empty()));
    }

    #[test]
    fn the_floor_defaults_a_design_keeps_are_listed_with_what_they_rest_on_and_its_own_figures_are_not(
    ) {
        let mut spec = DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap();
        let floor = |spec: &DesignSpec| -> Vec<Assumption> {
            assumptions(spec)
                .into_iter()
                .filter(|a| a.subject.starts_with("Floor: "))
                .collect()
        };
        let kept = floor(&spec);
        let budget = kept
            .iter()
            .find(|a| a.subject == "Floor: rack power budget (default)")
            .expect("the default budget is listed");
        assert_eq!(budget.value, "50 kW per rack");
        assert!(budget.estimate, "no public source gives a site's budget");
        assert!(budget.source.contains("rack-over-budget"));
        let air = kept
            .iter()
            .find(|a| a.subject == "Floor: air-cooling limit (default)")
            .expect("air-cooled by default");
        assert!(air.source.contains("RA-11333-001"));
        let pue = kept.iter().find(|a| a.subject == "Floor: PUE (default)");
        assert!(pue.is_some_and(|p| p.value == "1.56" && !p.estimate));

        spec.floor.rack_power_kw = crate::units::Kilowatts::new(80.0);
        spec.floor.cooling = crate::spec::Cooling::DirectLiquid;
        spec.floor.pue = 1.2;
        let subjects: Vec<String> = floor(&spec).into_iter().map(|a| a.subject).collect();
        assert!(
            !subjects.iter().any(|s| s.contains("rack power")
                || s.contains("air-cooling")
                || s.contains("PUE")),
            "the design's own figures are not defaults: {subjects:?}"
        );
        assert!(subjects.iter().any(|s| s.contains("row pitch")));
    }

    #[test]
    fn estimates_are_marked_and_overrides_are_listed() {
        let mut spec = DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap();
        spec.overrides.push(crate::CatalogOverride {
            item: "switch:qm9700".into(),
            unit_price_usd: Some(crate::units::Usd::new(30_000.0)),
            power_w: None,
        });
        let list = assumptions(&spec);
        assert!(list
            .iter()
            .any(|a| a.subject == "Calibration: Extra TCP hop latency" && a.estimate));
        let o = list.last().unwrap();
        assert_eq!(
            o.subject,
            "Quote for NVIDIA Quantum-2 QM9700 (NDR, 64×400G, 32 twin-port OSFP)"
        );
        assert_eq!(o.value, "$30000 each");
    }

    #[test]
    fn unknown_catalog_keys_are_skipped_not_a_panic() {
        let mut spec = DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap();
        spec.cluster.gpu = "no-such-gpu".into();
        spec.cluster.node_preset = Some("no-such-node".into());
        spec.fabrics[0].switch = Some("no-such-switch".into());
        let list = assumptions(&spec);
        assert!(!list.iter().any(|a| a.subject.starts_with("GPU")));
    }
}
