#!/usr/bin/env bash
# IPv6 with a real browser: the relay and headless Chromium in a network namespace with loopback
# and a veth pair holding the IPv6 addresses fd01::1 (the relay's media.bindAddress6) and fd01::2
# (Chromium gathers no IPv6 candidate on loopback), where nftables drops every IPv4 packet, UDP
# or TCP, to or from the relay's WebRTC port. The anchor page publishes its fake camera and the audience page must
# decode it, which they can only do over the relay's IPv6 candidates; nftables must have counted
# IPv6 datagrams to the port. Needs root (unshare --net) and nft; `make test-browser` installs both.
set -euo pipefail

cd "$(dirname "$0")/../.."
bin="$(${SWIFT:-swift} build --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/relay.yaml" <<YAML
control: {port: 7700}
admin: {port: 7710}
media:
  portRangeStart: 40000
  portRangeEnd: 40099
  webrtcPort: 7702
  threads: 1
  bindAddress6: fd01::1
YAML

exec unshare --net bash -c '
    ip link set lo up
    ip link add v6a type veth peer name v6b
    ip addr add fd01::1/64 dev v6a nodad
    ip addr add fd01::2/64 dev v6b nodad
    ip link set v6a up
    ip link set v6b up
    nft add table inet ipv4_blocked
    nft "add chain inet ipv4_blocked output { type filter hook output priority 0; }"
    nft add rule inet ipv4_blocked output meta nfproto ipv4 udp dport 7702 counter drop
    nft add rule inet ipv4_blocked output meta nfproto ipv4 udp sport 7702 counter drop
    nft add rule inet ipv4_blocked output meta nfproto ipv4 tcp dport 7702 counter drop
    nft add rule inet ipv4_blocked output meta nfproto ipv6 udp dport 7702 counter accept
    "$1/pkrelay" serve --config "$2/relay.yaml" > "$2/relay.log" 2>&1 &
    relay=$!
    for _ in $(seq 50); do curl -sf http://127.0.0.1:7710/healthz > /dev/null && break; sleep 0.1; done
    status=0
    /usr/bin/python3 Tests/Interop/browser_demo_test.py --base http://127.0.0.1:7700 --timeout 120 --admin http://127.0.0.1:7710 || status=$?
    rules=$(nft list table inet ipv4_blocked)
    ipv6=$(echo "$rules" | sed -n "s/.*nfproto ipv6 udp dport 7702 counter packets \([0-9]*\).*/\1/p")
    dropped=$(echo "$rules" | sed -n "s/.*nfproto ipv4 udp dport 7702 counter packets \([0-9]*\).*/\1/p")
    echo "IPv6 UDP datagrams to the WebRTC port: ${ipv6:-none}; IPv4 UDP datagrams to it dropped: ${dropped:-none}"
    if [ "$status" -eq 0 ] && [ "${ipv6:-0}" -lt 100 ]; then echo "expected the media to reach the relay over IPv6"; status=1; fi
    kill "$relay"; wait "$relay" 2>/dev/null || true
    if [ "$status" -ne 0 ]; then echo "relay log:"; tail -n 40 "$2/relay.log"; fi
    exit "$status"
' test-browser-ipv6 "$bin" "$work"
