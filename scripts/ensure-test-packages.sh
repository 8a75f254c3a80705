#!/usr/bin/env bash
# The suites need two programs from Debian's packages: Chromium (the end-to-end tests drive it) and
# PostgreSQL (its suites start a throwaway server of their own, tests/pg.ts). Whatever is missing is
# installed in ONE call of scripts/apt-install.sh (root on Debian), which waits for the package lock and
# retries: on a fresh machine .ci/run's container check installs podman at the same moment.
#   CHROMIUM_PATH  another Chromium (default /usr/bin/chromium)
#   PG_BIN         another PostgreSQL bin folder (default: the newest /usr/lib/postgresql/*/bin)
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$chromium" ] || missing+=(chromium)
if [ -z "${PG_BIN:-}" ] && ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then missing+=(postgresql); fi
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "Installing ${missing[*]} from Debian's packages (needed by the tests)..."
  bash "$(dirname "$0")/apt-install.sh" "${missing[@]}"
else
  echo "Missing for the tests: ${missing[*]}. As root on Debian: bash scripts/apt-install.sh ${missing[*]} (or set CHROMIUM_PATH / PG_BIN)." >&2
  exit 1
fi
