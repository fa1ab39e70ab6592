#!/bin/bash
# One PK's audience on one node against the same audience spread over three (edges).
#
# Three relays on 127.0.0.1, 127.0.0.2 and 127.0.0.3 (one media thread each, cluster.edges on)
# on a private PostgreSQL, and two pk-cluster runs of the same size: first every audience member
# joins its room's node; then each room's audience joins the three nodes in turn
# (--audience-on-edges), the two nodes that do not hold the room serving it as edges. For each
# run: every node's packet rates (from its /metrics), the CPU its process used per second, and the
# traffic tool's loss and latency. Written to $OUT (default: a temporary directory), summary on
# stdout.
#
#   BIN=$(swift build -c release --show-bin-path) Tools/scripts/cluster-edges.sh
#
# ROOMS (2), AUDIENCE per room (30) and DURATION (20s) size the runs. Needs PostgreSQL's server
# binaries (Debian: postgresql) and python3.
set -euo pipefail
BIN=${BIN:-$(swift build -c release --show-bin-path)}
ROOMS=${ROOMS:-2}
AUDIENCE=${AUDIENCE:-30}
DURATION=${DURATION:-20s}
OUT=${OUT:-$(mktemp -d /tmp/pkrelay-edges.XXXXXX)}
PG=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
AS_PG=""
[ "$(id -u)" = 0 ] && AS_PG="runuser -u postgres --"
KEY_SECRET=cluster-edges-bench-key-shared-by-every-node
export PKRELAY_AUTH_KEYS="[{id: bench, secret: \"$KEY_SECRET\"}]"

mkdir -p "$OUT" && chmod 777 "$OUT"
$AS_PG "$PG/initdb" -D "$OUT/db" -U pkrelay --auth=trust > "$OUT/initdb.log"
$AS_PG "$PG/pg_ctl" -D "$OUT/db" -o "-k $OUT -c listen_addresses=''" -l "$OUT/pg.log" -w start > /dev/null
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
    wait 2> /dev/null || true
    $AS_PG "$PG/pg_ctl" -D "$OUT/db" -w stop > /dev/null 2>&1 || true
}
trap cleanup EXIT
"$PG/createdb" -h "$OUT" -U pkrelay pkrelay

for n in 1 2 3; do
    PKRELAY_CONTROL_HOST=127.0.0.$n PKRELAY_CONTROL_PORT=7800 PKRELAY_ADMIN_HOST=127.0.0.$n PKRELAY_ADMIN_PORT=7801 \
        PKRELAY_MEDIA_BIND_ADDRESS=127.0.0.$n PKRELAY_MEDIA_WEBRTC_PORT=7802 PKRELAY_MEDIA_THREADS=1 \
        PKRELAY_MEDIA_PORT_RANGE_START=4${n}000 PKRELAY_MEDIA_PORT_RANGE_END=4${n}999 \
        PKRELAY_CLUSTER_NODE_ID=relay-$n PKRELAY_CLUSTER_DATABASE_URL="postgres://pkrelay@/pkrelay?host=$OUT" PKRELAY_CLUSTER_EDGES=true \
        "$BIN/pkrelay" serve > "$OUT/relay-$n.log" 2>&1 &
    PIDS+=($!)
done
for n in 1 2 3; do
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.$n:7801/metrics" | grep -q '^pkrelay_cluster_serving{[^}]*} 1' && break
        sleep 0.1
    done
done

# CPU seconds (user + system) each relay process has used so far.
cpu() {
    local ticks
    ticks=$(getconf CLK_TCK)
    for pid in "${PIDS[@]}"; do awk -v t="$ticks" '{ printf "%.3f ", ($14 + $15) / t }' "/proc/$pid/stat"; done
}

for mode in origin edges; do
    extra=()
    [ "$mode" = edges ] && extra=(--audience-on-edges)
    before=$(cpu)
    start=$(date +%s.%N)
    "$BIN/pkrelay-traffic" run --scenario pk-cluster --duration "$DURATION" --rooms "$ROOMS" --audience "$AUDIENCE" --quiet \
        --key-id bench --key-secret "$KEY_SECRET" \
        --relay ws://127.0.0.1:7800/rtc --relay ws://127.0.0.2:7800/rtc --relay ws://127.0.0.3:7800/rtc \
        --admin http://127.0.0.1:7801 --admin http://127.0.0.2:7801 --admin http://127.0.0.3:7801 \
        --report "$OUT/$mode.json" "${extra[@]}" > "$OUT/$mode.txt" 2>&1 || true
    end=$(date +%s.%N)
    after=$(cpu)
    python3 - "$OUT/$mode.json" "$mode" "$before" "$after" "$start" "$end" << 'PY'
import json, sys
report = json.load(open(sys.argv[1]))
mode, before, after = sys.argv[2], [float(x) for x in sys.argv[3].split()], [float(x) for x in sys.argv[4].split()]
wall = float(sys.argv[6]) - float(sys.argv[5])
print(f"{mode}: audience {'spread over the three nodes' if mode == 'edges' else 'on its room node'}")
for index, node in enumerate(report.get("nodes") or []):
    cpu = (after[index] - before[index]) / wall
    print(f"  {node['relayURL']}: rooms {node['rooms']}, clients {node['clients']}, packets/s in {node.get('packetsPerSecondIn') or 0:.0f}, "
          f"out {node.get('packetsPerSecondOut') or 0:.0f}, CPU {cpu:.2f} cores (whole run incl. setup)")
latency = report.get("latencyMs") or {}
setup = (report.get("setupToFirstKeyframeMs") or {}).get("latency") or {}
print(f"  tool: clients {report['clients']}, loss {report['lossPercent']:.3f} %, latency p50 {latency.get('p50', 0):.2f} ms "
      f"p99 {latency.get('p99', 0):.2f} ms; PK link to first keyframe p50 {setup.get('p50', 0):.0f} ms p99 {setup.get('p99', 0):.0f} ms")
PY
done
# A viewer's join to its first keyframe: the same fanout audience on the publisher's node, then
# every viewer on one of the two other nodes, through the edge.
for mode in origin edges; do
    relays=(--relay ws://127.0.0.1:7800/rtc)
    [ "$mode" = edges ] && relays+=(--relay ws://127.0.0.2:7800/rtc --relay ws://127.0.0.3:7800/rtc --audience-on-edges)
    "$BIN/pkrelay-traffic" run --scenario fanout --duration 5s --subscribers "$AUDIENCE" --quiet --key-id bench --key-secret "$KEY_SECRET" \
        "${relays[@]}" --report "$OUT/join-$mode.json" > "$OUT/join-$mode.txt" 2>&1 || true
    python3 - "$OUT/join-$mode.json" "$mode" << 'PY'
import json, sys
report = json.load(open(sys.argv[1]))
setup = (report.get("setupToFirstKeyframeMs") or {}).get("latency") or {}
where = "through an edge" if sys.argv[2] == "edges" else "on the publisher's node"
print(f"join to first keyframe, {report['clients'] - 1} viewers {where}: p50 {setup.get('p50', 0):.0f} ms, p90 {setup.get('p90', 0):.0f} ms, "
      f"p99 {setup.get('p99', 0):.0f} ms, max {setup.get('max', 0):.0f} ms; loss {report['lossPercent']:.3f} %")
PY
done
echo "reports and logs: $OUT"
