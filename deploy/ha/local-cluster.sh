#!/usr/bin/env bash
# A pg_auto_failover monitor and two Postgres nodes (a primary and a synchronous
# standby) on this machine, on ports and in a directory of their own: for trying
# the HA set-up (deploy/ha/README.md) and for the failover test
# (apps/server/src/resilience/failover-keeps-answered-writes.test.ts). Nothing else
# is touched: no system cluster, no service manager, no shared socket directory.
# Run as root, every node runs as the `postgres` user; otherwise as the caller.
#
#   deploy/ha/local-cluster.sh up DIR          create and start everything under DIR (new); prints DATABASE_URL
#   deploy/ha/local-cluster.sh url DIR         the app's multi-host DATABASE_URL
#   deploy/ha/local-cluster.sh state DIR       one line per node: name port reported-state assigned-state
#   deploy/ha/local-cluster.sh primary DIR     the node that takes writes (node1 or node2), if any
#   deploy/ha/local-cluster.sh kill NODE DIR   SIGKILL that node's keeper, Postgres and every backend at once
#   deploy/ha/local-cluster.sh start NODE DIR  start a stopped node's keeper again (it rejoins as the standby)
#   deploy/ha/local-cluster.sh wait DIR [S]    wait (at most S seconds, default 120) for a primary and a secondary
#   deploy/ha/local-cluster.sh switchover DIR  pg_autoctl perform switchover, under way when it returns
#   deploy/ha/local-cluster.sh down DIR        stop everything and delete DIR
#
# Ports: QUAD_HA_PORTS="monitor node1 node2" picks them; otherwise three free ones
# below the ephemeral range (see free_port).
# The failover settings are the ones deploy/ha/README.md explains (FAILOVER_* below).
set -euo pipefail

PG_BIN=${PG_BIN:-$(pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
NODES=(monitor node1 node2)
# The monitor's view of a lost primary (milliseconds) and the keepers' own rule:
# a primary that sees neither the monitor nor its standby for
# NETWORK_PARTITION_TIMEOUT_S seconds stops taking writes, and the monitor
# promotes the standby only PRIMARY_DEMOTE_TIMEOUT_MS after the primary was
# lost, which must stay the longer of the two (else two primaries at once).
HEALTH_CHECK_PERIOD_MS=1000
HEALTH_CHECK_TIMEOUT_MS=1000
HEALTH_CHECK_MAX_RETRIES=1
HEALTH_CHECK_RETRY_DELAY_MS=500
NODE_CONSIDERED_UNHEALTHY_TIMEOUT_MS=4000
PRIMARY_DEMOTE_TIMEOUT_MS=12000
NETWORK_PARTITION_TIMEOUT_S=5

die() {
  echo "local-cluster: $*" >&2
  exit 1
}

command -v pg_autoctl >/dev/null || die "pg_autoctl not found: apt-get install -y postgresql-15-auto-failover pg-auto-failover-cli"
[ -x "$PG_BIN/pg_ctl" ] || die "no pg_ctl in $PG_BIN (set PG_BIN)"

cmd=${1:-}
case "$cmd" in
kill | start) node=${2:-} dir=${3:-} ;;
*) dir=${2:-} ;;
esac
[ -n "$cmd" ] && [ -n "$dir" ] || die "usage: $0 up|url|state|primary|wait|switchover|down DIR, or kill|start NODE DIR"
dir=$(realpath -m "$dir")

# Every command runs as the unprivileged owner, with pg_autoctl's files
# (configuration, state, pid files) and Postgres' sockets under DIR.
as_owner() {
  local env=(env -i PATH="$PG_BIN:/usr/bin:/bin" HOME="$dir" LANG=C.UTF-8
    XDG_CONFIG_HOME="$dir/config" XDG_DATA_HOME="$dir/share" XDG_RUNTIME_DIR="$dir/run" PGHOST="$dir/sock")
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "${env[@]}" "$@"; else "${env[@]}" "$@"; fi
}
port_of() { sed -n "$(($(index_of "$1") + 1))p" "$dir/ports"; }
index_of() { for i in "${!NODES[@]}"; do [ "${NODES[$i]}" = "$1" ] && echo "$i" && return; done; die "no node $1"; }
monitor_sql() { as_owner psql -X -q -At -p "$(port_of monitor)" -d pg_auto_failover -c "$1"; }

# Below the kernel's ephemeral range: a port in it can be taken between this
# check and Postgres binding it, as the local end of any outgoing connection or
# by another process asking the kernel for a free port.
free_port() {
  local port low
  read -r low _ </proc/sys/net/ipv4/ip_local_port_range
  [ "$low" -gt 12000 ] || low=32768
  for _ in $(seq 1 50); do
    port=$((10000 + RANDOM % (low - 10000)))
    if ! ss -Htln "sport = :$port" | grep -q . && ! grep -qx "$port" "$dir/ports" 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  die "no free port found"
}

# `pg_autoctl run` in a session of its own, so that `kill` finds the node's
# processes by their process group; its output goes to DIR/NODE.log.
run_node() {
  local name=$1
  as_owner setsid sh -c 'echo $$ > "$0.pgid"; exec pg_autoctl run --pgdata "$0" >> "$0.log" 2>&1' "$dir/$name" \
    </dev/null >/dev/null 2>&1 &
  for _ in $(seq 1 50); do [ -s "$dir/$name.pgid" ] && return; sleep 0.1; done
  die "$name did not start"
}

# Postgres settings of our own, read after pg_autoctl's: sockets under DIR and
# a small cache (three instances share this machine).
own_settings() {
  printf "unix_socket_directories = '%s'\nshared_buffers = '128MB'\n" "$dir/sock" >>"$dir/$1/postgresql.auto.conf"
}

node_state() {
  monitor_sql "select string_agg(nodename || ' ' || nodeport || ' ' || reportedstate || ' ' || goalstate, E'\n' order by nodename) from pgautofailover.node"
}

wait_healthy() {
  local deadline=$((SECONDS + ${1:-120}))
  while [ $SECONDS -lt $deadline ]; do
    local states
    states=$(node_state 2>/dev/null || true)
    if [ "$(grep -cE ' (primary|secondary) (primary|secondary)$' <<<"$states")" = 2 ] &&
      [ "$(grep -c ' primary primary$' <<<"$states")" = 1 ]; then
      return 0
    fi
    sleep 0.5
  done
  die "no primary and secondary after ${1:-120} s: $(node_state 2>&1 | tr '\n' ';')
$(for name in "${NODES[@]}"; do echo "$name.log ends:" && tail -n 8 "$dir/$name.log"; done)"
}

up() {
  [ ! -e "$dir" ] || [ -z "$(ls -A "$dir")" ] || die "$dir exists and is not empty"
  mkdir -p "$dir"/{sock,run,config,share}
  : >"$dir/ports"
  for name in "${NODES[@]}"; do : >"$dir/$name.log"; done
  read -r -a ports <<<"${QUAD_HA_PORTS:-}"
  for i in 0 1 2; do echo "${ports[$i]:-$(free_port)}" >>"$dir/ports"; done
  [ "$(id -u)" = 0 ] && chown -R postgres: "$dir"
  local monitor_port node1_port node2_port
  monitor_port=$(port_of monitor) node1_port=$(port_of node1) node2_port=$(port_of node2)
  local auth=(--auth trust --no-ssl)
  local monitor_url="postgres://autoctl_node@127.0.0.1:$monitor_port/pg_auto_failover?sslmode=disable"

  as_owner initdb -D "$dir/monitor" -U postgres -A trust -E UTF8 --no-sync >/dev/null
  own_settings monitor
  as_owner pg_autoctl create monitor --pgdata "$dir/monitor" --pgport "$monitor_port" --hostname 127.0.0.1 \
    "${auth[@]}" >>"$dir/monitor.log" 2>&1 || die "creating the monitor failed: see $dir/monitor.log"
  as_owner pg_autoctl config set --pgdata "$dir/monitor" postgresql.listen_addresses 127.0.0.1 >/dev/null
  run_node monitor
  local deadline=$((SECONDS + 60))
  until monitor_sql "select 1" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || die "the monitor did not accept connections within 60 s; its log ends:
$(tail -n 15 "$dir/monitor.log")"
    sleep 0.2
  done
  for setting in health_check_period="$HEALTH_CHECK_PERIOD_MS" health_check_timeout="$HEALTH_CHECK_TIMEOUT_MS" \
    health_check_max_retries="$HEALTH_CHECK_MAX_RETRIES" health_check_retry_delay="$HEALTH_CHECK_RETRY_DELAY_MS" \
    node_considered_unhealthy_timeout="$NODE_CONSIDERED_UNHEALTHY_TIMEOUT_MS" \
    primary_demote_timeout="$PRIMARY_DEMOTE_TIMEOUT_MS"; do
    monitor_sql "alter system set pgautofailover.${setting%%=*} = ${setting#*=}"
  done
  monitor_sql "select pg_reload_conf()" >/dev/null

  # node1 starts as the primary on a cluster of our own making; node2 is a copy of it (pg_basebackup).
  as_owner initdb -D "$dir/node1" -U postgres -A trust -E UTF8 --no-sync >/dev/null
  own_settings node1
  for name in node1 node2; do
    as_owner pg_autoctl create postgres --pgdata "$dir/$name" --pgport "$(port_of "$name")" --listen 127.0.0.1 \
      --hostname 127.0.0.1 --name "$name" --dbname quad --monitor "$monitor_url" "${auth[@]}" \
      >>"$dir/$name.log" 2>&1 || die "creating $name failed: see $dir/$name.log"
    as_owner pg_autoctl config set --pgdata "$dir/$name" timeout.network_partition_timeout \
      "$NETWORK_PARTITION_TIMEOUT_S" >/dev/null
    run_node "$name"
    [ "$name" = node1 ] && for _ in $(seq 1 100); do
      node_state | grep -qE '^node1 [0-9]+ single single$' && break
      sleep 0.2
    done
  done
  wait_healthy 120
  url
}

url() {
  echo "postgres://postgres@127.0.0.1:$(port_of node1),127.0.0.1:$(port_of node2)/quad?target_session_attrs=read-write"
}

primary() {
  node_state | awk '$3 ~ /^(primary|wait_primary|single)$/ && $4 == $3 { print $1 }'
}

# Everything of the node dies in the same instant, as with a machine that is
# lost: its session (keeper and postmaster) and the backends, which Postgres
# puts in process groups of their own.
kill_node() {
  local pgid pids postmaster
  pgid=$(cat "$dir/$node.pgid" 2>/dev/null) || die "$node was never started"
  pids=$(ps -Ao pid=,pgid= | awk -v g="$pgid" '$2 == g { print $1 }')
  postmaster=$(head -1 "$dir/$node/postmaster.pid" 2>/dev/null || true)
  [ -n "$postmaster" ] && pids="$pids $(ps -o pid= --ppid "$postmaster" || true)"
  [ -n "${pids// /}" ] || die "$node is not running"
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null || true
}

stop_all() {
  for name in node1 node2 monitor; do
    [ -d "$dir/$name" ] && as_owner pg_autoctl stop --pgdata "$dir/$name" >/dev/null 2>&1 || true
  done
  for _ in $(seq 1 100); do
    local left=0
    for name in "${NODES[@]}"; do
      local pgid
      pgid=$(cat "$dir/$name.pgid" 2>/dev/null) || continue
      ps -Ao pgid= | grep -qx " *$pgid" && left=1
    done
    [ $left = 0 ] && break
    sleep 0.1
  done
  for name in "${NODES[@]}"; do
    node=$name
    [ -s "$dir/$name.pgid" ] && (kill_node) >/dev/null 2>&1 || true
  done
}

case "$cmd" in
up) up ;;
url) url ;;
state) node_state ;;
primary) primary ;;
wait) wait_healthy "${3:-120}" ;;
kill) kill_node ;;
start)
  rm -f "$dir/$node.pgid"
  run_node "$node"
  ;;
switchover) as_owner pg_autoctl perform switchover --pgdata "$dir/monitor" >>"$dir/monitor.log" 2>&1 ;;
down)
  [ -d "$dir" ] || exit 0
  stop_all
  rm -rf "$dir"
  ;;
*) die "unknown command $cmd" ;;
esac
