/* table.c — the per-GC table and its totals, figures in MB (10^6 bytes) and ms with 3 decimals;
 * the derived figures (allocation, rate, % paused, fragmentation) are gcstats'; then, when the
 * trace has the private provider's BGC events, each background GC's phases. */
#include "table.h"

#include <stdlib.h>

#include "gcnames.h"
#include "gcstats.h"
#include "units.h"

static uint64_t promoted_total(const gclog_entry *e)
{
    uint64_t sum = 0;
    for (int g = 0; g < GCLOG_HEAPS; g++)
        sum += e->promoted[g];
    return sum;
}

static void print_row(FILE *out, const gclog_entry *e, const gcstats_gc *s)
{
    char gen[8] = "?", reason[32], type[32], pause[32] = "-", mb[GCLOG_HEAPS][32], promoted[32] = "-";
    char suspend[32] = "-", percent[32] = "-", alloc[32] = "-", rate[32] = "-", frag[32] = "-";
    if (e->has_generation)
        snprintf(gen, sizeof gen, "%u", e->generation);
    if (e->pause_kind != GCLOG_PAUSE_UNKNOWN)
        units_ms(e->pause_ns, pause, sizeof pause);
    if (e->pause_kind == GCLOG_PAUSE_SUSPENSIONS)
        units_ms(e->suspend_ns, suspend, sizeof suspend);
    for (int g = 0; g < GCLOG_HEAPS; g++) {
        if (e->has_sizes && (g != GCLOG_POH || e->has_poh))
            units_mb(e->size[g], mb[g], sizeof mb[g]);
        else
            snprintf(mb[g], sizeof mb[g], "-");
    }
    if (e->has_sizes)
        snprintf(promoted, sizeof promoted, "%llu", (unsigned long long)promoted_total(e));
    if (s->has_pause_percent)
        snprintf(percent, sizeof percent, "%.2f", s->pause_percent);
    if (s->has_alloc)
        snprintf(alloc, sizeof alloc, "%.3f", s->alloc_mb);
    if (s->has_rate)
        snprintf(rate, sizeof rate, "%.1f", s->alloc_rate_mb_s);
    if (s->has_fragmentation)
        snprintf(frag, sizeof frag, "%.3f", s->fragmentation_mb);
    const char *reason_name = e->has_reason ? gc_reason_name(e->reason, reason, sizeof reason) : "?";
    fprintf(out, "%6u %3s  %-13s  %-17s %9s %10s %10s %10s %10s %10s %14s %8s %8s %9s %10s %8s%s\n", e->number, gen,
            gc_type_name(e->type, type, sizeof type), reason_name, pause, mb[GCLOG_GEN0], mb[GCLOG_GEN1],
            mb[GCLOG_GEN2], mb[GCLOG_LOH], mb[GCLOG_POH], promoted, suspend, percent, alloc, rate, frag,
            e->complete ? "" : "  incomplete");
}

static void print_pause_row(FILE *out, const char *label, const gcstats_totals *t)
{
    char max[32] = "-", mean[32] = "-", total[32] = "-";
    if (t->timed) {
        units_ms(t->max_pause_ns, max, sizeof max);
        units_ms(t->total_pause_ns / t->timed, mean, sizeof mean);
        units_ms(t->total_pause_ns, total, sizeof total);
    }
    fprintf(out, "  %-5s %6u %14s %14s %15s\n", label, t->count, max, mean, total);
}

static void print_totals(FILE *out, const gclog_entry *gcs, const gcstats_gc *per_gc, size_t n)
{
    gcstats_totals all;
    gcstats_totals_of(gcs, per_gc, n, -1, &all);
    uint64_t peak[GCLOG_HEAPS] = {0};
    int any_sizes = 0, any_poh = 0;
    unsigned start_end = 0, incomplete = 0, suspensions = 0;
    for (size_t i = 0; i < n; i++) {
        const gclog_entry *e = &gcs[i];
        start_end += e->pause_kind == GCLOG_PAUSE_START_END || (e->pause_kind == GCLOG_PAUSE_UNKNOWN && e->complete);
        incomplete += !e->complete;
        suspensions += e->pause_kind == GCLOG_PAUSE_SUSPENSIONS;
        if (!e->has_sizes)
            continue;
        any_sizes = 1;
        any_poh |= e->has_poh;
        for (int g = 0; g < GCLOG_HEAPS; g++)
            if (e->size[g] > peak[g] && (g != GCLOG_POH || e->has_poh))
                peak[g] = e->size[g];
    }
    fprintf(out, "\nTotals (complete GCs)\n  %-5s %6s %14s %14s %15s\n", "Gen", "GCs", "Max pause ms",
            "Mean pause ms", "Total pause ms");
    print_pause_row(out, "all", &all);
    for (int g = 0; g < 3; g++) {
        gcstats_totals t;
        gcstats_totals_of(gcs, per_gc, n, g, &t);
        char label[8];
        snprintf(label, sizeof label, "%d", g);
        print_pause_row(out, label, &t);
    }

    if (all.count > 0) {
        char total[32], duration[32], suspend[32];
        if (all.has_duration)
            fprintf(out, "Time paused: %.3f%% (%s ms of %s ms, from the first GC's pause to the last GCHeapStats)\n",
                    all.pause_percent, units_ms(all.total_pause_ns, total, sizeof total),
                    units_ms(all.duration_ns, duration, sizeof duration));
        fprintf(out, "Allocated %.3f MB (max %.1f MB/s), promoted %.3f MB", all.allocated_mb, all.max_alloc_rate_mb_s,
                all.promoted_mb);
        if (suspensions)
            fprintf(out, ", max suspend %s ms", units_ms(all.max_suspend_ns, suspend, sizeof suspend));
        fputc('\n', out);
    }
    char mb[GCLOG_HEAPS][32];
    for (int g = 0; g < GCLOG_HEAPS; g++) {
        if (any_sizes && (g != GCLOG_POH || any_poh))
            units_mb(peak[g], mb[g], sizeof mb[g]);
        else
            snprintf(mb[g], sizeof mb[g], "-");
    }
    fprintf(out, "Peak sizes (MB): gen0 %s  gen1 %s  gen2 %s  LOH %s  POH %s\n", mb[GCLOG_GEN0], mb[GCLOG_GEN1],
            mb[GCLOG_GEN2], mb[GCLOG_LOH], mb[GCLOG_POH]);
    if (suspensions)
        fprintf(out, "Pause: PerfView's rule, from the GCSuspendEEBegin (SuspendForGC) a GC starts in to the "
                 "GCRestartEEEnd of the same thread; suspensions for other reasons (the sample profiler's, a "
                 "debugger's) are ignored; a background GC's is its own suspensions.\n");
    if (start_end)
        fprintf(out, "GCs started outside any suspension for a GC: %u (the trace has no GCSuspendEEBegin "
                     "SuspendForGC for them): their pause is GCStart to GCEnd, a background GC's unknown (-).\n",
                start_end);
    if (incomplete)
        fprintf(out, "Incomplete GCs: %u (an event is missing, or the trace ends inside them): not in the "
                     "totals.\n",
                incomplete);
}

/* A phase's ms, or "-". */
static const char *phase_ms(const gclog_entry *e, gclog_phase p, char *buf, size_t size)
{
    uint64_t ns;
    if (gclog_bgc_phase(e, p, &ns))
        return units_ms(ns, buf, size);
    snprintf(buf, size, "-");
    return buf;
}

/* One row per background GC with the private provider's BGC events (gclog.h); nothing without. */
static void print_bgc_phases(FILE *out, const gclog_entry *gcs, size_t n)
{
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        const gclog_entry *e = &gcs[i];
        if (!gclog_has_bgc_events(e))
            continue;
        if (!any)
            fprintf(out, "\nBackground GC phases (ms), from the private provider's BGC events\n"
                         "%6s %13s %16s %11s %17s %10s %12s %8s\n",
                    "GC#", "Initial mark", "Concurrent mark", "Final mark", "Concurrent sweep", "SOH sweep",
                    "Alloc waits", "Wait ms");
        any = 1;
        char ms[GCLOG_PHASES][32], wait[32] = "-";
        for (int p = 0; p < GCLOG_PHASES; p++)
            phase_ms(e, (gclog_phase)p, ms[p], sizeof ms[p]);
        /* a wait open at the end of a BGC without GCHeapStats has no time */
        if (e->bgc.alloc_waits && (e->has_sizes || e->bgc.alloc_waits > e->bgc.alloc_waits_open))
            units_ms(e->bgc.alloc_wait_ns, wait, sizeof wait);
        fprintf(out, "%6u %13s %16s %11s %17s %10s %12u %8s%s\n", e->number, ms[GCLOG_PHASE_INITIAL_MARK],
                ms[GCLOG_PHASE_CONCURRENT_MARK], ms[GCLOG_PHASE_FINAL_MARK], ms[GCLOG_PHASE_CONCURRENT_SWEEP],
                ms[GCLOG_PHASE_SOH_SWEEP], e->bgc.alloc_waits, wait, e->complete ? "" : "  incomplete");
    }
    if (any)
        fprintf(out, "Phases: initial mark BGCBegin..BGC1stNonConEnd, concurrent mark ..BGC1stConEnd, final mark "
                     "BGC2ndNonConBegin..BGC2ndNonConEnd, concurrent sweep BGC2ndConBegin..BGC2ndConEnd (SOH sweep "
                     "..BGC1stSweepEnd); alloc waits BGCAllocWaitBegin..End summed over threads; - where an event is "
                     "missing.\n");
}

void table_print(FILE *out, const gclog_entry *gcs, size_t n)
{
    gcstats_gc *per_gc = calloc(n ? n : 1, sizeof *per_gc);
    if (!per_gc) {
        fprintf(out, "out of memory\n");
        return;
    }
    gcstats_per_gc(gcs, n, per_gc);
    fprintf(out, "%6s %3s  %-13s  %-17s %9s %10s %10s %10s %10s %10s %14s %8s %8s %9s %10s %8s\n", "GC#", "Gen",
            "Type", "Reason", "Pause ms", "Gen0 MB", "Gen1 MB", "Gen2 MB", "LOH MB", "POH MB", "Promoted bytes",
            "Susp ms", "% paused", "Alloc MB", "Alloc MB/s", "Frag MB");
    for (size_t i = 0; i < n; i++)
        print_row(out, &gcs[i], &per_gc[i]);
    print_totals(out, gcs, per_gc, n);
    print_bgc_phases(out, gcs, n);
    free(per_gc);
}
