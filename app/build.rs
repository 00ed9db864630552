// Embedded migrations must be re-read when they change.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
