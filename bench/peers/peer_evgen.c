/* peer_evgen.c — evgen in the peers' comparison: the generated FireEtwGCHeapStats_V2 (through
 * FIRE_EVENT, as an application calls it) into a file session, one thread, timed from the first
 * event until evgen_session_close returns (the file complete); fails unless the session wrote every
 * event and dropped none; the default writer (EVGEN_BLOCK_WRITER_AUTO: the adaptive one for this
 * session), or with --direct-io the O_DIRECT writer throughout (EVGEN_BLOCK_WRITER_DIRECT_IO), with
 * --emitter-writes the emitting thread writing its full blocks through the page cache from the start
 * (EVGEN_BLOCK_WRITER_EMITTER). The session's clock is the default,
 * CLOCK_MONOTONIC read from the time-stamp counter (EVGEN_CLOCK_MONOTONIC_TSC), or with --clock-gettime
 * clock_gettime on every event (EVGEN_CLOCK_MONOTONIC), as the floor and the peers read it.
 * `--disabled` times instead the call site with no session enabling the event: FIRE_EVENT's
 * EventEnabled check (a load and a branch), beside LTTng's tracepoint_enabled.
 * Usage: peer_evgen EVENTS FILE [--direct-io | --emitter-writes] [--clock-gettime] | peer_evgen --disabled EVENTS */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "evgen/runtime.h"
#include "gcevents_runtime.h"
#include "peer_timing.h"

static const char usage[] =
    "peer_evgen EVENTS FILE [--direct-io | --emitter-writes] [--clock-gettime] | peer_evgen --disabled EVENTS";

static int run_enabled(long events, const char *path, evgen_block_writer writer, evgen_clock_kind clock,
                       const char *name)
{
    evgen_session_options options;
    evgen_session_options_init(&options);
    options.clock = clock;
    options.block_writer = writer;
    evgen_session *session = evgen_session_open_file(path, &options);
    if (!session) {
        perror(path);
        return 1;
    }
    evgen_session_enable(session, NULL, 5, ~0ull);
    peer_mark start = peer_mark_now();
    for (long i = 0; i < events; i++)
        FIRE_EVENT(GCHeapStats, BENCH_GC_HEAP_STATS_VALUES(i));
    evgen_session_totals totals;
    if (evgen_session_close(session, &totals, NULL, NULL) != 0) {
        perror("evgen_session_close");
        return 1;
    }
    peer_mark end = peer_mark_now();
    int complete = totals.written == (uint64_t)events && !totals.dropped && !totals.too_big && !totals.lost;
    if (!complete)
        fprintf(stderr, "peer_evgen: wrote %llu of %ld events, dropped %llu, too big %llu, lost %llu\n",
                (unsigned long long)totals.written, events, (unsigned long long)totals.dropped,
                (unsigned long long)totals.too_big, (unsigned long long)totals.lost);
    evgen_session_totals_free(&totals);
    if (!complete)
        return 1;
    peer_report(name, events, start, end, 0);
    return 0;
}

static int run_disabled(long events)
{
    peer_mark start = peer_mark_now();
    for (long i = 0; i < events; i++)
        FIRE_EVENT(GCHeapStats, BENCH_GC_HEAP_STATS_VALUES(i));
    peer_report("evgen-disabled", events, start, peer_mark_now(), 0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--disabled") == 0)
        return run_disabled(peer_events_arg(argv[2], usage));
    if (argc < 3) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    evgen_block_writer writer = EVGEN_BLOCK_WRITER_AUTO;
    evgen_clock_kind clock = EVGEN_CLOCK_MONOTONIC_TSC; /* the default */
    const char *writer_name = "";
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--direct-io") == 0 && writer == EVGEN_BLOCK_WRITER_AUTO) {
            writer = EVGEN_BLOCK_WRITER_DIRECT_IO;
            writer_name = "-dio";
        } else if (strcmp(argv[i], "--emitter-writes") == 0 && writer == EVGEN_BLOCK_WRITER_AUTO) {
            writer = EVGEN_BLOCK_WRITER_EMITTER;
            writer_name = "-emitter";
        } else if (strcmp(argv[i], "--clock-gettime") == 0) {
            clock = EVGEN_CLOCK_MONOTONIC;
        } else {
            fprintf(stderr, "usage: %s\n", usage);
            return 2;
        }
    }
    char name[64];
    snprintf(name, sizeof name, "evgen%s%s", writer_name, clock == EVGEN_CLOCK_MONOTONIC ? "-cg" : "");
    return run_enabled(peer_events_arg(argv[1], usage), argv[2], writer, clock, name);
}
