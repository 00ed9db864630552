use crate::collective::{nccl_latency, ring_allreduce};
use crate::error::SpecErrors;
use crate::report::{DataParallelReport, Figure, Report};
use crate::spec::{DataParallelTraining, DesignSpec};
use crate::units::{BitRate, Bytes, Seconds};

const RING_SOURCE: &str = "Ring AllReduce, alpha-beta model (Patarasuk & Yuan 2009; DOMAIN.md A1)";
const NCCL_SOURCE: &str = "NCCL src/graph/tuning.cc ring latency, Simple protocol (DOMAIN.md A2)";

/// Validates `spec` and computes its report. Never panics; an invalid spec returns every error.
pub fn evaluate(spec: &DesignSpec) -> Result<Report, SpecErrors> {
    spec.validate()?;
    Ok(Report {
        engine_version: crate::ENGINE_VERSION.to_string(),
        training: data_parallel(&spec.training),
    })
}

fn data_parallel(job: &DataParallelTraining) -> DataParallelReport {
    let nodes = job.nodes();
    let n = job.gpus;
    let bytes_per_element = job.precision.bytes_per_element();
    let gradients = Bytes(job.parameters * bytes_per_element);
    let link = BitRate::gbps(job.link_gbps);
    let crosses_network = nodes > 1;
    let cost = ring_allreduce(n, nodes, gradients, link.to_byte_rate());
    let (bandwidth_time, latency_time) = if crosses_network {
        (cost.bandwidth_time, cost.latency_time)
    } else {
        (Seconds(0.0), Seconds(0.0))
    };
    let not_on_network = "all GPUs are in one node: the AllReduce runs over the scale-up domain (NVLink), not the network";
    DataParallelReport {
        nodes,
        gradient_bytes: Figure::new(
            gradients,
            format!(
                "S = parameters × bytes per element = {:e} × {} B ({})",
                job.parameters,
                bytes_per_element,
                job.precision.label()
            ),
            "DOMAIN.md A6",
        ),
        bytes_per_gpu_per_step: Figure::new(
            cost.wire_bytes_per_rank,
            format!("2(n−1)/n × S with n = {n} GPUs, S = {gradients} (about 2× the model size)"),
            RING_SOURCE,
        ),
        link_rate: link,
        crosses_network,
        bandwidth_time: Figure::new(
            bandwidth_time,
            if crosses_network {
                format!(
                    "2(n−1)/n × S / B = {} / {} ({})",
                    cost.wire_bytes_per_rank,
                    link.to_byte_rate(),
                    link
                )
            } else {
                not_on_network.to_string()
            },
            RING_SOURCE,
        ),
        latency_time: Figure::new(
            latency_time,
            if crosses_network {
                format!(
                    "1.4 × ({} + (2(n−1) − 2(k−1)) × {} + 2(k−1) × {}) µs with n = {n}, k = {nodes} nodes",
                    nccl_latency::RING_BASE_US,
                    nccl_latency::NVLINK_RING_US,
                    nccl_latency::NET_RING_US
                )
            } else {
                not_on_network.to_string()
            },
            NCCL_SOURCE,
        ),
        allreduce_time: Figure::new(
            bandwidth_time + latency_time,
            "bandwidth term + latency term",
            RING_SOURCE,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::precision::Precision;

    fn seventy_b(gpus: u32) -> DesignSpec {
        let mut spec = DesignSpec::default();
        spec.training.parameters = 70e9;
        spec.training.precision = Precision::Fp16;
        spec.training.gpus = gpus;
        spec
    }

    // Seed claim C8: "a 70B-parameter model in FP16 means about 280 GB per synchronisation
    // step" = 2 × (70e9 × 2 B). The ring sends 2(n−1)/n of that per GPU, so the article's
    // figure is the large-ring limit; at 1,024 GPUs it is within 0.1 %.
    #[test]
    fn seventy_b_fp16_allreduce_moves_280_gb_per_step() {
        let report = evaluate(&seventy_b(1024)).unwrap();
        let moved = report.training.bytes_per_gpu_per_step.value.as_gigabytes();
        assert!((moved - 280.0).abs() / 280.0 < 0.001, "moved {moved} GB");
        assert_eq!(report.training.gradient_bytes.value.as_gigabytes(), 140.0);
    }

    #[test]
    fn seventy_b_fp16_on_sixteen_nodes_moves_exactly_two_times_127_over_128_of_the_model() {
        let report = evaluate(&seventy_b(128)).unwrap();
        let expected = 2.0 * 127.0 / 128.0 * 140.0;
        assert!(
            (report.training.bytes_per_gpu_per_step.value.as_gigabytes() - expected).abs() < 1e-9
        );
    }

    #[test]
    fn a_single_node_job_does_not_touch_the_network() {
        let mut spec = seventy_b(8);
        spec.training.gpus_per_node = 8;
        let report = evaluate(&spec).unwrap();
        assert!(!report.training.crosses_network);
        assert_eq!(report.training.allreduce_time.value, Seconds(0.0));
    }

    #[test]
    fn a_slower_link_makes_the_allreduce_slower() {
        let mut slow = seventy_b(128);
        slow.training.link_gbps = 100.0;
        let fast = evaluate(&seventy_b(128)).unwrap();
        let slow = evaluate(&slow).unwrap();
        assert!(slow.training.allreduce_time.value > fast.training.allreduce_time.value);
    }

    #[test]
    fn an_invalid_spec_is_refused_with_every_error() {
        let mut spec = seventy_b(0);
        spec.training.link_gbps = 0.0;
        spec.training.parameters = f64::NAN;
        let errors = evaluate(&spec).unwrap_err();
        let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths,
            ["training.parameters", "training.link_gbps", "training.gpus"]
        );
    }
}
