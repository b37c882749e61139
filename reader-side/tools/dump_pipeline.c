/* dump_pipeline.c — `evgen dump`'s lines formatted on two cores. The reader's thread reads the
 * events (the iteration, the filters, the progress: dump.c) and gathers them into batches; a
 * helper thread formats batches into buffers of their own in memory, and when the helper already
 * has two waiting the reader's thread formats the batch itself; the batches are written out in
 * their order. Formatting is most of a dump's work (~80 of the ~95 ns of a JSON line of
 * GCHeapStats), and the output is byte for byte the one-thread output
 * (tests/reader/test_reader_dump.c: test_two_cores_same_output).
 *
 * It is used when it can be and is worth it: a second CPU online, EVGEN_DUMP_THREADS not "1", at
 * least two batches of events in the trace (by the count its open found), a format whose
 * events are plain (evgen_rd_format_ops.fills_plain_events: .evtrace), and no version with more
 * variable-length fields than an evgen_event locates (those need the reader's one scratch array).
 * Everything else a line reads is the reader's and the dumper's tables, which nothing changes
 * while events are read, and an event's pointers stay valid until the reader closes
 * (evgen/reader.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump_internal.h"
#include "format.h"

/* Events per batch: ~1 MB of JSON lines of a 110-byte event, so that a batch's text mostly stays
 * in its 1 MiB buffer; RING batches at most between reading and writing. */
#define BATCH 2048
#define RING 4

/* What a line needs of an event, 48 bytes: the rest of its evgen_event is rebuilt by the thread
 * that formats it, as evgen_rd_fill_event fills it. Copying whole events (184 bytes, in lines that
 * the other core then reads) cost the reader's thread ~20 ns per event. */
typedef struct line {
    const evgen_trace_event_info *info;
    const evgen_trace_version *layout;
    const uint8_t *payload;
    uint32_t size, stream;
    uint64_t thread_id, timestamp_ns;
} line;

enum { FILLING, QUEUED, HELPING, DONE };

typedef struct batch {
    line *lines;
    size_t n;
    int state; /* under the lock once QUEUED */
    dumper d;  /* a copy of the dump's dumper, its output in memory */
} batch;

struct dump_pipeline {
    dumper *main;
    batch b[RING];
    unsigned oldest;    /* the next batch to write out */
    unsigned in_flight; /* batches from `oldest` on that are complete and not yet written */
    unsigned queued;    /* QUEUED or HELPING */
    pthread_t helper;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stop;
};

static batch *filling(dump_pipeline *pl)
{
    return &pl->b[(pl->oldest + pl->in_flight) % RING];
}

static void format_batch(batch *b)
{
    evgen_event ev;
    memset(&ev, 0, sizeof ev); /* plain: no stack, sequence, capture thread or activity */
    ev.reader = b->d.rd;
    ev.pointer_size = b->d.rd->header.pointer_size;
    for (size_t i = 0; i < b->n; i++) {
        const line *l = &b->lines[i];
        ev.info = l->info;
        ev.layout = l->layout;
        ev.version = l->layout->version;
        ev.size = l->size;
        ev.payload = l->payload;
        ev.thread_id = l->thread_id;
        ev.timestamp_ns = l->timestamp_ns;
        ev.stream = l->stream;
        uint32_t n = l->layout->n_variable < EVGEN_EVENT_MAX_VARIABLE ? l->layout->n_variable : EVGEN_EVENT_MAX_VARIABLE;
        ev.n_variable = (uint8_t)n;
        if (n)
            evgen_rd_variable_ends(evgen_rd_version_of(&ev), ev.payload, ev.size, ev.variable_end, n);
        evgen_dump_event(&b->d, &ev);
    }
}

/* The oldest QUEUED batch, or NULL (under the lock). */
static batch *oldest_queued(dump_pipeline *pl)
{
    for (unsigned k = 0; k < pl->in_flight; k++) {
        batch *b = &pl->b[(pl->oldest + k) % RING];
        if (b->state == QUEUED)
            return b;
    }
    return NULL;
}

static void *helper_main(void *arg)
{
    dump_pipeline *pl = arg;
    pthread_mutex_lock(&pl->lock);
    for (;;) {
        batch *b;
        while (!(b = oldest_queued(pl)) && !pl->stop)
            pthread_cond_wait(&pl->cond, &pl->lock);
        if (!b)
            break;
        b->state = HELPING;
        pthread_mutex_unlock(&pl->lock);
        format_batch(b);
        pthread_mutex_lock(&pl->lock);
        b->state = DONE;
        pl->queued--;
        pthread_cond_broadcast(&pl->cond);
    }
    pthread_mutex_unlock(&pl->lock);
    return NULL;
}

/* Writes out the oldest batch, once it is formatted. */
static void write_oldest(dump_pipeline *pl)
{
    batch *b = &pl->b[pl->oldest];
    pthread_mutex_lock(&pl->lock);
    while (b->state != DONE)
        pthread_cond_wait(&pl->cond, &pl->lock);
    pthread_mutex_unlock(&pl->lock);
    out_write_buffer(&pl->main->o, &b->d.o);
    pthread_mutex_lock(&pl->lock);
    b->n = 0;
    b->state = FILLING;
    pl->oldest = (pl->oldest + 1) % RING;
    pl->in_flight--;
    pthread_mutex_unlock(&pl->lock);
}

static int oldest_done(dump_pipeline *pl)
{
    pthread_mutex_lock(&pl->lock);
    int done = pl->in_flight && pl->b[pl->oldest].state == DONE;
    pthread_mutex_unlock(&pl->lock);
    return done;
}

/* The batch being filled is complete: the helper's if it has fewer than two, else formatted here;
 * then what is formatted at the head is written, and the ring has room for the next batch. */
static void complete(dump_pipeline *pl)
{
    batch *b = filling(pl);
    pthread_mutex_lock(&pl->lock);
    int to_helper = pl->queued < 2;
    b->state = to_helper ? QUEUED : DONE;
    pl->queued += (unsigned)to_helper;
    pl->in_flight++;
    pthread_cond_broadcast(&pl->cond);
    pthread_mutex_unlock(&pl->lock);
    if (!to_helper) /* DONE already: only this thread writes it out, after this */
        format_batch(b);
    if (pl->in_flight == RING)
        write_oldest(pl);
    while (oldest_done(pl))
        write_oldest(pl);
}

static int batch_init(batch *b, const dumper *main)
{
    b->lines = malloc(BATCH * sizeof *b->lines);
    b->d = *main;
    memset(&b->d.o, 0, sizeof b->d.o);
    b->d.o.memory = 1;
    b->d.o.fd = -1;
    b->d.o.buf = b->d.o.p = malloc(OUT_SIZE);
    b->d.o.end = b->d.o.buf ? b->d.o.buf + OUT_SIZE : NULL;
    jw_init(&b->d.jw, &b->d.o);
    b->n = 0;
    b->state = FILLING;
    return b->lines && b->d.o.buf ? 0 : -1;
}

static void free_pipeline(dump_pipeline *pl)
{
    for (unsigned k = 0; k < RING; k++) {
        free(pl->b[k].lines);
        free(pl->b[k].d.o.buf);
        free(pl->b[k].d.o.spill);
    }
    free(pl);
}

static int wanted(const dumper *d)
{
    const char *threads = getenv("EVGEN_DUMP_THREADS");
    if (threads && strcmp(threads, "1") == 0)
        return 0;
    return sysconf(_SC_NPROCESSORS_ONLN) > 1 && d->rd->format_ops->fills_plain_events &&
           d->rd->max_variable <= EVGEN_EVENT_MAX_VARIABLE &&
           d->rd->total_events >= 2 * BATCH; /* fewer: not worth a thread (the walk's count) */
}

dump_pipeline *evgen_dump_pipeline_start(dumper *d)
{
    if (!wanted(d))
        return NULL;
    dump_pipeline *pl = calloc(1, sizeof *pl);
    if (!pl)
        return NULL;
    pl->main = d;
    for (unsigned k = 0; k < RING; k++)
        if (batch_init(&pl->b[k], d) != 0) {
            free_pipeline(pl);
            return NULL;
        }
    pthread_mutex_init(&pl->lock, NULL);
    pthread_cond_init(&pl->cond, NULL);
    if (evgen_rd_thread_start_beside(&pl->helper, helper_main, pl) != 0) {
        pthread_mutex_destroy(&pl->lock);
        pthread_cond_destroy(&pl->cond);
        free_pipeline(pl);
        return NULL;
    }
    return pl;
}

void evgen_dump_pipeline_add(dump_pipeline *pl, const evgen_event *ev)
{
    batch *b = filling(pl);
    b->lines[b->n++] = (line){ev->info, ev->layout, ev->payload, ev->size, ev->stream, ev->thread_id, ev->timestamp_ns};
    if (b->n == BATCH)
        complete(pl);
}

void evgen_dump_pipeline_finish(dump_pipeline *pl)
{
    if (filling(pl)->n)
        complete(pl);
    while (pl->in_flight)
        write_oldest(pl);
    pthread_mutex_lock(&pl->lock);
    pl->stop = 1;
    pthread_cond_broadcast(&pl->cond);
    pthread_mutex_unlock(&pl->lock);
    pthread_join(pl->helper, NULL);
    pthread_mutex_destroy(&pl->lock);
    pthread_cond_destroy(&pl->cond);
    free_pipeline(pl);
}
