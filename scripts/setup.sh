#!/usr/bin/env bash
# Installs what building Fabric Planner needs, once; safe to run again (each step checks first).
#   scripts/setup.sh            the build tools: wasm32 target, cargo-leptos, wasm-bindgen-cli, wasm-opt
#   scripts/setup.sh --browser  also Chromium and ChromeDriver for the browser tests
# Source scripts/env.sh afterwards (run.sh and test.sh do) to put the local tools on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

step() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'setup: %s\n' "$*" >&2; exit 1; }

command -v cargo >/dev/null || fail "cargo is missing: install Rust with rustup (https://rustup.rs)"

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  step "adding the wasm32-unknown-unknown Rust target"
  rustup target add wasm32-unknown-unknown
fi

# cargo-leptos 0.3.11 needs a newer rustc than 1.95; 0.3.10 builds. Without LTO it installs in
# about 10 minutes on 2 cores instead of 16, and behaves the same.
if ! cargo leptos --version 2>/dev/null | grep -q " ${CARGO_LEPTOS_VERSION}\$"; then
  step "installing cargo-leptos ${CARGO_LEPTOS_VERSION} (about 10 minutes, once)"
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install cargo-leptos --locked --version "${CARGO_LEPTOS_VERSION}"
fi

# Must equal the wasm-bindgen crate pinned in Cargo.toml. Not --locked: its lock file asks for a
# webpki-roots version that the registry mirror lacks.
if ! wasm-bindgen --version 2>/dev/null | grep -q " ${WASM_BINDGEN_VERSION}\$"; then
  step "installing wasm-bindgen-cli ${WASM_BINDGEN_VERSION} (about 3 minutes, once)"
  cargo install wasm-bindgen-cli --version "${WASM_BINDGEN_VERSION}"
fi

# binaryen from npm: Debian's older wasm-opt produces a bundle that never hydrates.
if ! wasm-opt --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION}"; then
  command -v npm >/dev/null || fail "npm is missing: it installs wasm-opt (as root: apt-get install -y nodejs npm)"
  step "installing wasm-opt (npm binaryen@${BINARYEN_VERSION}) into ${TOOLS_DIR}"
  npm install --silent --no-audit --no-fund --prefix "${TOOLS_DIR}/binaryen" "binaryen@${BINARYEN_VERSION}"
fi

# The tests hand the bundle's Arista AVD inputs to Arista's own pyavd, from PyPI, in a venv of
# its own under .tools/.
if [ "${1:-}" = "--browser" ] && [ ! -e "${TOOLS_DIR}/pyavd/installed-${PYAVD_VERSION}" ]; then
  step "installing pyavd ${PYAVD_VERSION} from PyPI into ${TOOLS_DIR}/pyavd (under a minute, once)"
  command -v python3 >/dev/null || fail "python3 is missing: the tests run Arista's pyavd"
  rm -rf "${TOOLS_DIR}/pyavd"
  python3 -m venv "${TOOLS_DIR}/pyavd"
  "${TOOLS_DIR}/pyavd/bin/python" -m pip install -q --disable-pip-version-check "pyavd==${PYAVD_VERSION}"
  touch "${TOOLS_DIR}/pyavd/installed-${PYAVD_VERSION}"
fi

# The tests check the API's OpenAPI document and validate real bodies against it with
# openapi-spec-validator (and its jsonschema), from PyPI, in a venv of its own under .tools/.
if [ "${1:-}" = "--browser" ] && [ ! -e "${TOOLS_DIR}/openapi/installed-${OPENAPI_VALIDATOR_VERSION}" ]; then
  step "installing openapi-spec-validator ${OPENAPI_VALIDATOR_VERSION} from PyPI into ${TOOLS_DIR}/openapi"
  rm -rf "${TOOLS_DIR}/openapi"
  python3 -m venv "${TOOLS_DIR}/openapi"
  "${TOOLS_DIR}/openapi/bin/python" -m pip install -q --disable-pip-version-check \
    "openapi-spec-validator==${OPENAPI_VALIDATOR_VERSION}"
  touch "${TOOLS_DIR}/openapi/installed-${OPENAPI_VALIDATOR_VERSION}"
fi

# The tests also read PDFs (pdftotext, pdftoppm, pdfinfo from poppler-utils), have Graphviz
# lay out the hand-off bundle's graphs (dot, from graphviz), run its InfiniBand topologies in the
# simulator ibsim (ibsim-utils) for the real ibnetdiscover (infiniband-diags), and start Slurm's
# controller on its Slurm topologies (slurmctld, and scontrol from slurm-client).
# Debian puts ibnetdiscover and slurmctld in /usr/sbin, which a user's PATH may lack (the tests
# look there too).
have() { PATH="${PATH}:/usr/sbin:/sbin" command -v "$1" >/dev/null; }
if [ "${1:-}" = "--browser" ]; then
  if ! have chromium || ! have chromedriver || ! have pdftotext || ! have dot \
    || ! have ibsim || ! have ibnetdiscover || ! have slurmctld || ! have scontrol; then
    if [ "$(id -u)" = 0 ]; then
      step "installing Chromium, ChromeDriver, poppler-utils, Graphviz, ibsim, infiniband-diags and Slurm from Debian"
      export DEBIAN_FRONTEND=noninteractive
      apt-get install -y -q chromium chromium-driver poppler-utils graphviz ibsim-utils infiniband-diags slurmctld slurm-client >/dev/null \
        || { apt-get update -q >/dev/null && apt-get install -y -q chromium chromium-driver poppler-utils graphviz ibsim-utils infiniband-diags slurmctld slurm-client >/dev/null; }
    else
      fail "the tests need Chromium, ChromeDriver, poppler-utils, Graphviz, ibsim, infiniband-diags and Slurm's controller: as root, run apt-get install -y chromium chromium-driver poppler-utils graphviz ibsim-utils infiniband-diags slurmctld slurm-client"
    fi
  fi
fi
