#!/usr/bin/env bash
# Installs what PKRelay needs on Debian 12 when it is missing.
#   install-deps.sh build   C libraries the relay links against
#   install-deps.sh test    the above plus the real clients the tests drive (ffmpeg) and the
#                           OpenAPI checker (python3 with jsonschema, openapi-schema-validator)
set -euo pipefail

want=(libsrtp2-dev libssl-dev pkg-config)
if [[ "${1:-build}" == "test" ]]; then
    want+=(ffmpeg python3 python3-pip python3-yaml)
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
fi
