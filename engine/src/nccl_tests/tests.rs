use super::*;
use crate::units::GigabytesPerSecond;

/// all_reduce_perf on 2 nodes × 8 H100, as nccl-tests prints it: header, rank lines, both
/// placements, validation on, the average line.
const HEALTHY_ALL_REDUCE: &str = "\
# Collective test starting: all_reduce_perf
# nThread 1 nGpus 1 minBytes 1048576 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
#  Rank  0 Group  0 Pid  41021 on     node01 device  0 [0x18] NVIDIA H100 80GB HBM3
#  Rank  1 Group  0 Pid  41022 on     node01 device  1 [0x2a] NVIDIA H100 80GB HBM3
#  Rank  2 Group  0 Pid  41023 on     node02 device  0 [0x18] NVIDIA H100 80GB HBM3
#  Rank  3 Group  0 Pid  41024 on     node02 device  1 [0x2a] NVIDIA H100 80GB HBM3
node01:41021:41021 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>
#
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
     1048576        262144     float     sum      -1    71.52   14.66   21.99      0    70.90   14.79   22.18      0
    16777216       4194304     float     sum      -1   492.10   34.09   51.14      0   490.75   34.19   51.28      0
   268435456      67108864     float     sum      -1  5835.2   46.00   69.00      0  5830.1   46.04   69.07      0
  1073741824     268435456     float     sum      -1  22850    46.99   70.48      0  22838    47.02   70.52      0
  8589934592    2147483648     float     sum      -1  182530   47.06   70.59      0  182490   47.07   70.61      0
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 56.4512
#
";

#[test]
fn an_all_reduce_run_parses_with_both_placements_ranks_and_the_average() {
    let run = parse(HEALTHY_ALL_REDUCE.as_bytes()).unwrap();
    assert_eq!(run.collective, Some(Collective::AllReduce));
    assert_eq!(run.ranks, Some(4));
    assert_eq!(run.rows.len(), 5);
    let big = &run.rows[3];
    assert_eq!(big.bytes, 1 << 30);
    assert_eq!(big.count, 268_435_456);
    assert_eq!(big.data_type, "float");
    assert_eq!(
        big.out_of_place.busbw_gbytes_per_s.gigabytes_per_second(),
        70.48
    );
    assert_eq!(big.out_of_place.wrong, Some(0));
    assert_eq!(
        big.in_place
            .unwrap()
            .algbw_gbytes_per_s
            .gigabytes_per_second(),
        47.02
    );
    assert_eq!(big.line, 17);
    assert_eq!(
        run.average_busbw_gbytes_per_s,
        Some(GigabytesPerSecond::new(56.4512))
    );
}

#[test]
fn bus_bandwidth_is_algorithm_bandwidth_times_the_bus_factor() {
    // 4 ranks: 2·3/4 = 1.5; 46.99 × 1.5 = 70.49 ≈ the printed 70.48.
    let run = parse(HEALTHY_ALL_REDUCE.as_bytes()).unwrap();
    let row = &run.rows[3];
    let factor = Collective::AllReduce.bus_factor(4);
    assert_eq!(factor, 1.5);
    let derived = row.out_of_place.algbw_gbytes_per_s * factor;
    assert!(
        (derived - row.out_of_place.busbw_gbytes_per_s)
            .gigabytes_per_second()
            .abs()
            < 0.02
    );
    assert_eq!(Collective::AllGather.bus_factor(8), 7.0 / 8.0);
    assert_eq!(Collective::SendRecv.bus_factor(2), 1.0);
}

#[test]
fn rows_without_a_header_without_root_and_without_validation_parse() {
    // An older alltoall_perf with -c 0: no root column, #wrong is N/A, no header at all.
    let text = "\
   1048576         16384     float    none   120.5    8.70    7.61    N/A   119.9    8.75    7.65    N/A
  67108864       1048576     float    none  1890.2   35.50   31.06    N/A  1885.0   35.60   31.15    N/A
";
    let run = parse(text.as_bytes()).unwrap();
    assert_eq!(run.collective, None);
    assert_eq!(run.ranks, None);
    assert_eq!(run.rows.len(), 2);
    assert_eq!(run.rows[1].out_of_place.wrong, None);
    assert_eq!(
        run.rows[1]
            .in_place
            .unwrap()
            .busbw_gbytes_per_s
            .gigabytes_per_second(),
        31.15
    );
}

#[test]
fn a_single_set_of_columns_and_decimal_commas_parse() {
    let text =
        "# sendrecv_perf\n  1073741824   268435456  float  sum  -1  21563,2  49,79  49,79  0\n";
    let run = parse(text.as_bytes()).unwrap();
    assert_eq!(run.collective, Some(Collective::SendRecv));
    let row = &run.rows[0];
    assert_eq!(row.out_of_place.time_us.micros(), 21563.2);
    assert_eq!(
        row.out_of_place.busbw_gbytes_per_s.gigabytes_per_second(),
        49.79
    );
    assert!(row.in_place.is_none());
}

#[test]
fn a_truncated_row_is_refused_naming_its_line() {
    let mut text = HEALTHY_ALL_REDUCE
        .lines()
        .take(19)
        .collect::<Vec<_>>()
        .join("\n");
    text.push_str("\n  8589934592    2147483648     float     sum      -1  1825");
    let e = parse(text.as_bytes()).unwrap_err();
    assert_eq!(e.line, 20);
    assert!(e.to_string().starts_with("line 20: "), "{e}");
    assert!(e.message.contains("truncated"), "{e}");
}

#[test]
fn output_of_another_tool_is_refused_with_a_reason() {
    let iperf = "Connecting to host 10.0.0.2, port 5201\n[  5]   0.00-10.00  sec  27.4 GBytes  23.5 Gbits/sec  receiver\n";
    let e = parse(iperf.as_bytes()).unwrap_err();
    assert_eq!(e.line, 0);
    assert!(e.message.contains("no result rows"), "{e}");
    let e = parse(b"12 fast 3 4 5 6 7 8 9\n").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.message.contains("count \"fast\""), "{e}");
}

#[test]
fn hostile_input_is_refused_cheaply() {
    let huge = vec![b'1'; MAX_INPUT_BYTES + 1];
    assert!(parse(&huge).unwrap_err().message.contains("bytes"));
    let one_line = "9".repeat(MAX_LINE_CHARS + 1);
    assert_eq!(parse(one_line.as_bytes()).unwrap_err().line, 1);
    let binary = b"# all_reduce_perf\n\xff\xfe\x00\x01";
    let e = parse(binary).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("not text"));
    let nul = b"1 2 float sum -1 1 1 1 0\0\n";
    assert!(parse(nul).unwrap_err().message.contains("NUL"));
    let many = "8 2 float sum -1 1.0 0.01 0.01 0\n".repeat(MAX_ROWS + 1);
    assert!(parse(many.as_bytes())
        .unwrap_err()
        .message
        .contains("result rows"));
    let nan = "8 2 float sum -1 NaN 0.01 0.01 0\n";
    assert!(parse(nan.as_bytes()).unwrap_err().message.contains("time"));
}

#[test]
fn the_verdict_passes_a_healthy_run_and_flags_a_planted_degradation() {
    // Expected busbw for this 2-node ring: about 70 GB/s.
    let healthy = parse(HEALTHY_ALL_REDUCE.as_bytes()).unwrap();
    let v = verdict(&healthy, 70.0).unwrap();
    assert!(v.healthy, "{}", v.message);
    assert_eq!(v.bytes, 1 << 30);
    assert_eq!(v.measured_busbw_gbytes_per_s.gigabytes_per_second(), 70.52);
    assert!(
        v.message.starts_with("at 1 GiB, measured 70.5 GB/s"),
        "{}",
        v.message
    );

    // One link at half speed: the ring runs at its slowest link (seed C14), busbw halves.
    let degraded = HEALTHY_ALL_REDUCE
        .replace("22850    46.99   70.48", "45700    23.50   35.24")
        .replace("22838    47.02   70.52", "45676    23.51   35.26");
    let run = parse(degraded.as_bytes()).unwrap();
    let v = verdict(&run, 70.0).unwrap();
    assert!(!v.healthy);
    assert!((v.ratio - 0.504).abs() < 0.001, "{}", v.ratio);
    assert!(v.message.contains("degraded link"), "{}", v.message);
    assert!(v.message.contains("35.3 GB/s"), "{}", v.message);
}

#[test]
fn wrong_elements_fail_the_verdict_whatever_the_speed() {
    let text = HEALTHY_ALL_REDUCE.replace("70.48      0", "70.48     12");
    let run = parse(text.as_bytes()).unwrap();
    let v = verdict(&run, 70.0).unwrap();
    assert!(!v.healthy);
    assert!(v.message.contains("12 wrong elements"), "{}", v.message);
}

#[test]
fn sizes_read_as_operators_write_them() {
    assert_eq!(size_label(1 << 30), "1 GiB");
    assert_eq!(size_label(8 << 30), "8 GiB");
    assert_eq!(size_label(1 << 20), "1 MiB");
    assert_eq!(size_label(1000), "1000 B");
}
