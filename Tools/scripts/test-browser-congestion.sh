#!/usr/bin/env bash
# Transport-wide congestion feedback against headless Chromium (Tests/Interop/congestion_feedback_test.py):
# three relays in a network namespace with only loopback up, one with media.congestionFeedback,
# one without, and one with it whose announced address (127.0.0.2) is pkrelay-impair capping the
# uplink (a publisher's estimate), then the downlink (the relay's estimate of a viewer); then automatic layer
# fallback and recovery behind the same capped downlink (Tests/Interop/layer_fallback_test.py).
# BROWSER_CONGESTION_PHASES picks phases ("feedback fallback" by default). Needs root (unshare --net);
# `make test-browser` builds pkrelay and pkrelay-impair first.
set -euo pipefail

cd "$(dirname "$0")/../.."
bin="$(${SWIFT:-swift} build --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/with.yaml" <<YAML
control: {port: 7700}
admin: {port: 7710}
media: {portRangeStart: 40000, portRangeEnd: 40099, webrtcPort: 7702}
YAML
cat > "$work/without.yaml" <<YAML
control: {port: 7800}
admin: {port: 7810}
media: {portRangeStart: 40100, portRangeEnd: 40199, webrtcPort: 7802, congestionFeedback: false}
YAML
cat > "$work/capped.yaml" <<YAML
control: {port: 7900}
admin: {port: 7910}
media: {portRangeStart: 40200, portRangeEnd: 40299, webrtcPort: 7902, announcedAddress: 127.0.0.2}
YAML

exec unshare --net bash -c '
    ip link set lo up
    bin=$1 work=$2 phases=$3
    pids=()
    for name in with without capped; do
        "$bin/pkrelay" serve --config "$work/$name.yaml" > "$work/$name.log" 2>&1 &
        pids+=($!)
    done
    mkfifo "$work/impair.in"
    "$bin/pkrelay-impair" --listen 127.0.0.2:7902 --target 127.0.0.1:7902 --uplink "rate=300k" < "$work/impair.in" > "$work/impair.out" 2>&1 &
    pids+=($!)
    exec 3> "$work/impair.in"
    for port in 7710 7810 7910; do
        for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break; sleep 0.1; done
    done
    status=0
    case " $phases " in *" feedback "*)
        /usr/bin/python3 Tests/Interop/congestion_feedback_test.py --with http://127.0.0.1:7700 --without http://127.0.0.1:7800 \
            --with-admin http://127.0.0.1:7710 --without-admin http://127.0.0.1:7810 \
            --capped http://127.0.0.1:7900 --impair-commands "$work/impair.in" --cap 300000 --viewer-cap 2500000 || status=$?
    esac
    case " $phases " in *" fallback "*)
        if [ "$status" -eq 0 ]; then
            for layers in 2 3; do
                [ "$status" -eq 0 ] || break
                /usr/bin/python3 Tests/Interop/layer_fallback_test.py --capped http://127.0.0.1:7900 --impair-commands "$work/impair.in" \
                    --layers "$layers" || status=$?
            done
        fi
    esac
    echo quit >&3
    kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null || true
    if [ "$status" -ne 0 ]; then for name in with without capped; do echo "$name relay log:"; tail -n 20 "$work/$name.log"; done; cat "$work/impair.out"; fi
    exit "$status"
' test-browser-congestion "$bin" "$work" "${BROWSER_CONGESTION_PHASES:-feedback fallback}"
