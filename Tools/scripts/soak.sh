#!/usr/bin/env bash
# Soak: starts a release relay on free ports, warms it up, runs pkrelay-traffic's churn scenario
# against it for a long while (audience members joining and leaving, forwards and PK links
# starting and stopping), then checks that the relay is still up and answering, holds nothing once
# the clients have gone (connections, rooms, users, streams, subscriptions, forwards, links,
# transports, UDP ports, data-plane sources and sinks) and that its memory and descriptors did
# not grow. Writes a JSON report and prints a summary; exits non-zero when a check fails.
#
# Usage: Tools/scripts/soak.sh [pkrelay-traffic run options...]   (e.g. --rooms 6 --audience 8)
# Environment:
#   SOAK_DURATION             how long the churn runs (30m; 500ms, 30s, 2m, 1h)
#   SOAK_WARMUP               churn before the starting figures are taken (1m)
#   SOAK_ROOMS, SOAK_AUDIENCE rooms (paired) and audience slots per room (4, 4)
#   SOAK_REPORT               the JSON report (soak-report.json)
#   SOAK_MAX_RSS_GROWTH_MIB   allowed growth of the relay's RSS from start to end (32)
#   SOAK_MAX_RSS_GROWTH_PERCENT  ... or this share of the starting RSS, whichever is larger (25)
#   SOAK_MAX_FD_GROWTH        allowed growth of the relay's open descriptors (4)
#   SOAK_SAMPLE_SECONDS       how often RSS and descriptors are sampled during the run (10)
set -euo pipefail
SWIFT="${SWIFT:-swift}"
DURATION="${SOAK_DURATION:-30m}"
WARMUP="${SOAK_WARMUP:-1m}"
ROOMS="${SOAK_ROOMS:-4}"
AUDIENCE="${SOAK_AUDIENCE:-4}"
REPORT="${SOAK_REPORT:-soak-report.json}"
MAX_RSS_GROWTH_MIB="${SOAK_MAX_RSS_GROWTH_MIB:-32}"
MAX_RSS_GROWTH_PERCENT="${SOAK_MAX_RSS_GROWTH_PERCENT:-25}"
MAX_FD_GROWTH="${SOAK_MAX_FD_GROWTH:-4}"
SAMPLE_SECONDS="${SOAK_SAMPLE_SECONDS:-10}"
for tool in curl jq; do
  command -v "$tool" >/dev/null || { echo "soak: needs $tool (apt-get install $tool)"; exit 2; }
done

"$SWIFT" build -c release --product pkrelay
"$SWIFT" build -c release --product pkrelay-traffic
BIN="$("$SWIFT" build -c release --show-bin-path)"
WORK="$(mktemp -d)"
trap 'if [ -n "${SAMPLER_PID:-}" ]; then kill "$SAMPLER_PID" 2>/dev/null || true; fi
      if [ -n "${RELAY_PID:-}" ]; then kill -TERM "$RELAY_PID" 2>/dev/null || true; wait "$RELAY_PID" 2>/dev/null || true; fi
      rm -rf "$WORK"' EXIT
cat > "$WORK/pkrelay.yaml" <<YAML
control: {port: 0}
admin: {port: 0, requestsPerSecond: 50}
media: {portRangeStart: ${SOAK_MEDIA_PORTS_START:-47000}, portRangeEnd: ${SOAK_MEDIA_PORTS_END:-47999}, webrtcPort: 0}
logging: {format: json, level: notice}
YAML
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
VERSION="$("$BIN/pkrelay" --version 2>/dev/null || echo unknown)"
ADMIN_TOKEN="$("$BIN/pkrelay" token --admin --config "$WORK/pkrelay.yaml" 2>/dev/null | tail -1)"

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$RELAY_PID/status" 2>/dev/null || echo 0; }
fd_count() { ls "/proc/$RELAY_PID/fd" 2>/dev/null | wc -l; }
stats() { curl -fsS --max-time 5 -H "Authorization: Bearer $ADMIN_TOKEN" "$ADMIN/admin/v1/stats"; }
# What the relay still holds, as one JSON object (zeros when it is clean).
held() {
  stats | jq -c '{connections, rooms, users, streams, subscriptions, forwards, links, transports, udpPorts,
                  mediaTransports: .media.transports, mediaSources: .media.sources, mediaSinks: .media.sinks}'
}
# Waits (up to 20 s) until the relay holds nothing, then prints what it holds.
settle() {
  local now=""
  for _ in $(seq 1 40); do
    now="$(held || echo '{}')"
    if [ "$(jq '[.[]] | length > 0 and all(. == 0)' <<<"$now")" = "true" ]; then break; fi
    sleep 0.5
  done
  echo "$now"
}
churn() {
  "$BIN/pkrelay-traffic" run --scenario churn --relay "$URL" --config "$WORK/pkrelay.yaml" --relay-version "$VERSION" \
    --rooms "$ROOMS" --audience "$AUDIENCE" --quiet "$@"
}

echo "soak: warming up with churn for $WARMUP ($ROOMS rooms, $AUDIENCE audience slots each)"
churn --duration "$WARMUP" > "$WORK/warmup.txt" || { echo "soak: the warm-up run failed:"; cat "$WORK/warmup.txt"; exit 2; }
HELD_START="$(settle)"
RSS_START=$(rss_kib) FDS_START=$(fd_count)
echo "soak: start: RSS $((RSS_START / 1024)) MiB, $FDS_START descriptors, holds $HELD_START"

# Samples RSS, descriptors and connections while the churn runs.
(
  started=$(date +%s)
  while kill -0 "$RELAY_PID" 2>/dev/null; do
    sleep "$SAMPLE_SECONDS"
    connections="$(stats 2>/dev/null | jq '.connections' 2>/dev/null || echo null)"
    echo "{\"seconds\": $(( $(date +%s) - started )), \"rssKiB\": $(rss_kib), \"fds\": $(fd_count), \"connections\": ${connections:-null}}"
  done
) > "$WORK/samples.jsonl" &
SAMPLER_PID=$!

echo "soak: churn for $DURATION"
TRAFFIC_STATUS=0
churn --duration "$DURATION" --report "$WORK/traffic.json" "$@" > "$WORK/traffic.txt" 2>&1 || TRAFFIC_STATUS=$?
kill "$SAMPLER_PID" 2>/dev/null || true
wait "$SAMPLER_PID" 2>/dev/null || true
SAMPLER_PID=""
cat "$WORK/traffic.txt"

ALIVE=false
if kill -0 "$RELAY_PID" 2>/dev/null && curl -fsS --max-time 5 "$ADMIN/healthz" >/dev/null && stats >/dev/null; then ALIVE=true; fi
HELD_END='{}'
RSS_END=0 FDS_END=0
if $ALIVE; then
  HELD_END="$(settle)"
  RSS_END=$(rss_kib) FDS_END=$(fd_count)
fi

RSS_ALLOWED=$(( RSS_START * MAX_RSS_GROWTH_PERCENT / 100 ))
(( RSS_ALLOWED < MAX_RSS_GROWTH_MIB * 1024 )) && RSS_ALLOWED=$(( MAX_RSS_GROWTH_MIB * 1024 ))
FAILURES=()
$ALIVE || FAILURES+=("the relay died or stopped answering")
if $ALIVE; then
  [ "$(jq '[.[]] | length > 0 and all(. == 0)' <<<"$HELD_END")" = "true" ] || FAILURES+=("the relay still holds $(jq -c 'with_entries(select(.value != 0))' <<<"$HELD_END")")
  (( RSS_END - RSS_START <= RSS_ALLOWED )) || FAILURES+=("RSS grew by $(( (RSS_END - RSS_START) / 1024 )) MiB (allowed $(( RSS_ALLOWED / 1024 )) MiB)")
  (( FDS_END - FDS_START <= MAX_FD_GROWTH )) || FAILURES+=("open descriptors grew from $FDS_START to $FDS_END")
fi
(( TRAFFIC_STATUS == 0 )) || FAILURES+=("pkrelay-traffic exited with status $TRAFFIC_STATUS")

jq -n --sort-keys \
  --arg relayVersion "$VERSION" --arg duration "$DURATION" --arg warmup "$WARMUP" \
  --argjson rooms "$ROOMS" --argjson audience "$AUDIENCE" --argjson alive "$ALIVE" \
  --argjson rssStart "$RSS_START" --argjson rssEnd "$RSS_END" --argjson fdsStart "$FDS_START" --argjson fdsEnd "$FDS_END" \
  --argjson rssAllowed "$RSS_ALLOWED" --argjson fdAllowed "$MAX_FD_GROWTH" \
  --argjson heldStart "$HELD_START" --argjson heldEnd "$HELD_END" --argjson trafficStatus "$TRAFFIC_STATUS" \
  --slurpfile samples "$WORK/samples.jsonl" \
  --slurpfile traffic <(cat "$WORK/traffic.json" 2>/dev/null || echo null) \
  --args '{
    relayVersion: $relayVersion, duration: $duration, warmup: $warmup, rooms: $rooms, audiencePerRoom: $audience,
    relayAlive: $alive,
    rssKiB: {start: $rssStart, end: $rssEnd, allowedGrowth: $rssAllowed, max: ([$samples[].rssKiB] | max)},
    fds: {start: $fdsStart, end: $fdsEnd, allowedGrowth: $fdAllowed, max: ([$samples[].fds] | max)},
    heldAtStart: $heldStart, heldAtEnd: $heldEnd,
    trafficStatus: $trafficStatus, traffic: $traffic[0], samples: $samples,
    failures: $ARGS.positional, passed: ($ARGS.positional | length == 0)
  }' "${FAILURES[@]}" > "$REPORT"

echo
echo "soak summary ($DURATION of churn after $WARMUP warm-up, $ROOMS rooms, $AUDIENCE audience slots each)"
echo "  relay        $($ALIVE && echo "still running and answering" || echo "DEAD or not answering")"
echo "  RSS          start $((RSS_START / 1024)) MiB, end $((RSS_END / 1024)) MiB, highest $(( $(jq '.rssKiB.max // 0' "$REPORT") / 1024 )) MiB during the run"
echo "  descriptors  start $FDS_START, end $FDS_END, highest $(jq '.fds.max // 0' "$REPORT") during the run"
echo "  held at end  $HELD_END"
echo "  report       $REPORT"
if ((${#FAILURES[@]})); then
  printf '  FAILED: %s\n' "${FAILURES[@]}"
  exit 1
fi
echo "  passed"
