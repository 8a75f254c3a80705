#!/usr/bin/env bash
# A copy of ../shared/tools/container-check.sh, used by .ci/run when the clone does not sit beside ../shared.
# Build the project's Dockerfile with podman on a machine that cannot pull from a container
# registry, then run the image and check it like a self-hoster would.
#
# The registry is out of reach here, so the two base images the Dockerfile names are made
# locally first and tagged with the names it asks for:
#   debian:bookworm-slim  <- debootstrap (minbase) from Debian's package mirror
#   oven/bun:<version>    <- that Debian image plus the Bun binary from the npm registry
# Everything else (the Dockerfile's own RUN steps, apt-get inside it) runs for real.
#
# Usage (as root, from the project root):  bash ../shared/tools/container-check.sh [IMAGE_TAG]
# Prints one line per check and 'container: N/M checks hold' last; exits non-zero if any fails.
set -uo pipefail
TAG=${1:-dibs:check}
PORT=${CHECK_PORT:-3999}
BUN_VERSION=$(sed -nE 's/^FROM oven\/bun:([0-9.]+).*/\1/p' Dockerfile | head -1)
[ -n "$BUN_VERSION" ] || BUN_VERSION=1.4.5
WORK=$(mktemp -d -t container-check.XXXX)
ok=0; total=0
check() { total=$((total+1)); if eval "$2"; then ok=$((ok+1)); echo "ok    $1"; else echo "short $1"; fi; }
cleanup() { podman rm -f dibs-check >/dev/null 2>&1; rm -rf "$WORK"; }
trap cleanup EXIT

# 1. podman with runc and cgroupfs (this sandbox has no systemd and a hybrid cgroup tree)
if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v debootstrap >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap >/dev/null 2>&1
fi
mkdir -p /etc/containers
if ! grep -q 'runtime = "runc"' /etc/containers/containers.conf 2>/dev/null; then
  cat > /etc/containers/containers.conf <<'EOF'
[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
EOF
fi

# 2. local stand-ins for the base images
if ! podman image exists docker.io/library/debian:bookworm-slim; then
  echo "making debian:bookworm-slim with debootstrap (about a minute)..."
  debootstrap --variant=minbase bookworm "$WORK/rootfs" >"$WORK/debootstrap.log" 2>&1 || { echo "debootstrap failed"; tail -5 "$WORK/debootstrap.log"; exit 1; }
  tar -C "$WORK/rootfs" -c . | podman import --change 'CMD ["bash"]' - docker.io/library/debian:bookworm-slim >/dev/null
fi
if ! podman image exists "docker.io/oven/bun:$BUN_VERSION"; then
  echo "making oven/bun:$BUN_VERSION from Debian + the bun binary of the npm package..."
  mkdir -p "$WORK/bun" && (cd "$WORK/bun" && npm pack "@oven/bun-linux-x64@$BUN_VERSION" >/dev/null 2>&1 && tar xzf oven-bun-linux-x64-*.tgz)
  [ -x "$WORK/bun/package/bin/bun" ] || { echo "could not get the bun binary from npm"; exit 1; }
  cp "$WORK/bun/package/bin/bun" "$WORK/bun/bun"
  # this machine reaches the npm registry through a proxy whose CA only the host trusts
  cp /etc/ssl/certs/ca-certificates.crt "$WORK/bun/ca-certificates.crt"
  cat > "$WORK/bun/Containerfile" <<'EOF'
FROM docker.io/library/debian:bookworm-slim
COPY bun /usr/local/bin/bun
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN ln -s /usr/local/bin/bun /usr/local/bin/bunx
WORKDIR /home/bun/app
EOF
  podman build -q --network host -t "docker.io/oven/bun:$BUN_VERSION" "$WORK/bun" >/dev/null || { echo "could not make the bun base image"; exit 1; }
fi

# 3. the project's own Dockerfile, built for real
echo "building the project's Dockerfile..."
check "docker build succeeds" 'podman build --network host -t "$TAG" . >"$WORK/build.log" 2>&1 || { tail -15 "$WORK/build.log"; false; }'
podman image exists "$TAG" || { echo "container: $ok/$total checks hold"; exit 1; }
SIZE=$(podman image inspect "$TAG" --format '{{.Size}}')
echo "image size: $((SIZE / 1024 / 1024)) MiB"

# 4. run it as a self-hoster would: a volume for /data, a published port, then stop it
podman volume rm -f dibs-check-data >/dev/null 2>&1
podman run -d --name dibs-check --network host -e PORT=$PORT -e APP_URL=http://127.0.0.1:$PORT -e DEMO=1 \
  -v dibs-check-data:/data "$TAG" >/dev/null 2>"$WORK/run.err"
for _ in $(seq 60); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.5; done
check "container answers /healthz" 'curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null'
check "container serves the UI" 'curl -sf "http://127.0.0.1:$PORT/" | grep -qi "<html"'
check "process runs as a non-root user" '[ "$(podman exec dibs-check id -u)" != 0 ]'
check "state is written to the /data volume" 'podman exec dibs-check sh -c "ls /data" | grep -q "dibs.db"'
check "operator CLI works inside (backup)" 'podman exec dibs-check dibs backup /data/check-backup.db >/dev/null 2>&1'
t0=$(date +%s)
podman stop -t 15 dibs-check >/dev/null 2>&1
code=$(podman inspect dibs-check --format '{{.State.ExitCode}}')
check "SIGTERM stops it cleanly within 10 s (exit $code, $(( $(date +%s) - t0 )) s)" '[ "$code" = 0 ] && [ $(( $(date +%s) - t0 )) -le 10 ]'
podman start dibs-check >/dev/null 2>&1
for _ in $(seq 60); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.5; done
check "restart keeps the database" 'curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && podman exec dibs-check sh -c "ls /data" | grep -q check-backup.db'
podman rm -f dibs-check >/dev/null 2>&1; podman volume rm -f dibs-check-data >/dev/null 2>&1
echo "container: $ok/$total checks hold"
[ "$ok" = "$total" ]
