//! The catalog is one table per kind of part: every key names one entry, and a switch's port
//! modes run from its fastest to its slowest, each slower mode splitting the ports further.

use engine::catalog::{GPUS, MODEL_PRESETS, NODE_PRESETS, SWITCHES};

fn assert_unique(kind: &str, keys: Vec<&str>) {
    for (i, key) in keys.iter().enumerate() {
        assert!(!key.is_empty(), "a {kind} has an empty key");
        assert!(!keys[..i].contains(key), "two {kind}s have the key {key:?}");
    }
}

#[test]
fn every_catalog_key_names_one_entry() {
    assert_unique("switch", SWITCHES.iter().map(|s| s.key).collect());
    assert_unique("GPU", GPUS.iter().map(|g| g.key).collect());
    assert_unique("node", NODE_PRESETS.iter().map(|n| n.key).collect());
    assert_unique("model", MODEL_PRESETS.iter().map(|m| m.key).collect());
}

#[test]
fn port_modes_run_from_fastest_to_slowest_with_as_many_ports_or_more() {
    for s in SWITCHES {
        assert!(!s.port_modes.is_empty(), "{} has a port mode", s.key);
        for pair in s.port_modes.windows(2) {
            let ((fast, fast_ports), (slow, slow_ports)) = (pair[0], pair[1]);
            assert!(slow < fast, "{}: {slow}G after {fast}G", s.key);
            assert!(
                slow_ports >= fast_ports,
                "{}: {slow_ports} ports at {slow}G, fewer than {fast_ports} at {fast}G",
                s.key
            );
        }
    }
}

#[test]
fn node_presets_name_gpus_the_catalog_has() {
    for n in NODE_PRESETS {
        assert!(
            GPUS.iter().any(|g| g.key == n.gpu),
            "{} names the GPU {:?}",
            n.key,
            n.gpu
        );
    }
}
