fn cpu_ms() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
    let f: Vec<&str> = s.rsplit(')').next().unwrap().split_whitespace().collect();
    (f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap()) * 10.0
}
macro_rules! time {
    ($n:expr, $name:expr, $e:expr) => {{
        let c = cpu_ms();
        for _ in 0..$n {
            std::hint::black_box($e);
        }
        eprintln!("{:<12} {:.1} ms", $name, (cpu_ms() - c) / $n as f64);
    }};
}
#[test]
fn parts() {
    let mut spec: serde_json::Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    spec["cluster"]["nodes"] = 2048.into();
    let spec = engine::DesignSpec::from_value(spec).unwrap();
    let report = engine::evaluate(&spec).unwrap();
    let (fabrics, _) = engine::handoff::planned(&report);
    let f = &fabrics[0];
    let dump = engine::handoff::ibnet::topology(f);
    let links = engine::asbuilt::ibnetdiscover::parse(dump.as_bytes()).unwrap();
    let n = 10;
    time!(
        n,
        "cabling",
        engine::cabling::cabling(&report.fabrics[0]).unwrap()
    );
    time!(n, "planned", engine::handoff::planned(&report));
    time!(
        n,
        "parse",
        engine::asbuilt::ibnetdiscover::parse(dump.as_bytes()).unwrap()
    );
    time!(n, "match", engine::asbuilt::check_fabrics(&[f], &links));
    time!(n, "topology", engine::handoff::ibnet::topology(f));
    time!(n, "cvt", engine::handoff::cvt::p2p_csv(f));
    time!(n, "dot", engine::handoff::dot::graph(f));
    time!(n, "nb if", engine::handoff::netbox::interfaces(&fabrics));
    time!(n, "nb cables", engine::handoff::netbox::cables(&fabrics));
    time!(
        n,
        "nb dev",
        engine::handoff::netbox::devices(&fabrics, None, "x")
    );
    time!(n, "slurm", engine::handoff::slurm::tree(f));
    time!(n, "k8s", engine::handoff::k8s::node_labels(&spec, f));
}
