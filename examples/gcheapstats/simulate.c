/* simulate.c — a small simulated garbage collector that traces itself with evgen, through the
 * generated FireEtw functions: allocations of a few .NET types land in gen0, the large object
 * heap (LOH) or the pinned object heap (POH), with a GCAllocationTick v4 every 100 KB; a full gen0
 * budget triggers a GC (gen0, gen1, a blocking gen2 or a background gen2 with foreground GCs
 * inside it: sim_gc.c) that emits GCTriggered, GCStart v2, GCEnd v1 and GCHeapStats v2 (with
 * GenerationSize4, the POH), as CoreCLR does.
 * Usage: gcheapstats_simulate [--all-events] [--verbose] [TRACE] [GCS]
 *   TRACE         the trace to write (default gcheapstats.evtrace); GCS: how many GCs (default 40)
 *   --all-events  also each GC's suspension and restart (GCSuspendEEBegin/End,
 *                 GCRestartEEBegin/End) and GCGlobalHeapHistory, what CoreCLR adds at the same level
 *   --verbose     print each GC's figures as it ends (number, generation, type, reason, sizes
 *                 after and promoted bytes) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evgen/runtime.h"
#include "gcevents_runtime.h"
#include "sim.h"

uint64_t sim_random(sim *s)
{
    s->rng ^= s->rng << 13;
    s->rng ^= s->rng >> 7;
    s->rng ^= s->rng << 17;
    return s->rng;
}

static void run(sim *s, long gcs)
{
    uint64_t budget_used = 0;
    while ((long)s->gc_count < gcs) {
        uint64_t bytes = sim_allocate(s);
        budget_used += bytes;
        if (s->bgc_active && (s->bgc_allocated += bytes) >= SIM_BGC_CONCURRENT_BYTES)
            sim_finish_background(s);
        if (budget_used >= SIM_GEN0_BUDGET) {
            budget_used = 0;
            sim_collect(s);
        }
    }
    sim_finish_background(s);
}

int main(int argc, char **argv)
{
    static sim s; /* zeroed */
    const char *path = "gcheapstats.evtrace";
    long gcs = 40;
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--all-events") == 0)
            s.all_events = 1;
        else if (strcmp(argv[i], "--verbose") == 0)
            s.verbose = 1;
        else if (argv[i][0] == '-' || positional == 2) {
            fprintf(stderr, "usage: gcheapstats_simulate [--all-events] [--verbose] [TRACE] [GCS]\n");
            return 2;
        } else if (positional++ == 0)
            path = argv[i];
        else
            gcs = atol(argv[i]);
    }
    evgen_session *session = evgen_session_open_file(path, NULL);
    if (!session) {
        perror(path);
        return 1;
    }
    evgen_session_enable(session, "Microsoft-Windows-DotNETRuntime", GCEventLevel_Verbose, GCEventKeyword_GC);
    s.rng = 0x9e3779b97f4a7c15ull;
    run(&s, gcs);
    worker_stop(s.bgc_thread); /* its exit hands its buffer to the session */
    evgen_session_totals totals;
    if (evgen_session_close(session, &totals, NULL, NULL) != 0) {
        perror("evgen_session_close");
        return 1;
    }
    printf("gcheapstats_simulate: %u GCs, %llu events written (%llu dropped) to %s, %llu bytes\n", s.gc_count,
           (unsigned long long)totals.written, (unsigned long long)totals.dropped, path,
           (unsigned long long)totals.bytes);
    printf("heap after the last GC: gen0 %llu, gen1 %llu, gen2 %llu, LOH %llu, POH %llu bytes\n",
           (unsigned long long)s.gen[SIM_GEN0], (unsigned long long)s.gen[SIM_GEN1],
           (unsigned long long)s.gen[SIM_GEN2], (unsigned long long)s.gen[SIM_LOH],
           (unsigned long long)s.gen[SIM_POH]);
    evgen_session_totals_free(&totals);
    return 0;
}
