#!/usr/bin/env bash
# main.sh — the main job: install what is missing, build, and run evgen on manifest/gcevents.h.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh

build=build/main
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build"

evgen="$build/gen/evgen"
echo
echo "== evgen describe manifest/gcevents.h (GCHeapStats) =="
"$evgen" describe manifest/gcevents.h | sed -n '/^event GCHeapStats /,/^$/p'
echo "== evgen check manifest/gcevents.h =="
"$evgen" check manifest/gcevents.h
