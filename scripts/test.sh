#!/usr/bin/env bash
# Runs every check and test of Fabric Planner, installing what is missing first:
# formatting, clippy per package and feature set, the release build, then all tests
# (engine, app, server over HTTP with a real SQLite file and on a real PostgreSQL server,
# headless Chromium end to end).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser
source scripts/env.sh
# A run from a clean clone builds everything once: incremental caches would only double the disk it needs.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

step() { printf '\n==> %s\n' "$*" >&2; }

step "formatting"
cargo fmt --all --check

step "clippy, per package and feature set (ssr and hydrate never together)"
cargo clippy -q -p engine --all-targets -- -D warnings
cargo clippy -q -p engine --all-targets --features schema -- -D warnings
cargo clippy -q -p engine --target wasm32-unknown-unknown -- -D warnings
cargo clippy -q -p app --features ssr --all-targets -- -D warnings
cargo clippy -q -p app --features hydrate --target wasm32-unknown-unknown -- -D warnings
cargo clippy -q -p server --all-targets -- -D warnings
cargo clippy -q -p browser-tests --all-targets -- -D warnings

step "release build (server and browser bundle)"
cargo leptos build --release

step "tests"
# The store's tests on PostgreSQL run against a server of their own, stopped when the run ends.
FABRIC_PLANNER_TEST_POSTGRES="$(scripts/postgres.sh start)"
export FABRIC_PLANNER_TEST_POSTGRES FABRIC_PLANNER_REQUIRE_POSTGRES=1
# The exports' real consumers that setup installed (Graphviz) must run, not be skipped.
export FABRIC_PLANNER_REQUIRE_CONSUMERS=1
trap 'scripts/postgres.sh stop' EXIT
leftovers() { pgrep -f fabric-planner-e2e- || true; }
status=0
if command -v cargo-nextest >/dev/null; then
  cargo nextest run --workspace --no-fail-fast || status=$?
else
  cargo test --workspace --no-fail-fast || status=$?
fi
cargo test --workspace --doc || status=$?

# The browser tests start servers and browsers with this marker in their arguments; none may
# outlive the run, whether the tests passed or failed.
if [ -n "$(leftovers)" ]; then
  echo "test: processes left behind by the tests:" >&2
  ps -o pid,args -p "$(leftovers | paste -sd,)" >&2 || true
  pkill -KILL -f fabric-planner-e2e- || true
  status=1
fi
exit $status
