//! A failing browser test must leave no server, driver or browser process behind.

use browser_tests::{Browser, JavaScript, Server};
use std::process::Command;

const PROBE: &str = "FABRIC_PLANNER_FAILING_PROBE";

/// Starts a server and a browser, writes their process ids, then fails. Does nothing unless
/// the cleanup test below runs it.
#[tokio::test]
async fn failing_probe() {
    let Some(pid_file) = std::env::var_os(PROBE) else {
        return;
    };
    let server = Server::start().await;
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url("/")).await;
    std::fs::write(
        &pid_file,
        format!("{} {}", server.pid(), browser.driver_pid()),
    )
    .unwrap();
    panic!("this probe fails on purpose");
}

fn alive(pid: &str) -> bool {
    // A reaped process has no /proc entry; a zombie would show state Z.
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| !stat.contains(") Z "))
        .unwrap_or(false)
}

/// Live (not zombie) members of process group `group`.
fn group_members(group: &str) -> Vec<String> {
    let out = Command::new("pgrep")
        .args(["-g", group])
        .output()
        .expect("pgrep runs");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .filter(|pid| alive(pid))
        .map(str::to_string)
        .collect()
}

/// SIGKILL is delivered asynchronously: give the killed processes a moment to be gone.
fn gone_soon(pid: &str) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        if !alive(pid) && group_members(pid).is_empty() {
            return true;
        }
        if std::time::Instant::now() > deadline {
            eprintln!("still running in group {pid}: {:?}", group_members(pid));
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_failing_test_leaves_no_server_or_browser_process_behind() {
    let dir = browser_tests::temp_dir();
    let pid_file = dir.path().join("pids");
    let status = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "cleanup::failing_probe",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(PROBE, &pid_file)
        .status()
        .expect("the probe runs");
    assert!(!status.success(), "the probe must fail");
    let pids = std::fs::read_to_string(&pid_file).expect("the probe started its processes");
    for pid in pids.split_whitespace() {
        assert!(
            gone_soon(pid),
            "processes of group {pid} outlived the failed test"
        );
    }
}
