//! Output of the nccl-tests benchmarks (`all_reduce_perf`, `all_gather_perf`,
//! `reduce_scatter_perf`, `alltoall_perf`, `sendrecv_perf`, ...): the table of message sizes with
//! time, algorithm bandwidth and bus bandwidth, out of place and in place [nccl-tests
//! doc/PERFORMANCE.md].
//!
//! The parser takes what an operator pastes: with or without the header, with the in-place
//! columns or without, `#wrong` as a count or `N/A`, with or without the `root` column, decimal
//! commas from another locale. Anything else gets an error naming the line, and the input is
//! bounded so that hostile text costs little.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Larger input is refused: a full sweep from 8 B to 16 GiB is about 40 rows, a few kilobytes.
pub const MAX_INPUT_BYTES: usize = 1 << 20;
/// No line of nccl-tests output is near this long.
pub const MAX_LINE_CHARS: usize = 2_000;
/// More result rows than any message-size sweep has.
pub const MAX_ROWS: usize = 4_096;

/// The collective a run measured, from the tool's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Collective {
    AllReduce,
    AllGather,
    ReduceScatter,
    AllToAll,
    Broadcast,
    Reduce,
    SendRecv,
}

impl Collective {
    const TOOLS: [(&'static str, Collective); 7] = [
        ("all_reduce_perf", Collective::AllReduce),
        ("all_gather_perf", Collective::AllGather),
        ("reduce_scatter_perf", Collective::ReduceScatter),
        ("alltoall_perf", Collective::AllToAll),
        ("broadcast_perf", Collective::Broadcast),
        ("reduce_perf", Collective::Reduce),
        ("sendrecv_perf", Collective::SendRecv),
    ];

    /// busbw ÷ algbw for `ranks` ranks [nccl-tests doc/PERFORMANCE.md].
    pub fn bus_factor(self, ranks: u32) -> f64 {
        let n = f64::from(ranks.max(1));
        match self {
            Collective::AllReduce => 2.0 * (n - 1.0) / n,
            Collective::AllGather | Collective::ReduceScatter | Collective::AllToAll => {
                (n - 1.0) / n
            }
            Collective::Broadcast | Collective::Reduce | Collective::SendRecv => 1.0,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Collective::AllReduce => "AllReduce",
            Collective::AllGather => "AllGather",
            Collective::ReduceScatter => "ReduceScatter",
            Collective::AllToAll => "AllToAll",
            Collective::Broadcast => "Broadcast",
            Collective::Reduce => "Reduce",
            Collective::SendRecv => "SendRecv",
        }
    }
}

/// Time and bandwidths of one message size, one placement.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    pub time_us: f64,
    /// Algorithm bandwidth, GB/s (10⁹ bytes per second): size ÷ time.
    pub algbw_gbytes_per_s: f64,
    /// Bus bandwidth, GB/s: algbw × the collective's bus factor.
    pub busbw_gbytes_per_s: f64,
    /// Wrong elements found by validation; `None` when validation was off (`N/A`).
    pub wrong: Option<u64>,
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Line number in the input, from 1.
    pub line: usize,
    pub bytes: u64,
    pub count: u64,
    pub data_type: String,
    pub out_of_place: Measurement,
    /// Absent when the run printed only one set of columns.
    pub in_place: Option<Measurement>,
}

/// A parsed run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// From the tool's name where the output shows it.
    pub collective: Option<Collective>,
    /// Ranks, from the `#  Rank` lines where the output lists them.
    pub ranks: Option<u32>,
    /// Hosts named by the `#  Rank … on <host>` lines, where the output lists them.
    #[serde(default)]
    pub nodes: Option<u32>,
    pub rows: Vec<Row>,
    /// The `# Avg bus bandwidth` line, GB/s.
    pub average_busbw_gbytes_per_s: Option<f64>,
}

impl Run {
    /// The row for the largest message of at least `bytes`, else the largest message.
    pub fn at_least(&self, bytes: u64) -> Option<&Row> {
        self.rows
            .iter()
            .filter(|r| r.bytes >= bytes)
            .min_by_key(|r| r.bytes)
            .or_else(|| self.rows.iter().max_by_key(|r| r.bytes))
    }
}

/// Why the text is not nccl-tests output, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParseError {
    /// Line number from 1; 0 for the input as a whole.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for ParseError {}

fn error(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
    }
}

/// A decimal number as nccl-tests prints it; a decimal comma (another locale) is accepted.
fn number(field: &str, line: usize, what: &str) -> Result<f64, ParseError> {
    let text = if field.contains(',') && !field.contains('.') && field.matches(',').count() == 1 {
        field.replace(',', ".")
    } else {
        field.to_string()
    };
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(error(line, format!("{what} {field:?} is not a number"))),
    }
}

fn whole(field: &str, line: usize, what: &str) -> Result<u64, ParseError> {
    field
        .parse::<u64>()
        .map_err(|_| error(line, format!("{what} {field:?} is not a whole number")))
}

fn wrong(field: &str, line: usize) -> Result<Option<u64>, ParseError> {
    if field.eq_ignore_ascii_case("n/a") {
        Ok(None)
    } else {
        whole(field, line, "#wrong").map(Some)
    }
}

fn measurement(fields: &[&str], line: usize) -> Result<Measurement, ParseError> {
    Ok(Measurement {
        time_us: number(fields[0], line, "time")?,
        algbw_gbytes_per_s: number(fields[1], line, "algbw")?,
        busbw_gbytes_per_s: number(fields[2], line, "busbw")?,
        wrong: wrong(fields[3], line)?,
    })
}

/// Fields before the measurements: size, count, type, then redop and root where printed.
fn leading_fields(fields: &[&str]) -> Option<usize> {
    // size count type [redop] [root] then 4 or 8 measurement fields.
    [5, 4, 3]
        .into_iter()
        .find(|lead| matches!(fields.len().checked_sub(*lead), Some(4) | Some(8)))
}

fn row(text: &str, line: usize) -> Result<Row, ParseError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let lead = leading_fields(&fields).ok_or_else(|| {
        error(
            line,
            format!(
                "a result row has size, count, type, redop and root, then time, algbw, busbw and #wrong once or twice; this one has {} fields (truncated?)",
                fields.len()
            ),
        )
    })?;
    let bytes = whole(fields[0], line, "size")?;
    let count = whole(fields[1], line, "count")?;
    let rest = &fields[lead..];
    let out_of_place = measurement(&rest[..4], line)?;
    let in_place = if rest.len() == 8 {
        Some(measurement(&rest[4..], line)?)
    } else {
        None
    };
    Ok(Row {
        line,
        bytes,
        count,
        data_type: fields[2].to_string(),
        out_of_place,
        in_place,
    })
}

/// Parses the output of one nccl-tests run.
pub fn parse(input: &[u8]) -> Result<Run, ParseError> {
    if input.len() > MAX_INPUT_BYTES {
        return Err(error(
            0,
            format!(
                "the output is {} bytes; nccl-tests output is a few kilobytes (at most {MAX_INPUT_BYTES} bytes are read)",
                input.len()
            ),
        ));
    }
    let text = std::str::from_utf8(input).map_err(|e| {
        let line = input[..e.valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        error(line, "is not text (binary data or an unknown encoding)")
    })?;
    let mut run = Run {
        collective: None,
        ranks: None,
        nodes: None,
        rows: Vec::new(),
        average_busbw_gbytes_per_s: None,
    };
    let mut ranks = 0u32;
    let mut hosts = std::collections::BTreeSet::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        if raw.chars().count() > MAX_LINE_CHARS {
            return Err(error(
                line,
                format!("is longer than {MAX_LINE_CHARS} characters: not nccl-tests output"),
            ));
        }
        if raw.contains('\0') {
            return Err(error(line, "is not text (it holds NUL bytes)"));
        }
        let trimmed = raw.trim();
        if run.collective.is_none() {
            run.collective = Collective::TOOLS
                .iter()
                .find(|(tool, _)| trimmed.contains(tool))
                .map(|(_, c)| *c);
        }
        if let Some(comment) = trimmed.strip_prefix('#') {
            let comment = comment.trim();
            if comment.starts_with("Rank ") {
                ranks += 1;
                // "Rank  0 Group  0 Pid 4242 on dgx-01 device  0 [0x18] NVIDIA H100".
                let mut words = comment.split_whitespace();
                if words.any(|w| w == "on") {
                    if let Some(host) = words.next() {
                        if hosts.len() < MAX_ROWS {
                            hosts.insert(host.to_string());
                        }
                    }
                }
            } else if let Some(value) = comment.strip_prefix("Avg bus bandwidth") {
                let value = value.trim_start_matches([' ', ':']).trim();
                run.average_busbw_gbytes_per_s =
                    Some(number(value, line, "the average bus bandwidth")?);
            }
            continue;
        }
        if trimmed.is_empty() || !trimmed.starts_with(|c: char| c.is_ascii_digit()) {
            // Launcher and NCCL log lines ("node01: NCCL INFO ..."), blank lines.
            continue;
        }
        if run.rows.len() == MAX_ROWS {
            return Err(error(
                line,
                format!("more than {MAX_ROWS} result rows: not one nccl-tests run"),
            ));
        }
        run.rows.push(row(trimmed, line)?);
    }
    if run.rows.is_empty() {
        return Err(error(
            0,
            "no result rows (size, count, type, ..., time, algbw, busbw): is this the output of an nccl-tests *_perf tool?",
        ));
    }
    run.ranks = (ranks > 0).then_some(ranks);
    run.nodes = u32::try_from(hosts.len()).ok().filter(|n| *n > 0);
    Ok(run)
}

/// A message size as nccl-tests users speak of it: powers of two in KiB, MiB, GiB.
pub fn size_label(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (unit, name) in UNITS {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{} {name}", bytes / unit);
        }
    }
    format!("{bytes} B")
}

/// How a measured run compares with what the design predicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub healthy: bool,
    /// The message size compared, bytes.
    pub bytes: u64,
    pub measured_busbw_gbytes_per_s: f64,
    pub expected_busbw_gbytes_per_s: f64,
    /// measured ÷ expected.
    pub ratio: f64,
    pub message: String,
}

/// Below this share of the predicted bus bandwidth a run is flagged. Healthy ConnectX-7 rings
/// reach 46-49 of 50 GB/s per NIC [nccl-tests #290, #267; stas00/ml-engineering], within 10 % of
/// the engine's 0.95 calibration; 0.85 leaves room for run-to-run spread.
pub const HEALTHY_SHARE: f64 = 0.85;

/// Compares the large-message bus bandwidth of `run` (the first size of at least 1 GiB, or the
/// largest) with `expected_busbw_gbytes_per_s`, the design's prediction for the same collective.
pub fn verdict(run: &Run, expected_busbw_gbytes_per_s: f64) -> Option<Verdict> {
    let row = run.at_least(1 << 30)?;
    let best = row
        .in_place
        .map_or(row.out_of_place.busbw_gbytes_per_s, |p| {
            p.busbw_gbytes_per_s
                .max(row.out_of_place.busbw_gbytes_per_s)
        });
    if expected_busbw_gbytes_per_s.is_nan() || expected_busbw_gbytes_per_s <= 0.0 {
        return None;
    }
    let ratio = best / expected_busbw_gbytes_per_s;
    let healthy = ratio >= HEALTHY_SHARE;
    let wrong =
        row.out_of_place.wrong.unwrap_or(0) + row.in_place.and_then(|p| p.wrong).unwrap_or(0);
    let size = size_label(row.bytes);
    let message = if wrong > 0 {
        format!("at {size}, {wrong} wrong elements: the run is not valid, whatever its speed")
    } else if healthy {
        format!(
            "at {size}, measured {best:.1} GB/s bus bandwidth against {expected_busbw_gbytes_per_s:.1} expected ({:.0} %): as designed",
            ratio * 100.0
        )
    } else {
        format!(
            "at {size}, measured {best:.1} GB/s bus bandwidth against {expected_busbw_gbytes_per_s:.1} expected ({:.0} %): look for a degraded link, a NIC at reduced speed or misconfigured PFC/ECN",
            ratio * 100.0
        )
    };
    Some(Verdict {
        healthy: healthy && wrong == 0,
        bytes: row.bytes,
        measured_busbw_gbytes_per_s: best,
        expected_busbw_gbytes_per_s,
        ratio,
        message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(big.out_of_place.busbw_gbytes_per_s, 70.48);
        assert_eq!(big.out_of_place.wrong, Some(0));
        assert_eq!(big.in_place.unwrap().algbw_gbytes_per_s, 47.02);
        assert_eq!(big.line, 17);
        assert_eq!(run.average_busbw_gbytes_per_s, Some(56.4512));
    }

    #[test]
    fn bus_bandwidth_is_algorithm_bandwidth_times_the_bus_factor() {
        // 4 ranks: 2·3/4 = 1.5; 46.99 × 1.5 = 70.49 ≈ the printed 70.48.
        let run = parse(HEALTHY_ALL_REDUCE.as_bytes()).unwrap();
        let row = &run.rows[3];
        let factor = Collective::AllReduce.bus_factor(4);
        assert_eq!(factor, 1.5);
        let derived = row.out_of_place.algbw_gbytes_per_s * factor;
        assert!((derived - row.out_of_place.busbw_gbytes_per_s).abs() < 0.02);
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
        assert_eq!(run.rows[1].in_place.unwrap().busbw_gbytes_per_s, 31.15);
    }

    #[test]
    fn a_single_set_of_columns_and_decimal_commas_parse() {
        let text =
            "# sendrecv_perf\n  1073741824   268435456  float  sum  -1  21563,2  49,79  49,79  0\n";
        let run = parse(text.as_bytes()).unwrap();
        assert_eq!(run.collective, Some(Collective::SendRecv));
        let row = &run.rows[0];
        assert_eq!(row.out_of_place.time_us, 21563.2);
        assert_eq!(row.out_of_place.busbw_gbytes_per_s, 49.79);
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
        assert_eq!(v.measured_busbw_gbytes_per_s, 70.52);
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
}
