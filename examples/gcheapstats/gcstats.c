/* gcstats.c — PerfView's derived per-GC figures and totals over gclog entries (rules in gcstats.h). */
#include "gcstats.h"

#define MB 1000000.0

/* TraceEvent's GetUserAllocated for gen0 (GCLOG_GEN0) or the LOH (GCLOG_LOH), in MB; 0 unknown. */
static double user_allocated(const gclog_entry *gcs, size_t i, int gen, int *known)
{
    const gclog_entry *g = &gcs[i];
    int tick = gen == GCLOG_GEN0 ? GCLOG_TICK_SOH : GCLOG_TICK_UOH;
    if (!(g->type == GCLOG_BACKGROUND && gen == GCLOG_GEN0) && g->heaps > 0 && i > 0 && gcs[i - 1].heaps > 0 &&
        (uint32_t)gen < g->history_gens && (uint32_t)gen < gcs[i - 1].history_gens) {
        const gclog_entry *prev = &gcs[i - 1];
        uint64_t prev_size = prev->obj_size_after[gen];
        if (gen == GCLOG_LOH && prev_size == 0 && prev->has_generation && prev->generation < 1)
            prev_size = prev->obj_space_before[gen];
        *known = 1;
        return ((double)g->obj_space_before[gen] - (double)prev_size) / MB;
    }
    if (g->has_ticks)
        *known = 1;
    return (double)g->tick_bytes[tick] / MB;
}

static uint64_t since(uint64_t from, uint64_t to)
{
    return to >= from ? to - from : 0;
}

void gcstats_per_gc(const gclog_entry *gcs, size_t n, gcstats_gc *out)
{
    for (size_t i = 0; i < n; i++) {
        const gclog_entry *g = &gcs[i];
        gcstats_gc *s = &out[i];
        int known = 0;
        s->alloc_mb = user_allocated(gcs, i, GCLOG_GEN0, &known) + user_allocated(gcs, i, GCLOG_LOH, &known);
        s->has_alloc = known && g->has_sizes;
        s->has_rate = s->has_alloc && g->since_last_ns > 0;
        s->alloc_rate_mb_s = s->has_rate ? s->alloc_mb * 1e9 / (double)g->since_last_ns : 0;

        s->has_pause_percent = 0;
        s->pause_percent = 0;
        if (g->pause_kind != GCLOG_PAUSE_UNKNOWN && g->has_sizes) {
            double span;
            if (g->type == GCLOG_BACKGROUND)
                span = (double)since(g->prev_end_ns, g->ended ? g->end_ns : g->start_ns);
            else
                span = (double)g->pause_ns + (double)g->since_last_ns;
            if (span > 0) {
                s->has_pause_percent = 1;
                s->pause_percent = (double)g->pause_ns * 100.0 / span;
            }
        }

        s->has_fragmentation = g->heaps > 0;
        s->fragmentation_mb = 0;
        for (uint32_t k = 0; k < g->history_gens; k++)
            s->fragmentation_mb += (double)g->fragmentation[k] / MB;
    }
}

void gcstats_totals_of(const gclog_entry *gcs, const gcstats_gc *per_gc, size_t n, int generation,
                       gcstats_totals *t)
{
    *t = (gcstats_totals){0};
    int has_first = 0, has_last = 0;
    uint64_t first_ns = 0, last_ns = 0;
    for (size_t i = 0; i < n; i++) {
        const gclog_entry *g = &gcs[i];
        if (g->has_sizes && (!has_last || g->heap_stats_ns > last_ns)) {
            has_last = 1;
            last_ns = g->heap_stats_ns;
        }
        if (!g->complete)
            continue;
        if (!has_first) {
            has_first = 1;
            first_ns = g->pause_kind == GCLOG_PAUSE_SUSPENSIONS ? g->pause_start_ns : g->start_ns;
        }
        if (generation >= 0 && (!g->has_generation || g->generation != (uint32_t)generation))
            continue;
        t->count++;
        if (g->pause_kind != GCLOG_PAUSE_UNKNOWN) {
            t->timed++;
            t->total_pause_ns += g->pause_ns;
            if (g->pause_ns > t->max_pause_ns)
                t->max_pause_ns = g->pause_ns;
        }
        if (g->pause_kind == GCLOG_PAUSE_SUSPENSIONS && g->suspend_ns > t->max_suspend_ns)
            t->max_suspend_ns = g->suspend_ns;
        for (int k = 0; k < GCLOG_HEAPS; k++)
            t->promoted_mb += (double)g->promoted[k] / MB;
        if (per_gc[i].has_alloc)
            t->allocated_mb += per_gc[i].alloc_mb;
        if (per_gc[i].has_rate && per_gc[i].alloc_rate_mb_s > t->max_alloc_rate_mb_s)
            t->max_alloc_rate_mb_s = per_gc[i].alloc_rate_mb_s;
    }
    if (has_first && has_last && last_ns > first_ns) {
        t->has_duration = 1;
        t->duration_ns = last_ns - first_ns;
        t->pause_percent = (double)t->total_pause_ns * 100.0 / (double)t->duration_ns;
    }
}
