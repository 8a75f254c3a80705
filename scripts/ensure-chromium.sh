#!/usr/bin/env bash
# End-to-end tests drive Debian's Chromium; install it when it is missing (root on Debian). Another
# install may run at the same moment (.ci/run's container check installs podman): scripts/apt-install.sh
# waits for its lock and retries.
set -euo pipefail
path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$path" ]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "Installing Chromium from Debian's packages (needed by the end-to-end tests)..."
  bash "$(dirname "$0")/apt-install.sh" chromium
else
  echo "Chromium not found at $path: install it (apt-get install chromium) or set CHROMIUM_PATH." >&2
  exit 1
fi
