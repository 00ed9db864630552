//! Any bytes as a spec: parsing and evaluation never panic.
//! `cargo fuzz run spec_json` (from engine/; see engine/fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(spec) = engine::DesignSpec::from_json(text) {
            let _ = engine::evaluate(&spec);
            let _ = engine::whatif::degraded_link(&spec, 0.5);
        }
    }
});
