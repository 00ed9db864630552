# Sourced by the other scripts: pinned tool versions and PATH for the tools they install.
CARGO_LEPTOS_VERSION=0.3.10
WASM_BINDGEN_VERSION=0.2.130
BINARYEN_VERSION=132
PYAVD_VERSION=6.4.0
OPENAPI_VALIDATOR_VERSION=0.9.0
TOOLS_DIR="$(pwd)/.tools"
export PATH="${TOOLS_DIR}/binaryen/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:${PATH}"
