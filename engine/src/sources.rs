//! The public sources the engine's figures cite, each with its full title and where to read it.
//! A figure's source names one of these in short ("nccl-tests #290", "arXiv:2104.04473"); this
//! list, shipped with the product as a page and a section of the report, is where the short
//! form leads.

use serde::Serialize;

/// One public source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Source {
    /// How figures cite it.
    pub cite: &'static str,
    pub title: &'static str,
    /// Where to read it.
    pub url: &'static str,
}

const fn source(cite: &'static str, title: &'static str, url: &'static str) -> Source {
    Source { cite, title, url }
}

/// Every source a figure, finding or catalog entry cites in short.
pub static SOURCES: &[Source] = &[
    source(
        "arXiv:1909.08053",
        "Shoeybi et al., Megatron-LM: Training Multi-Billion Parameter Language Models Using Model Parallelism, 2019",
        "https://arxiv.org/abs/1909.08053",
    ),
    source(
        "arXiv:2104.04473",
        "Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM, SC 2021",
        "https://arxiv.org/abs/2104.04473",
    ),
    source(
        "arXiv:2205.05198",
        "Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models, 2022",
        "https://arxiv.org/abs/2205.05198",
    ),
    source(
        "arXiv:2205.14135",
        "Dao et al., FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness, NeurIPS 2022",
        "https://arxiv.org/abs/2205.14135",
    ),
    source(
        "arXiv:1910.02054",
        "Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter Models, SC 2020",
        "https://arxiv.org/abs/1910.02054",
    ),
    source(
        "arXiv:2304.11277",
        "Zhao et al., PyTorch FSDP: Experiences on Scaling Fully Sharded Data Parallel, VLDB 2023",
        "https://arxiv.org/abs/2304.11277",
    ),
    source(
        "arXiv:2001.08361",
        "Kaplan et al., Scaling Laws for Neural Language Models, 2020",
        "https://arxiv.org/abs/2001.08361",
    ),
    source(
        "arXiv:2407.21783",
        "Llama Team, The Llama 3 Herd of Models, 2024",
        "https://arxiv.org/abs/2407.21783",
    ),
    source(
        "arXiv:2412.19437",
        "DeepSeek-AI, DeepSeek-V3 Technical Report, 2024",
        "https://arxiv.org/abs/2412.19437",
    ),
    source(
        "arXiv:1408.1127",
        "Cluster Design Tools: tools for designing fat-tree networks and their cabling",
        "https://arxiv.org/abs/1408.1127",
    ),
    source(
        "NCCL src/graph/tuning.cc",
        "NVIDIA NCCL, src/graph/tuning.cc: the latency and bandwidth model NCCL chooses algorithms and protocols with",
        "https://github.com/NVIDIA/nccl/blob/master/src/graph/tuning.cc",
    ),
    source(
        "NCCL tuning.cc",
        "NVIDIA NCCL, src/graph/tuning.cc (the same file, cited in short)",
        "https://github.com/NVIDIA/nccl/blob/master/src/graph/tuning.cc",
    ),
    source(
        "NCCL src/graph/topo.h",
        "NVIDIA NCCL, src/graph/topo.h: link bandwidths NCCL assumes per interconnect",
        "https://github.com/NVIDIA/nccl/blob/master/src/graph/topo.h",
    ),
    source(
        "NCCL topo.h",
        "NVIDIA NCCL, src/graph/topo.h (the same file, cited in short)",
        "https://github.com/NVIDIA/nccl/blob/master/src/graph/topo.h",
    ),
    source(
        "nccl-tests #290",
        "NVIDIA/nccl-tests issue 290: AllReduce bus bandwidth of H100 nodes with NDR, with and without NVLS",
        "https://github.com/NVIDIA/nccl-tests/issues/290",
    ),
    source(
        "nccl-tests #212",
        "NVIDIA/nccl-tests issue 212: H100 AllReduce bus bandwidth inside a node",
        "https://github.com/NVIDIA/nccl-tests/issues/212",
    ),
    source(
        "nccl-tests #232",
        "NVIDIA/nccl-tests issue 232: tree AllReduce of 2 H100 nodes over one 400G RoCE port",
        "https://github.com/NVIDIA/nccl-tests/issues/232",
    ),
    source(
        "nccl-tests #267",
        "NVIDIA/nccl-tests issue 267: ConnectX-7 NDR bus bandwidth per NIC",
        "https://github.com/NVIDIA/nccl-tests/issues/267",
    ),
    source(
        "nccl-tests #347",
        "NVIDIA/nccl-tests issue 347: NVLS AllReduce on 8 × H100",
        "https://github.com/NVIDIA/nccl-tests/issues/347",
    ),
    source(
        "nccl-tests doc/PERFORMANCE.md",
        "NVIDIA nccl-tests, doc/PERFORMANCE.md: algorithm and bus bandwidth",
        "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md",
    ),
    source(
        "NVIDIA/nccl #1455",
        "NVIDIA/nccl issue 1455: NVLS bandwidth on H100",
        "https://github.com/NVIDIA/nccl/issues/1455",
    ),
    source(
        "NVIDIA/nccl #209",
        "NVIDIA/nccl issue 209: NCCL over TCP reaches at most about 60 % of wire speed",
        "https://github.com/NVIDIA/nccl/issues/209",
    ),
    source(
        "NVIDIA/nccl #450",
        "NVIDIA/nccl issue 450: AllReduce over a 100 Gb/s TCP network, 4-6 GB/s bus bandwidth",
        "https://github.com/NVIDIA/nccl/issues/450",
    ),
    source(
        "NVIDIA/nccl #700",
        "NVIDIA/nccl issue 700: 2 A100 nodes over 200 Gb/s RoCE v2 reach about 65 % of the link before tuning",
        "https://github.com/NVIDIA/nccl/issues/700",
    ),
    source(
        "NVIDIA/nccl #812",
        "NVIDIA/nccl issue 812: AllReduce of 2 × DGX A100 over 8 × HDR 200G InfiniBand",
        "https://github.com/NVIDIA/nccl/issues/812",
    ),
    source(
        "NVIDIA/nccl #1469",
        "NVIDIA/nccl issue 1469: AllReduce bus bandwidth on 16 H100 nodes, NCCL 2.20.5",
        "https://github.com/NVIDIA/nccl/issues/1469",
    ),
    source(
        "Gangidi et al., SIGCOMM 2024",
        "Gangidi et al., RDMA over Ethernet for Distributed AI Training at Meta Scale, SIGCOMM 2024",
        "https://dl.acm.org/doi/10.1145/3651890.3672233",
    ),
    source(
        "Zhu et al., DCQCN, SIGCOMM 2015",
        "Zhu et al., Congestion Control for Large-Scale RDMA Deployments, SIGCOMM 2015",
        "https://dl.acm.org/doi/10.1145/2785956.2787484",
    ),
    source(
        "Al-Fares, Loukissas & Vahdat, SIGCOMM 2008",
        "Al-Fares, Loukissas & Vahdat, A Scalable, Commodity Data Center Network Architecture, SIGCOMM 2008",
        "https://dl.acm.org/doi/10.1145/1402958.1402967",
    ),
    source(
        "Thakur, Rabenseifner & Gropp, IJHPCA 2005",
        "Thakur, Rabenseifner & Gropp, Optimization of Collective Communication Operations in MPICH, IJHPCA 2005",
        "https://doi.org/10.1177/1094342005051521",
    ),
    source(
        "Patarasuk & Yuan, JPDC 2009",
        "Patarasuk & Yuan, Bandwidth Optimal All-reduce Algorithms for Clusters of Workstations, JPDC 2009",
        "https://doi.org/10.1016/j.jpdc.2008.09.002",
    ),
    source(
        "Mitzenmacher & Upfal, Probability and Computing, 2005",
        "Mitzenmacher & Upfal, Probability and Computing: balls into bins, chapter 5",
        "https://doi.org/10.1017/CBO9780511813603",
    ),
    source(
        "RA-11333-001",
        "NVIDIA DGX SuperPOD: Next Generation Scalable Infrastructure for AI Leadership, reference architecture featuring DGX H100 (RA-11333-001)",
        "https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-h100/latest/",
    ),
    source(
        "stas00/ml-engineering",
        "Stas Bekman, Machine Learning Engineering Open Book: accelerator specifications",
        "https://github.com/stas00/ml-engineering/blob/master/compute/accelerator/README.md",
    ),
    source(
        "RFC 4180",
        "RFC 4180: Common Format and MIME Type for Comma-Separated Values (CSV) Files",
        "https://www.rfc-editor.org/rfc/rfc4180",
    ),
    source(
        "RFC 6996",
        "RFC 6996: Autonomous System (AS) Reservation for Private Use",
        "https://www.rfc-editor.org/rfc/rfc6996",
    ),
];

/// The source `cite` names, if the list has it.
pub fn source_for(cite: &str) -> Option<&'static Source> {
    SOURCES.iter().find(|s| s.cite == cite)
}

/// The short citations in `text`: arXiv numbers, nccl-tests and NCCL issues, NCCL source files.
pub fn citations(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let number_after = |at: usize, prefix: &str| -> Option<String> {
        let rest = &text[at + prefix.len()..];
        let digits: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let digits = digits.trim_end_matches('.');
        (!digits.is_empty()).then(|| format!("{prefix}{digits}"))
    };
    for prefix in ["arXiv:", "nccl-tests #", "NVIDIA/nccl #"] {
        for (at, _) in text.match_indices(prefix) {
            found.extend(number_after(at, prefix));
        }
    }
    for file in [
        "NCCL src/graph/tuning.cc",
        "NCCL src/graph/topo.h",
        "NCCL tuning.cc",
        "NCCL topo.h",
    ] {
        if text.contains(file) {
            found.push(file.to_string());
        }
    }
    found.sort();
    found.dedup();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citations_are_found_in_running_text() {
        assert_eq!(
            citations("Megatron-LM arXiv:1909.08053; NCCL src/graph/tuning.cc (nccl-tests #290)."),
            vec![
                "NCCL src/graph/tuning.cc",
                "arXiv:1909.08053",
                "nccl-tests #290"
            ]
        );
    }

    #[test]
    fn every_source_is_listed_once_with_a_web_address() {
        for (i, s) in SOURCES.iter().enumerate() {
            assert!(s.url.starts_with("https://"), "{}", s.cite);
            assert!(
                SOURCES[..i].iter().all(|t| t.cite != s.cite),
                "{} is listed twice",
                s.cite
            );
        }
    }
}
