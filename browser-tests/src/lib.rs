//! Helpers for the browser tests live in `src/`; the tests in `tests/`.
