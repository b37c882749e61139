/* gclog_format.c — one GC log entry as one line of text. */
#include "gclog.h"

#include <stdio.h>

#include "gcnames.h"
#include "units.h"

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
    return snprintf(buf, size, "GC #%u: %s %s %s, at %s ms, %s, %s, %s%s", e->number, gen, type_name, reason_name,
                    units_ms(e->start_ns, at, sizeof at), pause, sizes, compaction, incomplete);
}
