#!/usr/bin/env bash
# deps.sh — installs what evgen needs to build and test, when it is missing (Debian/Ubuntu).
# Sourced or run by scripts/main.sh and scripts/test.sh; does nothing when all is present.
set -euo pipefail

EVGEN_PACKAGES=(cmake ninja-build gcc g++ clang libclang-dev libclang-rt-dev libcmocka-dev libjson-c-dev pkg-config)

missing=()
for pkg in "${EVGEN_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done

if ((${#missing[@]})); then
    echo "evgen: installing missing packages: ${missing[*]}"
    sudo_cmd=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null || { echo "evgen: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
        sudo_cmd=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
