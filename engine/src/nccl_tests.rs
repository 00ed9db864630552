//! Output of the nccl-tests benchmarks (`all_reduce_perf`, `all_gather_perf`,
//! `reduce_scatter_perf`, `alltoall_perf`, `sendrecv_perf`, ...): the table of message sizes with
//! time, algorithm bandwidth and bus bandwidth, out of place and in place [nccl-tests
//! doc/PERFORMANCE.md].
//!
//! The parser takes what an operator pastes: with or without the header, with the in-place
//! columns or without, `#wrong` as a count or `N/A`, with or without the `root` column, decimal
//! commas from another locale. Anything else gets an error naming the line, and the input is
//! bounded so that hostile text costs little.

use crate::units::{GigabytesPerSecond, Micros};
use serde::{Deserialize, Serialize};

/// Larger input is refused: a full sweep from 8 B to 16 GiB is about 40 rows, a few kilobytes.
pub const MAX_INPUT_BYTES: usize = 1 << 20;
/// No line of nccl-tests output is near this long.
pub const MAX_LINE_CHARS: usize = 2_000;
/// More result rows than any message-size sweep has.
pub const MAX_ROWS: usize = 4_096;

/// The collective a run measured, from the tool's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Measurement {
    pub time_us: Micros,
    /// Algorithm bandwidth, GB/s (10⁹ bytes per second): size ÷ time.
    pub algbw_gbytes_per_s: GigabytesPerSecond,
    /// Bus bandwidth, GB/s: algbw × the collective's bus factor.
    pub busbw_gbytes_per_s: GigabytesPerSecond,
    /// Wrong elements found by validation; `None` when validation was off (`N/A`).
    pub wrong: Option<u64>,
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    pub average_busbw_gbytes_per_s: Option<GigabytesPerSecond>,
}

impl Run {
    /// The all_reduce_perf run over `ranks` ranks on `nodes` nodes that measured `busbw` (GB/s)
    /// at each message size (bytes) of floats, out of place: what nccl-tests prints for it, the
    /// algorithm bandwidth and the time worked back from the bus bandwidth [nccl-tests
    /// doc/PERFORMANCE.md: busbw = algbw × 2(n−1)/n].
    pub fn all_reduce_measured(
        ranks: u32,
        nodes: u32,
        busbw: impl IntoIterator<Item = (u64, f64)>,
    ) -> Run {
        let n = f64::from(ranks.max(2));
        let factor = 2.0 * (n - 1.0) / n;
        Run {
            collective: Some(Collective::AllReduce),
            ranks: Some(ranks),
            nodes: Some(nodes),
            rows: busbw
                .into_iter()
                .map(|(bytes, busbw)| {
                    let algbw = busbw / factor;
                    Row {
                        line: 1,
                        bytes,
                        count: bytes / 4,
                        data_type: "float".into(),
                        out_of_place: Measurement {
                            time_us: Micros::new(bytes as f64 / (algbw * 1e9) * 1e6),
                            algbw_gbytes_per_s: GigabytesPerSecond::new(algbw),
                            busbw_gbytes_per_s: GigabytesPerSecond::new(busbw),
                            wrong: Some(0),
                        },
                        in_place: None,
                    }
                })
                .collect(),
            average_busbw_gbytes_per_s: None,
        }
    }

    /// The row for the largest message of at least `bytes`, else the largest message.
    pub fn at_least(&self, bytes: u64) -> Option<&Row> {
        self.rows
            .iter()
            .filter(|r| r.bytes >= bytes)
            .min_by_key(|r| r.bytes)
            .or_else(|| self.rows.iter().max_by_key(|r| r.bytes))
    }
}

pub use crate::error::ParseError;

use crate::error::parse_error as error;

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
        time_us: Micros::new(number(fields[0], line, "time")?),
        algbw_gbytes_per_s: GigabytesPerSecond::new(number(fields[1], line, "algbw")?),
        busbw_gbytes_per_s: GigabytesPerSecond::new(number(fields[2], line, "busbw")?),
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
    // nccl-tests output is a few kilobytes.
    let limits = crate::pasted::Limits {
        max_bytes: MAX_INPUT_BYTES,
        max_line_chars: MAX_LINE_CHARS,
    };
    let text = crate::pasted::text(input, "nccl-tests output", limits)?;
    let mut run = Run {
        collective: None,
        ranks: None,
        nodes: None,
        rows: Vec::new(),
        average_busbw_gbytes_per_s: None,
    };
    let mut ranks = 0u32;
    let mut hosts = std::collections::BTreeSet::new();
    for (index, raw) in crate::pasted::lines(text).enumerate() {
        let line = index + 1;
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
                let average = number(value, line, "the average bus bandwidth")?;
                run.average_busbw_gbytes_per_s = Some(GigabytesPerSecond::new(average));
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Verdict {
    pub healthy: bool,
    /// The message size compared, bytes.
    pub bytes: u64,
    pub measured_busbw_gbytes_per_s: GigabytesPerSecond,
    pub expected_busbw_gbytes_per_s: GigabytesPerSecond,
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
    let out_of_place = row.out_of_place.busbw_gbytes_per_s.gigabytes_per_second();
    let best = row.in_place.map_or(out_of_place, |p| {
        p.busbw_gbytes_per_s
            .gigabytes_per_second()
            .max(out_of_place)
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
        measured_busbw_gbytes_per_s: GigabytesPerSecond::new(best),
        expected_busbw_gbytes_per_s: GigabytesPerSecond::new(expected_busbw_gbytes_per_s),
        ratio,
        message,
    })
}

#[cfg(test)]
mod tests;
