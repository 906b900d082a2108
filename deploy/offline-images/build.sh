#!/usr/bin/env bash
# Builds offline stand-ins for the four base images docker-compose.yml and
# Dockerfile use, and tags them with the official names:
#   node:20-bookworm-slim  postgres:15  redis:7  nginx:1.27-alpine
# For machines that reach Debian's mirrors and the npm registry but no image
# registry. See README.md beside this file. Needs root, a running dockerd,
# debootstrap, and Node 20 on this machine.
#
# Environment:
#   WORK_DIR       rootfs and build contexts (default /var/tmp/quad-offline; never the repo)
#   DEBIAN_MIRROR  default http://deb.debian.org/debian
#   REBUILD_BASE=1 debootstrap and import the base image again
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
WORK_DIR=${WORK_DIR:-/var/tmp/quad-offline}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
BASE=quad-offline/debian:bookworm

log() { printf '[build.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

docker info >/dev/null 2>&1 || die "no Docker engine answers (start dockerd first)"
mkdir -p "$WORK_DIR"

# 1. Base: a minimal Debian bookworm rootfs, imported as one layer.
if [ "${REBUILD_BASE:-0}" = 1 ] || ! docker image inspect "$BASE" >/dev/null 2>&1; then
  command -v debootstrap >/dev/null || die "debootstrap missing (apt-get install -y debootstrap)"
  rootfs=$WORK_DIR/rootfs
  if [ "${REBUILD_BASE:-0}" = 1 ] || [ ! -e "$rootfs/.debootstrap-done" ]; then
    rm -rf "$rootfs"
    log "debootstrap bookworm into $rootfs"
    debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" > "$WORK_DIR/debootstrap.log" 2>&1 \
      || { tail -20 "$WORK_DIR/debootstrap.log" >&2; die "debootstrap failed"; }
    touch "$rootfs/.debootstrap-done"
  fi
  cat > "$rootfs/etc/apt/sources.list" <<EOF
deb $DEBIAN_MIRROR bookworm main
deb $DEBIAN_MIRROR bookworm-updates main
deb ${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security} bookworm-security main
EOF
  # No services start while packages install in an image build.
  printf '#!/bin/sh\nexit 101\n' > "$rootfs/usr/sbin/policy-rc.d"
  chmod +x "$rootfs/usr/sbin/policy-rc.d"
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' \
    > "$rootfs/etc/apt/apt.conf.d/99offline-images"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  log "importing $BASE"
  tar --numeric-owner --exclude=./.debootstrap-done -C "$rootfs" -c . \
    | docker import --change 'CMD ["bash"]' --change 'ENV DEBIAN_FRONTEND=noninteractive' - "$BASE" >/dev/null
fi

ctx_root=$WORK_DIR/contexts
rm -rf "$ctx_root"
mkdir -p "$ctx_root"

# 2. node:20-bookworm-slim from this machine's Node 20 and npm.
node_bin=$(readlink -f "$(command -v node)") || die "node not found"
node_version=$("$node_bin" --version)
case "$node_version" in v20.*) ;; *) die "this machine's node is $node_version, need v20" ;; esac
npm_dir=
for d in "$(dirname "$node_bin")/../lib/node_modules/npm" /usr/lib/node_modules/npm /usr/local/lib/node_modules/npm; do
  if [ -f "$d/bin/npm-cli.js" ]; then npm_dir=$(cd "$d" && pwd); break; fi
done
[ -n "$npm_dir" ] || die "npm's folder not found next to $node_bin"
cp -a "$here/node" "$ctx_root/node"
cp "$node_bin" "$ctx_root/node/node"
cp -a "$npm_dir" "$ctx_root/node/npm"
ca=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
[ -f "$ca" ] || die "CA bundle $ca missing"
cp "$ca" "$ctx_root/node/ca-certificates.crt"

# 3. The rest are Debian packages installed by their Dockerfiles.
for name in postgres redis nginx; do cp -a "$here/$name" "$ctx_root/$name"; done

build() { # tag context
  log "building $1 (from $2)"
  docker build -t "$1" "$ctx_root/$2" > "$WORK_DIR/build-$2.log" 2>&1 \
    || { cat "$WORK_DIR/build-$2.log" >&2; die "building $1 failed"; }
}
build node:20-bookworm-slim node
build postgres:15 postgres
build redis:7 redis
build nginx:1.27-alpine nginx

docker run --rm node:20-bookworm-slim node --version | grep -q '^v20\.' || die "node image does not run Node 20"
log "done: $(docker images --format '{{.Repository}}:{{.Tag}} {{.Size}}' \
  | grep -E '^(node:20-bookworm-slim|postgres:15|redis:7|nginx:1.27-alpine|quad-offline/debian:bookworm) ' | paste -sd, -)"
