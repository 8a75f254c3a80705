#!/usr/bin/env bash
# Install Debian packages the way every install in this repository does: wait for another apt/dpkg run
# to finish instead of failing on its lock. dpkg's lock waits through DPkg::Lock::Timeout; `apt-get
# update`'s lists lock has no such wait, so the update and the install are retried as a whole.
# Usage (as root): bash scripts/apt-install.sh PACKAGE... (extra apt-get options may come first, e.g. --reinstall)
set -uo pipefail
wait_s=${APT_LOCK_TIMEOUT:-600}
for try in 1 2 3 4 5 6 7 8 9 10; do
  if apt-get -o DPkg::Lock::Timeout="$wait_s" update -qq >/dev/null 2>&1 &&
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout="$wait_s" install -y -qq "$@" >/dev/null; then
    exit 0
  fi
  echo "apt-get could not install $* (try $try of 10; another install may hold the lock): retrying in 5 s" >&2
  sleep 5
done
echo "apt-get could not install $* after 10 tries" >&2
exit 1
