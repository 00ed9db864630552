//! The server's tests, one binary: the real server over HTTP against a temporary SQLite file and
//! a PostgreSQL server of its own, the command line, and the limits it keeps. One binary links
//! the server (and Typst) once for every test. Run with cargo-nextest, as `scripts/test.sh`
//! does: each test then has a process of its own, which the process-wide settings some tests
//! change (secure cookies behind an https public URL, the typesetting counters) need.

mod common;

// Every other file here is a module of tests: a new one needs no line of its own.
automod::dir!("tests/suite");
