#!/usr/bin/env bash
# Runs the browser demo test: a relay and headless Chromium instances in a network namespace
# with only loopback up (so Chromium cannot pick another interface), the anchor page publishing
# its fake camera, an audience page decoding it, then a PK link between two rooms.
# Needs root (unshare --net); `make test-browser` installs Chromium and builds the relay first.
set -euo pipefail

cd "$(dirname "$0")/../.."
bin="$(${SWIFT:-swift} build --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/relay.yaml" <<YAML
control: {port: 7700}
admin: {port: 7710}
media: {portRangeStart: 40000, portRangeEnd: 40099, webrtcPort: 7702}
YAML

exec unshare --net bash -c '
    ip link set lo up
    "$1/pkrelay" serve --config "$2/relay.yaml" > "$2/relay.log" 2>&1 &
    relay=$!
    for _ in $(seq 50); do curl -sf http://127.0.0.1:7710/healthz > /dev/null && break; sleep 0.1; done
    status=0
    /usr/bin/python3 Tests/Interop/browser_demo_test.py --base http://127.0.0.1:7700 --timeout 240 --simulcast --pk --pk-start "${BROWSER_PK_START_RUNS:-4}" --reconnect --guide --admin http://127.0.0.1:7710 || status=$?
    kill "$relay"; wait "$relay" 2>/dev/null || true
    if [ "$status" -ne 0 ]; then echo "relay log:"; tail -n 40 "$2/relay.log"; fi
    exit "$status"
' test-browser "$bin" "$work"
