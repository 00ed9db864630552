//! How sure each workload's headline time is: its interval from the published measurements
//! the engine is held to, by the band of the message that dominates its network time.

use super::blocks::{note, table};
use super::Block;
use engine::uncertainty::TimeInterval;

const HOW: &str = "Where a fabric's calibration is fitted to its own baselines, its times move by ± the fit's worst error. Otherwise each interval spans how far the published runs across nodes in the band of the workload's dominant message strayed from the engine's prediction (measured ÷ predicted time), and at least the engine's geometric-mean error over all of them; a band with no published run takes the widest interval of the others. Only the network's part of a time moves: a training step by its exposed communication.";

/// The intervals' table, or nothing when no workload has one.
pub fn interval_blocks(intervals: &[TimeInterval]) -> Vec<Block> {
    if intervals.is_empty() {
        return Vec::new();
    }
    let mut t = table(
        "How sure each time is",
        &[
            ("Workload", false),
            ("Time", false),
            ("Value", true),
            ("Interval", true),
            ("Where the interval comes from", false),
        ],
        intervals
            .iter()
            .map(|i| {
                vec![
                    i.workload.clone(),
                    i.measure.clone(),
                    i.value.to_string(),
                    format!("{} – {} ({})", i.low, i.high, i.percent()),
                    format!("{}; dominant message {}", i.band, i.message),
                ]
            })
            .collect(),
    );
    t.id = Some("time-intervals".into());
    vec![Block::Table(t), note(HOW)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_time_reads_with_its_interval() {
        let spec = engine::DesignSpec::from_json(engine::examples::SEVENTY_B_TRAINING).unwrap();
        let report = engine::evaluate(&spec).unwrap();
        let blocks = interval_blocks(&engine::uncertainty::intervals(&spec, &report));
        let Block::Table(t) = &blocks[0] else {
            panic!("a table")
        };
        let row = &t.rows[0];
        assert_eq!(row[1], "step time");
        assert!(
            row[3].contains(" – ") && row[3].contains("(−") && row[3].contains("% / +"),
            "{}",
            row[3]
        );
        assert!(interval_blocks(&[]).is_empty());
    }
}
