#!/bin/sh
# setup.sh — installs, with apt-get and only where missing, what bench/peers/run.sh needs to build
# and run the peers (LTTng-UST 2.13, barectf 3, babeltrace2) beside evgen, on Debian 12. Idempotent:
# a second run installs nothing. Prints what it installed. Run as root (or through sudo). Not called
# by the README's commands nor by CI: the peers are for the comparison, not for building evgen.
set -eu

# Debian package, and the command or file that shows it is there.
wanted='lttng-tools:/usr/bin/lttng
liblttng-ust-dev:/usr/include/lttng/tracepoint.h
python3-barectf:/usr/bin/barectf
babeltrace2:/usr/bin/babeltrace2
gcc:/usr/bin/gcc
cmake:/usr/bin/cmake
ninja-build:/usr/bin/ninja'

missing=''
for entry in $wanted; do
    package=${entry%%:*}
    probe=${entry#*:}
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
        # A tool built from source (a compiler, cmake) is as good as the package.
        case $package in
            gcc|cmake|ninja-build) [ -x "$probe" ] || command -v "${probe##*/}" >/dev/null 2>&1 && continue ;;
        esac
        missing="$missing $package"
    fi
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
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -q --no-install-recommends $missing
echo "setup.sh: installed:$missing"
