//! Any bytes as nccl-tests output: parsing and the verdict never panic.
//! `cargo fuzz run nccl_tests` (from engine/; see engine/fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(run) = engine::nccl_tests::parse(data) {
        let _ = engine::nccl_tests::verdict(&run, 48.0);
    }
});
