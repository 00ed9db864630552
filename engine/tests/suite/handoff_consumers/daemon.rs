//! Tools and daemons run by a test, in a folder of its own, none outliving it.

use super::*;

/// A folder of one test's own under the system's temporary folder, removed when dropped.
pub(crate) struct Scratch(pub(crate) PathBuf);

impl Scratch {
    pub(crate) fn new(what: &str) -> Scratch {
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
    pub(crate) fn unique_name(&self) -> String {
        self.0.file_name().unwrap().to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The last `lines` lines of a file a tool wrote, for a failure message.
pub(crate) fn tail(path: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// A daemon a test started, its output in files of the test's folder (a pipe nobody reads
/// would stall a chatty one). Killed and reaped when dropped, so none outlives its test.
pub(crate) struct Daemon {
    child: Child,
    name: &'static str,
    out: PathBuf,
    err: PathBuf,
}

impl Daemon {
    pub(crate) fn start(
        name: &'static str,
        command: &mut Command,
        dir: &Path,
    ) -> Result<Daemon, String> {
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
    pub(crate) fn said(&self) -> String {
        format!("{}\n{}", tail(&self.out, 20), tail(&self.err, 20))
    }

    /// Polls `ready` until it holds; `Err` with what the daemon said when it exits first or
    /// `limit` passes.
    pub(crate) fn wait_until(
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
pub(crate) fn run(
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
