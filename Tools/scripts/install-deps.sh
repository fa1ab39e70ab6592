#!/usr/bin/env bash
# Installs what PKRelay needs on Debian 12 when it is missing.
#   install-deps.sh build   C libraries the relay links against
#   install-deps.sh test    the above plus the real clients the tests drive (ffmpeg, GnuTLS's
#                           DTLS tools, aiortc) and the OpenAPI checker (python3 with jsonschema,
#                           openapi-schema-validator, schemathesis), Python's prometheus_client
#                           (the /metrics parser), gdb for the test watchdog and
#                           PostgreSQL for the cluster tests, coturn for the TURN tests
#   install-deps.sh browser headless Chromium, its driver and selenium for `make test-browser`
set -euo pipefail

want=(libsrtp2-dev libssl-dev pkg-config)
if [[ "${1:-build}" == "test" ]]; then
    # golang and pion's DTLS: a second independent DTLS implementation (it negotiates GCM,
    # which Debian's GnuTLS cannot).
    # gdb: the test watchdog (test-bounded.sh) prints a hung run's thread backtraces with it.
    # postgresql: the cluster tests start private instances of it.
    # coturn: the TURN tests relay clients through a private instance of it.
    want+=(ffmpeg gnutls-bin golang-go golang-github-pion-dtls.v2-dev python3 python3-pip python3-yaml gdb postgresql coturn)
fi
if [[ "${1:-build}" == "browser" ]]; then
    # nftables: the ICE-TCP phase drops UDP to the relay inside the test's network namespace.
    want=(chromium chromium-driver python3-selenium curl iproute2 util-linux nftables)
fi

# node runs the web SDK's tests (make test-sdk, node:test); any node from 18 on does, so
# Debian's nodejs is installed only when no node is on the PATH. tsc (node-typescript) compiles a
# use of the SDK against its declarations, pkrelay.d.ts.
if [[ "${1:-build}" == "test" ]]; then
    command -v node > /dev/null || want+=(nodejs)
    command -v tsc > /dev/null || want+=(node-typescript)
fi

missing=()
for package in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    sudo_cmd=""
    if [[ $(id -u) -ne 0 ]]; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ "${1:-build}" == "test" ]]; then
    if ! python3 -c "import jsonschema, openapi_schema_validator, yaml, referencing" 2>/dev/null; then
        echo "installing: jsonschema openapi-schema-validator (pip)"
        pip install --quiet jsonschema openapi-schema-validator pyyaml 2>/dev/null \
            || pip install --quiet --break-system-packages jsonschema openapi-schema-validator pyyaml
    fi
    # prometheus_client: its parser reads /metrics in the tests as Prometheus would.
    if ! python3 -c "import prometheus_client" 2>/dev/null; then
        echo "installing: prometheus_client (pip)"
        pip install --quiet prometheus_client 2>/dev/null \
            || pip install --quiet --break-system-packages prometheus_client
    fi
    # schemathesis: generates admin API calls from docs/openapi.yaml and checks the live answers.
    if ! python3 -c "import schemathesis.cli" 2>/dev/null; then
        echo "installing: schemathesis (pip)"
        pip install --quiet schemathesis 2>/dev/null \
            || pip install --quiet --break-system-packages schemathesis
    fi
    # aiortc: an independent WebRTC implementation (ICE, DTLS-SRTP, VP8/Opus) for the interop tests.
    if ! python3 -c "import aiortc, websockets" 2>/dev/null; then
        echo "installing: aiortc websockets (pip)"
        pip install --quiet aiortc websockets 2>/dev/null \
            || pip install --quiet --break-system-packages aiortc websockets
    fi
    # The pion DTLS peer, built once into the build cache its tests use: compiled during the
    # tests instead, pion and its dependencies take both cores of a small machine for tens of
    # seconds while the end-to-end suites beside them wait on their timers.
    if command -v go >/dev/null && [ -f /usr/share/gocode/src/github.com/pion/dtls/v2/conn.go ]; then
        GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS= GOCACHE="${TMPDIR:-/tmp}/dtls-pion-go-cache" \
            go build -o /dev/null "$(dirname "$0")/../../Tests/Interop/dtls_pion_peer.go" \
            || echo "warning: the pion DTLS peer did not build here; its test will report why"
    fi
fi
