//! The commands of the binary: the command line itself, and each command that runs without a
//! server (`evaluate`, `search`, `fit`, `handoff`, `moves`) or starts one (`serve`).

pub mod cli;
pub mod evaluate;
pub mod fit;
pub mod handoff;
pub mod moves;
pub mod search;
pub mod serve;
