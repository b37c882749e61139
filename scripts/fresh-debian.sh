#!/usr/bin/env bash
# fresh-debian.sh — proves the README's two commands on a fresh minimal Debian 12: builds a root
# with `debootstrap --variant=minbase bookworm` (no compiler, no make, no cmake), copies a clean
# clone of this checkout's HEAD and ../shared into it, and runs scripts/main.sh and/or
# scripts/test.sh inside it with chroot, timing each. Needs root and the network to Debian's
# mirror; installs debootstrap with apt-get when it is missing.
#
#   scripts/fresh-debian.sh [--work DIR] [--cache] [--keep] [main|test|both]
#
#   --work DIR  where the root is made (default: build/fresh-debian); it is removed first
#   --cache     keep the bare debootstrap result as DIR/base.tar and start from it next time
#               (a root made from it is as fresh: nothing but minbase is in it)
#   --keep      leave the root in place afterwards (to look around with chroot)
#   main|test|both   which command to run (default: both, main first)
# Exit status: 0 when every command run passed.
set -euo pipefail
cd "$(dirname "$0")/.."

work=build/fresh-debian cache=0 keep=0 which=both
while (($#)); do
    case $1 in
    --work) work=$2; shift 2 ;;
    --cache) cache=1; shift ;;
    --keep) keep=1; shift ;;
    main | test | both) which=$1; shift ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fresh-debian.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
[[ $(id -u) -eq 0 ]] || { echo "fresh-debian.sh: needs root (debootstrap, chroot, mount)" >&2; exit 1; }
[[ -d ../shared ]] || { echo "fresh-debian.sh: ../shared is not beside the checkout" >&2; exit 1; }
if ! command -v debootstrap >/dev/null; then
    echo "fresh-debian.sh: installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

mkdir -p "$work"
work=$(cd "$work" && pwd)
root=$work/root
mounted=()
cleanup() {
    local m
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        m=${mounted[i]}
        umount -l "$m" 2>/dev/null || true
    done
    if ((!keep)) && [[ -d $root ]]; then
        rm -rf --one-file-system "$root"
    fi
}
trap cleanup EXIT

# A run that was killed leaves its bind mounts behind; undo them (deepest first) before the old
# root is removed, so nothing of the host's /dev or /proc is ever inside what rm walks.
if [[ -d $root ]]; then
    grep -F " $root/" /proc/mounts | cut -d' ' -f2 | sort -r | while read -r m; do
        umount -l "$m" || { echo "fresh-debian.sh: cannot unmount $m" >&2; exit 1; }
    done
fi
rm -rf --one-file-system "$root"
start=$SECONDS
if ((cache)) && [[ -f $work/base.tar ]]; then
    echo "== a minimal Debian 12 root from $work/base.tar =="
    mkdir -p "$root"
    tar -C "$root" -xf "$work/base.tar"
else
    echo "== debootstrap --variant=minbase bookworm $root (log: $work/debootstrap.log) =="
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
        { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
    ((cache)) && tar -C "$root" -cf "$work/base.tar" .
fi
echo "root ready in $((SECONDS - start)) s"

# What a fresh machine is not given: the proof that nothing the scripts need is already there.
for tool in cc gcc make cmake ninja clang git; do
    if chroot "$root" /bin/sh -c "command -v $tool" >/dev/null 2>&1; then
        echo "fresh-debian.sh: the root already has $tool: it is not minimal" >&2
        exit 1
    fi
done

# A clean clone of HEAD (what CI sees: nothing uncommitted, no build directory) and ../shared.
mkdir -p "$root/work"
git clone --quiet --no-hardlinks "$PWD" "$root/work/evgen"
cp -a ../shared "$root/work/shared"
cp /etc/resolv.conf "$root/etc/resolv.conf"
for fs in proc sys dev dev/pts; do
    mkdir -p "$root/$fs"
    mount --bind "/$fs" "$root/$fs"
    mounted+=("$root/$fs")
done

run_in_root() {
    local script=$1
    echo "== scripts/$script in the fresh root =="
    local t0=$SECONDS
    # A login-like environment: nothing of this shell's PATH or variables leaks in.
    if chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/bash -c "cd /work/evgen && scripts/$script" 2>&1 | tee "$work/$script.log"; then
        echo "== scripts/$script passed in $((SECONDS - t0)) s (log: $work/$script.log) =="
    else
        echo "== scripts/$script FAILED after $((SECONDS - t0)) s (log: $work/$script.log) ==" >&2
        return 1
    fi
}

status=0
case $which in
main) run_in_root main.sh || status=1 ;;
test) run_in_root test.sh || status=1 ;;
both) { run_in_root main.sh && run_in_root test.sh; } || status=1 ;;
esac
exit $status
