#!/usr/bin/env bash
# deps.sh [main|test] — installs what evgen needs, when it is missing (Debian 12 / Ubuntu), quietly:
# one line saying what is installed, the whole apt-get log in build/deps-install.log.
#   main  what scripts/main.sh needs: build evgen, the examples, run them
#   test  (the default) what scripts/test.sh needs besides: make for the Makefiles builds, g++ and
#         clang with its sanitizer runtime, cmocka, json-c, pkg-config, git; the real consumers the
#         export tests feed: babeltrace2 and its Python bindings (CTF), a PostgreSQL server (SQL),
#         and with the machine's node and npm @tracerbench/trace-model (Perfetto's JSON), in build/npm
# Packages are installed with --no-install-recommends, so every package a step needs is named here,
# Recommends included (make is only a Recommends of cmake, libc6-dev of gcc): scripts/fresh-debian.sh
# proves the list on a minimal Debian root. Does nothing when all are present.
set -euo pipefail
cd "$(dirname "$0")/.."

main_packages=(cmake ninja-build gcc libc6-dev libclang-dev)
test_packages=(make g++ clang libclang-rt-dev libcmocka-dev libjson-c-dev pkg-config git
    babeltrace2 python3-bt2 postgresql-15)

case "${1:-test}" in
main) wanted=("${main_packages[@]}") ;;
test) wanted=("${main_packages[@]}" "${test_packages[@]}") ;;
*)
    echo "usage: scripts/deps.sh [main|test]" >&2
    exit 2
    ;;
esac

[[ ${1:-test} == test ]] && tests/export/perfetto/install-trace-model.sh

missing=()
for pkg in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
((${#missing[@]})) || exit 0

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "evgen: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo_cmd=(sudo)
fi
mkdir -p build
log=build/deps-install.log
printf 'evgen: installing %s with apt-get (log: %s) ... ' "${missing[*]}" "$log"
start=$SECONDS
export DEBIAN_FRONTEND=noninteractive
if ! { "${sudo_cmd[@]}" apt-get update -q &&
       "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    echo "failed"
    tail -n 20 "$log" >&2
    echo "evgen: apt-get failed; the whole log is $log" >&2
    exit 1
fi
echo "done in $((SECONDS - start)) s"
