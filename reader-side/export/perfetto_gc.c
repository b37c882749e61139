/* perfetto_gc.c — the GCs, runtime pauses and GC counters of the perfetto export
 * (docs/export-perfetto.md, "GC track", "Pauses", "Counters"). CoreCLR's GC events are found by
 * name under the runtime's provider in the trace's metadata and their fields read by name, through
 * the reader's generic field access (no generated code), so any version of them, in a .nettrace or
 * a .evtrace, works alike; a trace without them exports without slices or counters.
 *
 * Every slice is a "B" and an "E" on one track, and the tracks are chosen so that slices nest:
 *   - the GC track (a synthetic thread of the process): one slice per GC from its GCStart to the
 *     GCEnd of the same Count. Only a background GC stays open under another GC (the foreground
 *     and ephemeral GCs CoreCLR runs during it), so a GCStart first closes every open GC that is not
 *     a background GC, or all of them when it starts a background GC itself;
 *   - each thread's own track: a "pause" from its GCSuspendEEBegin to its GCRestartEEEnd, holding
 *     the suspension (GCSuspendEEBegin .. GCSuspendEEEnd) and the restart (GCRestartEEBegin ..
 *     GCRestartEEEnd); a restart may also lie inside a suspension (a thread that suspended for
 *     another reason restarts the runtime while a GC takes it over) or stand alone: a background
 *     GC's thread restarts the runtime its triggering thread suspended, and that restart's end
 *     also ends the suspending thread's pause ("@restarted_by_thread"); or the suspension came
 *     before the trace began.
 * An end whose begin is not open is left as an instant only; a begin whose end never comes is
 * closed, with the reason in "@closed", by the next begin that cannot nest inside it or at the end
 * of the trace. Ends never precede their begins on a track: a timestamp that goes back (events
 * merged from several sources) is held at the track's last one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "perfetto.h"
#include "evgen/wire_bytes.h"
#include "evgen/wire_kinds.h"

#define PF_RUNTIME_PROVIDER "Microsoft-Windows-DotNETRuntime"

/* What an event is here: one of the runtime's GC events, known by name. */
typedef enum pf_role {
    PF_OTHER,
    PF_GC_START,
    PF_GC_END,
    PF_SUSPEND_BEGIN,
    PF_SUSPEND_END,
    PF_RESTART_BEGIN,
    PF_RESTART_END,
    PF_HEAP_STATS,
    PF_ALLOC_TICK,
    PF_ROLES
} pf_role;

#define PF_MAX_FIELDS 5

/* The fields read from each role, by slot. */
enum { START_COUNT, START_DEPTH, START_TYPE };
enum { END_COUNT };
enum { SUSPEND_REASON };
enum { TICK_AMOUNT, TICK_AMOUNT64, TICK_KIND };
/* GCHeapStats: GenerationSize0..4, slots 0..4, the series of the "GC heap bytes" counter. */
static const char *const heap_series[PF_MAX_FIELDS] = {"gen0", "gen1", "gen2", "LOH", "POH"};

static const struct {
    const char *event;
    const char *fields[PF_MAX_FIELDS];
} roles[PF_ROLES] = {
    [PF_OTHER] = {NULL, {NULL}},
    [PF_GC_START] = {"GCStart", {"Count", "Depth", "Type"}},
    [PF_GC_END] = {"GCEnd", {"Count"}},
    [PF_SUSPEND_BEGIN] = {"GCSuspendEEBegin", {"Reason"}},
    [PF_SUSPEND_END] = {"GCSuspendEEEnd", {NULL}},
    [PF_RESTART_BEGIN] = {"GCRestartEEBegin", {NULL}},
    [PF_RESTART_END] = {"GCRestartEEEnd", {NULL}},
    [PF_HEAP_STATS] = {"GCHeapStats",
                       {"GenerationSize0", "GenerationSize1", "GenerationSize2", "GenerationSize3", "GenerationSize4"}},
    [PF_ALLOC_TICK] = {"GCAllocationTick", {"AllocationAmount", "AllocationAmount64", "AllocationKind"}},
};

/* GCStart.Type */
enum { PF_GC_NONCONCURRENT, PF_GC_BACKGROUND, PF_GC_FOREGROUND };

typedef struct pf_version {
    uint8_t role;
    int32_t field[PF_MAX_FIELDS]; /* index in the version's fields, or -1: absent, or not an integer */
} pf_version;

/* ---- tracks ---------------------------------------------------------------------------------------- */

typedef enum pf_kind { PF_SLICE_GC, PF_SLICE_BACKGROUND_GC, PF_SLICE_PAUSE, PF_SLICE_SUSPEND, PF_SLICE_RESTART } pf_kind;

/* The event that ends a slice of each kind, for the reason written when it never came. */
static const char *const end_event[] = {"GCEnd", "GCEnd", "GCRestartEEEnd", "GCSuspendEEEnd", "GCRestartEEEnd"};

/* The deepest nesting the rules allow: a pause, its suspension, a restart inside that. */
#define PF_TRACK_DEPTH 4

typedef struct pf_slice {
    char name[64];
    uint8_t kind;   /* pf_kind */
    uint32_t count; /* a GC's Count */
} pf_slice;

typedef struct pf_track {
    uint64_t tid;
    uint64_t last_ns; /* of its last "B" or "E" */
    unsigned depth;
    pf_slice open[PF_TRACK_DEPTH];
} pf_track;

/* The running total of one GCAllocationTick kind. */
typedef struct pf_alloc_kind {
    int64_t value;
    uint64_t total;
    char name[64];
} pf_alloc_kind;

#define PF_ALLOC_KINDS 8

struct pf_gc {
    pf_version *versions; /* by serial */
    size_t n_versions;
    pf_track gc_track;
    pf_track *threads; /* each thread's own track, by the reader's thread index */
    size_t n_threads;
    size_t suspended;  /* the thread whose pause has its suspension over and awaits a restart, or RD_NONE */
    int defines_gcs;
    int has_last_start;
    uint32_t last_start_count;
    pf_alloc_kind alloc[PF_ALLOC_KINDS];
    size_t n_alloc;
};

static int integer_field(const evgen_trace_field *fd)
{
    evgen_wire_class c = evgen_wire_kind_class(fd->kind);
    return !fd->is_array && (c == EVGEN_WIRE_CLASS_UNSIGNED || c == EVGEN_WIRE_CLASS_SIGNED);
}

pf_gc *pf_gc_new(const evgen_reader *rd, uint64_t gc_tid, const uint64_t *tids)
{
    pf_gc *gc = calloc(1, sizeof *gc);
    if (!gc)
        return NULL;
    gc->n_versions = rd->n_versions;
    gc->n_threads = rd->n_threads;
    gc->versions = calloc(gc->n_versions + 1, sizeof *gc->versions);
    gc->threads = calloc(gc->n_threads + 1, sizeof *gc->threads);
    if (!gc->versions || !gc->threads) {
        pf_gc_free(gc);
        return NULL;
    }
    gc->gc_track.tid = gc_tid;
    gc->suspended = RD_NONE;
    for (size_t t = 0; t < gc->n_threads; t++)
        gc->threads[t].tid = tids[t];
    for (size_t s = 0; s < gc->n_versions; s++) {
        const rd_version *v = rd->versions[s];
        pf_version *pv = &gc->versions[s];
        for (int k = 0; k < PF_MAX_FIELDS; k++)
            pv->field[k] = -1;
        if (strcmp(v->info->provider, PF_RUNTIME_PROVIDER) != 0)
            continue;
        for (int r = PF_OTHER + 1; r < PF_ROLES; r++)
            if (strcmp(v->info->name, roles[r].event) == 0)
                pv->role = (uint8_t)r;
        for (int k = 0; pv->role && k < PF_MAX_FIELDS && roles[pv->role].fields[k]; k++)
            for (uint32_t f = 0; f < v->pub->n_fields; f++)
                if (strcmp(v->pub->fields[f].name, roles[pv->role].fields[k]) == 0 && integer_field(&v->pub->fields[f]))
                    pv->field[k] = (int32_t)f;
        if (pv->role == PF_GC_START)
            gc->defines_gcs = 1;
    }
    return gc;
}

void pf_gc_free(pf_gc *gc)
{
    if (!gc)
        return;
    free(gc->versions);
    free(gc->threads);
    free(gc);
}

int pf_gc_defines_gcs(const pf_gc *gc)
{
    return gc->defines_gcs;
}

/* Field `slot` of the event, when its version has it and the payload holds it whole. */
static int read_field(const evgen_event *ev, const pf_version *v, unsigned slot, uint64_t *value)
{
    uint32_t off, size;
    if (v->field[slot] < 0 || !evgen_event_field(ev, (uint32_t)v->field[slot], &off, &size) || size == 0 || size > 8)
        return 0;
    *value = evgen_wire_load(ev->payload + off, size);
    return 1;
}

/* The name of an enum field's value, or NULL. */
static const char *field_constant(const evgen_event *ev, const pf_version *v, unsigned slot, uint64_t value)
{
    const evgen_trace_field *fd = &ev->layout->fields[v->field[slot]];
    if (fd->enum_index < 0)
        return NULL;
    const evgen_trace_enum *en = &ev->info->manifest->enums[fd->enum_index];
    for (uint32_t i = 0; i < en->n_consts; i++)
        if ((uint64_t)en->consts[i].value == value)
            return en->consts[i].name;
    return NULL;
}

static uint64_t track_time(pf_track *t, uint64_t ts)
{
    if (ts < t->last_ns)
        ts = t->last_ns;
    t->last_ns = ts;
    return ts;
}

/* Opens a slice on `t`: its "B", with the args of `args_of` (NULL: none). */
static void slice_begin(pf_out *out, pf_track *t, pf_kind kind, uint32_t count, const char *name, uint64_t ts,
                        const evgen_event *args_of)
{
    if (t->depth == PF_TRACK_DEPTH) /* never: each rule closes before it opens */
        return;
    pf_slice *s = &t->open[t->depth++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->kind = (uint8_t)kind;
    s->count = count;
    pf_event_open(out, s->name, PF_CAT_GC, "B", track_time(t, ts), t->tid);
    if (args_of)
        pf_event_args(out, args_of);
    jw_end(&out->jw);
}

/* Closes the innermost open slice of `t`: its "E", left open for the caller's members. */
static void slice_end_open(pf_out *out, pf_track *t, uint64_t ts)
{
    const pf_slice *s = &t->open[--t->depth];
    pf_event_open(out, s->name, PF_CAT_GC, "E", track_time(t, ts), t->tid);
}

/* Closes the innermost open slice of `t`, with "@closed": why when its end event never came (NULL:
 * it did). */
static void slice_end(pf_out *out, pf_track *t, uint64_t ts, const char *why)
{
    slice_end_open(out, t, ts);
    if (why) {
        jw_key(&out->jw, "args");
        jw_begin_object(&out->jw);
        jw_key_string(&out->jw, "@closed", why);
        jw_end(&out->jw);
    }
    jw_end(&out->jw);
}

static const pf_slice *track_top(const pf_track *t)
{
    return t->depth ? &t->open[t->depth - 1] : NULL;
}

/* ---- GCs ------------------------------------------------------------------------------------------- */

static void gc_start(pf_gc *gc, pf_out *out, const evgen_event *ev, const pf_version *v)
{
    uint64_t count, depth, type = PF_GC_NONCONCURRENT; /* a version 0 GCStart predates background GCs */
    if (!read_field(ev, v, START_COUNT, &count))
        return; /* a GC that cannot be paired with its end */
    if (gc->has_last_start && (uint32_t)count == gc->last_start_count)
        return; /* the same GC fired again */
    gc->has_last_start = 1;
    gc->last_start_count = (uint32_t)count;
    read_field(ev, v, START_TYPE, &type);
    int background = type == PF_GC_BACKGROUND;
    pf_track *t = &gc->gc_track;
    char why[96];
    snprintf(why, sizeof why, "no GCEnd before the GCStart of GC #%u", (unsigned)count);
    while (t->depth && (background || track_top(t)->kind != PF_SLICE_BACKGROUND_GC))
        slice_end(out, t, ev->timestamp_ns, why);

    char name[64];
    int n = snprintf(name, sizeof name, "GC #%u", (unsigned)count);
    if (read_field(ev, v, START_DEPTH, &depth))
        n += snprintf(name + n, sizeof name - (size_t)n, " gen%u", (unsigned)depth);
    if (type == PF_GC_NONCONCURRENT || type == PF_GC_BACKGROUND || type == PF_GC_FOREGROUND)
        snprintf(name + n, sizeof name - (size_t)n, " %s",
                 type == PF_GC_NONCONCURRENT ? "nonconcurrent" : type == PF_GC_BACKGROUND ? "background" : "foreground");
    else
        snprintf(name + n, sizeof name - (size_t)n, " type %u", (unsigned)type);
    slice_begin(out, t, background ? PF_SLICE_BACKGROUND_GC : PF_SLICE_GC, (uint32_t)count, name, ev->timestamp_ns,
                ev);
}

static void gc_end(pf_gc *gc, pf_out *out, const evgen_event *ev, const pf_version *v)
{
    uint64_t count;
    if (!read_field(ev, v, END_COUNT, &count))
        return;
    pf_track *t = &gc->gc_track;
    unsigned k = t->depth;
    while (k && t->open[k - 1].count != (uint32_t)count)
        k--;
    if (!k)
        return; /* its GCStart is not in the trace (or was a repeat): an instant only */
    char why[96];
    snprintf(why, sizeof why, "no GCEnd before the GCEnd of GC #%u, which it ran inside", (unsigned)count);
    while (t->depth > k)
        slice_end(out, t, ev->timestamp_ns, why);
    slice_end(out, t, ev->timestamp_ns, NULL);
}

/* ---- pauses ---------------------------------------------------------------------------------------- */

static void suspend_begin(pf_gc *gc, pf_out *out, size_t thread, const evgen_event *ev, const pf_version *v)
{
    pf_track *t = &gc->threads[thread];
    if (gc->suspended == thread)
        gc->suspended = RD_NONE;
    char why[96];
    while (t->depth) {
        snprintf(why, sizeof why, "no %s before the thread's next GCSuspendEEBegin", end_event[track_top(t)->kind]);
        slice_end(out, t, ev->timestamp_ns, why);
    }
    char name[64] = "pause";
    uint64_t reason;
    if (read_field(ev, v, SUSPEND_REASON, &reason)) {
        const char *constant = field_constant(ev, v, SUSPEND_REASON, reason);
        if (constant)
            snprintf(name, sizeof name, "pause: %s", constant);
        else
            snprintf(name, sizeof name, "pause: reason %llu", (unsigned long long)reason);
    }
    slice_begin(out, t, PF_SLICE_PAUSE, 0, name, ev->timestamp_ns, ev);
    slice_begin(out, t, PF_SLICE_SUSPEND, 0, "suspend EE", ev->timestamp_ns, NULL);
}

static void restart_begin(pf_out *out, pf_track *t, const evgen_event *ev)
{
    const pf_slice *top = track_top(t);
    if (top && top->kind == PF_SLICE_RESTART)
        slice_end(out, t, ev->timestamp_ns, "no GCRestartEEEnd before the thread's next GCRestartEEBegin");
    slice_begin(out, t, PF_SLICE_RESTART, 0, "restart EE", ev->timestamp_ns, NULL);
}

/* Ends the suspension; its pause now awaits a restart. */
static void suspend_end(pf_gc *gc, pf_out *out, size_t thread, const evgen_event *ev)
{
    pf_track *t = &gc->threads[thread];
    const pf_slice *top = track_top(t);
    if (!top || top->kind != PF_SLICE_SUSPEND)
        return;
    slice_end(out, t, ev->timestamp_ns, NULL);
    top = track_top(t);
    if (top && top->kind == PF_SLICE_PAUSE)
        gc->suspended = thread;
}

/* Ends the restart, and the pause it restarts: the thread's own once its suspension is over (else
 * the restart was one inside the suspension, and the pause goes on); for a restart that stands
 * alone, the pause of the thread that suspended the runtime (a background GC's thread restarts the
 * runtime its triggering thread suspended), whose "E" says by which thread. */
static void restart_end(pf_gc *gc, pf_out *out, size_t thread, const evgen_event *ev)
{
    pf_track *t = &gc->threads[thread];
    const pf_slice *top = track_top(t);
    if (!top || top->kind != PF_SLICE_RESTART)
        return;
    slice_end(out, t, ev->timestamp_ns, NULL);
    top = track_top(t);
    if (top && top->kind == PF_SLICE_PAUSE) {
        slice_end(out, t, ev->timestamp_ns, NULL);
        if (gc->suspended == thread)
            gc->suspended = RD_NONE;
        return;
    }
    if (top || gc->suspended == RD_NONE || gc->suspended == thread)
        return;
    pf_track *s = &gc->threads[gc->suspended];
    top = track_top(s);
    if (top && top->kind == PF_SLICE_PAUSE) {
        slice_end_open(out, s, ev->timestamp_ns);
        jw_key(&out->jw, "args");
        jw_begin_object(&out->jw);
        jw_key(&out->jw, "@restarted_by_thread");
        pf_u64(out, t->tid);
        jw_end(&out->jw);
        jw_end(&out->jw);
    }
    gc->suspended = RD_NONE;
}

/* ---- counters -------------------------------------------------------------------------------------- */

static void heap_stats(pf_out *out, const evgen_event *ev, const pf_version *v, uint64_t tid)
{
    uint64_t size[PF_MAX_FIELDS];
    int has[PF_MAX_FIELDS], any = 0;
    for (unsigned k = 0; k < PF_MAX_FIELDS; k++)
        any |= has[k] = read_field(ev, v, k, &size[k]);
    if (!any)
        return;
    pf_event_open(out, "GC heap bytes", PF_CAT_GC, "C", ev->timestamp_ns, tid);
    jw_key(&out->jw, "args");
    jw_begin_object(&out->jw);
    for (unsigned k = 0; k < PF_MAX_FIELDS; k++)
        if (has[k]) {
            jw_key(&out->jw, heap_series[k]);
            pf_u64(out, size[k]);
        }
    jw_end(&out->jw);
    jw_end(&out->jw);
}

static void allocation_tick(pf_gc *gc, pf_out *out, const evgen_event *ev, const pf_version *v, uint64_t tid)
{
    uint64_t amount, kind;
    if ((!read_field(ev, v, TICK_AMOUNT64, &amount) && !read_field(ev, v, TICK_AMOUNT, &amount)) ||
        !read_field(ev, v, TICK_KIND, &kind))
        return;
    size_t i = 0;
    while (i < gc->n_alloc && gc->alloc[i].value != (int64_t)kind)
        i++;
    if (i == gc->n_alloc) {
        if (i == PF_ALLOC_KINDS)
            return; /* never: CoreCLR has three kinds */
        pf_alloc_kind *a = &gc->alloc[gc->n_alloc++];
        a->value = (int64_t)kind;
        const char *constant = field_constant(ev, v, TICK_KIND, kind);
        if (constant)
            snprintf(a->name, sizeof a->name, "%s", constant);
        else
            snprintf(a->name, sizeof a->name, "kind %llu", (unsigned long long)kind);
    }
    gc->alloc[i].total += amount;
    pf_event_open(out, "GC allocated bytes", PF_CAT_GC, "C", ev->timestamp_ns, tid);
    jw_key(&out->jw, "args");
    jw_begin_object(&out->jw);
    for (size_t k = 0; k < gc->n_alloc; k++) {
        jw_key(&out->jw, gc->alloc[k].name);
        pf_u64(out, gc->alloc[k].total);
    }
    jw_end(&out->jw);
    jw_end(&out->jw);
}

/* ---- the events ------------------------------------------------------------------------------------ */

void pf_gc_before(pf_gc *gc, pf_out *out, const evgen_event *ev, size_t thread)
{
    const pf_version *v = &gc->versions[evgen_rd_version_of(ev)->serial];
    pf_track *t = thread < gc->n_threads ? &gc->threads[thread] : NULL;
    switch ((pf_role)v->role) {
    case PF_GC_START:
        gc_start(gc, out, ev, v);
        break;
    case PF_SUSPEND_BEGIN:
        if (t)
            suspend_begin(gc, out, thread, ev, v);
        break;
    case PF_RESTART_BEGIN:
        if (t)
            restart_begin(out, t, ev);
        break;
    case PF_OTHER:
    case PF_GC_END:
    case PF_SUSPEND_END:
    case PF_RESTART_END:
    case PF_HEAP_STATS:
    case PF_ALLOC_TICK:
    case PF_ROLES:
        break;
    }
}

void pf_gc_after(pf_gc *gc, pf_out *out, const evgen_event *ev, size_t thread)
{
    const pf_version *v = &gc->versions[evgen_rd_version_of(ev)->serial];
    pf_track *t = thread < gc->n_threads ? &gc->threads[thread] : NULL;
    uint64_t tid = t ? t->tid : ev->thread_id;
    switch ((pf_role)v->role) {
    case PF_GC_END:
        gc_end(gc, out, ev, v);
        break;
    case PF_SUSPEND_END:
        if (t)
            suspend_end(gc, out, thread, ev);
        break;
    case PF_RESTART_END:
        if (t)
            restart_end(gc, out, thread, ev);
        break;
    case PF_HEAP_STATS:
        heap_stats(out, ev, v, tid);
        break;
    case PF_ALLOC_TICK:
        allocation_tick(gc, out, ev, v, tid);
        break;
    case PF_OTHER:
    case PF_GC_START:
    case PF_SUSPEND_BEGIN:
    case PF_RESTART_BEGIN:
    case PF_ROLES:
        break;
    }
}

static void close_track(pf_out *out, pf_track *t, uint64_t end_ns)
{
    char why[96];
    while (t->depth) {
        snprintf(why, sizeof why, "the trace ends before its %s", end_event[track_top(t)->kind]);
        slice_end(out, t, end_ns, why);
    }
}

void pf_gc_finish(pf_gc *gc, pf_out *out, uint64_t end_ns)
{
    close_track(out, &gc->gc_track, end_ns);
    for (size_t t = 0; t < gc->n_threads; t++)
        close_track(out, &gc->threads[t], end_ns);
}
