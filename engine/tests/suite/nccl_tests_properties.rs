//! The nccl-tests parser never panics, whatever it is given, and reads back any table it could
//! have printed.

use engine::nccl_tests::{parse, verdict};
use proptest::prelude::*;

/// Tokens nccl-tests output is made of, so that random lines often look almost right.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("#".to_string()),
        Just("float".to_string()),
        Just("sum".to_string()),
        Just("-1".to_string()),
        Just("N/A".to_string()),
        Just("# Avg bus bandwidth : ".to_string()),
        Just("all_reduce_perf".to_string()),
        (0u64..1 << 34).prop_map(|n| n.to_string()),
        (0.0f64..1e6).prop_map(|x| format!("{x:.2}")),
        (0.0f64..1e3).prop_map(|x| format!("{x:.2}").replace('.', ",")),
        "[ -~]{0,12}",
    ]
}

fn line() -> impl Strategy<Value = String> {
    prop::collection::vec(token(), 0..16).prop_map(|t| t.join(" "))
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        if let Ok(run) = parse(&bytes) {
            let _ = verdict(&run, 50.0);
        }
    }

    #[test]
    fn almost_right_lines_never_panic(lines in prop::collection::vec(line(), 0..40)) {
        let text = lines.join("\n");
        match parse(text.as_bytes()) {
            Ok(run) => {
                prop_assert!(!run.rows.is_empty());
                let _ = verdict(&run, 0.0);
                let _ = verdict(&run, 48.0);
            }
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
    }

    #[test]
    fn a_printed_table_reads_back(
        rows in prop::collection::vec((0u32..34, 0.01f64..1e6, 0.0f64..500.0), 1..30)
    ) {
        let text: String = rows
            .iter()
            .map(|(log2, time, busbw)| {
                let bytes = 1u64 << log2;
                format!(
                    "{bytes:>12} {:>12} float sum -1 {time:>9.2} {:>7.2} {busbw:>7.2} 0 {time:>9.2} {:>7.2} {busbw:>7.2} 0\n",
                    bytes / 4,
                    busbw / 1.75,
                    busbw / 1.75
                )
            })
            .collect();
        let run = parse(text.as_bytes()).unwrap();
        prop_assert_eq!(run.rows.len(), rows.len());
        for (row, (log2, _, busbw)) in run.rows.iter().zip(&rows) {
            prop_assert_eq!(row.bytes, 1u64 << log2);
            prop_assert!((row.out_of_place.busbw_gbytes_per_s.gigabytes_per_second() - busbw).abs() < 0.006);
        }
    }
}
