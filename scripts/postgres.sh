#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests that run the store on PostgreSQL:
#   scripts/postgres.sh start   installs Debian's postgresql if missing, starts a server of its own
#                               on 127.0.0.1:55432 (data in /tmp/fabric-planner-postgres) and prints its URL
#   scripts/postgres.sh stop    stops it
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=55432
# Outside the checkout, so that the postgres user can reach it wherever the checkout lives.
DATA="${TMPDIR:-/tmp}/fabric-planner-postgres"
URL="postgres://postgres@127.0.0.1:${PORT}/postgres"

fail() { printf 'postgres: %s\n' "$*" >&2; exit 1; }

# Runs a PostgreSQL program as the postgres user when this script runs as root (the server
# refuses to run as root).
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

bin_dir() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

case "${1:-}" in
  start)
    if [ -z "$(bin_dir)" ]; then
      [ "$(id -u)" = 0 ] || fail "PostgreSQL is missing: as root, run apt-get install -y postgresql"
      printf '==> installing PostgreSQL from Debian\n' >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get install -y -q postgresql >/dev/null \
        || { apt-get update -q >/dev/null && apt-get install -y -q postgresql >/dev/null; }
    fi
    BIN="$(bin_dir)"
    mkdir -p "${DATA}"
    [ "$(id -u)" = 0 ] && chown postgres "${DATA}"
    if [ ! -f "${DATA}/PG_VERSION" ]; then
      as_owner "${BIN}/initdb" --pgdata "${DATA}" --username postgres --auth trust \
        --encoding UTF8 --no-locale >/dev/null
    fi
    if ! as_owner "${BIN}/pg_ctl" --pgdata "${DATA}" status >/dev/null 2>&1; then
      as_owner "${BIN}/pg_ctl" --pgdata "${DATA}" --log "${DATA}/server.log" --wait \
        --options "-c listen_addresses=127.0.0.1 -c port=${PORT} -c unix_socket_directories=${DATA} -c max_connections=200 -c fsync=off" \
        start >/dev/null || { cat "${DATA}/server.log" >&2; fail "the server did not start"; }
    fi
    echo "${URL}"
    ;;
  stop)
    BIN="$(bin_dir)"
    if [ -n "${BIN}" ] && [ -f "${DATA}/PG_VERSION" ]; then
      as_owner "${BIN}/pg_ctl" --pgdata "${DATA}" --mode fast --wait stop >/dev/null 2>&1 || true
    fi
    ;;
  *)
    fail "usage: scripts/postgres.sh start|stop"
    ;;
esac
