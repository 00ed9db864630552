#!/usr/bin/env bash
# Builds Fabric Planner (release) and runs it: http://127.0.0.1:3000/ with the designs in
# ./data/fabric-planner.db. Arguments go to `fabric-planner serve` (try --help);
# FABRIC_PLANNER_ADDR and FABRIC_PLANNER_DATABASE work too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/env.sh
cargo leptos build --release
exec target/release/fabric-planner serve "$@"
