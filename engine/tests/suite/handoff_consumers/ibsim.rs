//! The InfiniBand simulator ibsim runs each planned InfiniBand fabric for the real ibnetdiscover.

use super::daemon::*;
use super::*;

/// ibsim's umad2sim library, which hands a libibumad tool's MADs to the simulator instead of
/// an adapter (Debian libumad2sim0 installs it under the architecture's library folder).
pub(crate) fn umad2sim() -> Option<PathBuf> {
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
pub(crate) fn ibsim_tables(net: &str) -> [usize; 3] {
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
pub(crate) fn unix_socket_bound(name: &str) -> bool {
    std::fs::read_to_string("/proc/net/unix").is_ok_and(|t| t.contains(&format!("@{name}")))
}

/// The fabric of net file `net`, simulated by ibsim, as the real `ibnetdiscover` finds it.
pub(crate) fn discovered(net: &str, umad2sim: &Path, what: &str) -> Result<Vec<u8>, String> {
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
pub(crate) fn ports_of(dump: &[u8]) -> Vec<ObservedLink> {
    let mut links = ibnetdiscover::parse(dump).unwrap();
    for l in &mut links {
        assert_eq!(l.width, Some(4), "{l:?}");
        l.speed_gbps = None;
        l.rate = None;
    }
    links
}

pub(crate) fn findings(
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
/// (ports, not speeds: see `ports_of`), a DGX's adapters read by the names a DGX gives them. Then
/// the 4-SU SuperPOD's compute fabric built with two cables swapped at a leaf and one left out:
/// the check reports exactly those three.
#[test]
pub(crate) fn ibnetdiscover_finds_every_planned_infiniband_cable_in_ibsim_on_its_planned_ports() {
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
            let mut links = ports_of(&dump);
            // A DGX's adapters describe themselves as it names them (`node-001 mlx5_0`).
            engine::asbuilt::on_sheet(
                &mut links,
                fabric,
                engine::catalog::adapters_of(&spec, fabric),
            );
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

    let spec = DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap();
    let report = evaluate(&spec).unwrap();
    let adapters = engine::catalog::adapters_of(&spec, "compute");
    let (planned, _) = planned(&report);
    let compute = planned.iter().find(|f| f.fabric.name == "compute").unwrap();
    let mut links = ibnet::planned_links(compute);
    // C00001 (node-001 NIC 1 to leaf 01 port 1) and C00009 (node-002 NIC 1 to its port 2)
    // exchanged at the leaf; C00101 never plugged in.
    assert_eq!(
        [0, 8, 100].map(|i| compute.cable(i).unwrap().label),
        ["C00001", "C00009", "C00101"]
    );
    assert_eq!(
        [&links[0], &links[8]].map(|l| (l.peer_device.as_str(), l.peer_port.as_str())),
        [("compute-leaf-01", "p1"), ("compute-leaf-01", "p2")]
    );
    let first = links[0].peer_port.clone();
    links[0].peer_port = std::mem::replace(&mut links[8].peer_port, first);
    links.remove(100);
    let built = ibnet::ibnetdiscover(compute, &links, adapters);
    let dump = discovered(&built, &umad2sim, "miscabled").unwrap();
    let mut links = ports_of(&dump);
    engine::asbuilt::on_sheet(&mut links, "compute", adapters);
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

/// The 16-SU SuperPOD, wired by rail under a core as the reference architecture wires 16 SU and
/// more, run by ibsim: the real ibnetdiscover finds every one of its 12,284 cables on its planned
/// ports, and the as-built check reports nothing.
#[test]
fn ibnetdiscover_finds_the_16_su_superpod_s_rail_optimised_three_tiers_as_planned() {
    let Some(umad2sim) = umad2sim() else {
        missing(&"ibsim's umad2sim library (libumad2sim0)");
        return;
    };
    if !installed(Path::new("ibsim")) || !installed(&sbin("ibnetdiscover")) {
        return;
    }
    let mut value: serde_json::Value =
        serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    value["cluster"]["nodes"] = 511.into();
    value.as_object_mut().unwrap().remove("growth");
    let spec = DesignSpec::from_value(value).unwrap();
    let report = evaluate(&spec).unwrap();
    let compute = &report.fabrics[0];
    assert_eq!(compute.plan.layout, engine::Layout::RailOptimizedThreeTier);
    let files: BTreeMap<String, String> = bundle(&spec, &report).into_iter().collect();
    let dump = discovered(
        &files["infiniband/compute-ibnetdiscover.net"],
        &umad2sim,
        "su16",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut links = ports_of(&dump);
    engine::asbuilt::on_sheet(
        &mut links,
        "compute",
        engine::catalog::adapters_of(&spec, "compute"),
    );
    let result = check(&report, Some("compute"), &links);
    assert!(
        result.findings.is_empty() && result.extra.is_empty(),
        "{:?} {:?}",
        result.findings.first(),
        result.extra.first()
    );
    assert_eq!(result.cables(), 4092 + 4096 + 4096);
    assert_eq!(result.total.as_planned as usize, result.cables());
}
