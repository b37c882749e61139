#!/usr/bin/env bash
# test.sh — every test: install what is missing; build with gcc, -Werror and Ninja, run ctest; then
# build with clang under AddressSanitizer and UndefinedBehaviorSanitizer with Unix Makefiles (so
# both generators build evgen's own tree, each manifest generated once) and run ctest again; then
# a short fuzzing run of every fuzz target (scripts/fuzz.sh 20: 20 s each, after its own build).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test

jobs=$(nproc 2>/dev/null || echo 2)
run_suite() {
    local name=$1 generator=$2
    shift 2
    local dir="build/test-$name"
    echo "== $name build ($generator) =="
    # A build directory of another generator cannot be reused: start it again.
    if [[ -f $dir/CMakeCache.txt ]] && ! grep -qx "CMAKE_GENERATOR:INTERNAL=$generator" "$dir/CMakeCache.txt"; then
        rm -rf "$dir"
    fi
    cmake -S . -B "$dir" -G "$generator" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVGEN_WERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j "$jobs"
    echo "== $name tests =="
    ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

run_suite plain Ninja
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    CC=clang CXX=clang++ run_suite sanitize "Unix Makefiles" -DEVGEN_SANITIZE=ON
# ThreadSanitizer over the tests whose threads share memory without locks: emitters, flushers and
# the writer (the runtime's quiesce protocol), the reader's verifier thread, evgen dump's helper
# thread (test_reader_dump runs the TSan build of evgen), the CRC-32C's tables built at first use
# by racing threads (test_crc32c_first_use), the clock's origin renewed by any emitting thread
# (test_runtime_clock), and the reader's helper threads started beside their creator
# (test_thread_beside). TSan cannot follow
# a child forked from a threaded process (die_after_fork=0 lets the fork tests' children run
# unchecked), and it defers asynchronous signals, so test_runtime_signals stays with the others.
tsan_tests=(test_runtime_session test_runtime_lifecycle test_runtime_stress test_reader_lazy test_reader_dump
    test_crc32c_first_use test_runtime_clock test_thread_beside)
tsan_dir=build/test-tsan
echo "== tsan build (Ninja) =="
CC=clang CXX=clang++ cmake -S . -B "$tsan_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVGEN_WERROR=ON \
    -DEVGEN_TSAN=ON -DEVGEN_BUILD_BENCH=OFF >/dev/null
cmake --build "$tsan_dir" -j "$jobs" --target "${tsan_tests[@]}"
echo "== tsan tests =="
TSAN_OPTIONS=halt_on_error=1:die_after_fork=0 ctest --test-dir "$tsan_dir" --output-on-failure -j "$jobs" \
    -R "^($(IFS='|'; echo "${tsan_tests[*]}"))\$"
# Both suites replayed the fuzz corpora and regression inputs (fuzz_*_replay); now new inputs for a
# while. The corpus kept in build/fuzz grows from run to run.
echo "== fuzzing (scripts/fuzz.sh 20) =="
scripts/fuzz.sh 20
