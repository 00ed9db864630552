//! Slurm's own controller reads each Slurm topology.

use super::daemon::*;
use super::*;

/// Two TCP ports of the loopback that nothing listens on: bound to port 0, the system's pick.
pub(crate) fn free_ports() -> [u16; 2] {
    let a = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let b = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    [a, b].map(|l| l.local_addr().unwrap().port())
}

/// Whether something listens on TCP port `port` (`/proc/net/tcp`, state `0A`): a way to see
/// that a daemon serves without a connection it would log.
pub(crate) fn tcp_listening(port: u16) -> bool {
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
/// folder holds no saved state. On a busy machine it also times its clock at start and says so
/// ("High latency for 1000 calls to gettimeofday()"): about the machine, not the topology.
pub(crate) const EVERY_START: [&str; 5] = [
    "mpi/pmix",
    "MPI: Cannot create context",
    "state file",
    "state save file",
    "High latency for 1000 calls to gettimeofday()",
];

/// Slurm's controller started on `topology` (topology.conf) beside a slurm.conf that declares
/// `nodes` and nothing else it could do without: `scontrol show topology` as it answers, or
/// `Err` with its complaints when it stops or says anything else than `EVERY_START`.
/// [slurm.schedmd.com/slurm.conf.html, topology.conf.html; SchedMD/slurm
/// src/plugins/topology/tree/topology_tree.c for the complaints]
pub(crate) fn slurm_reads(topology: &str, nodes: &[&str], what: &str) -> Result<String, String> {
    slurm_shows(topology, None, nodes, what, &["show", "topology"])
}

/// [`slurm_reads`] with `partitions` (a partitions file, included from slurm.conf) beside the
/// topology, answering `scontrol <show...>` instead.
pub(crate) fn slurm_shows(
    topology: &str,
    partitions: Option<&str>,
    nodes: &[&str],
    what: &str,
    show: &[&str],
) -> Result<String, String> {
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
         PartitionName=all Nodes=ALL Default=YES State=UP\n{}",
        hostlist(nodes),
        partitions.map_or(String::new(), |_| format!(
            "Include {folder}/partitions.conf\n"
        ))
    );
    if let Some(text) = partitions {
        std::fs::write(dir.0.join("partitions.conf"), text).unwrap();
    }
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
            .args(show)
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
pub(crate) fn pairs(line: &str) -> BTreeMap<&str, &str> {
    line.split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .collect()
}

/// Switch name → (nodes, child switches), each expanded.
pub(crate) type Tree = BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>;

pub(crate) fn tree(text: &str) -> Tree {
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
pub(crate) fn slurmctld_reads_every_slurm_topology_as_written() {
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
