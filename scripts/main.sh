#!/usr/bin/env bash
# main.sh — the main job: install what is missing, build (which generates gcevents' code with
# evgen gen), describe and check manifest/gcevents.h, then emit a trace from the example.
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
echo "== examples/gcheapstats: a simulated GC traced with the generated FireEtw functions =="
"$build/examples/gcheapstats/gcheapstats_simulate" "$build/gcheapstats.evtrace" 40
