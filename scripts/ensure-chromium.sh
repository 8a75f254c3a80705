#!/usr/bin/env bash
# End-to-end tests drive Debian's Chromium; install it when it is missing (root on Debian).
set -euo pipefail
path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$path" ]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "Installing Chromium from Debian's packages (needed by the end-to-end tests)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "Chromium not found at $path: install it (apt-get install chromium) or set CHROMIUM_PATH." >&2
  exit 1
fi
