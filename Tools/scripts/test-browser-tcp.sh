#!/usr/bin/env bash
# ICE-TCP with a real browser: the relay and headless Chromium in a network namespace with only
# loopback up, where nftables drops every UDP datagram to or from the relay's WebRTC port. The
# anchor page publishes its fake camera and the audience page must decode it, which they can
# only do over the relay's passive TCP candidate; the relay's metrics must count the TCP
# connections. Needs root (unshare --net) and nft; `make test-browser` installs both.
set -euo pipefail

cd "$(dirname "$0")/../.."
bin="$(${SWIFT:-swift} build --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/relay.yaml" <<YAML
control: {port: 7700}
admin: {port: 7710}
media: {portRangeStart: 40000, portRangeEnd: 40099, webrtcPort: 7702, threads: 1}
YAML

exec unshare --net bash -c '
    ip link set lo up
    nft add table inet udp_blocked
    nft "add chain inet udp_blocked output { type filter hook output priority 0; }"
    nft add rule inet udp_blocked output udp dport 7702 counter drop
    nft add rule inet udp_blocked output udp sport 7702 counter drop
    "$1/pkrelay" serve --config "$2/relay.yaml" > "$2/relay.log" 2>&1 &
    relay=$!
    for _ in $(seq 50); do curl -sf http://127.0.0.1:7710/healthz > /dev/null && break; sleep 0.1; done
    status=0
    /usr/bin/python3 Tests/Interop/browser_demo_test.py --base http://127.0.0.1:7700 --timeout 120 --admin http://127.0.0.1:7710 || status=$?
    accepted=$(curl -sf http://127.0.0.1:7710/metrics | sed -n "s/^pkrelay_ice_tcp_connections_total{outcome=\"accepted\"} //p")
    dropped=$(nft list table inet udp_blocked | sed -n "s/.*dport 7702 counter packets \([0-9]*\).*/\1/p")
    echo "ICE-TCP connections accepted: ${accepted:-none}; UDP datagrams to the WebRTC port dropped: ${dropped:-none}"
    # The anchor and the viewer: one connection each at least.
    if [ "$status" -eq 0 ] && [ "${accepted:-0}" -lt 2 ]; then echo "expected at least 2 ICE-TCP connections"; status=1; fi
    kill "$relay"; wait "$relay" 2>/dev/null || true
    if [ "$status" -ne 0 ]; then echo "relay log:"; tail -n 40 "$2/relay.log"; fi
    exit "$status"
' test-browser-tcp "$bin" "$work"
