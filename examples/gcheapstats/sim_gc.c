/* sim_gc.c — the simulated collector: which GC a full gen0 budget triggers, what survives, and the
 * events CoreCLR fires for it, in CoreCLR's order (GCTriggered, GCSuspendEEBegin/End, GCStart,
 * GCGlobalHeapHistory, GCEnd, GCHeapStats, GCRestartEEBegin/End; the suspension, restart and
 * history events only with --all-events).
 *
 * Schedule, by GC number n (GCStart.Count, from 1): every 16th GC is a gen2, alternately a blocking
 * one induced by the tracing client (Reason Induced, ClientSequenceNumber 1, 2, ...: what
 * ETW::GCLog::ForceGC does for PerfView's "force GC") and a background GC (Type BackgroundGC); every
 * 4th other GC is a gen1, the rest gen0. A background GC starts on the triggering thread, inside a
 * suspension, then its own thread (a second thread here, as in CoreCLR) restarts the runtime,
 * marks while allocation goes on (the gen0/gen1 GCs meanwhile are foreground GCs), suspends again
 * for its final mark, sweeps gen2, the LOH and the POH without compacting, and fires its GCEnd and
 * GCHeapStats. GCStart.Depth and GCEnd.Depth are the condemned generation. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

#include "evgen/runtime.h"
#include "gcevents_runtime.h"
#include "gcnames.h"
#include "sim.h"

/* Bits of GCGlobalHeapHistory.GlobalMechanisms: 1 << CoreCLR's gc_global_mechanism_p (gcrecord.h). */
enum { MECH_CONCURRENT = 1u << 0, MECH_COMPACTION = 1u << 1, MECH_PROMOTION = 1u << 2 };

/* The pause's work: 20 us plus marking and copying survivors at 4 bytes/ns. */
static void work(uint64_t survivors)
{
    uint64_t ns = 20000 + survivors / 4;
    struct timespec t = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    nanosleep(&t, NULL);
}

/* GCSuspendEEBegin's Count is the number of the last GC started, as CoreCLR's GetGcCount(). */
static void suspend(const sim *s, uint32_t reason)
{
    if (!s->all_events)
        return;
    FIRE_EVENT(GCSuspendEEBegin, reason, s->gc_count, SIM_CLR_INSTANCE);
    FIRE_EVENT(GCSuspendEEEnd, SIM_CLR_INSTANCE);
}

static void restart(const sim *s)
{
    if (!s->all_events)
        return;
    FIRE_EVENT(GCRestartEEBegin, SIM_CLR_INSTANCE);
    FIRE_EVENT(GCRestartEEEnd, SIM_CLR_INSTANCE);
}

static void global_history(const sim *s, uint32_t condemned, uint32_t reason, uint32_t mechanisms)
{
    if (s->all_events)
        FIRE_EVENT(GCGlobalHeapHistory, (uint64_t)SIM_GEN0_BUDGET, 1, condemned, 0, reason, mechanisms,
                   SIM_CLR_INSTANCE, GCPauseMode_Interactive, 35, 0, 0, 0, NULL);
}

/* GCEnd and GCHeapStats, as CoreCLR's UpdatePostGCCounters fires them. */
static void end_gc(sim *s, uint32_t number, uint32_t depth, uint32_t type, uint32_t reason)
{
    const uint64_t *g = s->gen, *p = s->promoted;
    FIRE_EVENT(GCEnd, number, depth, SIM_CLR_INSTANCE);
    FIRE_EVENT(GCHeapStats, g[SIM_GEN0], p[SIM_GEN0], g[SIM_GEN1], p[SIM_GEN1], g[SIM_GEN2], p[SIM_GEN2], g[SIM_LOH],
               p[SIM_LOH], 0, 0, (uint32_t)(sim_random(s) % 8), 0, 120, SIM_CLR_INSTANCE, g[SIM_POH],
               p[SIM_POH]);
    if (s->verbose) {
        char tb[32], rb[32];
        printf("gc %u gen%u %s %s: gen0 %llu gen1 %llu gen2 %llu LOH %llu POH %llu promoted %llu\n", number, depth,
               gc_type_name(type, tb, sizeof tb), gc_reason_name(reason, rb, sizeof rb),
               (unsigned long long)g[SIM_GEN0], (unsigned long long)g[SIM_GEN1], (unsigned long long)g[SIM_GEN2],
               (unsigned long long)g[SIM_LOH], (unsigned long long)g[SIM_POH],
               (unsigned long long)(p[SIM_GEN0] + p[SIM_GEN1] + p[SIM_GEN2] + p[SIM_LOH] + p[SIM_POH]));
    }
}

/* Collects generations 0..condemned (at most 1 here, or 2 for a blocking gen2): a fraction of each
 * survives into the next generation. Returns the bytes that survived. */
static uint64_t sweep_generations(sim *s, uint32_t condemned)
{
    uint64_t total = 0;
    for (int g = 0; g < SIM_HEAPS; g++)
        s->promoted[g] = 0;
    for (int g = (int)condemned; g >= 0; g--) {
        uint64_t percent = g == 0 ? 10 + sim_random(s) % 15 : 40 + sim_random(s) % 30;
        uint64_t survivors = s->gen[g] * percent / 100;
        s->promoted[g] = survivors;
        s->gen[g] = 0;
        s->gen[g < SIM_GEN2 ? g + 1 : SIM_GEN2] += survivors;
        total += survivors;
    }
    return total;
}

/* A full GC sweeps the large and pinned object heaps too. */
static void sweep_uoh(sim *s)
{
    s->gen[SIM_LOH] = s->promoted[SIM_LOH] = s->gen[SIM_LOH] * 70 / 100;
    s->gen[SIM_POH] = s->promoted[SIM_POH] = s->gen[SIM_POH] * 90 / 100;
}

static void blocking_gc(sim *s, uint32_t condemned, uint32_t type, uint32_t reason, uint64_t client_sequence)
{
    FIRE_EVENT(GCTriggered, reason, SIM_CLR_INSTANCE);
    suspend(s, GCSuspendEEReason_SuspendForGC);
    uint32_t n = ++s->gc_count;
    FIRE_EVENT(GCStart, n, condemned, reason, type, SIM_CLR_INSTANCE, client_sequence);
    work(sweep_generations(s, condemned));
    if (condemned == 2)
        sweep_uoh(s);
    uint32_t mechanisms = MECH_PROMOTION | (condemned == 2 || n % 3 != 0 ? MECH_COMPACTION : 0);
    global_history(s, condemned, reason, mechanisms);
    end_gc(s, n, condemned, type, reason);
    restart(s);
}

/* ---- the background GC, on its own thread ------------------------------------------------- */

static void bgc_initial_mark(void *p)
{
    sim *s = p;
    work(s->gen[SIM_GEN2] / 16); /* marking roots; the rest is concurrent */
    restart(s);
}

static void bgc_final_mark_and_sweep(void *p)
{
    sim *s = p;
    suspend(s, GCSuspendEEReason_SuspendForGCPrep);
    work(s->gen[SIM_GEN2] / 32);
    restart(s);
    for (int g = 0; g < SIM_HEAPS; g++)
        s->promoted[g] = 0;
    uint64_t dead = s->bgc_gen2_dead <= s->gen[SIM_GEN2] ? s->bgc_gen2_dead : s->gen[SIM_GEN2];
    s->gen[SIM_GEN2] -= dead;
    s->promoted[SIM_GEN2] = s->gen[SIM_GEN2];
    sweep_uoh(s);
    global_history(s, 2, GCReason_AllocSmall, MECH_CONCURRENT);
    end_gc(s, s->bgc_number, 2, GCType_BackgroundGC, GCReason_AllocSmall);
}

static void start_background(sim *s)
{
    if (!s->bgc_thread && !(s->bgc_thread = worker_start())) {
        blocking_gc(s, 2, GCType_NonConcurrentGC, GCReason_AllocSmall, 0); /* no thread: a blocking GC */
        return;
    }
    FIRE_EVENT(GCTriggered, GCReason_AllocSmall, SIM_CLR_INSTANCE);
    suspend(s, GCSuspendEEReason_SuspendForGC);
    uint32_t n = ++s->gc_count;
    FIRE_EVENT(GCStart, n, 2, GCReason_AllocSmall, GCType_BackgroundGC, SIM_CLR_INSTANCE, 0);
    s->bgc_active = 1;
    s->bgc_number = n;
    s->bgc_allocated = 0;
    s->bgc_gen2_dead = s->gen[SIM_GEN2] * (30 + sim_random(s) % 40) / 100; /* what marking will not reach */
    worker_run(s->bgc_thread, bgc_initial_mark, s);
}

void sim_finish_background(sim *s)
{
    if (!s->bgc_active)
        return;
    worker_run(s->bgc_thread, bgc_final_mark_and_sweep, s);
    s->bgc_active = 0;
}

void sim_collect(sim *s)
{
    uint32_t n = s->gc_count + 1;
    if (n % 16 == 0 && !s->bgc_active) {
        if ((n / 16) % 2 == 1)
            blocking_gc(s, 2, GCType_NonConcurrentGC, GCReason_Induced, ++s->client_sequence);
        else
            start_background(s);
        return;
    }
    uint32_t condemned = n % 4 == 0 ? 1 : 0;
    blocking_gc(s, condemned, s->bgc_active ? GCType_ForegroundGC : GCType_NonConcurrentGC, GCReason_AllocSmall, 0);
}
