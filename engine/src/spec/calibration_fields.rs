//! The calibration figures a design may set, each with its default's source: one table that
//! the assumptions list and the planner's calibration form both read.

use super::calibration::Calibration;
use crate::units::{Micros, Minutes};

/// One calibration figure: its field, how it reads, and where its default comes from.
pub struct CalibrationField {
    /// The field's name in the spec's `calibration`.
    pub field: &'static str,
    pub label: &'static str,
    /// What follows the value when it is shown ("of line rate", "µs per ring step").
    pub unit: &'static str,
    pub source: &'static str,
    /// No public source confirms the default.
    pub estimate: bool,
    /// The lowest value published measurements report for a working cluster, where a verdict
    /// resting on the default should be checked against it.
    pub pessimistic: Option<Pessimistic>,
    pub get: fn(&Calibration) -> f64,
    pub set: fn(&mut Calibration, f64),
}

/// A published value below a calibration's default, with the measurement that reports it.
pub struct Pessimistic {
    pub value: f64,
    pub source: &'static str,
}

impl CalibrationField {
    /// The figure the engine uses when the design does not set it.
    pub fn default_value(&self) -> f64 {
        (self.get)(&Calibration::default())
    }
}

/// The figures an architect is told to check against their own measurements.
pub const CALIBRATION_FIELDS: [CalibrationField; 9] = [
    CalibrationField {
        field: "infiniband_efficiency",
        label: "InfiniBand efficiency",
        unit: "of line rate",
        source: "ConnectX-7 reaches 46-49 of 50 GB/s per NIC in NCCL rings (nccl-tests #290, #267)",
        estimate: false,
        pessimistic: Some(Pessimistic {
            value: 0.92,
            source: "46 of 50 GB/s per NIC, the low end NVIDIA gives for NDR: nccl-tests #290",
        }),
        get: |c| c.infiniband_efficiency,
        set: |c, v| c.infiniband_efficiency = v,
    },
    CalibrationField {
        field: "roce_efficiency",
        label: "RoCE v2 efficiency",
        unit: "of line rate, with PFC and ECN configured",
        source: "NVIDIA gives the same 46-48 of 50 GB/s per 400G NIC over RoCE as over InfiniBand \
                 (nccl-tests #290); taken a little below it",
        estimate: false,
        pessimistic: Some(Pessimistic {
            value: 0.65,
            source: "RoCE v2 hosts measured at about 65 % of their links before tuning: \
                     NVIDIA/nccl #700",
        }),
        get: |c| c.roce_efficiency,
        set: |c, v| c.roce_efficiency = v,
    },
    CalibrationField {
        field: "tcp_efficiency",
        label: "TCP efficiency",
        unit: "of line rate",
        source: "NCCL's socket transport copies through the kernel and reaches at most about 60 % \
                 of wire speed (NVIDIA/nccl #209)",
        estimate: false,
        pessimistic: Some(Pessimistic {
            value: 0.32,
            source: "4-6 GB/s of AllReduce bus bandwidth over 100 Gb/s TCP: NVIDIA/nccl #450",
        }),
        get: |c| c.tcp_efficiency,
        set: |c, v| c.tcp_efficiency = v,
    },
    CalibrationField {
        field: "network_hop_latency_us",
        label: "Network hop latency",
        unit: "µs per ring step",
        source: "NCCL tuning.cc: NET ring 14 µs + 3 × 1 µs per step, Simple protocol",
        estimate: false,
        pessimistic: None,
        get: |c| c.network_hop_latency_us.micros(),
        set: |c, v| c.network_hop_latency_us = Micros::new(v),
    },
    CalibrationField {
        field: "tcp_extra_latency_us",
        label: "Extra TCP hop latency",
        unit: "µs per ring step",
        source: "kernel TCP stack",
        estimate: true,
        pessimistic: None,
        get: |c| c.tcp_extra_latency_us.micros(),
        set: |c, v| c.tcp_extra_latency_us = Micros::new(v),
    },
    CalibrationField {
        field: "scale_up_hop_latency_us",
        label: "NVLink hop latency",
        unit: "µs per ring step",
        source: "NCCL tuning.cc",
        estimate: false,
        pessimistic: None,
        get: |c| c.scale_up_hop_latency_us.micros(),
        set: |c, v| c.scale_up_hop_latency_us = Micros::new(v),
    },
    CalibrationField {
        field: "collective_base_latency_us",
        label: "Collective base latency",
        unit: "µs per collective",
        source: "NCCL tuning.cc, Simple protocol",
        estimate: false,
        pessimistic: None,
        get: |c| c.collective_base_latency_us.micros(),
        set: |c, v| c.collective_base_latency_us = Micros::new(v),
    },
    CalibrationField {
        field: "interruptions_per_1000_gpu_days",
        label: "Job interruptions",
        unit: "per 1,000 GPU-days",
        source: "Llama 3, arXiv:2407.21783 §3.3.4: 419 unexpected interruptions in 54 days on \
                 16,384 H100 GPUs",
        estimate: false,
        pessimistic: None,
        get: |c| c.interruptions_per_1000_gpu_days,
        set: |c, v| c.interruptions_per_1000_gpu_days = v,
    },
    CalibrationField {
        field: "restart_minutes",
        label: "Restart after an interruption",
        unit: "minutes",
        source: "detecting the failure, rescheduling and loading the last checkpoint: no public \
                 figure for a given cluster, so a long one",
        estimate: true,
        pessimistic: None,
        get: |c| c.restart_minutes.minutes(),
        set: |c, v| c.restart_minutes = Minutes::new(v),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_reads_and_writes_its_own_figure() {
        for f in &CALIBRATION_FIELDS {
            let mut c = Calibration::default();
            (f.set)(&mut c, 0.123);
            assert_eq!((f.get)(&c), 0.123, "{}", f.field);
            let changed = serde_json::to_value(&c).unwrap();
            assert_eq!(changed[f.field], 0.123, "{} is the spec's field", f.field);
        }
    }
}
