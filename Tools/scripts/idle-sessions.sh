#!/usr/bin/env bash
# Memory per idle control session: starts a release relay on free ports, opens many WebSocket
# sessions with `pkrelay-traffic idle` that then do nothing, and compares the relay's RSS before
# and while they are open. Two variants, each on a fresh relay: sessions joined to rooms as
# invisible audience members (valid tokens), and sessions only connected. Writes a JSON report,
# prints a summary, and exits 1 when a session costs more than the allowed KiB.
#
# Usage: Tools/scripts/idle-sessions.sh
# Environment:
#   IDLE_SESSIONS            sessions per variant (10000)
#   IDLE_ROOMS               rooms the joined sessions spread over (100)
#   IDLE_VARIANTS            which variants to run (joined connected)
#   IDLE_MAX_KIB_PER_SESSION the allowed relay RSS per idle session (100)
#   IDLE_REPORT              the JSON report (idle-sessions-report.json)
set -euo pipefail
SWIFT="${SWIFT:-swift}"
SESSIONS="${IDLE_SESSIONS:-10000}"
ROOMS="${IDLE_ROOMS:-100}"
VARIANTS="${IDLE_VARIANTS:-joined connected}"
MAX_KIB="${IDLE_MAX_KIB_PER_SESSION:-100}"
REPORT="${IDLE_REPORT:-idle-sessions-report.json}"
for tool in curl jq; do
  command -v "$tool" >/dev/null || { echo "idle-sessions: needs $tool (apt-get install $tool)"; exit 2; }
done
# Each session is a socket in the relay and one in the tool, both started from this shell.
NEEDED=$(( SESSIONS + 1024 ))
if (( $(ulimit -Hn) < NEEDED )); then
  echo "idle-sessions: the hard limit on open files is $(ulimit -Hn); $SESSIONS sessions need $NEEDED (raise it, or set IDLE_SESSIONS)"
  exit 2
fi
ulimit -n "$NEEDED"

"$SWIFT" build -c release --product pkrelay
"$SWIFT" build -c release --product pkrelay-traffic
BIN="$("$SWIFT" build -c release --show-bin-path)"
WORK="$(mktemp -d)"
stop_relay() {
  if [ -n "${TOOL_PID:-}" ]; then kill -TERM "$TOOL_PID" 2>/dev/null || true; wait "$TOOL_PID" 2>/dev/null || true; TOOL_PID=""; fi
  if [ -n "${RELAY_PID:-}" ]; then kill -TERM "$RELAY_PID" 2>/dev/null || true; wait "$RELAY_PID" 2>/dev/null || true; RELAY_PID=""; fi
}
trap 'stop_relay; rm -rf "$WORK"' EXIT
# Every session comes from this one address: lift the per-address and total connection limits.
cat > "$WORK/pkrelay.yaml" <<YAML
control: {port: 0, maxConnections: $(( SESSIONS + 1000 )), maxConnectionsPerAddress: 1000000}
admin: {port: 0}
media: {portRangeStart: ${IDLE_MEDIA_PORTS_START:-48000}, portRangeEnd: ${IDLE_MEDIA_PORTS_END:-48099}, webrtcPort: 0}
logging: {format: json, level: notice}
YAML
VERSION="$("$BIN/pkrelay" --version 2>/dev/null || echo unknown)"
ADMIN_TOKEN="$("$BIN/pkrelay" token --admin --config "$WORK/pkrelay.yaml" 2>/dev/null | tail -1)"

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$RELAY_PID/status"; }
connections() { curl -fsS --max-time 5 -H "Authorization: Bearer $ADMIN_TOKEN" "$ADMIN/admin/v1/stats" | jq '.connections'; }
# Waits (up to 30 s) until the relay counts `$1` connections.
wait_connections() {
  for _ in $(seq 1 60); do
    [ "$(connections)" = "$1" ] && return 0
    sleep 0.5
  done
  return 1
}

RESULTS=()
for variant in $VARIANTS; do
  case "$variant" in
    joined) MODE=() ;;
    connected) MODE=(--connect-only) ;;
    *) echo "idle-sessions: unknown variant $variant (joined, connected)"; exit 64 ;;
  esac
  "$BIN/pkrelay" serve --config "$WORK/pkrelay.yaml" 2> "$WORK/relay.log" &
  RELAY_PID=$!
  URL="" ADMIN=""
  for _ in $(seq 1 150); do
    URL="$(grep -o '"url":"ws://[^"]*"' "$WORK/relay.log" | head -1 | sed 's/"url":"\(.*\)"/\1/' || true)"
    ADMIN="$(grep -o '"url":"http://[^"]*"' "$WORK/relay.log" | head -1 | sed 's/"url":"\(.*\)"/\1/' || true)"
    [ -n "$URL" ] && [ -n "$ADMIN" ] && break
    sleep 0.1
  done
  if [ -z "$URL" ] || [ -z "$ADMIN" ]; then echo "the relay did not start:"; cat "$WORK/relay.log"; exit 2; fi
  idle() { "$BIN/pkrelay-traffic" idle --relay "$URL" --config "$WORK/pkrelay.yaml" --rooms "$ROOMS" "${MODE[@]}" "$@"; }

  # A few hundred sessions first, so that what the relay sets up once (threads, pools, the
  # allocator's arenas) is in the baseline and not charged to the sessions measured.
  idle --sessions 500 --hold 1s > "$WORK/warmup.txt" || { echo "idle-sessions: the warm-up failed:"; cat "$WORK/warmup.txt"; exit 2; }
  wait_connections 0 || { echo "idle-sessions: the warm-up sessions did not leave"; exit 1; }
  sleep 2
  RSS_BEFORE=$(rss_kib)

  echo "idle-sessions: $variant: opening $SESSIONS sessions"
  # Started directly, not through idle(), so that TOOL_PID is the tool itself and not a subshell
  # that a signal would end while the tool went on holding its sessions.
  "$BIN/pkrelay-traffic" idle --relay "$URL" --config "$WORK/pkrelay.yaml" --rooms "$ROOMS" "${MODE[@]}" \
    --sessions "$SESSIONS" --hold 1h > "$WORK/idle.txt" 2>&1 &
  TOOL_PID=$!
  until grep -q '^ready' "$WORK/idle.txt"; do
    if ! kill -0 "$TOOL_PID" 2>/dev/null; then echo "idle-sessions: pkrelay-traffic idle ended early:"; cat "$WORK/idle.txt"; exit 2; fi
    sleep 0.5
  done
  grep '^ready' "$WORK/idle.txt"
  wait_connections "$SESSIONS" || { echo "idle-sessions: the relay counts $(connections) connections, not $SESSIONS"; exit 1; }
  # Let timers and buffers reach their idle state before reading RSS.
  sleep 5
  RSS_WITH=$(rss_kib)
  kill -TERM "$TOOL_PID" 2>/dev/null || true
  wait "$TOOL_PID" 2>/dev/null || true
  TOOL_PID=""
  wait_connections 0 || echo "idle-sessions: $(connections) connections still counted after the sessions left"
  sleep 2
  RSS_AFTER=$(rss_kib)
  LEFT=$(connections)
  stop_relay
  PER=$(jq -n "($RSS_WITH - $RSS_BEFORE) / $SESSIONS * 10 | round / 10")
  echo "idle-sessions: $variant: RSS before $((RSS_BEFORE / 1024)) MiB, with $SESSIONS sessions $((RSS_WITH / 1024)) MiB, after they left $((RSS_AFTER / 1024)) MiB: $PER KiB per session"
  RESULTS+=("$(jq -nc --arg variant "$variant" --argjson sessions "$SESSIONS" --argjson rooms "$([ "$variant" = joined ] && echo "$ROOMS" || echo 0)" \
    --argjson before "$RSS_BEFORE" --argjson with "$RSS_WITH" --argjson after "$RSS_AFTER" --argjson per "$PER" --argjson left "$LEFT" \
    '{variant: $variant, sessions: $sessions, rooms: $rooms, rssKiB: {before: $before, withSessions: $with, afterLeaving: $after},
      kibPerSession: $per, connectionsLeft: $left}')")
done

printf '%s\n' "${RESULTS[@]}" | jq -s --sort-keys --arg relayVersion "$VERSION" --argjson max "$MAX_KIB" \
  '{relayVersion: $relayVersion, maxKiBPerSession: $max, variants: ., passed: all(.[]; .kibPerSession <= $max and .connectionsLeft == 0)}' > "$REPORT"
echo "idle-sessions: report $REPORT"
if [ "$(jq '.passed' "$REPORT")" != "true" ]; then
  echo "idle-sessions: FAILED: over $MAX_KIB KiB per idle session, or sessions still counted after leaving"
  exit 1
fi
