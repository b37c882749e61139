#!/usr/bin/env bash
# test.sh — every test: install what is missing, build with gcc and -Werror, run ctest; then
# build with clang under AddressSanitizer and UndefinedBehaviorSanitizer and run ctest again.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
run_suite() {
    local name=$1
    shift
    local dir="build/test-$name"
    echo "== $name build =="
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVGEN_WERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j "$jobs"
    echo "== $name tests =="
    ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

run_suite plain
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    CC=clang CXX=clang++ run_suite sanitize -DEVGEN_SANITIZE=ON
