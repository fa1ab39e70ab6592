#!/usr/bin/env bash
# Starts a release relay on free ports, runs a pkrelay-traffic scenario against it, stops the relay.
# Usage: Tools/scripts/loadtest.sh [pkrelay-traffic run options...]   (see Tools/pkrelay-traffic/README.md)
# LOADTEST_RELAY_CPUS and LOADTEST_TOOL_CPUS (taskset lists such as 0 or 2-3) pin the relay and
# the tool to their own cores, so that a capacity figure is one side's and not a shared core's.
set -euo pipefail
SWIFT="${SWIFT:-swift}"
"$SWIFT" build -c release --product pkrelay
"$SWIFT" build -c release --product pkrelay-traffic
BIN="$("$SWIFT" build -c release --show-bin-path)"
WORK="$(mktemp -d)"
trap 'if [ -n "${RELAY_PID:-}" ]; then kill -TERM "$RELAY_PID" 2>/dev/null || true; wait "$RELAY_PID" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT
# Every simulated client connects from this one address: lift the per-address connection limit
# that protects a relay on the open internet.
cat > "$WORK/pkrelay.yaml" <<YAML
control: {port: 0, maxConnectionsPerAddress: 1000000}
admin: {port: 0}
media: {portRangeStart: ${LOADTEST_MEDIA_PORTS_START:-46000}, portRangeEnd: ${LOADTEST_MEDIA_PORTS_END:-46999}, webrtcPort: 0}
logging: {format: json, level: info}
YAML
RELAY_PIN=(); TOOL_PIN=()
[ -n "${LOADTEST_RELAY_CPUS:-}" ] && RELAY_PIN=(taskset -c "$LOADTEST_RELAY_CPUS")
[ -n "${LOADTEST_TOOL_CPUS:-}" ] && TOOL_PIN=(taskset -c "$LOADTEST_TOOL_CPUS")
"${RELAY_PIN[@]}" "$BIN/pkrelay" serve --config "$WORK/pkrelay.yaml" 2> "$WORK/relay.log" &
RELAY_PID=$!
URL=""
ADMIN=""
for _ in $(seq 1 150); do
  URL="$(grep -o '"url":"ws://[^"]*"' "$WORK/relay.log" | head -1 | sed 's/"url":"\(.*\)"/\1/' || true)"
  ADMIN="$(grep -o '"url":"http://[^"]*"' "$WORK/relay.log" | head -1 | sed 's/"url":"\(.*\)"/\1/' || true)"
  [ -n "$URL" ] && [ -n "$ADMIN" ] && break
  sleep 0.1
done
if [ -z "$URL" ] || [ -z "$ADMIN" ]; then echo "the relay did not start:"; cat "$WORK/relay.log"; exit 2; fi
VERSION="$("$BIN/pkrelay" --version 2>/dev/null || echo unknown)"
# The relay's /metrics give the report its side of the window: CPU, drops, packets per core.
"${TOOL_PIN[@]}" "$BIN/pkrelay-traffic" run --relay "$URL" --relay-metrics "$ADMIN/metrics" --config "$WORK/pkrelay.yaml" \
  --relay-version "$VERSION" "$@"
