#!/bin/bash
# run.sh — the peers' comparison in one command: builds evgen's harness (build/bench, with
# -DEVGEN_BUILD_BENCH=ON) and the barectf and LTTng-UST harnesses (with cc, into a temporary
# directory), runs ROUNDS interleaved rounds of floor, evgen, barectf and LTTng-UST emitting EVENTS
# GCHeapStats v2 events each (so that the machine's load falls on all alike), reads the barectf and
# LTTng traces back with babeltrace2 (asserting every event is there), runs bench/reader_bench if it
# builds (its trace on a disk's file system: EVGEN_PEERS_DIR, else /var/tmp unless that is tmpfs),
# and prints a table of medians with each harness's per-round ratio to the floor.
# Needs what bench/peers/setup.sh installs. Usage: [EVGEN_PEERS_DIR=DIR] bench/peers/run.sh [EVENTS] [ROUNDS]
set -euo pipefail

events=${1:-1000000}
rounds=${2:-7}
if ! [[ $events =~ ^[0-9]+$ && $rounds =~ ^[0-9]+$ ]] || ((events < 1000 || rounds < 1 || rounds > 64)); then
    echo "usage: $0 [EVENTS >= 1000] [ROUNDS 1..64]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cc=${CC:-cc}

die() {
    echo "run.sh: $*" >&2
    exit 1
}

# ---- what setup.sh installs -------------------------------------------------------------------

missing=''
for tool in lttng lttng-sessiond barectf babeltrace2 "$cc" cmake ninja; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
for header in lttng/tracepoint.h:liblttng-ust-dev lttng/lttng.h:liblttng-ctl-dev; do
    echo "#include <${header%%:*}>" | "$cc" -E -x c - >/dev/null 2>&1 || missing="$missing ${header#*:}"
done
[[ -z $missing ]] || die "missing:$missing. Run bench/peers/setup.sh first (as root): it installs the peers" \
    "(lttng-tools, liblttng-ust-dev, liblttng-ctl-dev, python3-barectf, babeltrace2) with apt-get."

# ---- a temporary directory, and cleanup whatever happens ---------------------------------------

# Traces go to a tmpfs when there is one, so that the disk's writeback does not time the tracers;
# EVGEN_PEERS_DIR puts them elsewhere (a disk, where evgen's O_DIRECT writer has a device to write to).
parent=${TMPDIR:-/tmp}
[[ -d /dev/shm && -w /dev/shm ]] && parent=/dev/shm
# LTTng-UST's ring buffers: 16 sub-buffers of 1 MiB per CPU; on a disk its consumer daemon falls
# behind the emitting loop, and discards, unless they hold the whole run (128).
lttng_subbufs=16
if [[ -n ${EVGEN_PEERS_DIR:-} ]]; then
    [[ -d $EVGEN_PEERS_DIR && -w $EVGEN_PEERS_DIR ]] || die "EVGEN_PEERS_DIR=$EVGEN_PEERS_DIR is not a writable directory"
    parent=$EVGEN_PEERS_DIR
    lttng_subbufs=128
fi
work=$(mktemp -d "$parent/evgen-peers.XXXXXX")
session=evgen-peers-$$
read_work='' # the read side's directory (below), when it is not under $work
session_created=0
our_sessiond=''

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if ((session_created)); then
        lttng destroy "$session" >/dev/null 2>&1 || true
    fi
    if [[ -n $our_sessiond ]]; then
        kill "$our_sessiond" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$our_sessiond" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -rf "$work"
    [[ -z $read_work ]] || rm -rf "$read_work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bin=$work/bin out=$work/out results=$work/results
mkdir -p "$bin" "$out"
: >"$results"

# ---- build ------------------------------------------------------------------------------------

echo "run.sh: building (logs in $work/build.log while running)"
build_dir=$root/build/bench
{
    cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVGEN_BUILD_BENCH=ON \
        -DEVGEN_BUILD_TESTS=OFF
    cmake --build "$build_dir" -j2 --target peer_evgen
} >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; die "evgen's bench build failed"; }
# reader_bench is evgen's read side; it is run below if it builds.
have_reader_bench=0
cmake --build "$build_dir" -j2 --target reader_bench >>"$work/build.log" 2>&1 && have_reader_bench=1
peer_evgen=$build_dir/bench/peers/peer_evgen

cflags=(-O2 -g -std=c99 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes)
{
    "$cc" "${cflags[@]}" -o "$bin/peer_floor" "$here/peer_floor.c"
    mkdir -p "$work/barectf-gen" "$work/barectf-metadata"
    barectf generate --code-dir="$work/barectf-gen" --headers-dir="$work/barectf-gen" \
        --metadata-dir="$work/barectf-metadata" "$here/barectf.yaml"
    # barectf's generated code is built as it comes, without our warning flags.
    "$cc" -O2 -g -std=c99 -c -o "$work/barectf-gen/peer_barectf_gen.o" "$work/barectf-gen/peer_barectf.c"
    "$cc" "${cflags[@]}" -I"$work/barectf-gen" -o "$bin/peer_barectf" "$here/peer_barectf.c" \
        "$work/barectf-gen/peer_barectf_gen.o"
    "$cc" "${cflags[@]}" -I"$here" -o "$bin/peer_lttng" "$here/peer_lttng.c" "$here/peer_lttng_tp.c" \
        -llttng-ust -llttng-ctl -ldl
} >>"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; die "building the barectf or LTTng-UST harness failed"; }

# ---- LTTng's session daemon: the running one, else one started here (and stopped at the end) ---

if ((EUID == 0)); then lttng_rundir=/var/run/lttng; else lttng_rundir=${LTTNG_HOME:-$HOME}/.lttng; fi
sessiond_alive() {
    [[ -f $lttng_rundir/lttng-sessiond.pid ]] && kill -0 "$(cat "$lttng_rundir/lttng-sessiond.pid")" 2>/dev/null
}
if ! sessiond_alive; then
    lttng-sessiond --daemonize --no-kernel >>"$work/build.log" 2>&1 || die "cannot start lttng-sessiond"
    sessiond_alive || die "lttng-sessiond started but left no pid file in $lttng_rundir"
    our_sessiond=$(cat "$lttng_rundir/lttng-sessiond.pid")
fi
sessiond_pid=$(cat "$lttng_rundir/lttng-sessiond.pid")

# ---- one measurement of each harness ----------------------------------------------------------

# record ROUND BYTES < a harness's output: appends to the results, for each PEER line
# (PEER NAME events=N wall_ns=W cpu_ns=C), "ROUND NAME N W C BYTES"; passes any other line on.
record() {
    awk -v round="$1" -v bytes="$2" '
        $1 == "PEER" { for (i = 3; i <= 5; i++) sub(/^[a-z_]+=/, "", $i); print round, $2, $3, $4, $5, bytes; next }
        { print > "/dev/stderr" }' >>"$results"
}

file_bytes() { stat -c %s "$@" | awk '{s += $1} END {print s + 0}'; }

now_ns() { local t=$EPOCHREALTIME; echo "${t/./}000"; }

# bt2_read ROUND NAME TRACE_DIR: times babeltrace2's decode-only and text reads of the trace and
# asserts that the text holds every event (and, in round 1, the last event's values).
bt2_read() {
    local round=$1 name=$2 trace=$3 t0 t1 count last
    t0=$(now_ns)
    babeltrace2 -o dummy "$trace" 2>>"$work/bt2.log" || die "babeltrace2 -o dummy failed on the $name trace"
    t1=$(now_ns)
    echo "$round bt2-dummy-$name $events $((t1 - t0)) 0 0" >>"$results"
    t0=$(now_ns)
    count=$(babeltrace2 "$trace" 2>>"$work/bt2.log" | wc -l) || die "babeltrace2 failed on the $name trace"
    t1=$(now_ns)
    echo "$round bt2-text-$name $events $((t1 - t0)) 0 0" >>"$results"
    ((count == events)) || die "babeltrace2 read $count events of $events from the $name trace"
    if ((round == 1)); then
        last=$(babeltrace2 "$trace" 2>/dev/null | tail -n 1)
        [[ $last == *"GenerationSize0 = $((events - 1)),"* && $last == *"ClrInstanceID = 13,"* &&
            $last == *"GenerationSize4 = $((events - 1)),"* && $last == *"TotalPromotedSize4 = 15 }" ]] ||
            die "the last event of the $name trace is not the one written: $last"
    fi
}

run_floor() {
    "$bin/peer_floor" "$events" "$out/floor.bin" >"$out/floor.txt" || die "the floor harness failed"
    record "$1" "$(file_bytes "$out/floor.bin")" <"$out/floor.txt"
    rm -f "$out/floor.bin"
}

run_evgen() {
    "$peer_evgen" "$events" "$out/trace.evtrace" >"$out/evgen.txt" || die "the evgen harness failed"
    record "$1" "$(file_bytes "$out/trace.evtrace")" <"$out/evgen.txt"
    rm -f "$out/trace.evtrace"
    "$peer_evgen" "$events" "$out/trace.evtrace" --direct-io >"$out/evgen.txt" ||
        die "the evgen harness failed (--direct-io)"
    record "$1" "$(file_bytes "$out/trace.evtrace")" <"$out/evgen.txt"
    rm -f "$out/trace.evtrace"
    "$peer_evgen" "$events" "$out/trace.evtrace" --emitter-writes >"$out/evgen.txt" ||
        die "the evgen harness failed (--emitter-writes)"
    record "$1" "$(file_bytes "$out/trace.evtrace")" <"$out/evgen.txt"
    rm -f "$out/trace.evtrace"
    local mode
    for mode in "" --emitter-writes; do # clock_gettime on every event, as the floor and the peers read the clock
        "$peer_evgen" "$events" "$out/trace.evtrace" ${mode:+"$mode"} --clock-gettime >"$out/evgen.txt" ||
            die "the evgen harness failed ($mode --clock-gettime)"
        record "$1" "$(file_bytes "$out/trace.evtrace")" <"$out/evgen.txt"
        rm -f "$out/trace.evtrace"
    done
    "$peer_evgen" --disabled $((events * 10)) >"$out/evgen.txt" || die "the evgen harness failed (--disabled)"
    record "$1" 0 <"$out/evgen.txt"
}

run_barectf() {
    local trace=$out/barectf
    mkdir -p "$trace"
    cp "$work/barectf-metadata/metadata" "$trace/"
    "$bin/peer_barectf" "$events" "$trace" >"$out/barectf.txt" || die "the barectf harness failed"
    record "$1" "$(file_bytes "$trace/stream")" <"$out/barectf.txt"
    bt2_read "$1" barectf "$trace"
    rm -rf "$trace"
}

# lttng_session ROUND cli|poll: one LTTng-UST measurement in a session of its own, stopped with
# `lttng stop` (cli) or by polling lttng_data_pending every millisecond (poll); asserts that nothing
# was discarded and that babeltrace2 reads every event back.
lttng_session() {
    local round=$1 mode=$2 trace=$out/lttng discarded consumerds count
    # Per-UID buffers (one ring buffer per CPU for all of this user's processes), discard mode,
    # $lttng_subbufs sub-buffers of 1 MiB per CPU (~9,000 events each), read out by lttng-consumerd.
    lttng create "$session" --output="$trace" >/dev/null || die "lttng create failed"
    session_created=1
    lttng enable-channel -u -s "$session" --buffers-uid --subbuf-size=1M --num-subbuf="$lttng_subbufs" chan >/dev/null ||
        die "lttng enable-channel failed"
    lttng enable-event -u -s "$session" -c chan evgen_peer:GCHeapStats >/dev/null || die "lttng enable-event failed"
    lttng start "$session" >/dev/null || die "lttng start failed"
    consumerds=$(pgrep -P "$sessiond_pid" -x lttng-consumerd | tr '\n' ' ')
    [[ -n $consumerds ]] || die "no lttng-consumerd under lttng-sessiond $sessiond_pid"
    # shellcheck disable=SC2086 # one argument per consumer daemon
    "$bin/peer_lttng" "$events" "$session" "$mode" $consumerds >"$out/lttng.txt" || die "the LTTng-UST harness failed"
    discarded=$(lttng list "$session" | awk '/Discarded events:/ {s += $3} END {print s + 0}')
    ((discarded == 0)) || die "LTTng discarded $discarded events: make its sub-buffers larger"
    record "$round" "$(file_bytes "$trace"/ust/uid/*/64-bit/chan_*)" <"$out/lttng.txt"
    if [[ $mode == cli ]]; then
        bt2_read "$round" lttng "$trace"
    else
        count=$(babeltrace2 "$trace" -c sink.utils.counter 2>>"$work/bt2.log" | awk '/Event messages/ {n = $1} END {print n + 0}') ||
            die "babeltrace2 failed on the LTTng trace"
        ((count == events)) || die "babeltrace2 counted $count events of $events in the LTTng trace"
    fi
    lttng destroy "$session" >/dev/null || die "lttng destroy failed"
    session_created=0
    rm -rf "$trace"
}

run_lttng() {
    lttng_session "$1" cli
    lttng_session "$1" poll
    "$bin/peer_lttng" --disabled $((events * 10)) >"$out/lttng.txt" || die "the LTTng-UST harness failed (--disabled)"
    record "$1" 0 <"$out/lttng.txt"
}

# ---- the rounds -------------------------------------------------------------------------------

harnesses=(floor evgen barectf lttng)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((round = 1; round <= rounds; round++)); do
    echo "run.sh: round $round of $rounds"
    # Each round starts with the next harness, so that none always runs first or after another.
    for ((k = 0; k < ${#harnesses[@]}; k++)); do
        "run_${harnesses[(round - 1 + k) % ${#harnesses[@]}]}" "$round"
    done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- the table --------------------------------------------------------------------------------

echo
echo "bench/peers: $events GCHeapStats v2 events (110-byte payload) per harness and round, median of $rounds rounds"
echo "machine: $(nproc) CPUs, $(awk -F': ' '/^model name/ {n = $2} /^cpu family/ {f = $2} /^model[ \t]*:/ {m = $2}
    n != "" && f != "" && m != "" {printf "%s (family %s model %s)", n, f, m; exit}' /proc/cpuinfo); load average" \
    "$load_before before, $load_after after; traces in $(df -T "$parent" | awk 'NR == 2 {print $2}')"
echo "versions: $(barectf --version), $(lttng --version | cut -d' ' -f1-5), $(babeltrace2 --version | head -n 1)," \
    "$("$cc" --version | head -n 1)"
awk -v rounds="$rounds" '
    function median(list,    n, v, i, j, t) {
        n = split(list, v, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    { round = $1; name = $2; wall = $4 / $3; cpu = $5 / $3
      walls[name] = walls[name] " " wall; cpus[name] = cpus[name] " " cpu; bytes[name] = bytes[name] " " $6 / $3
      w[round, name] = wall; c[round, name] = cpu; names[name] = 1 }
    END {
        for (name in names) for (r = 1; r <= rounds; r++) if ((r, "floor") in w && (r, name) in w) {
            wr[name] = wr[name] " " w[r, name] / w[r, "floor"]; cr[name] = cr[name] " " c[r, name] / c[r, "floor"] }
        printf "\n%-46s %9s %9s %9s %8s %8s %8s\n", "harness (emitting)", "wall ns", "CPU ns", "M ev/s", "bytes", "wall/fl", "CPU/fl"
        split("floor evgen evgen-dio evgen-emitter evgen-cg evgen-emitter-cg barectf lttng-loop lttng lttng-flushed", order, " ")
        label["floor"] = "floor: memcpy + clock_gettime + fwrite"
        label["evgen"] = "evgen FireEtwGCHeapStats_V2, until closed"
        label["evgen-dio"] = "  the same, O_DIRECT throughout"
        label["evgen-emitter"] = "  the same, the emitter writes (page cache)"
        label["evgen-cg"] = "evgen, clock_gettime on every event"
        label["evgen-emitter-cg"] = "  the same, the emitter writes (page cache)"
        label["barectf"] = "barectf 3, 64 KiB packets, until closed"
        label["lttng-loop"] = "LTTng-UST 2.13, emitting loop only"
        label["lttng"] = "LTTng-UST 2.13, until lttng stop (+consumerd)"
        label["lttng-flushed"] = "LTTng-UST 2.13, until flushed (+consumerd)"
        for (i = 1; i <= 10; i++) { n = order[i]; if (!(n in names)) continue
            mw = median(walls[n]); printf "%-46s %9.1f %9.1f %9.2f %8.1f %8.2f %8.2f\n", label[n], mw, median(cpus[n]),
                1e3 / mw, median(bytes[n]), median(wr[n]), median(cr[n]) }
        printf "\n%-46s %9s\n", "disabled call site", "wall ns"
        if ("evgen-disabled" in names) printf "%-46s %9.2f\n", "evgen FIRE_EVENT (EventEnabled + branch)", median(walls["evgen-disabled"])
        if ("lttng-disabled" in names) printf "%-46s %9.2f\n", "LTTng tracepoint_enabled + do_tracepoint", median(walls["lttng-disabled"])
        printf "\n%-46s %9s %9s\n", "babeltrace2 reading (count checked)", "ns/event", "M ev/s"
        split("bt2-dummy-barectf bt2-text-barectf bt2-dummy-lttng bt2-text-lttng", reads, " ")
        label["bt2-dummy-barectf"] = "babeltrace2 -o dummy, barectf trace"
        label["bt2-text-barectf"] = "babeltrace2 text | wc -l, barectf trace"
        label["bt2-dummy-lttng"] = "babeltrace2 -o dummy, LTTng trace"
        label["bt2-text-lttng"] = "babeltrace2 text | wc -l, LTTng trace"
        for (i = 1; i <= 4; i++) { n = reads[i]; if (!(n in names)) continue
            mw = median(walls[n]); printf "%-46s %9.1f %9.3f\n", label[n], mw, 1e3 / mw }
    }' "$results"
echo "(wall: ns/event from CLOCK_MONOTONIC; CPU: ns/event of user + system time, lttng-consumerd's included"
echo " for 'until lttng stop' and 'until flushed' (lttng stop checks every 200 ms whether the flush is done;"
echo " 'until flushed' checks every 1 ms through liblttng-ctl); bytes: output bytes/event (LTTng: its data streams);"
echo " wall/fl, CPU/fl: median of each round's ratio to that round's floor)"

# The read side reads a trace from a disk's file system (EVGEN_PEERS_DIR, else /var/tmp), where
# traces live and the page cache maps files in large folios: tmpfs maps a file in 4 KiB pages at
# ~0.5 us each here, which a reader through a mapping pays on every page (docs/performance-log.md).
fs_of() { df -T "$1" 2>/dev/null | awk 'NR == 2 {print $2}'; }
read_dir=${EVGEN_PEERS_DIR:-/var/tmp}
if [[ ! -d $read_dir || ! -w $read_dir || $(fs_of "$read_dir") == tmpfs ]]; then
    read_dir=$out
fi
if ((have_reader_bench)); then
    read_work=$(mktemp -d "$read_dir/evgen-peers-read.XXXXXX")
    echo
    echo "evgen's read side (bench/reader_bench $events 5, the trace in $(fs_of "$read_work")):"
    "$build_dir/bench/reader_bench" "$events" 5 "$read_work"
    rm -rf "$read_work"
    read_work=''
else
    echo
    echo "bench/reader_bench did not build here: evgen's read side not measured (see $build_dir)"
fi
