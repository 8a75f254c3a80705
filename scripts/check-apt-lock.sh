#!/usr/bin/env bash
# CI proof that a package install waits for another one instead of failing on its lock: a stand-in for
# a concurrent apt-get (python3's fcntl lock, the kind dpkg and apt take) holds dpkg's frontend lock and
# apt's lists lock for a few seconds while scripts/apt-install.sh reinstalls a small package. Without the
# lock wait and retry, apt-get fails at once with "Could not get lock /var/lib/dpkg/lock-frontend".
# Also checks that scripts/container-check.sh is the shared tool, byte for byte, when it sits beside us,
# and that no other script of ours runs apt-get itself: every install goes through scripts/apt-install.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
direct=$(grep -lE '^[^#]*\bapt-get\b.*\b(install|update)\b' scripts/*.sh | grep -vE '^scripts/(apt-install|container-check|check-apt-lock)\.sh$' || true)
if [ -n "$direct" ]; then
  echo "these scripts run apt-get without waiting for the package lock; call scripts/apt-install.sh instead: $direct" >&2
  exit 1
fi
if [ -f ../shared/tools/container-check.sh ] && ! cmp -s ../shared/tools/container-check.sh scripts/container-check.sh; then
  echo "scripts/container-check.sh differs from ../shared/tools/container-check.sh: copy it again" >&2
  exit 1
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null || ! command -v python3 >/dev/null; then
  echo "apt lock check: needs root, apt-get and python3; skipped on this machine"
  exit 0
fi
hold=${HOLD_SECONDS:-12}
python3 - "$hold" <<'PY' &
import fcntl, os, sys, time
fds = []
for path in ("/var/lib/dpkg/lock-frontend", "/var/lib/apt/lists/lock"):
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o640)
    fcntl.lockf(fd, fcntl.LOCK_EX)
    fds.append(fd)
open("/tmp/dibs-apt-lock-held", "w").close()
time.sleep(float(sys.argv[1]))
PY
holder=$!
trap 'kill "$holder" 2>/dev/null || true; rm -f /tmp/dibs-apt-lock-held' EXIT
for _ in $(seq 1 100); do [ -f /tmp/dibs-apt-lock-held ] && break; sleep 0.1; done
started=$(date +%s)
bash scripts/apt-install.sh --reinstall hostname
echo "apt lock check: an install started while another held the package locks for ${hold} s and succeeded after $(($(date +%s) - started)) s"
