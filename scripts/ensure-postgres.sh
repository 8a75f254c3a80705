#!/usr/bin/env bash
# The PostgreSQL suites (issue 29) start their own throwaway server from Debian's packages
# (tests/pg.ts: initdb into a temporary folder, a local port, stopped after the suite); install the
# packages when they are missing (root on Debian). Another install may run at the same moment (.ci/run's
# container check, the Chromium install): scripts/apt-install.sh waits for its lock and retries.
set -euo pipefail
if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || [ -n "${PG_BIN:-}" ]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "Installing PostgreSQL from Debian's packages (needed by the PostgreSQL suites)..."
  bash "$(dirname "$0")/apt-install.sh" postgresql
else
  echo "PostgreSQL not found under /usr/lib/postgresql: install it (apt-get install postgresql) or set PG_BIN to its bin folder." >&2
  exit 1
fi
