//! Interruptions and goodput: how often each training job is interrupted, the checkpoint
//! interval that keeps most of its time useful, the share of time it trains at the design's
//! interval and at the best one, and how that share moves with the checkpoint's write
//! bandwidth.

use super::blocks::{heading, note, table};
use super::Block;
use engine::goodput::Goodput;

/// The goodput section: a table of each job's figures, and the write-bandwidth study.
pub fn goodput_blocks(jobs: &[Goodput]) -> Vec<Block> {
    if jobs.is_empty() {
        return Vec::new();
    }
    let mut blocks = vec![
        heading(1, "goodput", "Interruptions and goodput"),
        note("Goodput is the share of time a job trains: each checkpoint interval τ spends δ writing (training waits), and each interruption loses half an interval of work on average and the restart R, so goodput ≈ 1 − δ/τ − (τ/2 + R)/M with M the mean time between interruptions (Young, CACM 1974); Daly's interval (FGCS 2006) maximises it. The interruption rate and the restart time are the calibration's."),
    ];
    for g in jobs {
        let mut rows = vec![
            row(
                "Interruptions a day",
                format!("{:.2}", g.interruptions_per_day),
            ),
            row(
                "Mean time between interruptions M",
                g.mean_time_between.value.to_string(),
            ),
            row("Restart R", g.restart.to_string()),
        ];
        match &g.checkpoint {
            Some(c) => rows.extend([
                row(
                    "Checkpoint write δ",
                    format!("{} (to {})", c.write_time, c.storage),
                ),
                row("Young's interval √(2δM)", c.young.value.to_string()),
                row("Daly's interval, the best", c.daly.value.to_string()),
                row(
                    "Goodput at the design's interval",
                    format!("{} every {}", percent(c.goodput.value), c.interval),
                ),
                row(
                    "Goodput at the best interval",
                    percent(c.best_goodput.value),
                ),
                row(
                    "GPU-hours lost a day at the design's interval",
                    engine::thousands(c.lost_gpu_hours_per_day),
                ),
            ]),
            None => rows.push(row(
                "Checkpoint write δ",
                "the design has no storage workload to checkpoint to".into(),
            )),
        }
        let mut t = table(
            format!("“{}” on {} GPUs", g.workload, crate::words::number(g.gpus)),
            &[("Figure", false), ("Value", true)],
            rows,
        );
        t.id = Some(super::blocks::slug("goodput", &g.workload));
        blocks.push(Block::Table(t));
    }
    for g in jobs {
        let Some(c) = &g.checkpoint else { continue };
        let mut t = table(
            format!(
                "“{}”: goodput at the best interval against the checkpoint's write bandwidth",
                g.workload
            ),
            &[
                ("Write bandwidth", false),
                ("Checkpoint write δ", true),
                ("Best interval", true),
                ("Goodput", true),
                ("GPU-hours lost a day", true),
            ],
            c.by_write_bandwidth
                .iter()
                .map(|p| {
                    vec![
                        format!("{}× the design's", engine::rounded(p.multiple)),
                        p.write_time.to_string(),
                        p.interval.to_string(),
                        percent(p.goodput),
                        engine::thousands(p.lost_gpu_hours_per_day),
                    ]
                })
                .collect(),
        );
        t.id = Some(super::blocks::slug("goodput-bandwidth", &g.workload));
        blocks.push(Block::Table(t));
    }
    blocks
}

/// A job's goodput in a sentence for the executive summary: how often it is interrupted, the
/// share of time it trains at the design's checkpoint interval and at the best one.
pub fn in_a_sentence(g: &Goodput) -> Option<String> {
    let c = g.checkpoint.as_ref()?;
    Some(format!(
        "“{}” is interrupted about {:.2} times a day on its {} GPUs: checkpointing every {} it trains {} of the time ({} GPU-hours a day lost); every {} (Daly's interval for its {} checkpoint write), {}.",
        g.workload,
        g.interruptions_per_day,
        crate::words::number(g.gpus),
        c.interval,
        percent(c.goodput.value),
        engine::thousands(c.lost_gpu_hours_per_day),
        c.daly.value,
        c.write_time,
        percent(c.best_goodput.value)
    ))
}

fn row(figure: &str, value: String) -> Vec<String> {
    vec![figure.to_string(), value]
}

/// Goodput to a tenth of a percent: the differences that matter are that small.
fn percent(share: engine::Share) -> String {
    format!("{:.1} %", share.fraction() * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The training example's job on its 128 GPUs, checkpointing to its storage: its row gives
    /// the interruptions, the mean time between them, the write time and both goodputs; the
    /// study's goodput rises with the write bandwidth.
    #[test]
    fn the_training_example_reads_its_interruptions_and_goodput() {
        let spec = engine::DesignSpec::from_json(engine::examples::SEVENTY_B_TRAINING).unwrap();
        let report = engine::evaluate(&spec).unwrap();
        let jobs = engine::goodput::goodput(&spec, &report);
        let blocks = goodput_blocks(&jobs);
        let tables: Vec<&super::super::Table> = blocks
            .iter()
            .filter_map(|b| match b {
                Block::Table(t) => Some(t),
                _ => None,
            })
            .collect();
        let rows = &tables[0].rows;
        assert_eq!(tables[0].caption, "“Llama 3 70B pre-training” on 128 GPUs");
        assert_eq!(
            rows[0],
            ["Interruptions a day", &format!("{:.2}", 0.474e-3 * 128.0)]
        );
        assert!(
            rows[3][1].ends_with("(to Training data and checkpoints)"),
            "{rows:?}"
        );
        assert!(rows[6][1].contains(" every "), "{rows:?}");
        let study = &tables[1];
        assert_eq!(
            study.rows.len(),
            engine::goodput::WRITE_BANDWIDTH_MULTIPLES.len()
        );
        assert_eq!(study.rows[2][0], "1× the design's");
        let sentence = in_a_sentence(&jobs[0]).unwrap();
        assert!(
            sentence.starts_with("“Llama 3 70B pre-training” is interrupted about 0.06 times a day on its 128 GPUs: checkpointing every "),
            "{sentence}"
        );
    }
}
