// Embedded migrations must be re-read when they change; and the build's identity is the hash of
// the sources that define what the server and the browser send each other, so that the server
// binary and the browser bundle of one build agree on it and a page written by one build is never
// read by another's bundle (`wire::BUILD`).
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
    let sources = [
        "src",
        "../engine/src",
        "Cargo.toml",
        "../engine/Cargo.toml",
        "../Cargo.lock",
    ];
    let mut files = Vec::new();
    for source in sources {
        println!("cargo:rerun-if-changed={source}");
        collect(Path::new(source), &mut files);
    }
    files.sort();
    // FNV-1a over each file's path and contents: the same on every machine and compiler.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for file in &files {
        let contents = std::fs::read(file).unwrap_or_default();
        for byte in file.to_string_lossy().bytes().chain(contents) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=FABRIC_PLANNER_BUILD={hash:016x}");
}

/// Every file under `path`.
fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    match std::fs::read_dir(path) {
        Ok(entries) => {
            for entry in entries.flatten() {
                collect(&entry.path(), files);
            }
        }
        Err(_) if path.is_file() => files.push(path.to_path_buf()),
        Err(_) => {}
    }
}
