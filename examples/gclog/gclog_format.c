/* gclog_format.c — one GC log entry as one line of text. */
#include "gclog.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

#include "gcnames.h"
#include "units.h"

/* A growing line: appends as snprintf would, counting what does not fit. */
typedef struct line {
    char *buf;
    size_t size, len;
} line;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void put(line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = l->len < l->size ? l->size - l->len : 0;
    int n = vsnprintf(room ? l->buf + l->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        l->len += (size_t)n;
}

static const char *const phase_names[GCLOG_PHASES] = {
    [GCLOG_PHASE_INITIAL_MARK] = "initial mark",
    [GCLOG_PHASE_CONCURRENT_MARK] = "concurrent mark",
    [GCLOG_PHASE_FINAL_MARK] = "final mark",
    [GCLOG_PHASE_CONCURRENT_SWEEP] = "concurrent sweep",
    [GCLOG_PHASE_SOH_SWEEP] = "SOH",
};

static void put_phase(line *l, const gclog_entry *e, gclog_phase p)
{
    uint64_t ns;
    char ms[32];
    put(l, "%s %s", phase_names[p], gclog_bgc_phase(e, p, &ns) ? units_ms(ns, ms, sizeof ms) : "?");
}

/* "; BGC phases (ms): ..." and the counts (gclog.h). */
static void put_bgc(line *l, const gclog_entry *e)
{
    const gclog_bgc *b = &e->bgc;
    char ms[32], mb[32];
    uint64_t ns;
    if (b->seen) {
        put(l, "; BGC phases (ms): ");
        put_phase(l, e, GCLOG_PHASE_INITIAL_MARK);
        put(l, ", ");
        put_phase(l, e, GCLOG_PHASE_CONCURRENT_MARK);
        put(l, ", ");
        put_phase(l, e, GCLOG_PHASE_FINAL_MARK);
        put(l, ", ");
        put_phase(l, e, GCLOG_PHASE_CONCURRENT_SWEEP);
        if (gclog_bgc_phase(e, GCLOG_PHASE_SOH_SWEEP, &ns))
            put(l, " (SOH %s)", units_ms(ns, ms, sizeof ms));
        if (b->seen & (1u << GCLOG_BGC_PLAN_END))
            put(l, ", plan end at %s", units_ms(b->at_ns[GCLOG_BGC_PLAN_END], ms, sizeof ms));
        if (b->seen & (1u << GCLOG_BGC_SWEEP_END))
            put(l, ", sweep end at %s", units_ms(b->at_ns[GCLOG_BGC_SWEEP_END], ms, sizeof ms));
    }
    if (b->alloc_waits) {
        /* the waits open at its end are timed up to its GCHeapStats, untimed without one */
        uint32_t untimed = e->has_sizes ? 0 : b->alloc_waits_open;
        put(l, "; alloc waits %u", b->alloc_waits);
        if (b->alloc_waits_open)
            put(l, untimed ? " (%u unfinished, untimed)" : " (%u to its end)", b->alloc_waits_open);
        if (b->alloc_waits > untimed)
            put(l, " %s ms", units_ms(b->alloc_wait_ns, ms, sizeof ms));
    }
    if (b->drain_marks)
        put(l, "; drain mark %u: %llu objects", b->drain_marks, (unsigned long long)b->drain_objects);
    if (b->revisits[GCLOG_REVISIT_CONCURRENT] || b->revisits[GCLOG_REVISIT_FINAL]) {
        static const char *const names[2] = {"concurrent", "final"};
        put(l, "; revisits:");
        for (int k = 0; k < 2; k++)
            if (b->revisits[k])
                put(l, "%s %s %u: %llu pages %llu objects", k && b->revisits[0] ? "," : "", names[k], b->revisits[k],
                    (unsigned long long)b->revisit_pages[k], (unsigned long long)b->revisit_objects[k]);
    }
    if (b->overflows)
        put(l, "; overflows %u: %llu objects over %s MB", b->overflows, (unsigned long long)b->overflow_objects,
            units_mb(b->overflow_bytes, mb, sizeof mb));
}

int gclog_format(const gclog_entry *e, char *buf, size_t size)
{
    char gen[16], reason[32], type[32], at[32], pause[96], sizes[160], mb[5][32];
    if (e->has_generation)
        snprintf(gen, sizeof gen, "gen%u", e->generation);
    else
        snprintf(gen, sizeof gen, "gen?");
    const char *reason_name = e->has_reason ? gc_reason_name(e->reason, reason, sizeof reason) : "?";
    const char *type_name = gc_type_name(e->type, type, sizeof type);

    char ms[32], final_ms[32];
    switch (e->pause_kind) {
    case GCLOG_PAUSE_SUSPENSIONS:
        if (e->type == GCLOG_BACKGROUND && e->has_bgc_final)
            snprintf(pause, sizeof pause, "pause %s ms (final mark %s ms)", units_ms(e->pause_ns, ms, sizeof ms),
                     units_ms(e->bgc_final_pause_ns, final_ms, sizeof final_ms));
        else
            snprintf(pause, sizeof pause, "pause %s ms", units_ms(e->pause_ns, ms, sizeof ms));
        break;
    case GCLOG_PAUSE_START_END:
        snprintf(pause, sizeof pause, "pause %s ms (GCStart to GCEnd)", units_ms(e->pause_ns, ms, sizeof ms));
        break;
    case GCLOG_PAUSE_UNKNOWN:
        snprintf(pause, sizeof pause, "pause ?");
        break;
    }

    if (e->has_sizes) {
        for (int g = 0; g < GCLOG_HEAPS; g++)
            units_mb(e->size[g], mb[g], sizeof mb[g]);
        int n = snprintf(sizes, sizeof sizes, "after (MB) gen0 %s gen1 %s gen2 %s LOH %s", mb[GCLOG_GEN0],
                         mb[GCLOG_GEN1], mb[GCLOG_GEN2], mb[GCLOG_LOH]);
        if (e->has_poh && n > 0 && (size_t)n < sizeof sizes)
            snprintf(sizes + n, sizeof sizes - (size_t)n, " POH %s", mb[GCLOG_POH]);
    } else
        snprintf(sizes, sizeof sizes, "after ?");

    const char *compaction = !e->has_mechanisms                                  ? "compaction ?"
                             : e->global_mechanisms & GCLOG_MECHANISM_COMPACTION ? "compacting"
                                                                                 : "non-compacting";
    const char *incomplete = e->complete   ? ""
                             : !e->ended   ? ", incomplete (no GCEnd)"
                             : !e->has_sizes ? ", incomplete (no GCHeapStats)"
                                           : ", incomplete (no restart)";
    line l = {buf, size, 0};
    put(&l, "GC #%u: %s %s %s, at %s ms, %s, %s, %s%s", e->number, gen, type_name, reason_name,
        units_ms(e->start_ns, at, sizeof at), pause, sizes, compaction, incomplete);
    if (gclog_has_bgc_events(e))
        put_bgc(&l, e);
    return l.len > INT_MAX ? INT_MAX : (int)l.len;
}
