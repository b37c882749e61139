#!/bin/sh
# setup.sh — installs, with apt-get and only where missing, what bench/peers/run.sh needs to build
# and run the peers (LTTng-UST 2.13 and its control library, barectf 3, babeltrace2) beside evgen,
# on Debian 12. Idempotent: a second run installs nothing. Prints what it installed. Run as root (or
# with sudo at hand). Not called by the README's commands nor by CI: the peers are for the
# comparison, not for building evgen.
set -eu

peers='lttng-tools liblttng-ust-dev liblttng-ctl-dev python3-barectf babeltrace2'
# The toolchain, each package beside the command that is as good as it (a compiler or cmake built
# from source counts).
toolchain='gcc:cc cmake:cmake ninja-build:ninja'

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=''
for package in $peers; do
    installed "$package" || missing="$missing $package"
done
for entry in $toolchain; do
    installed "${entry%%:*}" || command -v "${entry#*:}" >/dev/null 2>&1 || missing="$missing ${entry%%:*}"
done

if [ -z "$missing" ]; then
    echo "setup.sh: nothing to install; the peers' packages are all there"
    exit 0
fi

as_root=''
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup.sh: must run as root to install:$missing" >&2; exit 1; }
    as_root=sudo
fi
echo "setup.sh: installing:$missing"
$as_root apt-get update -q
# shellcheck disable=SC2086 # one argument per package
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -q --no-install-recommends $missing
echo "setup.sh: installed:$missing"
