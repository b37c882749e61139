#!/usr/bin/env bash
# main.sh — the main job: install what is missing, build (which generates gcevents' code with
# evgen gen), describe and check manifest/gcevents.h, emit a trace from the example, dump it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh main

# Only what this script shows: evgen and the example programs (scripts/test.sh builds the rest).
build=build/main
mkdir -p "$build"
printf 'evgen: building evgen and the examples (log: %s/build.log) ... ' "$build"
start=$SECONDS
if ! { cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVGEN_BUILD_TESTS=OFF \
             -DEVGEN_BUILD_BENCH=OFF &&
       cmake --build "$build" --target evgen gcheapstats_simulate gcheapstats_report gclog; } >"$build/build.log" 2>&1; then
    echo "failed"
    tail -n 30 "$build/build.log" >&2
    exit 1
fi
echo "done in $((SECONDS - start)) s"

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

# A real .NET Core 3.0 trace (EventPipe .nettrace, ../shared/reference/traces/), read through
# manifest/gcevents.h: the runtime describes none of its GC events' fields.
zip=../shared/reference/traces/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip
if [ -f "$zip" ]; then
    mkdir -p "$build/dotnet"
    (cd "$build/dotnet" && cmake -E tar xf "$PWD/../../../$zip")
    nettrace="$build/dotnet/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"
    echo
    echo "== a real .NET Core 3.0 trace: evgen dump --stats $nettrace (GC events) =="
    "$evgen" dump --stats "$nettrace" | grep -E '^trace|^  [0-9]|GC|Pin|Pressure|^totals|^status'
    echo "== evgen dump: its first GC =="
    { "$evgen" dump --event GCTriggered --event GCStart --event GCEnd --event GCHeapStats "$nettrace" || true; } | head -n 4
    echo "== gcheapstats_report on the .NET trace: the GC table (first and last GCs, totals) =="
    "$build/examples/gcheapstats/gcheapstats_report" "$nettrace" > "$build/dotnet/report.txt"
    head -n 6 "$build/dotnet/report.txt"
    echo "   ..."
    tail -n 10 "$build/dotnet/report.txt"
    echo "== gclog on the .NET trace: the GC log =="
    "$build/examples/gclog/gclog" "$nettrace" > "$build/dotnet/gclog.txt"
    head -n 5 "$build/dotnet/gclog.txt"
    echo "   ..."
    tail -n 2 "$build/dotnet/gclog.txt"
else
    echo "(../shared/reference/traces is not beside the checkout: the .NET trace part is skipped)"
fi
