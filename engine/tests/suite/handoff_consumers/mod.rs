//! The hand-off bundle read by the real tools it is for, as `scripts/setup.sh` installs them:
//! Graphviz's `dot` (Debian) lays out every fabric graph, Arista's own pyavd (PyPI) accepts
//! every AVD fabric and renders each switch's EOS configuration, the InfiniBand simulator ibsim
//! (Debian ibsim-utils) runs every planned InfiniBand fabric for the real `ibnetdiscover`
//! (Debian infiniband-diags), and Slurm's own controller (Debian slurmctld) reads every Slurm
//! topology. Without a tool the test says so and passes, unless FABRIC_PLANNER_REQUIRE_CONSUMERS
//! is set, as the test script sets it.
//!
//! Daemons (ibsim, slurmctld) run as children of their test, in a folder of its own, and are
//! killed when the test ends, whether it passed or failed.

use crate::support;

mod daemon;
mod ibsim;
mod injection;
mod slurm;
mod tenants;

use engine::asbuilt::{check, ibnetdiscover, ObservedLink};
use engine::handoff::{bundle, hostlist, ibnet, planned, scheduling_fabric};
use engine::{evaluate, DesignSpec, Report};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use support::expand_hostlist;

/// Whether `program` runs; when it does not and the consumers are required, the test fails.
fn installed(program: &Path) -> bool {
    Command::new(program).arg("--version").output().is_ok() || missing(&program.display())
}

/// The Python of the pyavd environment `scripts/setup.sh` installs (with PyYAML), which runs
/// the checkers of `scripts/consumers`; `None` when it is not installed.
fn pyavd_python() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let python = root.join(".tools/pyavd/bin/python");
    installed(&python).then_some(python)
}

/// `name` as found on PATH, else in /usr/sbin, where Debian puts ibnetdiscover and slurmctld
/// and which a user's PATH may lack.
fn sbin(name: &str) -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(name).is_file()));
    let sbin = Path::new("/usr/sbin").join(name);
    if !on_path && sbin.is_file() {
        sbin
    } else {
        PathBuf::from(name)
    }
}

/// Says that `what` is missing: the test fails when the consumers are required, else skips.
fn missing(what: &dyn std::fmt::Display) -> bool {
    assert!(
        std::env::var_os("FABRIC_PLANNER_REQUIRE_CONSUMERS").is_none(),
        "{what} is not installed: scripts/setup.sh --browser installs it"
    );
    eprintln!("skipped: {what} is not installed");
    false
}

fn bundles() -> impl Iterator<Item = (&'static str, Vec<(String, String)>)> {
    engine::examples::ALL.iter().map(|(name, example)| {
        let spec = DesignSpec::from_json(example).unwrap();
        let report = evaluate(&spec).unwrap();
        (*name, bundle(&spec, &report))
    })
}

/// Graphviz lays out every fabric's graph as SVG. Its only warnings may be that a port is not
/// one of the node's fields: the Cable Validation Tool and Air convention names ports on plain
/// nodes, which Graphviz draws to the node itself.
#[test]
fn graphviz_lays_out_every_fabric_graph() {
    if !installed(Path::new("dot")) {
        return;
    }
    for (example, files) in bundles() {
        for (name, text) in files.iter().filter(|(name, _)| name.ends_with(".dot")) {
            let mut dot = Command::new("dot")
                .args(["-Tsvg", "-Gnslimit=2", "-Gmclimit=0.5"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            dot.stdin
                .take()
                .unwrap()
                .write_all(text.as_bytes())
                .unwrap();
            let out = dot.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            let unexpected: Vec<&str> = stderr
                .lines()
                .filter(|l| !(l.starts_with("Warning: node ") && l.ends_with(" unrecognized")))
                .collect();
            assert!(
                out.status.success() && unexpected.is_empty(),
                "{example} {name}: {unexpected:?}"
            );
            let svg = String::from_utf8_lossy(&out.stdout);
            assert!(
                svg.contains("<svg") && svg.contains("</svg>"),
                "{example} {name}"
            );
        }
    }
}

/// A folder of its own under the system's temporary folder, for one test's files.
fn scratch_folder(what: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("fabric-planner-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// What a tool printed, both streams.
fn output_text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Every RoCE-carrying port of each switch of `report`'s RoCE fabrics, as EOS names it: the
/// fabric links at both ends and the leaves' host-facing ports. `{file: {switch: [port]}}`.
fn lossless_ports(report: &Report) -> serde_json::Value {
    let (fabrics, _) = planned(report);
    let mut out = serde_json::Map::new();
    for f in fabrics
        .iter()
        .filter(|f| f.transport() == engine::Transport::Roce)
    {
        let cage = f.links_per_cage();
        let mut ports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for c in f.cables() {
            for (device, port) in [(&c.a_device, &c.a_port), (&c.z_device, &c.z_port)] {
                if let Some(n) = engine::handoff::port_number(port) {
                    if engine::handoff::role_of(&f.fabric.name, device).is_some() {
                        ports
                            .entry(device.to_string())
                            .or_default()
                            .insert(engine::asbuilt::eos_port(n, cage));
                    }
                }
            }
        }
        out.insert(
            format!("{}.yml", f.fabric.name),
            serde_json::to_value(ports).unwrap(),
        );
    }
    serde_json::Value::Object(out)
}

/// The files of `files` under `prefix` (`avd`) written to a folder of their own, and the
/// checker `script` of `scripts/consumers` run on them with `expected` beside them as JSON.
fn run_checker(
    python: &Path,
    script: &str,
    prefix: &str,
    files: &[(String, String)],
    expected: &serde_json::Value,
    what: &str,
) -> std::process::Output {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let folder = scratch_folder(&format!("{prefix}-{what}"));
    std::fs::create_dir_all(folder.join(prefix)).unwrap();
    let under = format!("{prefix}/");
    for (name, text) in files.iter().filter(|(name, _)| name.starts_with(&under)) {
        std::fs::write(folder.join(name), text).unwrap();
    }
    let expected_path = folder.join("expected.json");
    std::fs::write(&expected_path, expected.to_string()).unwrap();
    let out = Command::new(python)
        .arg(root.join("scripts/consumers").join(script))
        .arg(folder.join(prefix))
        .arg(&expected_path)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&folder);
    out
}

/// The AVD files of `files` read by pyavd (`scripts/consumers/avd_check.py` does the reading),
/// holding every port of `lossless` to the lossless profile.
fn pyavd_check(
    python: &Path,
    files: &[(String, String)],
    lossless: &serde_json::Value,
    what: &str,
) -> std::process::Output {
    run_checker(python, "avd_check.py", "avd", files, lossless, what)
}

/// pyavd validates every Ethernet fabric's AVD inputs against its schema, builds the fabric's
/// facts and renders every switch's EOS configuration, with the lossless QoS profile on every
/// RoCE-carrying port: each fabric link and each host-facing port of the leaves. The examples'
/// Ethernet fabrics are on NVIDIA switches, so each is checked on Arista ones.
#[test]
fn arista_pyavd_accepts_every_avd_fabric_and_configures_every_switch() {
    let Some(python) = pyavd_python() else {
        return;
    };
    let mut checked = 0;
    for (example, json) in engine::examples::ALL {
        let (spec, report) = support::on_arista(json);
        let files = bundle(&spec, &report);
        if !files.iter().any(|(name, _)| name.starts_with("avd/")) {
            continue;
        }
        let out = pyavd_check(&python, &files, &lossless_ports(&report), example);
        assert!(out.status.success(), "{example}: {}", output_text(&out));
        checked += 1;
    }
    assert!(checked >= 3, "{checked} examples with Ethernet fabrics");
}

/// What the NVUE checker holds each Spectrum switch's file to: per fabric, whether it carries
/// RoCE, and per switch its cabled ports and its fabric links, as Cumulus names them.
fn nvue_ports(report: &Report) -> serde_json::Value {
    let (fabrics, _) = planned(report);
    let mut out = serde_json::Map::new();
    for f in fabrics
        .iter()
        .filter(|f| f.os() == engine::catalog::SwitchOs::CumulusLinux)
    {
        let cage = f.links_per_cage();
        let mut switches: BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)> = BTreeMap::new();
        for c in f.cables() {
            for (device, port) in [(&c.a_device, &c.a_port), (&c.z_device, &c.z_port)] {
                let Some(n) = engine::handoff::port_number(port) else {
                    continue;
                };
                if engine::handoff::role_of(&f.fabric.name, device).is_none() {
                    continue;
                }
                let name = engine::asbuilt::cumulus_port(n, cage);
                let entry = switches.entry(device.to_string()).or_default();
                if c.tier != "node-leaf" {
                    entry.1.insert(name.clone());
                }
                entry.0.insert(name);
            }
        }
        let switches: serde_json::Map<String, serde_json::Value> = switches
            .into_iter()
            .map(|(s, (ports, links))| {
                (
                    s,
                    serde_json::json!({"ports": ports, "fabric_links": links}),
                )
            })
            .collect();
        out.insert(
            f.fabric.name.clone(),
            serde_json::json!({"roce": f.transport() == engine::Transport::Roce, "switches": switches}),
        );
    }
    serde_json::Value::Object(out)
}

/// The NVUE files of `files` read by `scripts/consumers/nvue_check.py` against `expected`.
fn nvue_check(
    python: &Path,
    files: &[(String, String)],
    expected: &serde_json::Value,
    what: &str,
) -> std::process::Output {
    run_checker(python, "nvue_check.py", "nvue", files, expected, what)
}

/// Every Spectrum switch of every example is configured as NVUE reads it: each file within NVUE's
/// object model, every cabled port configured (split cages broken out), RoCE lossless with the
/// PFC watchdog on every RoCE port, BGP unnumbered on every fabric link.
#[test]
fn nvue_reads_every_spectrum_switch_s_configuration_with_every_cabled_port() {
    let Some(python) = pyavd_python() else {
        return;
    };
    let mut checked = 0;
    for (example, json) in engine::examples::ALL {
        let spec = DesignSpec::from_json(json).unwrap();
        let report = evaluate(&spec).unwrap();
        let expected = nvue_ports(&report);
        if expected.as_object().unwrap().is_empty() {
            continue;
        }
        let out = nvue_check(&python, &bundle(&spec, &report), &expected, example);
        assert!(out.status.success(), "{example}: {}", output_text(&out));
        assert!(output_text(&out).contains("NVUE configurations read"));
        checked += 1;
    }
    assert!(checked >= 4, "{checked} examples with Spectrum fabrics");
}

/// The checker refuses what NVUE would: a path NVUE does not have, a RoCE port without its
/// watchdog, a cabled port left out.
#[test]
fn the_nvue_checker_refuses_a_file_nvue_would_not_take_or_that_leaves_a_port_out() {
    let Some(python) = pyavd_python() else {
        return;
    };
    let spec = DesignSpec::from_json(engine::examples::HYBRID).unwrap();
    let report = evaluate(&spec).unwrap();
    let expected = nvue_ports(&report);
    let files = bundle(&spec, &report);
    let leaf = "nvue/storage-leaf-01.yaml";
    for (from, to) in [
        // A key NVUE does not have.
        (
            "      swp1:\n        type: swp\n",
            "      swp1:\n        kind: swp\n",
        ),
        // The watchdog off on a RoCE port.
        (
            "            state: enable\n",
            "            state: disable\n",
        ),
        // A cabled port left out.
        ("      swp2:\n", "      swp200:\n"),
    ] {
        let mut broken = files.clone();
        let text = &mut broken.iter_mut().find(|(n, _)| n == leaf).unwrap().1;
        assert!(text.contains(from), "{from}");
        *text = text.replacen(from, to, 1);
        let out = nvue_check(&python, &broken, &expected, "broken");
        assert!(!out.status.success(), "{to}: {}", output_text(&out));
    }
}
