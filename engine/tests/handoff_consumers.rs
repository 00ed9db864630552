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

mod support;

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

/// pyavd validates every Ethernet fabric's AVD inputs against its schema, builds the fabric's
/// facts and renders every switch's EOS configuration, with the lossless QoS profile
/// (`scripts/consumers/avd_check.py` does the reading).
#[test]
fn arista_pyavd_accepts_every_avd_fabric_and_configures_every_switch() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let python = root.join(".tools/pyavd/bin/python");
    if !installed(&python) {
        return;
    }
    let mut checked = 0;
    for (example, files) in bundles() {
        let avd: Vec<&(String, String)> = files
            .iter()
            .filter(|(name, _)| name.starts_with("avd/"))
            .collect();
        if avd.is_empty() {
            continue;
        }
        let folder = std::env::temp_dir().join(format!(
            "fabric-planner-avd-{}-{example}",
            std::process::id()
        ));
        std::fs::create_dir_all(folder.join("avd")).unwrap();
        for (name, text) in &avd {
            std::fs::write(folder.join(name), text).unwrap();
        }
        let out = Command::new(&python)
            .arg(root.join("scripts/consumers/avd_check.py"))
            .arg(folder.join("avd"))
            .output()
            .unwrap();
        let _ = std::fs::remove_dir_all(&folder);
        assert!(
            out.status.success(),
            "{example}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        checked += 1;
    }
    assert!(checked >= 2, "{checked} examples with Ethernet fabrics");
}

/// A folder of one test's own under the system's temporary folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(what: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "fabric-planner-{what}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Scratch(path)
    }

    /// A name no other test of any run on this machine uses at the same time.
    fn unique_name(&self) -> String {
        self.0.file_name().unwrap().to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The last `lines` lines of a file a tool wrote, for a failure message.
fn tail(path: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// A daemon a test started, its output in files of the test's folder (a pipe nobody reads
/// would stall a chatty one). Killed and reaped when dropped, so none outlives its test.
struct Daemon {
    child: Child,
    name: &'static str,
    out: PathBuf,
    err: PathBuf,
}

impl Daemon {
    fn start(name: &'static str, command: &mut Command, dir: &Path) -> Result<Daemon, String> {
        let out = dir.join(format!("{name}.out"));
        let err = dir.join(format!("{name}.err"));
        let child = command
            .stdin(Stdio::null())
            .stdout(File::create(&out).unwrap())
            .stderr(File::create(&err).unwrap())
            .spawn()
            .map_err(|e| format!("{name} did not start: {e}"))?;
        Ok(Daemon {
            child,
            name,
            out,
            err,
        })
    }

    /// What it printed last, for a failure message.
    fn said(&self) -> String {
        format!("{}\n{}", tail(&self.out, 20), tail(&self.err, 20))
    }

    /// Polls `ready` until it holds; `Err` with what the daemon said when it exits first or
    /// `limit` passes.
    fn wait_until(
        &mut self,
        limit: Duration,
        mut ready: impl FnMut() -> bool,
    ) -> Result<(), String> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Err(format!(
                    "{} stopped ({status}):\n{}",
                    self.name,
                    self.said()
                ));
            }
            if ready() {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "{} not ready after {limit:?}:\n{}",
                    self.name,
                    self.said()
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `command` to its end within `limit`: its standard output, or `Err` with what it said
/// when it fails or overruns (then it is killed).
fn run(
    name: &'static str,
    command: &mut Command,
    dir: &Path,
    limit: Duration,
) -> Result<String, String> {
    let mut tool = Daemon::start(name, command, dir)?;
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = tool.child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            return Err(format!("{name} ran over {limit:?}:\n{}", tool.said()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if !status.success() {
        return Err(format!("{name} failed ({status}):\n{}", tool.said()));
    }
    Ok(std::fs::read_to_string(&tool.out).unwrap_or_default())
}

/// ibsim's umad2sim library, which hands a libibumad tool's MADs to the simulator instead of
/// an adapter (Debian libumad2sim0 installs it under the architecture's library folder).
fn umad2sim() -> Option<PathBuf> {
    std::fs::read_dir("/usr/lib")
        .ok()?
        .filter_map(Result::ok)
        .map(|d| d.path().join("umad2sim/libumad2sim.so"))
        .find(|p| p.is_file())
}

/// The sizes of ibsim's tables for net file `net`: ibsim's own (2,048 nodes, 256 switches,
/// 256×36 + 2,048×2 ports; linux-rdma/ibsim ibsim/sim.h), or what the file needs when it is
/// larger. Every host port of the plan is a channel adapter of its own, and a switch takes one
/// port more for its management port 0 (ibsim/sim_net.c new_node).
fn ibsim_tables(net: &str) -> [usize; 3] {
    let (mut nodes, mut switches, mut ports) = (0, 0, 0);
    for line in net.lines() {
        let (switch, rest) = if let Some(rest) = line.strip_prefix("Switch") {
            (true, rest)
        } else if let Some(rest) = line.strip_prefix("Ca") {
            (false, rest)
        } else {
            continue;
        };
        let n: usize = rest
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        nodes += 1;
        switches += usize::from(switch);
        ports += n + usize::from(switch);
    }
    [
        nodes.max(2048),
        switches.max(256),
        ports.max(256 * 36 + 2048 * 2),
    ]
}

/// Whether a Unix socket named `name` in the abstract namespace is bound (`/proc/net/unix`
/// lists it as `@name`): a client-free way to see that a daemon listens.
fn unix_socket_bound(name: &str) -> bool {
    std::fs::read_to_string("/proc/net/unix").is_ok_and(|t| t.contains(&format!("@{name}")))
}

/// The fabric of net file `net`, simulated by ibsim, as the real `ibnetdiscover` finds it.
fn discovered(net: &str, umad2sim: &Path, what: &str) -> Result<Vec<u8>, String> {
    let dir = Scratch::new(&format!("ibsim-{what}"));
    let file = dir.0.join("fabric.net");
    std::fs::write(&file, net).unwrap();
    // ibsim and its clients meet on Unix sockets `<name>:ctl`, `<name>:out0` to `:out9`
    // (ibsim/ibsim.c sim_init_conn; IBSIM_MAX_CLIENTS is 10): a name of this test's own keeps
    // parallel tests and other simulators apart.
    let socket = dir.unique_name();
    let [nodes, switches, ports] = ibsim_tables(net);
    let mut ibsim = Daemon::start(
        "ibsim",
        Command::new("ibsim")
            // Start the fabric at once and read no console.
            .args(["-s", "-n"])
            .args(["-N", &nodes.to_string()])
            .args(["-S", &switches.to_string()])
            .args(["-P", &ports.to_string()])
            .arg(&file)
            .env("IBSIM_SOCKNAME", &socket),
        &dir.0,
    )?;
    // The last socket it binds before it serves.
    ibsim.wait_until(Duration::from_secs(20), || {
        unix_socket_bound(&format!("{socket}:out9"))
    })?;
    let out = run(
        "ibnetdiscover",
        Command::new(sbin("ibnetdiscover"))
            .env("IBSIM_SOCKNAME", &socket)
            .env("LD_PRELOAD", umad2sim),
        &dir.0,
        Duration::from_secs(20),
    )?;
    Ok(out.into_bytes())
}

/// The links of an `ibnetdiscover` dump as the engine's as-built parser reads them, at the
/// planned width and with no rate: ibsim 0.10 reads lane rates up to HDR only (ibsim/sim_net.c
/// parse_port_link_width_and_speed) and brings an NDR link up at SDR, so the simulated fabric
/// says where each cable is, not how fast it runs.
fn ports_of(dump: &[u8]) -> Vec<ObservedLink> {
    let mut links = ibnetdiscover::parse(dump).unwrap();
    for l in &mut links {
        assert_eq!(l.width, Some(4), "{l:?}");
        l.speed_gbps = None;
        l.rate = None;
    }
    links
}

fn findings(
    report: &Report,
    fabric: &str,
    links: &[ObservedLink],
) -> BTreeMap<String, &'static str> {
    check(report, Some(fabric), links)
        .findings
        .iter()
        .map(|c| (c.label.clone(), c.status.key()))
        .collect()
}

/// Every InfiniBand fabric's planned topology file, handed to the InfiniBand simulator ibsim
/// as its net file, discovered by the real `ibnetdiscover` through ibsim's umad2sim library,
/// and read back by the as-built check: every planned cable is found on its planned ports
/// (ports, not speeds: see `ports_of`). Then the 4-SU SuperPOD's compute fabric built with two
/// cables swapped at a leaf and one left out: the check reports exactly those three.
#[test]
fn ibnetdiscover_finds_every_planned_infiniband_cable_in_ibsim_on_its_planned_ports() {
    let Some(umad2sim) = umad2sim() else {
        missing(&"ibsim's umad2sim library (libumad2sim0)");
        return;
    };
    if !installed(Path::new("ibsim")) || !installed(&sbin("ibnetdiscover")) {
        return;
    }
    let mut fabrics = 0;
    for (example, spec) in engine::examples::ALL {
        let spec = DesignSpec::from_json(spec).unwrap();
        let report = evaluate(&spec).unwrap();
        for (name, net) in bundle(&spec, &report) {
            let Some(fabric) = name
                .strip_prefix("infiniband/")
                .and_then(|n| n.strip_suffix("-ibnetdiscover.net"))
            else {
                continue;
            };
            let dump = discovered(&net, &umad2sim, fabric)
                .unwrap_or_else(|e| panic!("{example} {fabric}: {e}"));
            let links = ports_of(&dump);
            let result = check(&report, Some(fabric), &links);
            assert!(
                result.findings.is_empty() && result.extra.is_empty(),
                "{example} {fabric}: {:?} {:?}",
                result.findings.first(),
                result.extra.first()
            );
            assert!(result.cables() > 0, "{example} {fabric}");
            assert_eq!(result.total.as_planned as usize, result.cables());
            fabrics += 1;
        }
    }
    assert!(fabrics >= 4, "{fabrics} InfiniBand fabrics");

    let report = evaluate(&DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap()).unwrap();
    let (planned, _) = planned(&report);
    let compute = planned.iter().find(|f| f.fabric.name == "compute").unwrap();
    let mut links = ibnet::planned_links(compute);
    // C00001 (node-001 NIC 1 to leaf 01 port 1) and C00009 (node-002 NIC 1 to its port 2)
    // exchanged at the leaf; C00101 never plugged in.
    assert_eq!(
        [0, 8, 100].map(|i| compute.cables[i].label.as_str()),
        ["C00001", "C00009", "C00101"]
    );
    assert_eq!(
        [&links[0], &links[8]].map(|l| (l.peer_device.as_str(), l.peer_port.as_str())),
        [("compute-leaf-01", "p1"), ("compute-leaf-01", "p2")]
    );
    let first = links[0].peer_port.clone();
    links[0].peer_port = std::mem::replace(&mut links[8].peer_port, first);
    links.remove(100);
    let built = ibnet::ibnetdiscover(compute, &links);
    let dump = discovered(&built, &umad2sim, "miscabled").unwrap();
    let links = ports_of(&dump);
    assert_eq!(
        findings(&report, "compute", &links),
        BTreeMap::from([
            ("C00001".to_string(), "swapped"),
            ("C00009".to_string(), "swapped"),
            ("C00101".to_string(), "missing"),
        ])
    );
    assert!(check(&report, Some("compute"), &links).extra.is_empty());
}

/// Two TCP ports of the loopback that nothing listens on: bound to port 0, the system's pick.
fn free_ports() -> [u16; 2] {
    let a = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let b = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    [a, b].map(|l| l.local_addr().unwrap().port())
}

/// Whether something listens on TCP port `port` (`/proc/net/tcp`, state `0A`): a way to see
/// that a daemon serves without a connection it would log.
fn tcp_listening(port: u16) -> bool {
    ["/proc/net/tcp", "/proc/net/tcp6"].iter().any(|table| {
        std::fs::read_to_string(table)
            .unwrap_or_default()
            .lines()
            .skip(1)
            .any(|line| {
                let fields: Vec<&str> = line.split_whitespace().collect();
                fields.len() > 3
                    && fields[3] == "0A"
                    && fields[1]
                        .rsplit(':')
                        .next()
                        .and_then(|p| u16::from_str_radix(p, 16).ok())
                        == Some(port)
            })
    })
}

/// What slurmctld says at every start of a fresh controller, none of it about the topology:
/// Debian's build loads every MPI plugin and PMIx's library is not installed, and a new state
/// folder holds no saved state.
const EVERY_START: [&str; 4] = [
    "mpi/pmix",
    "MPI: Cannot create context",
    "state file",
    "state save file",
];

/// Slurm's controller started on `topology` (topology.conf) beside a slurm.conf that declares
/// `nodes` and nothing else it could do without: `scontrol show topology` as it answers, or
/// `Err` with its complaints when it stops or says anything else than `EVERY_START`.
/// [slurm.schedmd.com/slurm.conf.html, topology.conf.html; SchedMD/slurm
/// src/plugins/topology/tree/topology_tree.c for the complaints]
fn slurm_reads(topology: &str, nodes: &[&str], what: &str) -> Result<String, String> {
    let dir = Scratch::new(&format!("slurm-{what}"));
    let [port, slurmd_port] = free_ports();
    let user = Command::new("id").arg("-un").output().unwrap();
    let user = String::from_utf8_lossy(&user.stdout).trim().to_string();
    let folder = dir.0.display();
    // auth/none and cred/none (both still in 22.05) let it start without a munge daemon; the
    // nodes' slurmd port is a free one of the loopback, where nothing answers its pings.
    let conf = format!(
        "ClusterName=fabricplanner\n\
         SlurmctldHost=localhost\n\
         SlurmctldPort={port}\n\
         SlurmdPort={slurmd_port}\n\
         SlurmUser={user}\n\
         AuthType=auth/none\n\
         CredType=cred/none\n\
         MpiDefault=none\n\
         MailProg=/bin/true\n\
         TopologyPlugin=topology/tree\n\
         StateSaveLocation={folder}/state\n\
         SlurmctldPidFile={folder}/slurmctld.pid\n\
         SlurmctldLogFile={folder}/slurmctld.log\n\
         SlurmctldDebug=info\n\
         NodeName={} NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN\n\
         PartitionName=all Nodes=ALL Default=YES State=UP\n",
        hostlist(nodes)
    );
    std::fs::create_dir_all(dir.0.join("state")).unwrap();
    let slurm_conf = dir.0.join("slurm.conf");
    std::fs::write(&slurm_conf, conf).unwrap();
    // slurmctld reads topology.conf from slurm.conf's folder.
    std::fs::write(dir.0.join("topology.conf"), topology).unwrap();
    let log = dir.0.join("slurmctld.log");
    let complaints = || -> Vec<String> {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .filter(|l| {
                let lower = l.to_ascii_lowercase();
                ["error:", "fatal:", "warning"]
                    .iter()
                    .any(|w| lower.contains(w))
                    && !EVERY_START.iter().any(|known| l.contains(known))
            })
            .map(str::to_string)
            .collect()
    };
    // In the foreground (-D), ignoring the state it has not saved (-i).
    let mut slurmctld = Daemon::start(
        "slurmctld",
        Command::new(sbin("slurmctld"))
            .args(["-D", "-i", "-f"])
            .arg(&slurm_conf)
            .env("SLURM_CONF", &slurm_conf),
        &dir.0,
    )?;
    // It reads and checks the topology before it listens.
    slurmctld
        .wait_until(Duration::from_secs(20), || tcp_listening(port))
        .map_err(|e| format!("{e}\n{}", complaints().join("\n")))?;
    let shown = run(
        "scontrol",
        Command::new("scontrol")
            .args(["show", "topology"])
            .env("SLURM_CONF", &slurm_conf),
        &dir.0,
        Duration::from_secs(10),
    )?;
    let complaints = complaints();
    if complaints.is_empty() {
        Ok(shown)
    } else {
        Err(complaints.join("\n"))
    }
}

/// `Key=value` pairs of a line of topology.conf or of `scontrol show topology`.
fn pairs(line: &str) -> BTreeMap<&str, &str> {
    line.split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .collect()
}

/// Switch name → (nodes, child switches), each expanded.
type Tree = BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>;

fn tree(text: &str) -> Tree {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let kv = pairs(l);
            let list = |key| {
                kv.get(key)
                    .map(|v| expand_hostlist(v).into_iter().collect())
                    .unwrap_or_default()
            };
            (
                kv["SwitchName"].to_string(),
                (list("Nodes"), list("Switches")),
            )
        })
        .collect()
}

/// Every example's Slurm topology.conf read by Slurm's own controller (`slurmctld` with the
/// topology/tree plugin): it starts without a word about the topology, and `scontrol show
/// topology` gives back every switch of the file with its nodes and child switches, each node
/// reached from the top. A top switch naming a switch that does not exist stops it, and a node
/// under two leaves draws its warning: the test sees both. (The block plugin's file is checked
/// against its documented syntax in `handoff_schedulers.rs`: Slurm 22.05 has no block plugin.)
#[test]
fn slurmctld_reads_every_slurm_topology_as_written() {
    if !installed(&sbin("slurmctld")) || !installed(Path::new("scontrol")) {
        return;
    }
    let mut superpod = None;
    for (example, json) in engine::examples::ALL {
        let spec = DesignSpec::from_json(json).unwrap();
        let report = evaluate(&spec).unwrap();
        let files: BTreeMap<String, String> = bundle(&spec, &report).into_iter().collect();
        let (fabrics, _) = planned(&report);
        let fabric = scheduling_fabric(&fabrics).unwrap();
        let nodes: Vec<&str> = fabric
            .hosts()
            .into_iter()
            .filter(|h| !h.contains("-endpoint-"))
            .collect();
        let topology = &files["slurm/topology.conf"];
        let shown = slurm_reads(topology, &nodes, example)
            .unwrap_or_else(|e| panic!("{example}: slurmctld: {e}"));
        let written = tree(topology);
        let read = tree(&shown);
        assert_eq!(
            read.keys().collect::<Vec<_>>(),
            written.keys().collect::<Vec<_>>(),
            "{example}: {shown}"
        );
        for (name, (nodes_under, children)) in &written {
            let (read_nodes, read_children) = &read[name];
            assert_eq!(read_children, children, "{example} {name}");
            // Slurm lists under an upper switch every node below it.
            let below: BTreeSet<String> = if children.is_empty() {
                nodes_under.clone()
            } else {
                children.iter().flat_map(|c| read[c].0.clone()).collect()
            };
            assert_eq!(read_nodes, &below, "{example} {name}");
        }
        let all: BTreeSet<String> = nodes.iter().map(|n| n.to_string()).collect();
        assert!(
            read.values().any(|(under, _)| *under == all),
            "{example}: no switch reaches every node: {shown}"
        );
        if json == engine::examples::SUPERPOD_4SU {
            superpod = Some((
                topology.clone(),
                nodes.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
            ));
        }
    }

    // The same SuperPOD topology broken by hand, twice.
    let (topology, nodes) = superpod.expect("the SuperPOD's compute topology");
    let nodes: Vec<&str> = nodes.iter().map(String::as_str).collect();
    let unknown_child =
        topology.replace("Switches=compute-su[01-04]", "Switches=compute-su[01-05]");
    assert_ne!(unknown_child, topology);
    let e = slurm_reads(&unknown_child, &nodes, "unknown-child").unwrap_err();
    assert!(e.contains("invalid child (compute-su05)"), "{e}");
    let twice = topology.replace("Nodes=node-[001-032]", "Nodes=node-[001-033]");
    assert_ne!(twice, topology);
    let e = slurm_reads(&twice, &nodes, "node-twice").unwrap_err();
    assert!(
        e.contains("Multiple leaf switches contain nodes: node-033"),
        "{e}"
    );
}
