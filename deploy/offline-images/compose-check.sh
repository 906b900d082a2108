#!/usr/bin/env bash
# End-to-end check of the repository's docker-compose.yml on a machine that
# reaches Debian's mirrors and the npm registry but no image registry:
#   1. start dockerd if none answers (Debian's docker.io; installed if missing),
#   2. build the offline stand-in base images (build.sh),
#   3. `compose up --build` the unchanged docker-compose.yml and Dockerfile,
#   4. check the app image (its size, printed and bounded; the server running
#      as a non-root user that can write /data) and, through the proxy:
#      /api/health, the index page, both replicas serving, app1 stopping
#      gracefully while app2 keeps answering, app1 rejoining, app1 recreated
#      as a new container without restarting the proxy and getting traffic
#      again, the security headers passing through the proxy, /api/dev not
#      served, and the demo sign-in (SMS code read from the sms_outbox table).
# Exits non-zero if any check fails. Not part of CI. Needs root.
#
# Environment:
#   QUAD_CHECK_PORT       host port for the proxy (default 3000; a free one is
#                         picked if it is busy, through a temporary copy of the
#                         compose file with only that port changed)
#   COMPOSE_PROJECT_NAME  default quadcheck
#   WORK_DIR              default /var/tmp/quad-offline (rootfs, logs; never the repo)
#   SKIP_IMAGES=1         reuse stand-in images already tagged
#   QUAD_IMAGE_MAX_MB     fail when the app image is larger (default 400; see below)
#   KEEP_RUNNING=1        leave the stack (and a dockerd this script started) running
#   JWT_SECRET            the stack's token secret (default: a fresh random one;
#                         the compose file has none and refuses to start without)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
WORK_DIR=${WORK_DIR:-/var/tmp/quad-offline}
export WORK_DIR
project=${COMPOSE_PROJECT_NAME:-quadcheck}
port=${QUAD_CHECK_PORT:-3000}
mkdir -p "$WORK_DIR"

log() { printf '[compose-check %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

passed=0
failed=0
pass() { passed=$((passed + 1)); log "PASS: $*"; }
fail() { failed=$((failed + 1)); log "FAIL: $*"; }

# --- 1. Docker engine and compose -------------------------------------------
need_pkgs=()
command -v dockerd >/dev/null || need_pkgs+=(docker.io)
command -v debootstrap >/dev/null || need_pkgs+=(debootstrap)
if ! docker compose version >/dev/null 2>&1 && ! command -v docker-compose >/dev/null; then
  need_pkgs+=(docker-compose)
fi
if [ ${#need_pkgs[@]} -gt 0 ]; then
  log "installing ${need_pkgs[*]} (Debian packages)"
  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need_pkgs[@]}"; } \
    > "$WORK_DIR/apt.log" 2>&1 || { tail -20 "$WORK_DIR/apt.log" >&2; die "apt-get install failed"; }
fi

dockerd_pid=
if ! docker info >/dev/null 2>&1; then
  log "starting dockerd (log: $WORK_DIR/dockerd.log)"
  dockerd > "$WORK_DIR/dockerd.log" 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { tail -20 "$WORK_DIR/dockerd.log" >&2; die "dockerd did not start"; }
fi

if docker compose version >/dev/null 2>&1; then compose_cmd=(docker compose); else compose_cmd=(docker-compose); fi
compose_files=(-f "$repo/docker-compose.yml")

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if port_busy "$port"; then
  old=$port
  for p in $(seq 3300 3399); do port_busy "$p" || { port=$p; break; }; done
  [ "$port" != "$old" ] || die "no free port for the proxy"
  log "port $old is busy: publishing the proxy on $port (temporary copy of the compose file)"
  grep -q "\"$old:80\"" "$repo/docker-compose.yml" || die "docker-compose.yml no longer publishes \"$old:80\""
  sed "s/\"$old:80\"/\"$port:80\"/" "$repo/docker-compose.yml" > "$WORK_DIR/docker-compose.port.yml"
  compose_files=(-f "$WORK_DIR/docker-compose.port.yml" --project-directory "$repo")
fi
compose() { "${compose_cmd[@]}" -p "$project" "${compose_files[@]}" "$@"; }
JWT_SECRET=${JWT_SECRET:-$(node -e 'process.stdout.write(require("node:crypto").randomBytes(48).toString("base64"))')}
export JWT_SECRET

cleanup() {
  if [ "${KEEP_RUNNING:-0}" = 1 ]; then
    log "KEEP_RUNNING=1: stack left up (${compose_cmd[*]} -p $project down -v to stop)"
    return
  fi
  log "cleaning up: compose down -v"
  docker rm -f "${project}-check-squatter" > /dev/null 2>&1 || true
  (cd "$repo" && compose down -v --remove-orphans > "$WORK_DIR/compose-down.log" 2>&1) || true
  if [ -n "$dockerd_pid" ]; then
    log "stopping the dockerd this script started (pid $dockerd_pid)"
    kill "$dockerd_pid" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 1; done
  fi
}
trap cleanup EXIT

# --- 2. Stand-in base images -------------------------------------------------
if [ "${SKIP_IMAGES:-0}" = 1 ] && docker image inspect node:20-bookworm-slim postgres:15 redis:7 nginx:1.27-alpine >/dev/null 2>&1; then
  log "SKIP_IMAGES=1: reusing the stand-in images"
else
  t=$(now)
  "$here/build.sh" || die "build.sh failed"
  log "stand-in images built in $(since "$t")s"
fi

# --- 3. compose up -------------------------------------------------------------
cd "$repo"
docker rm -f "$project-check-squatter" > /dev/null 2>&1 || true   # left by an interrupted run (see app1 recreated)
compose down -v --remove-orphans > "$WORK_DIR/compose-down.log" 2>&1 || true
t=$(now)
if compose build > "$WORK_DIR/compose-build.log" 2>&1; then
  pass "app image built in $(since "$t")s (log: $WORK_DIR/compose-build.log)"
else
  tail -40 "$WORK_DIR/compose-build.log" >&2
  fail "compose build (log: $WORK_DIR/compose-build.log)"
  exit 1
fi

base="http://127.0.0.1:$port"
t=$(now)
if ! compose up -d > "$WORK_DIR/compose-up.log" 2>&1; then
  cat "$WORK_DIR/compose-up.log" >&2
  compose ps >&2
  compose logs --no-color --tail=40 >&2
  fail "compose up"
  exit 1
fi
code=
for _ in $(seq 1 120); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "$base/api/health") && [ "$code" = 200 ] && break
  sleep 1
done
if [ "$code" = 200 ]; then
  pass "stack up and answering through the proxy $(since "$t")s after compose up"
else
  compose ps >&2
  compose logs --no-color --tail=40 >&2
  fail "proxy never answered /api/health with 200 (last: $code)"
  exit 1
fi

# --- 4. Checks -----------------------------------------------------------------
cid() { compose ps -q "$1"; }
health() { docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$(cid "$1")" 2>/dev/null; }
hits() { docker logs "$(cid "$1")" 2>&1 | grep -c "\"path\":\"$2\""; }
ip_of() { docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}' "$(cid "$1")" 2>/dev/null | xargs; }
wait_healthy() {
  for _ in $(seq 1 120); do [ "$(health "$1")" = healthy ] && return 0; sleep 1; done
  return 1
}
# n requests to a path: prints "ok/total max_seconds codes"
burst() {
  local n=$1 path=$2 ok=0 max=0 out codes=""
  for _ in $(seq 1 "$n"); do
    out=$(curl -s -o /dev/null -m 30 -w '%{http_code} %{time_total}' "$base$path") || out="000 30"
    set -- $out
    codes="$codes $1"
    [ "$1" = 200 ] && ok=$((ok + 1))
    max=$(awk -v a="$max" -v b="$2" 'BEGIN { print (b > a ? b : a) }')
  done
  echo "$ok/$n $max$codes"
}

body=$(curl -s -w '\n%{http_code}' "$base/api/health")
if [ "${body##*$'\n'}" = 200 ] && grep -q '"status":"ok"' <<<"$body"; then
  pass "GET /api/health -> 200 ${body%$'\n'*}"
else
  fail "GET /api/health -> $body"
fi

index=$(curl -s -D "$WORK_DIR/index.headers" "$base/")
if grep -q '^HTTP/1.1 200' "$WORK_DIR/index.headers" && grep -qi '^content-type: text/html' "$WORK_DIR/index.headers" \
   && grep -q 'id="root"' <<<"$index" && grep -q '<title>Quad' <<<"$index"; then
  pass "GET / -> 200 text/html, the web app's index ($(wc -c <<<"$index") bytes)"
else
  fail "GET / did not serve the web app's index: $(head -1 "$WORK_DIR/index.headers")"
fi

# Browser security headers come through nginx unchanged.
missing=
for h in content-security-policy x-content-type-options referrer-policy permissions-policy cross-origin-opener-policy x-frame-options; do
  grep -qi "^$h:" "$WORK_DIR/index.headers" || missing="$missing $h"
done
if [ -z "$missing" ] && grep -qi "^content-security-policy:.*frame-ancestors 'none'" "$WORK_DIR/index.headers"; then
  pass "GET / carries the security headers through the proxy (CSP with frame-ancestors 'none', nosniff, ...)"
else
  fail "GET / through the proxy lacks:${missing:- frame-ancestors 'none'}"
fi

# Readiness (database reachable, migrations applied, not draining) through the proxy.
ready=$(curl -s -w '\n%{http_code}' "$base/api/health/ready")
if [ "${ready##*$'\n'}" = 200 ]; then
  pass "GET /api/health/ready -> 200 ${ready%$'\n'*}"
else
  fail "GET /api/health/ready -> $ready"
fi

# Metrics: scraped from inside the compose network (another container asks each
# replica's metrics port), and reachable neither through the proxy nor on the host.
for svc in app1 app2; do
  scrape=$(compose exec -T app2 node -e \
    "fetch('http://$svc:9464/metrics').then(async r => { process.stdout.write(await r.text()); process.exit(r.ok ? 0 : 1) }, () => process.exit(1))" 2>/dev/null)
  if grep -q '^quad_http_requests_total' <<<"$scrape" && grep -q '^nodejs_eventloop_lag_seconds' <<<"$scrape"; then
    pass "$svc's metrics scraped from inside the network: $(grep -c '^[a-z]' <<<"$scrape") samples (quad_http_requests_total, nodejs_eventloop_lag_seconds, ...)"
  else
    fail "$svc's metrics not scraped from inside the network: $(head -c 300 <<<"$scrape")"
  fi
done
outside=$(curl -s "$base/metrics" | head -c 2000)
host_port=$(curl -s -o /dev/null -m 3 -w '%{http_code}' "http://127.0.0.1:9464/metrics")
if ! grep -q '^quad_' <<<"$outside" && [ "$host_port" = 000 ]; then
  pass "metrics not served through the proxy (/metrics is the web app) nor on the host's port 9464"
else
  fail "metrics leak: through the proxy $(grep -c '^quad_' <<<"$outside") quad_ lines; host port 9464 -> $host_port"
fi

# The demo runs NODE_ENV=production with ALLOW_DEV_PROVIDERS: still no /api/dev.
dev_code=$(curl -s -o /dev/null -w '%{http_code}' "$base/api/dev/sms-outbox")
if [ "$dev_code" = 404 ]; then
  pass "GET /api/dev/sms-outbox -> 404 (not served in production)"
else
  fail "GET /api/dev/sms-outbox -> $dev_code, expected 404"
fi

# The app image: only the runtime (multi-stage Dockerfile). The bound, from a
# measurement (2026-11-23): the image is 330 MB, 228 MB of it the
# node:20-bookworm-slim stand-in, ~100 MB the server's production node_modules,
# 6 MB the built web client; the single-stage image that kept the whole
# workspace with its dev dependencies and sources was 777 MB. 400 MB leaves
# room for dependency updates, not for the build stage's workspace.
image_max_mb=${QUAD_IMAGE_MAX_MB:-400}
image=$(docker inspect -f '{{.Image}}' "$(cid app1)")
image_mb=$(( $(docker image inspect -f '{{.Size}}' "$image") / 1000000 ))
base_mb=$(( $(docker image inspect -f '{{.Size}}' node:20-bookworm-slim 2>/dev/null || echo 0) / 1000000 ))
log "app image: $image_mb MB (its node:20-bookworm-slim base: $base_mb MB)"
if [ "$image_mb" -le "$image_max_mb" ]; then
  pass "app image is $image_mb MB (bound $image_max_mb MB; base $base_mb MB)"
else
  fail "app image is $image_mb MB, above the $image_max_mb MB bound (base $base_mb MB): does the final stage carry the build?"
fi

# The server (PID 1 of each replica) runs as a non-root user that can write
# $DATA_DIR, the shared media volume.
for svc in app1 app2; do
  c=$(cid "$svc")
  uids=$(docker exec "$c" cat /proc/1/status 2>/dev/null | awk '/^Uid:/ { print $2, $3 }')
  uid=${uids%% *}
  cmd=$(docker exec "$c" cat /proc/1/cmdline 2>/dev/null | tr '\0' ' ' | xargs)
  data_owner=$(docker exec "$c" stat -c %u /data 2>/dev/null)
  if [ -n "$uid" ] && [ "$uids" = "$uid $uid" ] && [ "$uid" != 0 ] && [ "$cmd" = "node dist/bin/server.mjs" ] \
     && docker exec -u "$uid" "$c" sh -c 'f=/data/.compose-check-$$ && : > "$f" && rm "$f"' 2>/dev/null; then
    pass "$svc: PID 1 is '$cmd' as uid $uid (not root), /data (owner uid $data_owner) writable by it"
  else
    fail "$svc: PID 1 '$cmd' runs as uid(real, effective) '${uids}'; /data owner uid $data_owner, writable by it: $(docker exec -u "${uid:-0}" "$c" sh -c 'test -w /data && echo yes || echo no' 2>&1)"
  fi
done

probe=/api/openapi.json   # only the proxy asks for it (the healthchecks ask for /api/health)
a1=$(hits app1 "$probe"); a2=$(hits app2 "$probe")
r=$(burst 20 "$probe")
d1=$(( $(hits app1 "$probe") - a1 )); d2=$(( $(hits app2 "$probe") - a2 ))
if [ "${r%% *}" = 20/20 ] && [ "$d1" -gt 0 ] && [ "$d2" -gt 0 ]; then
  pass "both replicas serve: 20 requests through the proxy -> app1 $d1, app2 $d2"
else
  fail "replica spread: $r; app1 $d1, app2 $d2"
fi

t=$(now)
compose stop app1 > /dev/null 2>&1
stop_s=$(since "$t")
exit1=$(docker inspect -f '{{.State.ExitCode}}' "$(cid app1)")
if [ "$exit1" = 0 ] && docker logs "$(cid app1)" 2>&1 | grep -q '"msg":"shutting down"'; then
  pass "app1 stopped gracefully in ${stop_s}s (SIGTERM reached the server; exit 0)"
else
  fail "app1 did not shut down gracefully (exit $exit1 after ${stop_s}s)"
fi
a2=$(hits app2 "$probe")
r1=$(burst 20 /api/health); r2=$(burst 10 /); r3=$(burst 10 "$probe")
d2=$(( $(hits app2 "$probe") - a2 ))
if [ "${r1%% *}" = 20/20 ] && [ "${r2%% *}" = 10/10 ] && [ "${r3%% *}" = 10/10 ] && [ "$d2" = 10 ]; then
  pass "app1 stopped, app2 answers: /api/health ${r1%% *} (slowest $(cut -d' ' -f2 <<<"$r1")s), / ${r2%% *} (slowest $(cut -d' ' -f2 <<<"$r2")s), $probe ${r3%% *} all on app2"
else
  fail "with app1 stopped: /api/health $r1; / $r2; $probe $r3 (app2 got $d2)"
fi

compose start app1 > /dev/null 2>&1
if wait_healthy app1; then
  a1=$(hits app1 "$probe")
  r=$(burst 20 "$probe")
  d1=$(( $(hits app1 "$probe") - a1 ))
  if [ "${r%% *}" = 20/20 ] && [ "$d1" -gt 0 ]; then
    pass "app1 restarted and gets traffic again (app1 $d1 of 20)"
  else
    fail "after restarting app1: $r, app1 got $d1"
  fi
else
  fail "app1 did not become healthy again after start"
fi

# app1 recreated as a new container (what a new image or a changed setting
# does) while the proxy keeps running. nginx resolved app1 once, when it
# started, so the new container must answer at the same address: the fixed
# addresses in docker-compose.yml. Without them it gets whatever address is
# free then. Docker would often hand the old one back, so the check makes sure
# it is taken: while app1 is down, another container joins the network first,
# as a one-off `run` or a scaled service would; with the fixed addresses it
# gets one from ip_range instead. Without them nginx keeps sending app1's share
# to the old address and app2 answers everything.
squatter=${project}-check-squatter
docker rm -f "$squatter" > /dev/null 2>&1
proxy_started=$(docker inspect -f '{{.State.StartedAt}}' "$(cid proxy)")
old_c=$(cid app1); old_ip=$(ip_of app1)
net=$(docker inspect -f '{{range $k, $v := .NetworkSettings.Networks}}{{$k}} {{end}}' "$old_c" | xargs)
t=$(now)
compose stop app1 > /dev/null 2>&1
docker run -d --name "$squatter" --network "$net" --entrypoint sleep "$image" 600 > /dev/null 2>&1
squatter_ip=$(docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$squatter" 2>/dev/null)
compose up -d --force-recreate --no-deps app1 > "$WORK_DIR/compose-recreate.log" 2>&1
new_c=$(cid app1)
if [ -n "$squatter_ip" ] && [ -n "$new_c" ] && [ "$new_c" != "$old_c" ] && wait_healthy app1; then
  recreate_s=$(since "$t"); new_ip=$(ip_of app1)
  a1=$(hits app1 "$probe"); a2=$(hits app2 "$probe")
  r=$(burst 20 "$probe")
  d1=$(( $(hits app1 "$probe") - a1 )); d2=$(( $(hits app2 "$probe") - a2 ))
  proxy_now=$(docker inspect -f '{{.State.StartedAt}}' "$(cid proxy)")
  if [ "${r%% *}" = 20/20 ] && [ "$d1" -gt 0 ] && [ "$d2" -gt 0 ] && [ "$proxy_now" = "$proxy_started" ]; then
    pass "app1 recreated (${old_c:0:12} -> ${new_c:0:12}, address $old_ip -> $new_ip, another container on $squatter_ip; healthy in ${recreate_s}s), proxy not restarted: 20 requests -> app1 $d1, app2 $d2"
  else
    fail "after recreating app1 (address $old_ip -> $new_ip, another container on $squatter_ip; proxy started $proxy_started, now $proxy_now): $r; app1 $d1, app2 $d2"
  fi
else
  cat "$WORK_DIR/compose-recreate.log" >&2
  fail "app1 was not recreated or did not become healthy (container ${old_c:0:12} -> ${new_c:0:12}; other container's address '$squatter_ip')"
fi
docker rm -f "$squatter" > /dev/null 2>&1

# The README's sign-in: SMS code from the outbox table (as the demo's README
# says to read it: /api/dev is not served in production), then a session.
# Demo students have fictional +1 555 numbers, which sign-in refuses (no one could
# receive the text): one of them is given a real-looking number first.
phone=+12025550147
moved=$(compose exec -T postgres psql -U quad -d quad -tAc \
  "update users set phone = '$phone' where id = (select id from users order by phone limit 1) returning phone" 2>/dev/null \
  | head -1 | tr -d '[:space:]')
[ "$moved" = "$phone" ] || phone=
if [ -n "$phone" ]; then
  sent=$(curl -s -X POST -H 'content-type: application/json' -d "{\"phone\":\"$phone\"}" "$base/api/auth/send-code")
  code=$(compose exec -T postgres psql -U quad -d quad -tAc \
    "select body from sms_outbox where to_phone = '$phone' order by created_at desc limit 1" 2>/dev/null \
    | grep -oE '\b[0-9]{6}\b' | head -1)
  # The code is bound to the request that sent it: verify-code presents that request's id.
  request_id=$(node -e 'try{process.stdout.write(JSON.parse(process.argv[1]).codeRequestId??"")}catch{}' "$sent")
  token=$(curl -s -X POST -H 'content-type: application/json' \
    -d "{\"phone\":\"$phone\",\"code\":\"$code\",\"codeRequestId\":\"$request_id\",\"consents\":{\"sms\":true,\"terms\":true}}" "$base/api/auth/verify-code" \
    | node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{try{process.stdout.write(JSON.parse(s).token??"")}catch{}})')
  ok=0
  for _ in 1 2 3 4; do   # least_conn spreads these over both replicas
    me=$(curl -s -w '\n%{http_code}' -H "authorization: Bearer $token" "$base/api/users/me")
    [ "${me##*$'\n'}" = 200 ] && grep -q "\"phone\":\"$phone\"" <<<"$me" && ok=$((ok + 1))
  done
  if [ -n "$token" ] && [ "$ok" = 4 ]; then
    pass "demo sign-in: send-code, code from the sms_outbox table, verify-code, GET /api/users/me 4/4 as $phone"
  else
    fail "demo sign-in: send-code -> $sent; code '${code}'; token ${token:+present}; /api/users/me ok $ok/4"
  fi
else
  fail "no seeded demo student found in Postgres (SEED_DEMO)"
fi

# The first moderator, granted inside the app container with the bundled command
# (the image holds no sources and no tsx), on the stack's own database.
if [ -n "$phone" ]; then
  granted=$(compose exec -T app1 node dist/bin/admin-grant.mjs "$phone" 2>&1)
  role=$(compose exec -T postgres psql -U quad -d quad -tAc "select role from users where phone = '$phone'" 2>/dev/null | tr -d '[:space:]')
  if grep -q "is now an admin" <<<"$granted" && [ "$role" = admin ]; then
    pass "admin:grant inside app1 (node dist/bin/admin-grant.mjs $phone): $granted; role in Postgres: $role"
  else
    fail "admin:grant inside app1: '$granted'; role in Postgres: '$role'"
  fi
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
