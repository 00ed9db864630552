use super::Provenance;
use crate::units::{Gigabytes, GigabytesPerSecond, Teraflops, Watts};

/// A GPU model with the figures the engine needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gpu {
    pub key: &'static str,
    pub name: &'static str,
    /// Dense BF16 tensor throughput, TFLOP/s (no sparsity).
    pub bf16_tflops: Teraflops,
    /// Dense FP8 tensor throughput, TFLOP/s; 0 when the GPU has no FP8 tensor cores.
    pub fp8_tflops: Teraflops,
    pub hbm_gb: Gigabytes,
    /// Scale-up (NVLink/xGMI) bandwidth per GPU, one direction, line rate, GB/s.
    pub scale_up_gbytes_per_s: GigabytesPerSecond,
    /// What a ring collective achieves over that scale-up link, GB/s.
    pub scale_up_effective_gbytes_per_s: GigabytesPerSecond,
    /// GPUs that share one scale-up domain.
    pub scale_up_domain: u32,
    pub tdp_w: Watts,
    /// The node's NVSwitches reduce in the switch (NVLink SHARP, NVLS): third-generation
    /// NVSwitch and later (H100, H200, B200, GB200).
    pub nvlink_sharp: bool,
    pub provenance: Provenance,
}

/// Where the NVLink SHARP flag comes from.
pub const NVLINK_SHARP_SOURCE: &str = "NVIDIA H100 Tensor Core GPU Architecture whitepaper (third-generation NVSwitch with NVLink SHARP); nccl-tests #290: 8 × H100 AllReduce with NVLS at 476 GB/s busbw";

impl Gpu {
    /// Dense tensor throughput at `precision`, TFLOP/s: FP8 (and FP4, counted at the FP8 rate)
    /// where the GPU has FP8 tensor cores, BF16/FP16 otherwise; FP32 at half the BF16 rate (TF32).
    pub fn dense_tflops(&self, precision: crate::precision::Precision) -> Teraflops {
        use crate::precision::Precision;
        match precision {
            Precision::Fp8 | Precision::Fp4 if self.fp8_tflops > Teraflops::new(0.0) => {
                self.fp8_tflops
            }
            Precision::Fp32 => self.bf16_tflops / 2.0,
            _ => self.bf16_tflops,
        }
    }
}

const SPECS: &str = "vendor datasheets, via stas00/ml-engineering compute/accelerator/README.md";

/// The GPUs the catalog knows [stas00/ml-engineering; effective NVLink from NCCL topo.h and nccl-tests
/// #212 (H100 ring busbw ~370 GB/s), ~680 GB/s for B200 (NCCL src/graph/topo.h)].
pub static GPUS: &[Gpu] = &[
    Gpu {
        key: "h100-sxm",
        name: "NVIDIA H100 SXM",
        bf16_tflops: Teraflops::new(989.0),
        fp8_tflops: Teraflops::new(1979.0),
        hbm_gb: Gigabytes::new(80.0),
        scale_up_gbytes_per_s: GigabytesPerSecond::new(450.0),
        scale_up_effective_gbytes_per_s: GigabytesPerSecond::new(370.0),
        scale_up_domain: 8,
        tdp_w: Watts::new(700.0),
        nvlink_sharp: true,
        provenance: Provenance {
            source: SPECS,
            estimate: false,
        },
    },
    Gpu {
        key: "h200-sxm",
        name: "NVIDIA H200 SXM",
        bf16_tflops: Teraflops::new(989.0),
        fp8_tflops: Teraflops::new(1979.0),
        hbm_gb: Gigabytes::new(141.0),
        scale_up_gbytes_per_s: GigabytesPerSecond::new(450.0),
        scale_up_effective_gbytes_per_s: GigabytesPerSecond::new(370.0),
        scale_up_domain: 8,
        tdp_w: Watts::new(700.0),
        nvlink_sharp: true,
        provenance: Provenance {
            source: SPECS,
            estimate: false,
        },
    },
    Gpu {
        key: "b200",
        name: "NVIDIA B200 SXM",
        bf16_tflops: Teraflops::new(2250.0),
        fp8_tflops: Teraflops::new(4500.0),
        hbm_gb: Gigabytes::new(180.0),
        scale_up_gbytes_per_s: GigabytesPerSecond::new(900.0),
        scale_up_effective_gbytes_per_s: GigabytesPerSecond::new(680.0),
        scale_up_domain: 8,
        tdp_w: Watts::new(1000.0),
        nvlink_sharp: true,
        provenance: Provenance {
            source: "NVIDIA B200 datasheet via stas00/ml-engineering compute/accelerator (TDP unverified, about 1 kW)",
            estimate: true,
        },
    },
    Gpu {
        key: "gb200",
        name: "NVIDIA GB200 (per GPU, NVL72)",
        bf16_tflops: Teraflops::new(2500.0),
        fp8_tflops: Teraflops::new(5000.0),
        hbm_gb: Gigabytes::new(186.0),
        scale_up_gbytes_per_s: GigabytesPerSecond::new(900.0),
        scale_up_effective_gbytes_per_s: GigabytesPerSecond::new(680.0),
        scale_up_domain: 72,
        tdp_w: Watts::new(1200.0),
        nvlink_sharp: true,
        provenance: Provenance {
            source: "NVIDIA GB200 NVL72 datasheet via stas00/ml-engineering compute/accelerator (TDP estimate)",
            estimate: true,
        },
    },
    Gpu {
        key: "a100-sxm",
        name: "NVIDIA A100 SXM 80 GB",
        bf16_tflops: Teraflops::new(312.0),
        fp8_tflops: Teraflops::new(0.0),
        hbm_gb: Gigabytes::new(80.0),
        scale_up_gbytes_per_s: GigabytesPerSecond::new(300.0),
        // NCCL topo.h uses 20 GB/s per SM80 NVLink link, 12 links (DERIVED).
        scale_up_effective_gbytes_per_s: GigabytesPerSecond::new(240.0),
        scale_up_domain: 8,
        tdp_w: Watts::new(400.0),
        nvlink_sharp: false,
        provenance: Provenance {
            source: "NVIDIA A100 datasheet via stas00/ml-engineering; NVLink rate per NCCL src/graph/topo.h (TDP unverified)",
            estimate: true,
        },
    },
    Gpu {
        key: "mi300x",
        name: "AMD Instinct MI300X",
        bf16_tflops: Teraflops::new(1300.0),
        fp8_tflops: Teraflops::new(2610.0),
        hbm_gb: Gigabytes::new(192.0),
        scale_up_gbytes_per_s: GigabytesPerSecond::new(448.0),
        // xGMI gives only 64 GB/s peer to peer; a ring over 7 peers sees about that per link.
        scale_up_effective_gbytes_per_s: GigabytesPerSecond::new(300.0),
        scale_up_domain: 8,
        tdp_w: Watts::new(750.0),
        nvlink_sharp: false,
        provenance: Provenance {
            source: "AMD MI300X datasheet via stas00/ml-engineering (effective xGMI and TDP are estimates)",
            estimate: true,
        },
    },
    Gpu {
        key: "l40s",
        name: "NVIDIA L40S (PCIe)",
        bf16_tflops: Teraflops::new(362.0),
        fp8_tflops: Teraflops::new(733.0),
        hbm_gb: Gigabytes::new(48.0),
        // PCIe Gen4 x16 only.
        scale_up_gbytes_per_s: GigabytesPerSecond::new(31.0),
        scale_up_effective_gbytes_per_s: GigabytesPerSecond::new(25.0),
        scale_up_domain: 1,
        tdp_w: Watts::new(350.0),
        nvlink_sharp: false,
        provenance: Provenance {
            source: "NVIDIA L40S datasheet via stas00/ml-engineering (TDP unverified)",
            estimate: true,
        },
    },
];

pub fn gpu(key: &str) -> Option<&'static Gpu> {
    GPUS.iter().find(|g| g.key == key)
}
