#!/usr/bin/env bash
# Installs what PKRelay needs on Debian 12 when it is missing.
#   install-deps.sh build   C libraries the relay links against
#   install-deps.sh test    the above plus the real clients the tests drive (ffmpeg)
set -euo pipefail

want=(libsrtp2-dev libssl-dev pkg-config)
if [[ "${1:-build}" == "test" ]]; then
    want+=(ffmpeg)
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
