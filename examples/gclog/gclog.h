/* gclog.h — a GC log built from a trace's GC events: feed it the events in time order, get one
 * entry per GC (number, generation, type, reason, pause, sizes after, compaction, the raw figures
 * gcstats.h derives rates and percentages from).
 *
 * The rules are PerfView's: TraceEvent's TraceManagedProcess.cs (microsoft/perfview,
 * src/TraceEvent/Computers/TraceManagedProcess.cs; the handlers of TraceLoadedDotNetRuntime.
 * SetupCallbacks, TraceGarbageCollector.GetCurrentGC and GCStats.AddConcurrentPauseTime), read and
 * restated here, not copied.
 *
 * Suspensions (GCSuspendEEBegin .. GCRestartEEEnd):
 *   - only a suspension for a GC counts: Reason SuspendForGC (1) names the thread that suspends
 *     for the next GC, SuspendForGCPrep (6) the background GC thread suspending for its final mark;
 *     a suspension for any other reason (SuspendOther: the EventPipe sample profiler, which
 *     suspends the runtime for each sample; the debugger; shutdown ...) is ignored, and so is every
 *     GCSuspendEEEnd and GCRestartEEEnd fired on another thread than the one that suspended for
 *     the GC (CoreCLR restarts on the suspending thread);
 *   - a tracked GCRestartEEEnd closes the suspension (and forgets both threads).
 * GCs:
 *   - a GCStart whose Count equals the previous GCStart's is the same GC (ignored);
 *   - a GC's pause begins at the beginning of the suspension it started in (PauseStartRelativeMSec),
 *     except a blocking GC starting while a background GC that started last is in progress (the
 *     ephemeral GC CoreCLR runs at the start of a BGC) and a GC of Reason PMFullGC: theirs begins
 *     at their GCStart. Its suspend time (SuspendDurationMSec) is from that GCSuspendEEBegin to the
 *     GCSuspendEEEnd of the same thread (to its GCStart when that event never came);
 *   - the "current GC" is the GC that started last while it is not complete, else the background
 *     GC in progress (GetCurrentGC). GCEnd, GCHeapStats, GCGlobalHeapHistory and GCPerHeapHistory
 *     belong to the current GC, and so does a tracked restart:
 *       blocking GC that has ended: pause = restart's end - pause start; it is complete once it
 *         also has its GCHeapStats (CoreCLR fires GCEnd and GCHeapStats before the restart);
 *       background GC, or a GC whose GCEnd has not come: the pause grows by the suspension (its
 *         beginning to the restart's end) when the background GC thread suspended (its final mark:
 *         also the BGC's final pause), else becomes the restart's end - pause start;
 *   - a background GC's pause starts as its suspend time (the initial suspension it started in)
 *     and grows by its own suspensions (above); the foreground GCs inside it are GCs of their own.
 *     It is complete at its GCHeapStats (it fires no restart at its end);
 *   - a GC of Reason PMFullGC completes the GC in progress before it.
 * Where TraceEvent has no rule, this log goes on (and says so in its output):
 *   - a GC that starts outside any suspension for a GC (a trace without suspension events, as
 *     gcheapstats_simulate writes by default) is kept, not dropped: its pause is its GCStart to
 *     its GCEnd (GCLOG_PAUSE_START_END; unknown for a background GC, whose span is concurrent
 *     work) and it is complete at its GCHeapStats. TraceEvent records a GC only when a suspension
 *     is in progress at its GCStart (one for another reason included, whose begin time it then
 *     lacks: this log uses the fallback for that one too);
 *   - a suspension's end is forgotten at each new suspension for a GC (TraceEvent keeps the last
 *     one, which makes a negative suspend time when a GCSuspendEEEnd was lost);
 *   - a GC that is no longer current and never completed (a lost event) is handed out as an
 *     incomplete entry (entry.complete is 0) instead of being kept forever; so is every GC still
 *     in progress at gclog_finish(). TraceEvent's totals skip incomplete GCs, and so do gcstats'.
 *
 * Compaction: GCGlobalHeapHistory.GlobalMechanisms (or the private PrvGCGlobalHeapHistory's) is a
 * set of bits indexed by CoreCLR's enum gc_global_mechanism_p (dotnet/runtime
 * src/coreclr/gc/gcrecord.h: global_concurrent = 0, global_compaction = 1, global_promotion = 2,
 * ...), set with `global_mechanisms_p |= (1 << mechanism)`: bit 0x2 means the GC compacted.
 *
 * GCPerHeapHistory (one per heap, before GCEnd): each Values element is a generation's
 * gc_generation_data; as TraceEvent derives them, a generation's fragmentation after the GC is
 * FreeListAfter + FreeObjAfter, its object size after is SizeAfter - fragmentation, and its object
 * space before is SizeBefore - FreeListBefore - FreeObjBefore. The entry holds their sums over the
 * heaps.
 *
 * GCAllocationTick: the amounts (AllocationAmount64, else AllocationAmount) are summed per kind,
 * small object heap and the rest (LOH and POH together, as TraceEvent does); each GCHeapStats gives
 * its GC the amounts since the previous GCHeapStats.
 *
 * Old versions: a GCStart v0 has no Depth (GCEnd's is used) and no Type (non-concurrent); a
 * GCHeapStats before v2 has no POH (entry.has_poh is 0).
 *
 * Entries come out in the order GCs complete (a background GC after the foreground GCs inside it).
 *
 * Beyond PerfView: a background GC's phases, from the private provider's (Microsoft-Windows-
 * DotNETRuntimePrivate) BGC events, which TraceEvent follows only to label its revisit statistics.
 * Where CoreCLR fires them (dotnet/runtime src/coreclr/gc: gc1 in collect.cpp, background_mark_phase
 * and background_sweep in background.cpp; every BGC thread fires its own, one per heap with server
 * GC, so a phase runs from the first heap's event that begins it to the last heap's that ends it):
 *   - BGCBegin: the BGC thread starts its work (gc1), the runtime still suspended since the GCStart;
 *   - BGC1stNonConEnd: stack and finalization-queue roots marked; the runtime restarts right after;
 *   - BGC1stConEnd: concurrent marking (handles, mark list, written pages revisited, mark stack
 *     overflow) is done; the BGC thread then suspends the runtime (SuspendForGCPrep);
 *   - BGC2ndNonConBegin: the runtime is suspended; the final mark starts;
 *   - BGC2ndNonConEnd: the final mark is done and the free lists reset for the sweep (at the
 *     beginning of background_sweep); the runtime restarts right after;
 *   - BGC2ndConBegin: the runtime restarted; the concurrent sweep begins (ephemeral generations, then
 *     gen2); BGC1stSweepEnd: the small object heap is swept (the large and pinned heaps follow);
 *     BGC2ndConEnd: the sweep is done (the GCEnd and GCHeapStats follow);
 *   - BGCPlanEnd, BGCSweepEnd: declared by the runtime's manifest but never fired by today's GC
 *     (IGCToCLREventSink has no method for them); printed as points in time when a trace has them.
 * The timings (gclog_bgc_phase), each known only when both its events came, in this order:
 *   initial mark     (GCLOG_PHASE_INITIAL_MARK)    first BGCBegin .. last BGC1stNonConEnd: non-concurrent
 *   concurrent mark  (GCLOG_PHASE_CONCURRENT_MARK) last BGC1stNonConEnd .. last BGC1stConEnd
 *   final mark       (GCLOG_PHASE_FINAL_MARK)      first BGC2ndNonConBegin .. last BGC2ndNonConEnd:
 *                    non-concurrent, the work inside the final-mark suspension (the pause's
 *                    "final mark" is that suspension, from its GCSuspendEEBegin to its restart)
 *   concurrent sweep (GCLOG_PHASE_CONCURRENT_SWEEP) first BGC2ndConBegin .. last BGC2ndConEnd
 *   SOH sweep        (GCLOG_PHASE_SOH_SWEEP)       first BGC2ndConBegin .. last BGC1stSweepEnd
 * and the counts, attributed to the background GC in progress:
 *   - BGCAllocWaitBegin .. BGCAllocWaitEnd of the same thread: an allocation waiting for the BGC
 *     (Reason: CoreCLR's alloc_wait_reason, e.g. 6 awr_gen0_oos_bgc, 8 awr_fgc_wait_for_bgc); the
 *     waits that began during the BGC are counted and their times summed over the threads; a wait
 *     still open when the BGC is handed out (most waits for its end are: its GCHeapStats comes
 *     before the waiters wake) counts up to that GCHeapStats, untimed without one (an incomplete
 *     BGC), and is counted apart (alloc_waits_open);
 *   - BGCDrainMark: the mark list drained during concurrent marking (events, Objects summed);
 *   - BGCRevisit: pages written during marking revisited (events, Pages and Objects summed), as
 *     TraceEvent splits them: in the concurrent mark, or (once BGC2ndNonConBegin or a later phase
 *     event came) in the final mark;
 *   - BGCOverflow: the mark stack overflowed (events, Objects summed, Max - Min summed: the bytes
 *     of heap rescanned for it).
 * A trace without these events leaves entry.bgc all zero, and the log line and report as before. */
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
    GCLOG_PAUSE_SUSPENSIONS = 1, /* PerfView's rule (above) */
    GCLOG_PAUSE_START_END = 2    /* no suspension for the GC: GCStart to GCEnd */
} gclog_pause_kind;

/* Generations as GCHeapStats numbers them: 0..2, then the large and the pinned object heaps. */
enum { GCLOG_GEN0, GCLOG_GEN1, GCLOG_GEN2, GCLOG_LOH, GCLOG_POH, GCLOG_HEAPS };

/* Allocation tick kinds as TraceEvent sums them: the small object heap, and the others. */
enum { GCLOG_TICK_SOH, GCLOG_TICK_UOH };

/* The private provider's BGC phase events, in the order CoreCLR fires them (above). */
enum {
    GCLOG_BGC_BEGIN,
    GCLOG_BGC_1ST_NONCON_END,
    GCLOG_BGC_1ST_CON_END,
    GCLOG_BGC_2ND_NONCON_BEGIN,
    GCLOG_BGC_2ND_NONCON_END,
    GCLOG_BGC_2ND_CON_BEGIN,
    GCLOG_BGC_1ST_SWEEP_END,
    GCLOG_BGC_2ND_CON_END,
    GCLOG_BGC_PLAN_END,
    GCLOG_BGC_SWEEP_END,
    GCLOG_BGC_EVENTS
};

/* A background GC's timings (above). */
typedef enum gclog_phase {
    GCLOG_PHASE_INITIAL_MARK,
    GCLOG_PHASE_CONCURRENT_MARK,
    GCLOG_PHASE_FINAL_MARK,
    GCLOG_PHASE_CONCURRENT_SWEEP,
    GCLOG_PHASE_SOH_SWEEP,
    GCLOG_PHASES
} gclog_phase;

/* Revisits by marking phase, as TraceEvent's BGCRevisitState. */
enum { GCLOG_REVISIT_CONCURRENT, GCLOG_REVISIT_FINAL };

typedef struct gclog_bgc {
    uint32_t seen;                      /* bit 1 << GCLOG_BGC_* for each phase event seen */
    uint64_t at_ns[GCLOG_BGC_EVENTS];   /* its time: the first of a BGCBegin or a ...Begin, the last of an ...End */
    uint32_t alloc_waits;               /* BGCAllocWaitBegin .. End pairs begun during the BGC ... */
    uint32_t alloc_waits_open;          /* ... of which still waiting when it was handed out */
    uint64_t alloc_wait_ns;             /* their times, summed over the threads */
    uint32_t drain_marks;               /* BGCDrainMark events */
    uint64_t drain_objects;
    uint32_t revisits[2];               /* BGCRevisit events, by GCLOG_REVISIT_* */
    uint64_t revisit_pages[2], revisit_objects[2];
    uint32_t overflows;                 /* BGCOverflow events */
    uint64_t overflow_objects, overflow_bytes;
} gclog_bgc;

typedef struct gclog_entry {
    uint32_t number;     /* GCStart.Count */
    uint32_t generation; /* condemned generation: GCStart.Depth (GCEnd.Depth for a version 0 GCStart) */
    uint32_t type;       /* GCStart.Type (GCLOG_NONCONCURRENT for a version 0 GCStart, which predates BGCs) */
    uint32_t reason;     /* GCStart.Reason, or the GCTriggered before it */
    uint8_t has_generation, has_reason, ended;
    uint8_t complete;    /* PerfView's IsComplete (or, for a GCLOG_PAUSE_START_END GC, its GCHeapStats came) */
    uint64_t start_ns;   /* GCStart's timestamp, since the trace began */
    uint64_t end_ns;     /* GCEnd's (0 if !ended) */

    gclog_pause_kind pause_kind;
    uint64_t pause_ns;
    uint64_t pause_start_ns;   /* PauseStartRelativeMSec (GCLOG_PAUSE_SUSPENSIONS) */
    uint64_t suspend_ns;       /* SuspendDurationMSec (GCLOG_PAUSE_SUSPENSIONS) */
    uint8_t has_bgc_final;     /* a background GC's final-mark suspension was seen ... */
    uint64_t bgc_final_pause_ns; /* ... and lasted this long (BGCFinalPauseMSec) */

    uint8_t has_sizes;   /* a GCHeapStats was seen */
    uint8_t has_poh;     /* ... of version 2 or later, with the pinned object heap */
    uint64_t heap_stats_ns;         /* its timestamp */
    uint64_t size[GCLOG_HEAPS];     /* bytes after the GC */
    uint64_t promoted[GCLOG_HEAPS]; /* bytes promoted (TotalPromotedSize0..4) */
    /* DurationSinceLastRestartMSec: from the previous GCHeapStats (or the trace's start) to this
     * GC's pause start (to its GCHeapStats for a background GC) */
    uint64_t since_last_ns;
    /* a background GC: the end (GCStart + duration) of the GC that started before it (its own
     * start if none) */
    uint64_t prev_end_ns;

    uint8_t has_ticks;                /* the trace has allocation ticks (up to this GC's GCHeapStats) */
    uint64_t tick_bytes[2];           /* allocated since the previous GCHeapStats, by GCLOG_TICK_* */

    uint32_t heaps;                   /* GCPerHeapHistory events seen (0: none) */
    uint32_t history_gens;            /* generations in them (4, or 5 with the POH) */
    uint64_t fragmentation[GCLOG_HEAPS];    /* bytes after the GC, summed over the heaps */
    uint64_t obj_size_after[GCLOG_HEAPS];   /* object bytes after the GC */
    uint64_t obj_space_before[GCLOG_HEAPS]; /* object bytes before the GC */

    uint8_t has_mechanisms; /* a GCGlobalHeapHistory was seen */
    uint32_t global_mechanisms;

    gclog_bgc bgc; /* a background GC's private phase events (all zero without them) */
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

/* The private provider's BGC events were seen for this (background) GC. */
int gclog_has_bgc_events(const gclog_entry *entry);
/* A background GC's phase timing: returns 1 and sets *ns when both its events came, in order;
 * else 0. */
int gclog_bgc_phase(const gclog_entry *entry, gclog_phase phase, uint64_t *ns);

/* The entry's log line (no newline), e.g.
 *   GC #3: gen0 NonConcurrent AllocSmall, at 12.500 ms, pause 1.250 ms,
 *   after (MB) gen0 0.000 gen1 0.523 gen2 0.000 LOH 0.000 POH 0.250, compacting
 * (on one line); a background GC with the private provider's BGC events ends with its phases,
 *   ...; BGC phases (ms): initial mark 0.150, concurrent mark 5.500, final mark 0.280,
 *   concurrent sweep 1.600 (SOH 1.000); alloc waits 2 (1 to its end) 0.300 ms; drain mark 1:
 *   1500 objects; revisits: concurrent 2: 12 pages 340 objects, final 1: 3 pages 25 objects;
 *   overflows 1: 40 objects over 0.004 MB
 * (a phase whose events did not all come is `?`; the parts without events are left out). Returns
 * the length snprintf would (the line is cut to `size`). */
int gclog_format(const gclog_entry *entry, char *buf, size_t size);

#endif /* EXAMPLE_GCLOG_H */
