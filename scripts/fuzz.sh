#!/usr/bin/env bash
# fuzz.sh — builds the libFuzzer targets of fuzz/ (clang, ASan + UBSan, in build/fuzz) and runs each
# for SECONDS (default 60), one after the other, or all at once under nice -n 10 with --parallel.
# Each target's corpus grows in build/fuzz/corpus-TARGET, seeded from fuzz/corpus/TARGET and
# fuzz/regressions/TARGET, with the dictionary fuzz/dict/TARGET.dict if there is one; crashes,
# leaks, timeouts and OOMs go to build/fuzz/artifacts-TARGET; its log is build/fuzz/logs/TARGET.log.
# Prints per target the execs, exec/s, final cov/ft and corpus size, and exits 1 if any target
# found something, naming the artifact. docs/fuzzing.md.
#
# Usage: scripts/fuzz.sh [--parallel] [--no-build] [-B DIR] [SECONDS [TARGET...]]
set -euo pipefail
cd "$(dirname "$0")/.."

# The targets are the ones fuzz/CMakeLists.txt declares (set(EVGEN_FUZZ_TARGETS ...)): one list.
read -r -a all_targets < <(sed -n 's/^set(EVGEN_FUZZ_TARGETS \(.*\))$/\1/p' fuzz/CMakeLists.txt)
[[ ${#all_targets[@]} -gt 0 ]] || { echo "fuzz.sh: no EVGEN_FUZZ_TARGETS in fuzz/CMakeLists.txt" >&2; exit 1; }
parallel=0
build=1
dir=build/fuzz
usage() {
    sed -n 's/^# Usage: /usage: /p' "$0" >&2
    exit 2
}
while [[ $# -gt 0 ]]; do
    case $1 in
    --parallel) parallel=1 ;;
    --no-build) build=0 ;;
    -B) [[ $# -ge 2 ]] || usage; dir=$2; shift ;;
    -h | --help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) usage ;;
    *) break ;;
    esac
    shift
done
seconds=${1:-60}
[[ $seconds =~ ^[0-9]+$ ]] || usage
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
    [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target '$t' (${all_targets[*]})" >&2; exit 2; }
done

if [[ $build == 1 ]]; then
    echo "== fuzz build ($dir) =="
    CC=clang cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVGEN_WERROR=ON \
        -DEVGEN_BUILD_FUZZ=ON -DEVGEN_BUILD_TESTS=OFF -DEVGEN_BUILD_BENCH=OFF >/dev/null
    cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}"
fi

mkdir -p "$dir/logs"
prefix=()
[[ $parallel == 0 ]] || prefix=(nice -n 10)
run() {
    local t=$1
    mkdir -p "$dir/corpus-$t" "$dir/artifacts-$t"
    local dict=()
    [[ ! -f fuzz/dict/$t.dict ]] || dict=(-dict="fuzz/dict/$t.dict")
    # -timeout: one input running 10 s is a finding (a hang); -rss_limit_mb: so is 2 GiB of memory.
    "${prefix[@]}" "$dir/fuzz/$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        "${dict[@]}" -artifact_prefix="$dir/artifacts-$t/" "$dir/corpus-$t" "fuzz/corpus/$t" "fuzz/regressions/$t" \
        >"$dir/logs/$t.log" 2>&1
}

echo "== fuzzing ${targets[*]}: $seconds s each$([[ $parallel == 1 ]] && echo ', at once, nice -n 10') =="
declare -A status
if [[ $parallel == 1 ]]; then
    declare -A pids
    for t in "${targets[@]}"; do
        run "$t" &
        pids[$t]=$!
    done
    for t in "${targets[@]}"; do
        wait "${pids[$t]}" && status[$t]=0 || status[$t]=$?
    done
else
    for t in "${targets[@]}"; do
        run "$t" && status[$t]=0 || status[$t]=$?
    done
fi

failed=0
printf '%-14s %12s %8s %8s %8s %8s  %s\n' target execs exec/s cov ft corpus result
for t in "${targets[@]}"; do
    log="$dir/logs/$t.log"
    stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1 | grep . || echo '?'; }
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corpus=$(find "$dir/corpus-$t" -type f | wc -l)
    artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    result=ok
    if [[ ${status[$t]} != 0 || -n $artifact ]]; then
        what=$(grep -m1 -oE '(ERROR: [A-Za-z]+: [A-Za-z0-9 -]*[A-Za-z0-9]|runtime error|fuzz check failed)' "$log" || true)
        result="FAILED (${what:-exit status ${status[$t]}}): ${artifact:-no artifact, see $log}"
        failed=1
    fi
    printf '%-14s %12s %8s %8s %8s %8s  %s\n' "$t" "$(stat number_of_executed_units)" \
        "$(stat average_exec_per_sec)" "${cov:-?}" "${ft:-?}" "$corpus" "$result"
done
[[ $failed == 0 ]] || echo "fuzz.sh: a target found something: reproduce with $dir/fuzz/TARGET ARTIFACT; logs in $dir/logs" >&2
exit $failed
