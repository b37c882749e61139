/* gclog.h — a GC log built from a trace's GC events: feed it the events in time order, get one
 * entry per GC (number, generation, type, reason, pause, sizes after, compaction).
 *
 * Events used (manifest/gcevents.h, read through the generated accessors, any version):
 *   GCTriggered          the reason, when GCStart lacks one (a truncated payload)
 *   GCStart / GCEnd      a GC begins and ends; they are paired by Count, so GCs may nest: a
 *                        background GC (Type = BackgroundGC) stays open while foreground gen0/gen1
 *                        GCs start and end inside it, on any thread; its own GCEnd comes last
 *   GCSuspendEEBegin /   one suspension of the managed threads (the execution engine, EE): the
 *   GCRestartEEEnd       pause, from the beginning of the suspension to the end of the restart
 *   GCHeapStats          sizes after the GC and promoted bytes: CoreCLR fires it right after
 *                        GCEnd (gcee.cpp, UpdatePostGCCounters), so it belongs to the GC that
 *                        ended last and has none yet
 *   GCGlobalHeapHistory  GlobalMechanisms (and the private PrvGCGlobalHeapHistory): CoreCLR fires
 *                        it at the end of gc1, before GCEnd (gc.cpp, fire_pevents), so it belongs to
 *                        the innermost GC in progress whose condemned generation it names
 *
 * The pause rule (PerfView's, extended to background GCs):
 *   - a suspension (GCSuspendEEBegin .. the next GCRestartEEEnd) is charged to every GC whose
 *     GCStart falls inside it: a blocking GC (non-concurrent or foreground) is paused from the
 *     suspension's beginning to the restart's end;
 *   - a suspension in which no GC starts, while a background GC is in progress, is charged to
 *     that background GC (its final-mark pause); a background GC's pause is therefore the sum of
 *     its suspensions (usually two: the initial mark and the final mark) and excludes the
 *     suspensions of the foreground GCs inside it, which are theirs;
 *   - a suspension with no GC at all (a debugger, a thread abort) is charged to nobody;
 *   - without suspension events, a blocking GC's pause is measured from its GCStart to its GCEnd
 *     (GCLOG_PAUSE_START_END), and a background GC's is unknown (its GCStart..GCEnd is mostly
 *     concurrent work, not a pause).
 *
 * Compaction: GCGlobalHeapHistory.GlobalMechanisms is a set of bits indexed by CoreCLR's
 * enum gc_global_mechanism_p (dotnet/runtime src/coreclr/gc/gcrecord.h: global_concurrent = 0,
 * global_compaction = 1, global_promotion = 2, global_demotion = 3, global_card_bundles = 4,
 * global_elevation = 5), set with `global_mechanisms_p |= (1 << mechanism)`: bit 0x2 means the GC
 * compacted, its absence that it swept.
 *
 * Entries come out in the order GCs complete: a GC is complete once it has ended, its
 * GCHeapStats arrived and the suspension it started in has ended (or, for a GC whose GCHeapStats
 * never comes, once a later GC ends); so a background GC's entry follows those of the foreground
 * GCs inside it. gclog_finish() flushes every GC still pending, including those without a GCEnd
 * (the trace ended first: entry.ended is 0). */
#ifndef EXAMPLE_GCLOG_H
#define EXAMPLE_GCLOG_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/reader.h"

/* Bits of GlobalMechanisms (1 << gc_global_mechanism_p). */
#define GCLOG_MECHANISM_CONCURRENT 0x1u
#define GCLOG_MECHANISM_COMPACTION 0x2u
#define GCLOG_MECHANISM_PROMOTION 0x4u

/* GCStart.Type values. */
enum { GCLOG_NONCONCURRENT = 0, GCLOG_BACKGROUND = 1, GCLOG_FOREGROUND = 2 };

typedef enum gclog_pause_kind {
    GCLOG_PAUSE_UNKNOWN = 0,
    GCLOG_PAUSE_SUSPENSIONS = 1, /* the sum of the suspensions charged to the GC */
    GCLOG_PAUSE_START_END = 2    /* no suspension events: GCStart to GCEnd */
} gclog_pause_kind;

/* Generations as GCHeapStats numbers them: 0..2, then the large and the pinned object heaps. */
enum { GCLOG_GEN0, GCLOG_GEN1, GCLOG_GEN2, GCLOG_LOH, GCLOG_POH, GCLOG_HEAPS };

typedef struct gclog_entry {
    uint32_t number;     /* GCStart.Count */
    uint32_t generation; /* condemned generation: GCStart.Depth (GCEnd.Depth for a version 0 GCStart) */
    uint32_t type;       /* GCStart.Type (GCLOG_NONCONCURRENT for a version 0 GCStart, which predates BGCs) */
    uint32_t reason;     /* GCStart.Reason, or the GCTriggered before it */
    uint8_t has_generation, has_reason, ended;
    uint64_t start_ns;   /* GCStart's timestamp, since the trace began */
    uint64_t end_ns;     /* GCEnd's (0 if !ended) */

    gclog_pause_kind pause_kind;
    uint64_t pause_ns;
    uint32_t suspensions; /* suspensions charged (GCLOG_PAUSE_SUSPENSIONS) */

    uint8_t has_sizes;   /* a GCHeapStats was seen */
    uint8_t has_poh;     /* ... of version 2 or later, with the pinned object heap */
    uint64_t size[GCLOG_HEAPS];     /* bytes after the GC */
    uint64_t promoted[GCLOG_HEAPS]; /* bytes promoted (TotalPromotedSize0..4) */

    uint8_t has_mechanisms; /* a GCGlobalHeapHistory was seen */
    uint32_t global_mechanisms;
} gclog_entry;

typedef struct gclog gclog;

gclog *gclog_new(void); /* NULL if out of memory */
void gclog_free(gclog *log);

/* Feeds one event (events other than those above are ignored). Events must come in time order
 * (evgen_reader_rewind(reader, EVGEN_ORDER_TIME)). Returns 0, or -1 if out of memory. */
int gclog_feed(gclog *log, const evgen_event *ev);
/* The trace has ended: every pending GC becomes an entry. */
int gclog_finish(gclog *log);
/* Takes the next completed entry: returns 1 and fills `entry`, or 0 if none is ready. */
int gclog_next(gclog *log, gclog_entry *entry);

/* The entry's log line (no newline), e.g.
 *   GC #3: gen0 NonConcurrent AllocSmall, at 12.500 ms, pause 1.250 ms,
 *   after (MB) gen0 0.000 gen1 0.523 gen2 0.000 LOH 0.000 POH 0.250, compacting
 * (on one line). Returns the length snprintf would (the line is cut to `size`). */
int gclog_format(const gclog_entry *entry, char *buf, size_t size);

#endif /* EXAMPLE_GCLOG_H */
