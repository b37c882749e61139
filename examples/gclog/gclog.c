/* gclog.c — the GC log's state machine: PerfView's (TraceEvent's) suspension and GC tracking,
 * restated from its rules (gclog.h): suspensions for a GC paired on their thread, the current GC,
 * pauses, background GCs; heap stats, histories and allocation ticks attached to their GC; a
 * background GC's phases from the private provider's BGC events. */
#include "gclog.h"

#include <stdlib.h>
#include <string.h>

#include "gcevents.h"
#include "gcevents_reader.h"

/* GCs started and not yet handed out: a background GC, a GC inside it, and the previous one. */
#define GCLOG_MAX_LIVE 8

struct gclog {
    gclog_entry live[GCLOG_MAX_LIVE]; /* in GCStart order */
    uint8_t restarted[GCLOG_MAX_LIVE]; /* ... whose pause a restart has set */
    size_t n_live;
    int last_live;  /* live[n_live - 1] is the GC that started last (it has not completed) */
    int bgc;        /* index in live of the background GC in progress, or -1 */
    int has_last;   /* a GC was started: its number, and its start and end (0: none yet) */
    uint32_t last_number;
    uint64_t last_start_ns, last_end_ns;

    /* the suspension for a GC in progress (TraceEvent's suspendThreadIDGC/BGC, suspendTime...) */
    int has_thread_gc, has_thread_bgc;
    uint64_t thread_gc, thread_bgc;
    int suspend_open, has_suspend_end;
    uint64_t suspend_begin_ns, suspend_end_ns;
    uint32_t last_suspend_reason;

    uint64_t last_heap_stats_ns; /* TraceEvent's lastRestartEndTimeRelativeMSec */
    int has_ticks;
    uint64_t ticks[2], ticks_at_last_gc[2];

    int has_triggered;
    uint32_t triggered_reason;

    /* allocations waiting for the background GC in progress (BGCAllocWaitBegin, not yet ended) */
    struct alloc_wait {
        uint64_t thread, begin_ns;
        uint32_t bgc_number;
    } *waits;
    size_t n_waits, waits_cap;

    gclog_entry *ready; /* completed entries, a queue */
    size_t ready_head, ready_count, ready_cap;
    int oom;
};

gclog *gclog_new(void)
{
    gclog *log = calloc(1, sizeof(gclog));
    if (log)
        log->bgc = -1;
    return log;
}

void gclog_free(gclog *log)
{
    if (!log)
        return;
    free(log->ready);
    free(log->waits);
    free(log);
}

/* ---- handing entries out ------------------------------------------------------------------ */

/* A live GC started in a suspension for a GC (PerfView's GC) is the one whose pause kind is
 * GCLOG_PAUSE_SUSPENSIONS: only on_start sets it, and settle_pause only changes a copy handed out. */
static int is_tracked(const gclog_entry *g)
{
    return g->pause_kind == GCLOG_PAUSE_SUSPENSIONS;
}

/* A tracked GC's pause is known once a restart set it (a background GC's from its start); a GC
 * that started outside any suspension for a GC has the fallback. */
static void settle_pause(gclog_entry *e, int tracked, int restarted)
{
    if (tracked) {
        if (!restarted && e->type != GCLOG_BACKGROUND)
            e->pause_kind = GCLOG_PAUSE_UNKNOWN;
        return;
    }
    if (e->ended && e->type != GCLOG_BACKGROUND) {
        e->pause_kind = GCLOG_PAUSE_START_END;
        e->pause_ns = e->end_ns >= e->start_ns ? e->end_ns - e->start_ns : 0;
    } else
        e->pause_kind = GCLOG_PAUSE_UNKNOWN;
}

static void close_open_waits(gclog *log, gclog_entry *g);

/* Moves live[i] to the ready queue. */
static void release(gclog *log, size_t i)
{
    if (log->live[i].type == GCLOG_BACKGROUND)
        close_open_waits(log, &log->live[i]);
    if (log->ready_head + log->ready_count == log->ready_cap) {
        if (log->ready_head > 0) {
            memmove(log->ready, log->ready + log->ready_head, log->ready_count * sizeof *log->ready);
            log->ready_head = 0;
        } else {
            size_t cap = log->ready_cap ? 2 * log->ready_cap : 16;
            gclog_entry *grown = realloc(log->ready, cap * sizeof *grown);
            if (!grown) {
                log->oom = 1;
                return;
            }
            log->ready = grown;
            log->ready_cap = cap;
        }
    }
    gclog_entry *e = &log->ready[log->ready_head + log->ready_count++];
    *e = log->live[i];
    settle_pause(e, is_tracked(e), log->restarted[i]);
    if (i + 1 == log->n_live)
        log->last_live = 0;
    if (log->bgc == (int)i)
        log->bgc = -1;
    else if (log->bgc > (int)i)
        log->bgc--;
    memmove(&log->live[i], &log->live[i + 1], (log->n_live - i - 1) * sizeof log->live[0]);
    memmove(&log->restarted[i], &log->restarted[i + 1], (log->n_live - i - 1) * sizeof log->restarted[0]);
    log->n_live--;
}

static void complete(gclog *log, size_t i)
{
    log->live[i].complete = 1;
    release(log, i);
}

int gclog_next(gclog *log, gclog_entry *entry)
{
    if (log->ready_count == 0)
        return 0;
    *entry = log->ready[log->ready_head++];
    if (--log->ready_count == 0)
        log->ready_head = 0;
    return 1;
}

int gclog_finish(gclog *log)
{
    while (log->n_live > 0 && !log->oom)
        release(log, 0);
    return log->oom ? -1 : 0;
}

/* ---- the current GC (TraceEvent's GetCurrentGC) -------------------------------------------- */

/* The index in live of the GC that started last if it has not completed, else of the background
 * GC in progress; -1 if none. */
static int current(const gclog *log)
{
    if (log->last_live)
        return (int)log->n_live - 1;
    return log->bgc;
}

/* ---- events ------------------------------------------------------------------------------- */

static void on_suspend_begin(gclog *log, const evgen_event *ev)
{
    uint32_t reason = GCSuspendEEBegin_Reason(ev);
    if (reason == GCSuspendEEReason_SuspendForGC) {
        log->has_thread_gc = 1;
        log->thread_gc = ev->thread_id;
    } else if (reason == GCSuspendEEReason_SuspendForGCPrep) {
        log->has_thread_bgc = 1;
        log->thread_bgc = ev->thread_id;
    } else {
        return; /* not a GC's: it times nothing */
    }
    log->last_suspend_reason = reason;
    log->suspend_open = 1;
    log->suspend_begin_ns = ev->timestamp_ns;
    log->has_suspend_end = 0;
}

static int on_tracked_thread(const gclog *log, uint64_t thread)
{
    return (log->has_thread_gc && thread == log->thread_gc) || (log->has_thread_bgc && thread == log->thread_bgc);
}

static uint64_t since(uint64_t from, uint64_t to)
{
    return to >= from ? to - from : 0;
}

static void on_suspend_end(gclog *log, const evgen_event *ev)
{
    if (!on_tracked_thread(log, ev->thread_id))
        return;
    if (log->has_thread_bgc && log->bgc >= 0 && log->suspend_open)
        log->live[log->bgc].suspend_ns += since(log->suspend_begin_ns, ev->timestamp_ns);
    log->has_suspend_end = 1;
    log->suspend_end_ns = ev->timestamp_ns;
}

/* TraceEvent's AddConcurrentPauseTime. */
static void add_concurrent_pause(gclog *log, gclog_entry *g, uint64_t restart_ns)
{
    if (log->has_thread_bgc && log->suspend_open) {
        uint64_t pause = since(log->suspend_begin_ns, restart_ns);
        g->pause_ns += pause;
        if (log->last_suspend_reason == GCSuspendEEReason_SuspendForGCPrep) {
            g->has_bgc_final = 1;
            g->bgc_final_pause_ns = pause;
        }
    } else
        g->pause_ns = since(g->pause_start_ns, restart_ns);
}

static void on_restart_end(gclog *log, const evgen_event *ev)
{
    if (!on_tracked_thread(log, ev->thread_id))
        return;
    int c = current(log);
    if (c >= 0 && is_tracked(&log->live[c])) {
        gclog_entry *g = &log->live[c];
        log->restarted[c] = 1;
        if (g->type == GCLOG_BACKGROUND || !g->ended)
            add_concurrent_pause(log, g, ev->timestamp_ns);
        else {
            g->pause_ns = since(g->pause_start_ns, ev->timestamp_ns);
            if (g->has_sizes)
                complete(log, (size_t)c);
        }
    }
    log->suspend_open = 0;
    log->has_thread_gc = log->has_thread_bgc = 0;
}

static void on_start(gclog *log, const evgen_event *ev)
{
    uint32_t number = GCStart_Count(ev);
    if (log->has_last && log->last_number == number)
        return; /* the same GC's second GCStart */
    gclog_entry g;
    memset(&g, 0, sizeof g);
    g.number = number;
    g.has_generation = (uint8_t)GCStart_has_Depth(ev);
    g.generation = GCStart_Depth(ev);
    g.type = GCStart_has_Type(ev) ? GCStart_Type(ev) : GCLOG_NONCONCURRENT;
    if (GCStart_has_Reason(ev)) {
        g.reason = GCStart_Reason(ev);
        g.has_reason = 1;
    } else if (log->has_triggered) {
        g.reason = log->triggered_reason;
        g.has_reason = 1;
    }
    log->has_triggered = 0;
    g.start_ns = ev->timestamp_ns;

    int tracked = log->has_thread_gc && log->suspend_open;
    int ephemeral_at_bgc_start = log->last_live && log->bgc == (int)log->n_live - 1 &&
                                 g.type == GCLOG_NONCONCURRENT;
    int pm_full = g.has_reason && g.reason == GCReason_PMFullGC;
    if (tracked) {
        g.pause_kind = GCLOG_PAUSE_SUSPENSIONS;
        if (ephemeral_at_bgc_start || pm_full) {
            g.pause_start_ns = ev->timestamp_ns;
            int c = current(log);
            if (pm_full && c >= 0)
                complete(log, (size_t)c);
        } else {
            g.pause_start_ns = log->suspend_begin_ns;
            if (!log->has_suspend_end) {
                log->has_suspend_end = 1;
                log->suspend_end_ns = ev->timestamp_ns;
            }
            g.suspend_ns = since(log->suspend_begin_ns, log->suspend_end_ns);
        }
    }
    if (g.type == GCLOG_BACKGROUND) {
        g.pause_ns = g.suspend_ns;
        /* the GC before it in start order; TraceEvent's backstop for the first GC is its own start */
        g.prev_end_ns = !log->has_last ? g.start_ns : log->last_end_ns ? log->last_end_ns : log->last_start_ns;
    }

    /* A GC that is no longer current and never completed has lost an event; a background GC
     * still open when another starts has lost its end. */
    for (size_t i = 0; i < log->n_live && !log->oom;) {
        if ((int)i != log->bgc || g.type == GCLOG_BACKGROUND)
            release(log, i);
        else
            i++;
    }
    if (log->n_live == GCLOG_MAX_LIVE)
        release(log, 0);
    if (log->oom)
        return;
    log->live[log->n_live] = g;
    log->restarted[log->n_live] = 0;
    if (g.type == GCLOG_BACKGROUND)
        log->bgc = (int)log->n_live;
    log->n_live++;
    log->last_live = 1;
    log->has_last = 1;
    log->last_number = number;
    log->last_start_ns = g.start_ns;
    log->last_end_ns = 0;
}

static void on_end(gclog *log, const evgen_event *ev)
{
    int c = current(log);
    if (c < 0)
        return; /* its GCStart came before the trace did */
    gclog_entry *g = &log->live[c];
    g->ended = 1;
    g->end_ns = ev->timestamp_ns;
    if (log->last_live && c == (int)log->n_live - 1)
        log->last_end_ns = g->end_ns + (g->end_ns == 0); /* 0 means "not ended" */
    if (!g->has_generation && GCEnd_has_Depth(ev)) {
        g->generation = GCEnd_Depth(ev);
        g->has_generation = 1;
    }
}

static void on_heap_stats(gclog *log, const evgen_event *ev)
{
    int c = current(log);
    if (c >= 0) {
        gclog_entry *e = &log->live[c];
        e->has_sizes = 1;
        e->heap_stats_ns = ev->timestamp_ns;
        e->size[GCLOG_GEN0] = GCHeapStats_GenerationSize0(ev);
        e->size[GCLOG_GEN1] = GCHeapStats_GenerationSize1(ev);
        e->size[GCLOG_GEN2] = GCHeapStats_GenerationSize2(ev);
        e->size[GCLOG_LOH] = GCHeapStats_GenerationSize3(ev);
        e->promoted[GCLOG_GEN0] = GCHeapStats_TotalPromotedSize0(ev);
        e->promoted[GCLOG_GEN1] = GCHeapStats_TotalPromotedSize1(ev);
        e->promoted[GCLOG_GEN2] = GCHeapStats_TotalPromotedSize2(ev);
        e->promoted[GCLOG_LOH] = GCHeapStats_TotalPromotedSize3(ev);
        e->has_poh = (uint8_t)GCHeapStats_has_GenerationSize4(ev);
        e->size[GCLOG_POH] = GCHeapStats_GenerationSize4(ev);
        e->promoted[GCLOG_POH] = GCHeapStats_TotalPromotedSize4(ev);
        if (e->type == GCLOG_BACKGROUND)
            e->since_last_ns = since(log->last_heap_stats_ns, ev->timestamp_ns);
        else
            e->since_last_ns = since(log->last_heap_stats_ns, is_tracked(&log->live[c]) ? e->pause_start_ns : e->start_ns);
        if (log->has_ticks) {
            e->has_ticks = 1;
            for (int k = 0; k < 2; k++)
                e->tick_bytes[k] = log->ticks[k] - log->ticks_at_last_gc[k];
        }
        if (e->type == GCLOG_BACKGROUND && log->bgc >= 0)
            complete(log, (size_t)log->bgc); /* a background GC ends here: it fires no restart */
        else if (!is_tracked(&log->live[c]))
            complete(log, (size_t)c); /* no restart will come */
    }
    log->ticks_at_last_gc[0] = log->ticks[0];
    log->ticks_at_last_gc[1] = log->ticks[1];
    log->last_heap_stats_ns = ev->timestamp_ns;
}

static void on_global_history(gclog *log, uint32_t mechanisms)
{
    int c = current(log);
    if (c < 0)
        return;
    log->live[c].has_mechanisms = 1;
    log->live[c].global_mechanisms = mechanisms;
}

static void on_per_heap_history(gclog *log, const evgen_event *ev)
{
    int c = current(log);
    if (c < 0)
        return;
    gclog_entry *e = &log->live[c];
    uint32_t n = GCPerHeapHistory_Values_count(ev);
    e->heaps++;
    e->history_gens = n < GCLOG_HEAPS ? n : GCLOG_HEAPS;
    for (uint32_t g = 0; g < e->history_gens; g++) {
        uint64_t frag = GCPerHeapHistory_Values_FreeListAfter(ev, g) + GCPerHeapHistory_Values_FreeObjAfter(ev, g);
        uint64_t after = GCPerHeapHistory_Values_SizeAfter(ev, g);
        uint64_t before = GCPerHeapHistory_Values_SizeBefore(ev, g);
        uint64_t free_before =
            GCPerHeapHistory_Values_FreeListBefore(ev, g) + GCPerHeapHistory_Values_FreeObjBefore(ev, g);
        e->fragmentation[g] += frag;
        e->obj_size_after[g] += after >= frag ? after - frag : 0;
        e->obj_space_before[g] += before >= free_before ? before - free_before : 0;
    }
}

static void on_allocation_tick(gclog *log, const evgen_event *ev)
{
    uint64_t amount = GCAllocationTick_has_AllocationAmount64(ev) ? GCAllocationTick_AllocationAmount64(ev)
                                                                  : GCAllocationTick_AllocationAmount(ev);
    int kind = GCAllocationTick_AllocationKind(ev) == GCAllocationKind_Small ? GCLOG_TICK_SOH : GCLOG_TICK_UOH;
    log->has_ticks = 1;
    log->ticks[kind] += amount;
}

/* ---- a background GC's phases (the private provider's BGC events) -------------------------- */

/* A phase event of the background GC in progress: the first of an event that begins a phase is
 * kept, the last of one that ends it (every heap's BGC thread fires its own). */
static void on_bgc_event(gclog *log, int which, const evgen_event *ev)
{
    if (log->bgc < 0)
        return; /* its GCStart came before the trace did, or it has ended */
    gclog_bgc *b = &log->live[log->bgc].bgc;
    int begins = which == GCLOG_BGC_BEGIN || which == GCLOG_BGC_2ND_NONCON_BEGIN || which == GCLOG_BGC_2ND_CON_BEGIN;
    if (!(b->seen & (1u << which)) || !begins)
        b->at_ns[which] = ev->timestamp_ns;
    b->seen |= 1u << which;
}

static void on_bgc_revisit(gclog *log, const evgen_event *ev)
{
    if (log->bgc < 0)
        return;
    gclog_bgc *b = &log->live[log->bgc].bgc;
    /* the final mark once its first event or a later one came */
    uint32_t final_or_later = ~((1u << GCLOG_BGC_2ND_NONCON_BEGIN) - 1u);
    int k = b->seen & final_or_later ? GCLOG_REVISIT_FINAL : GCLOG_REVISIT_CONCURRENT;
    b->revisits[k]++;
    b->revisit_pages[k] += BGCRevisit_Pages(ev);
    b->revisit_objects[k] += BGCRevisit_Objects(ev);
}

static void on_bgc_drain_mark(gclog *log, const evgen_event *ev)
{
    if (log->bgc < 0)
        return;
    gclog_bgc *b = &log->live[log->bgc].bgc;
    b->drain_marks++;
    b->drain_objects += BGCDrainMark_Objects(ev);
}

static void on_bgc_overflow(gclog *log, const evgen_event *ev)
{
    if (log->bgc < 0)
        return;
    gclog_bgc *b = &log->live[log->bgc].bgc;
    b->overflows++;
    b->overflow_objects += BGCOverflow_Objects(ev);
    b->overflow_bytes += since(BGCOverflow_Min(ev), BGCOverflow_Max(ev));
}

static struct alloc_wait *find_wait(gclog *log, uint64_t thread)
{
    for (size_t i = 0; i < log->n_waits; i++)
        if (log->waits[i].thread == thread)
            return &log->waits[i];
    return NULL;
}

static void forget_wait(gclog *log, struct alloc_wait *w)
{
    *w = log->waits[--log->n_waits];
}

static void on_alloc_wait_begin(gclog *log, const evgen_event *ev)
{
    struct alloc_wait *w = find_wait(log, ev->thread_id);
    if (log->bgc < 0) {
        if (w)
            forget_wait(log, w); /* its end was lost */
        return;
    }
    if (!w) {
        if (log->n_waits == log->waits_cap) {
            size_t cap = log->waits_cap ? 2 * log->waits_cap : 8;
            struct alloc_wait *grown = realloc(log->waits, cap * sizeof *grown);
            if (!grown) {
                log->oom = 1;
                return;
            }
            log->waits = grown;
            log->waits_cap = cap;
        }
        w = &log->waits[log->n_waits++];
    }
    w->thread = ev->thread_id;
    w->begin_ns = ev->timestamp_ns;
    w->bgc_number = log->live[log->bgc].number;
}

static void on_alloc_wait_end(gclog *log, const evgen_event *ev)
{
    struct alloc_wait *w = find_wait(log, ev->thread_id);
    if (!w)
        return; /* its begin came before the trace or the BGC did, or the BGC was handed out */
    if (log->bgc >= 0 && log->live[log->bgc].number == w->bgc_number) {
        gclog_bgc *b = &log->live[log->bgc].bgc;
        b->alloc_waits++;
        b->alloc_wait_ns += since(w->begin_ns, ev->timestamp_ns);
    }
    forget_wait(log, w);
}

/* The background GC `g` is handed out: its waits still open count up to its GCHeapStats (without
 * it, no time). */
static void close_open_waits(gclog *log, gclog_entry *g)
{
    for (size_t i = 0; i < log->n_waits;) {
        struct alloc_wait *w = &log->waits[i];
        if (w->bgc_number != g->number) {
            i++;
            continue;
        }
        g->bgc.alloc_waits++;
        g->bgc.alloc_waits_open++;
        if (g->has_sizes)
            g->bgc.alloc_wait_ns += since(w->begin_ns, g->heap_stats_ns);
        forget_wait(log, w);
    }
}

int gclog_has_bgc_events(const gclog_entry *e)
{
    const gclog_bgc *b = &e->bgc;
    return b->seen || b->alloc_waits || b->drain_marks || b->revisits[0] || b->revisits[1] || b->overflows;
}

int gclog_bgc_phase(const gclog_entry *e, gclog_phase phase, uint64_t *ns)
{
    static const int bounds[GCLOG_PHASES][2] = {
        [GCLOG_PHASE_INITIAL_MARK] = {GCLOG_BGC_BEGIN, GCLOG_BGC_1ST_NONCON_END},
        [GCLOG_PHASE_CONCURRENT_MARK] = {GCLOG_BGC_1ST_NONCON_END, GCLOG_BGC_1ST_CON_END},
        [GCLOG_PHASE_FINAL_MARK] = {GCLOG_BGC_2ND_NONCON_BEGIN, GCLOG_BGC_2ND_NONCON_END},
        [GCLOG_PHASE_CONCURRENT_SWEEP] = {GCLOG_BGC_2ND_CON_BEGIN, GCLOG_BGC_2ND_CON_END},
        [GCLOG_PHASE_SOH_SWEEP] = {GCLOG_BGC_2ND_CON_BEGIN, GCLOG_BGC_1ST_SWEEP_END},
    };
    const gclog_bgc *b = &e->bgc;
    int from = bounds[phase][0], to = bounds[phase][1];
    if (!(b->seen & (1u << from)) || !(b->seen & (1u << to)) || b->at_ns[to] < b->at_ns[from])
        return 0;
    *ns = b->at_ns[to] - b->at_ns[from];
    return 1;
}

/* The phase event `ev` is, or -1. */
static int bgc_event(const evgen_event *ev)
{
    return BGCBegin_is(ev)            ? GCLOG_BGC_BEGIN
           : BGC1stNonConEnd_is(ev)   ? GCLOG_BGC_1ST_NONCON_END
           : BGC1stConEnd_is(ev)      ? GCLOG_BGC_1ST_CON_END
           : BGC2ndNonConBegin_is(ev) ? GCLOG_BGC_2ND_NONCON_BEGIN
           : BGC2ndNonConEnd_is(ev)   ? GCLOG_BGC_2ND_NONCON_END
           : BGC2ndConBegin_is(ev)    ? GCLOG_BGC_2ND_CON_BEGIN
           : BGC1stSweepEnd_is(ev)    ? GCLOG_BGC_1ST_SWEEP_END
           : BGC2ndConEnd_is(ev)      ? GCLOG_BGC_2ND_CON_END
           : BGCPlanEnd_is(ev)        ? GCLOG_BGC_PLAN_END
           : BGCSweepEnd_is(ev)       ? GCLOG_BGC_SWEEP_END
                                      : -1;
}

int gclog_feed(gclog *log, const evgen_event *ev)
{
    if (log->oom)
        return -1;
    if (GCStart_is(ev))
        on_start(log, ev);
    else if (GCEnd_is(ev))
        on_end(log, ev);
    else if (GCHeapStats_is(ev))
        on_heap_stats(log, ev);
    else if (GCGlobalHeapHistory_is(ev))
        on_global_history(log, GCGlobalHeapHistory_GlobalMechanisms(ev));
    else if (PrvGCGlobalHeapHistory_is(ev))
        on_global_history(log, PrvGCGlobalHeapHistory_GlobalMechanisms(ev));
    else if (GCPerHeapHistory_is(ev))
        on_per_heap_history(log, ev);
    else if (GCAllocationTick_is(ev))
        on_allocation_tick(log, ev);
    else if (GCSuspendEEBegin_is(ev))
        on_suspend_begin(log, ev);
    else if (GCSuspendEEEnd_is(ev))
        on_suspend_end(log, ev);
    else if (GCRestartEEEnd_is(ev))
        on_restart_end(log, ev);
    else if (GCTriggered_is(ev) && GCTriggered_has_Reason(ev)) {
        log->has_triggered = 1;
        log->triggered_reason = GCTriggered_Reason(ev);
    } else if (BGCRevisit_is(ev))
        on_bgc_revisit(log, ev);
    else if (BGCDrainMark_is(ev))
        on_bgc_drain_mark(log, ev);
    else if (BGCOverflow_is(ev))
        on_bgc_overflow(log, ev);
    else if (BGCAllocWaitBegin_is(ev))
        on_alloc_wait_begin(log, ev);
    else if (BGCAllocWaitEnd_is(ev))
        on_alloc_wait_end(log, ev);
    else {
        int which = bgc_event(ev);
        if (which >= 0)
            on_bgc_event(log, which, ev);
    }
    return log->oom ? -1 : 0;
}
