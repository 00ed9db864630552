//! Published measurements (each with its source, as engine/VALIDATION.md lists them) reproduced by the engine's calibrated models,
//! each within the spread of its source.

use engine::catalog::gpu;
use engine::Micros;
use engine::{
    all_to_all, allreduce, BitRate, ByteRate, Bytes, Calibration, Crossing, Group, Latencies,
    Transport,
};

fn ndr_per_nic() -> ByteRate {
    BitRate::gbps(400.0).to_byte_rate() * Calibration::default().efficiency(Transport::InfiniBand)
}

fn nccl_latencies() -> Latencies {
    let c = Calibration::default();
    Latencies {
        base_us: Micros::new(c.collective_base_latency_us.micros()),
        scale_up_hop_us: Micros::new(c.scale_up_hop_latency_us.micros()),
        network_hop_us: c.hop_latency_us(Transport::InfiniBand),
    }
}

/// C1: 8 × H100 over NVSwitch, nccl-tests all_reduce with NCCL_ALGO=Ring at 1-8 GiB: busbw
/// 365-370 GB/s [nccl-tests #212]. busbw = 2(n−1)/n × S / t.
#[test]
fn eight_h100_ring_allreduce_reaches_365_to_370_gb_per_s_busbw() {
    let h100 = gpu("h100-sxm").unwrap();
    let group = Group {
        ranks: 8,
        nodes: 1,
        scale_up: h100.scale_up_effective_gbytes_per_s.to_byte_rate(),
        node_network: ByteRate::new(0.0),
        latencies: nccl_latencies(),
        crossing: Crossing::NONE,
    };
    let size = Bytes::gibibytes(8.0);
    let t = allreduce(&group, size).time();
    let busbw = (size * (2.0 * 7.0 / 8.0)).bytes() / t.seconds() / 1e9;
    assert!((365.0..=370.5).contains(&busbw), "{busbw} GB/s");
}

/// C8: 2-node rings over ConnectX-7 NDR reach 46-49 GB/s per NIC [nccl-tests #290, #267].
#[test]
fn a_two_node_ndr_ring_reaches_46_to_49_gb_per_s_per_nic() {
    let group = Group {
        ranks: 2,
        nodes: 2,
        scale_up: ByteRate::gigabytes_per_second(370.0),
        node_network: ndr_per_nic(),
        latencies: nccl_latencies(),
        crossing: Crossing::NONE,
    };
    let size = Bytes::gibibytes(8.0);
    let t = allreduce(&group, size).time();
    let per_nic = (size * (2.0 * 1.0 / 2.0)).bytes() / t.seconds() / 1e9;
    assert!((46.0..=49.0).contains(&per_nic), "{per_nic} GB/s");
}

/// DeepEP on H800 (NVLink ~160 GB/s) + CX-7 400G IB, 8 GPUs and 8 NICs per node.
fn deepep(ep: u32) -> Group {
    Group {
        ranks: ep,
        nodes: ep / 8,
        scale_up: ByteRate::gigabytes_per_second(160.0),
        node_network: ndr_per_nic() * 8.0,
        latencies: nccl_latencies(),
        crossing: Crossing::NONE,
    }
}

/// C12: DeepEP normal kernels, 4,096 tokens, h 7168, top-8, FP8 dispatch: internode EP16 43,
/// EP32 58, EP64 51 GB/s of RDMA bandwidth per GPU [DeepEP README]. The engine's rate (per-GPU
/// NIC, since all-to-all cannot aggregate NICs) falls inside that spread.
#[test]
fn deepep_internode_dispatch_runs_within_the_measured_43_to_58_gb_per_s() {
    for ep in [16, 32, 64] {
        let group = deepep(ep);
        let send = Bytes::new(4096.0 * 8.0 * 7168.0);
        let cost = all_to_all(&group, send);
        let per_gpu_network = cost.network_bytes_per_node.bytes() / 8.0;
        let rate = per_gpu_network / cost.bandwidth_time.seconds() / 1e9;
        assert!((43.0..=58.0).contains(&rate), "EP{ep}: {rate} GB/s");
    }
}

/// C13: DeepEP low-latency decode kernels, 128 tokens, top-8, h 7168: dispatch (FP8) /
/// combine (BF16) latency EP16 118/195, EP32 155/273, EP64 173/314, EP128 192/369,
/// EP256 194/360 µs [DeepEP README]. The engine agrees within 25 % across the range.
#[test]
fn deepep_low_latency_dispatch_and_combine_match_the_published_latencies_within_25_percent() {
    let measured = [
        (16, 118.0, 195.0),
        (32, 155.0, 273.0),
        (64, 173.0, 314.0),
        (128, 192.0, 369.0),
        (256, 194.0, 360.0),
    ];
    for (ep, dispatch_us, combine_us) in measured {
        for (bytes_per_element, measured_us) in [(1.0, dispatch_us), (2.0, combine_us)] {
            let send = Bytes::new(128.0 * 8.0 * 7168.0 * bytes_per_element);
            let engine_us = all_to_all(&deepep(ep), send).time().as_micros();
            let error = (engine_us - measured_us).abs() / measured_us;
            assert!(
                error < 0.25,
                "EP{ep} {bytes_per_element} B: engine {engine_us:.0} µs vs {measured_us} µs"
            );
        }
    }
}
