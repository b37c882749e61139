/* table.c — the per-GC table and its totals, figures in MB (10^6 bytes) and ms with 3 decimals. */
#include "table.h"

#include "gcnames.h"
#include "units.h"

static uint64_t promoted_total(const gclog_entry *e)
{
    uint64_t sum = 0;
    for (int g = 0; g < GCLOG_HEAPS; g++)
        sum += e->promoted[g];
    return sum;
}

static void print_row(FILE *out, const gclog_entry *e)
{
    char gen[8] = "?", reason[32], type[32], pause[32] = "-", mb[GCLOG_HEAPS][32], promoted[32] = "-";
    if (e->has_generation)
        snprintf(gen, sizeof gen, "%u", e->generation);
    if (e->pause_kind != GCLOG_PAUSE_UNKNOWN)
        units_ms(e->pause_ns, pause, sizeof pause);
    for (int g = 0; g < GCLOG_HEAPS; g++) {
        if (e->has_sizes && (g != GCLOG_POH || e->has_poh))
            units_mb(e->size[g], mb[g], sizeof mb[g]);
        else
            snprintf(mb[g], sizeof mb[g], "-");
    }
    if (e->has_sizes)
        snprintf(promoted, sizeof promoted, "%llu", (unsigned long long)promoted_total(e));
    const char *reason_name = e->has_reason ? gc_reason_name(e->reason, reason, sizeof reason) : "?";
    fprintf(out, "%6u %3s  %-13s  %-17s %9s %10s %10s %10s %10s %10s %14s\n", e->number, gen,
            gc_type_name(e->type, type, sizeof type), reason_name, pause, mb[GCLOG_GEN0], mb[GCLOG_GEN1],
            mb[GCLOG_GEN2], mb[GCLOG_LOH], mb[GCLOG_POH], promoted);
}

typedef struct pause_stats {
    unsigned count, timed;
    uint64_t max_ns, sum_ns;
} pause_stats;

static void print_pause_row(FILE *out, const char *label, const pause_stats *p)
{
    char max[32] = "-", mean[32] = "-", total[32] = "-";
    if (p->timed) {
        units_ms(p->max_ns, max, sizeof max);
        units_ms(p->sum_ns / p->timed, mean, sizeof mean);
        units_ms(p->sum_ns, total, sizeof total);
    }
    fprintf(out, "  %-5s %6u %14s %14s %15s\n", label, p->count, max, mean, total);
}

static void print_totals(FILE *out, const gclog_entry *gcs, size_t n)
{
    pause_stats all = {0, 0, 0, 0}, by_gen[3] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    uint64_t peak[GCLOG_HEAPS] = {0};
    int any_sizes = 0, any_poh = 0, start_end = 0;
    for (size_t i = 0; i < n; i++) {
        const gclog_entry *e = &gcs[i];
        pause_stats *stats[2] = {&all, e->has_generation && e->generation < 3 ? &by_gen[e->generation] : NULL};
        for (int k = 0; k < 2; k++) {
            if (!stats[k])
                continue;
            stats[k]->count++;
            if (e->pause_kind != GCLOG_PAUSE_UNKNOWN) {
                stats[k]->timed++;
                stats[k]->sum_ns += e->pause_ns;
                if (e->pause_ns > stats[k]->max_ns)
                    stats[k]->max_ns = e->pause_ns;
            }
        }
        start_end |= e->pause_kind == GCLOG_PAUSE_START_END;
        if (!e->has_sizes)
            continue;
        any_sizes = 1;
        any_poh |= e->has_poh;
        for (int g = 0; g < GCLOG_HEAPS; g++)
            if (e->size[g] > peak[g] && (g != GCLOG_POH || e->has_poh))
                peak[g] = e->size[g];
    }
    fprintf(out, "\nTotals\n  %-5s %6s %14s %14s %15s\n", "Gen", "GCs", "Max pause ms", "Mean pause ms",
            "Total pause ms");
    print_pause_row(out, "all", &all);
    for (int g = 0; g < 3; g++) {
        char label[8];
        snprintf(label, sizeof label, "%d", g);
        print_pause_row(out, label, &by_gen[g]);
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
    if (start_end)
        fprintf(out, "Pauses measured from GCStart to GCEnd where the trace has no suspension events "
                     "(GCSuspendEEBegin/GCRestartEEEnd); background GCs' pauses are then unknown (-).\n");
}

void table_print(FILE *out, const gclog_entry *gcs, size_t n)
{
    fprintf(out, "%6s %3s  %-13s  %-17s %9s %10s %10s %10s %10s %10s %14s\n", "GC#", "Gen", "Type", "Reason",
            "Pause ms", "Gen0 MB", "Gen1 MB", "Gen2 MB", "LOH MB", "POH MB", "Promoted bytes");
    for (size_t i = 0; i < n; i++)
        print_row(out, &gcs[i]);
    print_totals(out, gcs, n);
}
