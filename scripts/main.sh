#!/usr/bin/env bash
# main.sh — the main job: install what is missing, build (which generates gcevents' code with
# evgen gen), describe and check manifest/gcevents.h, emit a trace from the example, dump it.
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
echo "== evgen dump: the first GCs (GCStart, GCEnd, GCHeapStats with GenerationSize4, the POH) =="
{ "$evgen" dump --event GCStart --event GCEnd --event GCHeapStats "$build/gcheapstats.evtrace" || true; } | head -n 6
echo "== evgen dump --stats =="
"$evgen" dump --stats "$build/gcheapstats.evtrace"
echo "== examples/gcheapstats: gcheapstats_report, the trace read back with the generated accessors =="
"$build/examples/gcheapstats/gcheapstats_report" "$build/gcheapstats.evtrace" --svg "$build/gcheapstats.svg"
echo "SVG chart of the sizes after each GC: $PWD/$build/gcheapstats.svg"
