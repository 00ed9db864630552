//! Harness for the end-to-end tests: the built release server on a free port with its own
//! SQLite file, and headless Chromium driven through ChromeDriver.
//!
//! Every process started here runs in a process group of its own that is killed when its
//! handle drops, so a failing test (a panic unwinds through the drops) leaves nothing running.
//! Their arguments carry [`MARKER`], which `scripts/test.sh` looks for afterwards.

mod browser;
mod process;
mod server;

pub use browser::{print_to_pdf, Browser, JavaScript, PageLoad};
pub use server::{Created, Server};

/// Part of the name of every temporary folder these tests create, and so of the arguments of
/// every process they start.
pub const MARKER: &str = "fabric-planner-e2e-";

/// A fresh temporary folder named with [`MARKER`].
pub fn temp_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(MARKER)
        .tempdir()
        .expect("a temporary folder can be created")
}

/// The shipped example `name` (`rag.json`, `superpod-4su.json`, …) as the JSON a client sends.
pub fn example(name: &str) -> serde_json::Value {
    let (_, text) = engine::examples::ALL
        .iter()
        .find(|(file, _)| *file == name)
        .unwrap_or_else(|| panic!("no example is called {name}"));
    serde_json::from_str(text).expect("a shipped example is JSON")
}

/// The workspace root (the browser tests run from their crate folder).
pub fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_path_buf()
}
