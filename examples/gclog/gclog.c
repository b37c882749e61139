/* gclog.c — the GC log's state machine: pairs GCStart/GCEnd (nested background GCs included),
 * charges suspensions to GCs, attaches GCHeapStats and GCGlobalHeapHistory (rules in gclog.h). */
#include "gclog.h"

#include <stdlib.h>
#include <string.h>

#include "gcevents_reader.h"

/* GCs started and not yet handed out: at most a background GC, a foreground GC inside it and a
 * few whose end or heap stats were lost; more than this and the oldest is handed out as it is. */
#define GCLOG_MAX_LIVE 16

typedef struct live_gc {
    gclog_entry e;
    uint8_t in_suspension; /* started inside the suspension still open: waits for its restart */
    uint64_t end_seq;      /* order of GCEnd, to find the GC that ended last */
} live_gc;

struct gclog {
    live_gc live[GCLOG_MAX_LIVE]; /* in GCStart order */
    size_t n_live;
    uint64_t end_seq;

    int suspension_open;
    uint64_t suspension_begin_ns;

    int has_triggered;
    uint32_t triggered_reason;

    gclog_entry *ready; /* completed entries, a queue */
    size_t ready_head, ready_count, ready_cap;
    int oom;
};

gclog *gclog_new(void)
{
    return calloc(1, sizeof(gclog));
}

void gclog_free(gclog *log)
{
    if (!log)
        return;
    free(log->ready);
    free(log);
}

/* ---- handing entries out ------------------------------------------------------------------ */

static void settle_pause(gclog_entry *e)
{
    if (e->suspensions > 0)
        e->pause_kind = GCLOG_PAUSE_SUSPENSIONS;
    else if (e->ended && e->type != GCLOG_BACKGROUND) {
        e->pause_kind = GCLOG_PAUSE_START_END;
        e->pause_ns = e->end_ns >= e->start_ns ? e->end_ns - e->start_ns : 0;
    } else
        e->pause_kind = GCLOG_PAUSE_UNKNOWN;
}

/* Moves live[i] to the ready queue. */
static void release(gclog *log, size_t i)
{
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
    *e = log->live[i].e;
    settle_pause(e);
    memmove(&log->live[i], &log->live[i + 1], (log->n_live - i - 1) * sizeof log->live[0]);
    log->n_live--;
}

/* Hands out every GC that has ended, has its heap stats and waits for no restart. */
static void release_complete(gclog *log)
{
    for (size_t i = 0; i < log->n_live && !log->oom;) {
        const live_gc *g = &log->live[i];
        if (g->e.ended && g->e.has_sizes && !g->in_suspension)
            release(log, i);
        else
            i++;
    }
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
    log->suspension_open = 0;
    return log->oom ? -1 : 0;
}

/* ---- events ------------------------------------------------------------------------------- */

static int is_background(const live_gc *g)
{
    return g->e.type == GCLOG_BACKGROUND;
}

static void on_start(gclog *log, const evgen_event *ev)
{
    live_gc g;
    memset(&g, 0, sizeof g);
    g.e.number = GCStart_Count(ev);
    g.e.has_generation = (uint8_t)GCStart_has_Depth(ev);
    g.e.generation = GCStart_Depth(ev);
    g.e.type = GCStart_has_Type(ev) ? GCStart_Type(ev) : GCLOG_NONCONCURRENT;
    if (GCStart_has_Reason(ev)) {
        g.e.reason = GCStart_Reason(ev);
        g.e.has_reason = 1;
    } else if (log->has_triggered) {
        g.e.reason = log->triggered_reason;
        g.e.has_reason = 1;
    }
    log->has_triggered = 0;
    g.e.start_ns = ev->timestamp_ns;
    g.in_suspension = (uint8_t)log->suspension_open;

    /* A GC of the same kind (background, or blocking) still open has lost its GCEnd. */
    for (size_t i = 0; i < log->n_live; i++)
        if (!log->live[i].e.ended && is_background(&log->live[i]) == is_background(&g)) {
            log->live[i].in_suspension = 0;
            release(log, i);
            break;
        }
    if (log->n_live == GCLOG_MAX_LIVE)
        release(log, 0);
    if (log->oom)
        return;
    log->live[log->n_live++] = g;
}

static void on_end(gclog *log, const evgen_event *ev)
{
    uint32_t count = GCEnd_Count(ev);
    size_t i = log->n_live;
    while (i > 0 && (log->live[i - 1].e.ended || log->live[i - 1].e.number != count))
        i--;
    if (i == 0)
        return; /* its GCStart came before the trace did */
    live_gc *g = &log->live[i - 1];
    g->e.ended = 1;
    g->e.end_ns = ev->timestamp_ns;
    g->end_seq = ++log->end_seq;
    if (!g->e.has_generation && GCEnd_has_Depth(ev)) {
        g->e.generation = GCEnd_Depth(ev);
        g->e.has_generation = 1;
    }
    /* GCHeapStats follows its GCEnd at once: a GC that ended before this one without them has
     * lost them. */
    for (size_t k = 0; k < log->n_live && !log->oom;) {
        const live_gc *o = &log->live[k];
        if (o != g && o->e.ended && !o->e.has_sizes && !o->in_suspension && o->end_seq < log->end_seq) {
            if (k < i - 1)
                i--;
            release(log, k);
            g = &log->live[i - 1];
        } else
            k++;
    }
}

static void on_heap_stats(gclog *log, const evgen_event *ev)
{
    live_gc *g = NULL;
    for (size_t i = 0; i < log->n_live; i++) {
        live_gc *c = &log->live[i];
        if (c->e.ended && !c->e.has_sizes && (!g || c->end_seq > g->end_seq))
            g = c;
    }
    if (!g)
        return;
    gclog_entry *e = &g->e;
    e->has_sizes = 1;
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
}

static void on_global_history(gclog *log, uint32_t condemned, uint32_t mechanisms)
{
    live_gc *g = NULL;
    /* The innermost GC in progress, preferring the one of that condemned generation... */
    for (size_t i = log->n_live; i > 0 && !g; i--) {
        live_gc *c = &log->live[i - 1];
        if (!c->e.ended && !c->e.has_mechanisms && c->e.generation == condemned)
            g = c;
    }
    for (size_t i = log->n_live; i > 0 && !g; i--)
        if (!log->live[i - 1].e.ended && !log->live[i - 1].e.has_mechanisms)
            g = &log->live[i - 1];
    /* ... else the GC that ended last without one. */
    for (size_t i = 0; i < log->n_live; i++) {
        live_gc *c = &log->live[i];
        if (!g && c->e.ended && !c->e.has_mechanisms)
            g = c;
        else if (g && g->e.ended && c->e.ended && !c->e.has_mechanisms && c->end_seq > g->end_seq)
            g = c;
    }
    if (!g)
        return;
    g->e.has_mechanisms = 1;
    g->e.global_mechanisms = mechanisms;
}

static void on_suspend_begin(gclog *log, const evgen_event *ev)
{
    /* A suspension never restarted (its GCRestartEEEnd was lost) charges nobody. */
    for (size_t i = 0; i < log->n_live; i++)
        log->live[i].in_suspension = 0;
    log->suspension_open = 1;
    log->suspension_begin_ns = ev->timestamp_ns;
    release_complete(log);
}

static void on_restart_end(gclog *log, const evgen_event *ev)
{
    if (!log->suspension_open)
        return; /* began before the trace did */
    log->suspension_open = 0;
    uint64_t pause = ev->timestamp_ns >= log->suspension_begin_ns ? ev->timestamp_ns - log->suspension_begin_ns : 0;
    int charged = 0;
    for (size_t i = 0; i < log->n_live; i++) {
        live_gc *g = &log->live[i];
        if (g->in_suspension) {
            g->in_suspension = 0;
            g->e.pause_ns += pause;
            g->e.suspensions++;
            charged = 1;
        }
    }
    for (size_t i = log->n_live; i > 0 && !charged; i--) {
        live_gc *g = &log->live[i - 1];
        if (is_background(g) && !g->e.ended) {
            g->e.pause_ns += pause;
            g->e.suspensions++;
            charged = 1;
        }
    }
    release_complete(log);
}

int gclog_feed(gclog *log, const evgen_event *ev)
{
    if (log->oom)
        return -1;
    if (GCStart_is(ev))
        on_start(log, ev);
    else if (GCEnd_is(ev))
        on_end(log, ev);
    else if (GCHeapStats_is(ev)) {
        on_heap_stats(log, ev);
        release_complete(log);
    } else if (GCGlobalHeapHistory_is(ev))
        on_global_history(log, GCGlobalHeapHistory_CondemnedGeneration(ev), GCGlobalHeapHistory_GlobalMechanisms(ev));
    else if (PrvGCGlobalHeapHistory_is(ev))
        on_global_history(log, PrvGCGlobalHeapHistory_CondemnedGeneration(ev),
                          PrvGCGlobalHeapHistory_GlobalMechanisms(ev));
    else if (GCSuspendEEBegin_is(ev))
        on_suspend_begin(log, ev);
    else if (GCRestartEEEnd_is(ev))
        on_restart_end(log, ev);
    else if (GCTriggered_is(ev) && GCTriggered_has_Reason(ev)) {
        log->has_triggered = 1;
        log->triggered_reason = GCTriggered_Reason(ev);
    }
    return log->oom ? -1 : 0;
}
