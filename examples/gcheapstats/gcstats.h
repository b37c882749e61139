/* gcstats.h — PerfView's derived figures for a list of GCs (gclog entries in start order): each
 * GC's allocation since the previous GC and its rate, its share of time paused and its
 * fragmentation; then the totals over the complete GCs. The rules are TraceEvent's (microsoft/
 * perfview, src/TraceEvent/Computers/TraceManagedProcess.cs: TraceGC.OnEnd and its helpers
 * GetUserAllocated, GetAllocRateMBSec, GetPauseTimePercentageSinceLastGC, GenFragmentationMB,
 * GetProcessDuration; TraceGarbageCollector.Calculate; GCStats.GetGCPauseTimePercentage),
 * restated:
 *
 *   - allocated since the previous GC (MB) = gen0's + the LOH's, each: for a background GC's gen0,
 *     the allocation ticks since the previous GCHeapStats; else, when this GC and the one before
 *     it (in start order) both have GCPerHeapHistory events, the sum over the heaps of this GC's
 *     object space before minus the previous GC's object size after (for the LOH, the previous
 *     GC's object space before when its size after is 0 and it was a gen0 GC: a gen0 GC does not
 *     update the LOH's); else the allocation ticks (small object heap for gen0, the others for the
 *     LOH, the POH's included);
 *   - allocation rate (MB/s) = allocated * 1000 / DurationSinceLastRestartMSec (gclog's
 *     since_last_ns: from the previous GCHeapStats to this GC's pause start);
 *   - % paused since the previous GC = pause * 100 / (pause + since_last) for a blocking GC, and
 *     pause * 100 / (its end - the end of the GC before it) for a background GC;
 *   - fragmentation (MB) = the sum over heaps and generations of FreeListAfter + FreeObjAfter;
 *   - totals over the complete GCs: count, total/max/mean pause, max suspend time, allocated and
 *     promoted MB, max allocation rate; % of time paused = total pause * 100 / the process duration,
 *     from the first complete GC's pause start to the last GCHeapStats.
 * The sums over heaps are taken before subtracting (the per-heap LOH exception applies to the sum:
 * the same on workstation GC's single heap). */
#ifndef GCHEAPSTATS_GCSTATS_H
#define GCHEAPSTATS_GCSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "gclog.h"

typedef struct gcstats_gc {
    int has_alloc;         /* allocation known (per-heap histories or ticks) */
    double alloc_mb;       /* AllocedSinceLastGCMB */
    int has_rate;          /* ... and a non-zero time since the previous GC */
    double alloc_rate_mb_s;
    int has_pause_percent;
    double pause_percent;  /* PauseTimePercentageSinceLastGC */
    int has_fragmentation; /* GCPerHeapHistory seen */
    double fragmentation_mb;
} gcstats_gc;

typedef struct gcstats_totals {
    unsigned count;          /* complete GCs */
    unsigned timed;          /* ... whose pause is known */
    uint64_t total_pause_ns, max_pause_ns, max_suspend_ns;
    double allocated_mb, promoted_mb, max_alloc_rate_mb_s;
    int has_duration;
    uint64_t duration_ns;    /* ProcessDuration */
    double pause_percent;    /* GetGCPauseTimePercentage */
} gcstats_totals;

/* Fills out[i] for gcs[i] (n GCs in start order, i.e. by number). */
void gcstats_per_gc(const gclog_entry *gcs, size_t n, gcstats_gc *out);
/* The totals over the complete GCs among gcs[] (per_gc from gcstats_per_gc). If `generation` is
 * 0, 1 or 2, only the GCs of that generation count (the duration is always the whole run's). */
void gcstats_totals_of(const gclog_entry *gcs, const gcstats_gc *per_gc, size_t n, int generation,
                       gcstats_totals *totals);

#endif /* GCHEAPSTATS_GCSTATS_H */
