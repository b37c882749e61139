/* convert.c — evgen convert (evgen/convert.h, docs/convert.md): two passes over the reader's events
 * in file order, the first finding the versions some payload of which does not fit the layout (they
 * get raw variants), the second writing each event into its thread's events block; between them
 * the metadata (convert_metadata.c); the file header, the blocks with their checksums, the end
 * block, all into a temporary file renamed into place (evgen/files.h: never over an input, nor over
 * anything but a regular file). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convert_internal.h"
#include "evgen/convert.h"
#include "evgen/files.h"
#include "evgen/wire_format.h"
#include "progress.h"

/* An events block's payload stops growing here (a single larger record gets a block of its own). */
#define CV_BLOCK_PAYLOAD 65536u
/* The most a record adds to its payload, reckoned generously: type, delta and size varints of up to
 * EVGEN_WIRE_VARINT_MAX bytes each, a raw type's RawSize. (Where blocks are cut depends on it:
 * changing it changes what `evgen convert` writes.) */
#define CV_RECORD_OVERHEAD (3u * EVGEN_WIRE_VARINT_MAX + 4u)

typedef struct cv_thread {
    uint64_t tid;
    evgen_wire_buf buf;  /* the records of the block being filled */
    uint32_t count;      /* records in buf */
    uint32_t sequence;   /* of the thread's next block */
    uint64_t base_ticks; /* of the block being filled */
    uint64_t prev_ticks; /* the thread's previous record's (the first block's base: start_ticks) */
    uint64_t prev_type;  /* the type of buf's last record (EVGEN_WIRE_NO_TYPE: none) */
    uint64_t written, dropped, too_big;
} cv_thread;

typedef struct convert {
    evgen_reader *rd;
    cv_plan plan;
    cv_thread *threads; /* parallel to the reader's threads, then any other thread an event names */
    size_t n_threads, cap_threads, hint;
    FILE *f;
    const char *tmp; /* the temporary file f writes (evgen/files.h) */
    int write_errno; /* the first write error */
    int oom;
    uint64_t too_large; /* the offset + 1 of an event no block can hold, or 0 */
    unsigned format_version; /* of the output: its file header and record framing */
    evgen_progress progress; /* over both passes */
} convert;

/* ---- the file ------------------------------------------------------------------------------------ */

static void write_bytes(convert *cv, const void *p, size_t n)
{
    if (!cv->write_errno && n && fwrite(p, 1, n, cv->f) != n)
        cv->write_errno = errno ? errno : EIO;
}

static void write_file_header(convert *cv)
{
    const evgen_trace_header *in = evgen_reader_header(cv->rd);
    evgen_wire_file_header fh;
    memset(&fh, 0, sizeof fh);
    fh.format_version = (uint16_t)cv->format_version;
    fh.pointer_size = in->pointer_size;
    /* .evtrace knows two clocks; any other ticks at clock_frequency (a .nettrace file's
     * QueryPerformanceCounter) are a counter read as the TSC is. */
    fh.clock_kind = in->clock_kind == EVGEN_WIRE_CLOCK_MONOTONIC || in->clock_kind == EVGEN_WIRE_CLOCK_TSC
                        ? in->clock_kind
                        : EVGEN_WIRE_CLOCK_TSC;
    fh.clock_frequency = in->clock_frequency;
    fh.start_ticks = in->start_ticks;
    fh.start_unix_ns = in->start_unix_ns;
    fh.process_id = in->process_id;
    uint8_t h[EVGEN_WIRE_FILE_HEADER_SIZE];
    evgen_wire_put_file_header(h, &fh);
    write_bytes(cv, h, sizeof h);
}

/* A block of `type`; the events fields (tid .. base_ticks) count only for an events block. */
static void write_block(convert *cv, uint8_t type, uint64_t tid, uint32_t sequence, uint32_t count,
                        uint64_t base_ticks, const evgen_wire_buf *payload)
{
    evgen_wire_block_header bh;
    memset(&bh, 0, sizeof bh);
    bh.type = type;
    bh.payload_size = (uint32_t)payload->len;
    bh.thread_id = tid;
    bh.sequence = sequence;
    bh.event_count = count;
    /* dropped stays 0: the input does not say where a thread lost events; the end block has the
     * totals. */
    bh.base_ticks = base_ticks;
    uint8_t h[EVGEN_WIRE_BLOCK_HEADER_SIZE];
    evgen_wire_put_block_header(h, &bh, payload->data);
    write_bytes(cv, h, sizeof h);
    write_bytes(cv, payload->data, payload->len);
}

/* ---- threads and their blocks ----------------------------------------------------------------------- */

static int threads_init(convert *cv)
{
    size_t n;
    int has_end;
    const evgen_reader_thread *t = evgen_reader_threads(cv->rd, &n, &has_end);
    const evgen_trace_header *h = evgen_reader_header(cv->rd);
    int evtrace_end = has_end && h->container == EVGEN_CONTAINER_EVTRACE;
    if (evgen_rd_grow((void **)&cv->threads, &cv->cap_threads, n ? n : 1, sizeof *cv->threads) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        cv_thread *th = &cv->threads[i];
        memset(th, 0, sizeof *th);
        th->tid = t[i].thread_id;
        th->prev_ticks = h->start_ticks;
        /* An .evtrace end block counts drops after the thread's last block too. */
        th->dropped = evtrace_end && t[i].dropped_end > t[i].dropped ? t[i].dropped_end : t[i].dropped;
        th->too_big = evtrace_end ? t[i].too_big_end : 0;
    }
    cv->n_threads = n;
    return 0;
}

static cv_thread *thread_of(convert *cv, uint64_t tid)
{
    if (cv->hint < cv->n_threads && cv->threads[cv->hint].tid == tid)
        return &cv->threads[cv->hint];
    size_t i = evgen_rd_thread_find(cv->rd, tid);
    if (i == RD_NONE) { /* every event's thread is the reader's: this is only defence */
        size_t n_reader = cv->rd->n_threads;
        for (i = n_reader; i < cv->n_threads && cv->threads[i].tid != tid; i++)
            ;
        if (i == cv->n_threads) {
            if (evgen_rd_grow((void **)&cv->threads, &cv->cap_threads, cv->n_threads + 1, sizeof *cv->threads) != 0)
                return NULL;
            memset(&cv->threads[i], 0, sizeof *cv->threads);
            cv->threads[i].tid = tid;
            cv->threads[i].prev_ticks = evgen_reader_header(cv->rd)->start_ticks;
            cv->n_threads++;
        }
    }
    cv->hint = i;
    return &cv->threads[i];
}

static void flush_thread(convert *cv, cv_thread *th)
{
    if (!th->count)
        return;
    write_block(cv, EVGEN_WIRE_BLOCK_EVENTS, th->tid, th->sequence++, th->count, th->base_ticks, &th->buf);
    th->buf.len = 0;
    th->count = 0;
}

/* ---- the passes ----------------------------------------------------------------------------------- */

/* Whether the payload is what the version's layout describes: always for a variable layout (its
 * fields end where the payload says); for a fixed one, exactly its size. */
static int fits(const evgen_event *ev)
{
    return ev->layout->fixed_size < 0 || (uint64_t)ev->layout->fixed_size == ev->size;
}

/* The first pass: a raw variant for every (version, trace version) with a payload that does not fit. */
static int find_raw_variants(convert *cv)
{
    evgen_event ev;
    evgen_reader_rewind(cv->rd, EVGEN_ORDER_FILE);
    while (evgen_reader_next(cv->rd, &ev)) {
        evgen_progress_step(&cv->progress);
        if (!fits(&ev) && evgen_cv_raw_need(&cv->plan, evgen_rd_version_of(&ev)->serial, ev.version) < 0)
            return -1;
    }
    return 0;
}

static void write_event(convert *cv, const evgen_event *ev)
{
    uint32_t serial = evgen_rd_version_of(ev)->serial;
    int raw = !fits(ev);
    uint32_t type = raw ? evgen_cv_raw_type(&cv->plan, serial, ev->version) : cv->plan.own_type[serial];
    uint64_t size = (uint64_t)ev->size + (raw ? 4 : 0);
    cv_thread *th = thread_of(cv, ev->thread_id);
    if (!th || type == CV_NO_TYPE) {
        cv->oom = 1;
        return;
    }
    if (size > UINT32_MAX - CV_RECORD_OVERHEAD) { /* a block's payload_size is 32 bits */
        cv->too_large = ev->offset + 1;
        return;
    }
    if (th->count && th->buf.len + size + CV_RECORD_OVERHEAD > CV_BLOCK_PAYLOAD)
        flush_thread(cv, th);
    if (!th->count) {
        th->base_ticks = th->prev_ticks;
        th->prev_type = EVGEN_WIRE_NO_TYPE;
    }
    uint8_t head[EVGEN_WIRE_RECORD_HEADER_MAX];
    int64_t delta = (int64_t)(ev->ticks - th->prev_ticks);
    int variable = raw || ev->layout->fixed_size < 0;
    uint8_t *end = cv->format_version < 2
                       ? evgen_wire_put_record_header_format1(head, type, delta, variable, (uint32_t)size)
                       : evgen_wire_put_record_header(head, type == th->prev_type, type, delta, variable, (uint32_t)size);
    th->prev_type = type;
    evgen_wire_buf_raw(&th->buf, head, (size_t)(end - head));
    if (raw)
        evgen_wire_buf_le32(&th->buf, ev->size);
    evgen_wire_buf_raw(&th->buf, ev->payload, ev->size);
    th->prev_ticks = ev->ticks;
    th->count++;
    th->written++;
    if (th->buf.failed)
        cv->oom = 1;
}

/* A thread the input names that emitted nothing here has no entry. */
static int has_end_entry(const cv_thread *th)
{
    return th->written || th->dropped || th->too_big;
}

static void write_end_block(convert *cv)
{
    size_t n = 0;
    for (size_t i = 0; i < cv->n_threads; i++)
        n += has_end_entry(&cv->threads[i]);
    evgen_wire_buf b = {0};
    evgen_wire_end_writer w;
    evgen_wire_end_begin(&w, &b, n);
    for (size_t i = 0; i < cv->n_threads; i++) {
        const cv_thread *th = &cv->threads[i];
        if (has_end_entry(th))
            evgen_wire_end_put(&w, &(evgen_wire_end_thread){th->tid, th->written, th->dropped, th->too_big});
    }
    evgen_wire_end_finish(&w, 0);
    if (b.failed)
        cv->oom = 1;
    else
        write_block(cv, EVGEN_WIRE_BLOCK_END, 0, 0, 0, 0, &b);
    evgen_wire_buf_free(&b);
}

/* Writes the whole output into cv->f: 0, or -1 (cv->oom, cv->too_large or cv->write_errno says why). */
static int write_trace(convert *cv, const evgen_reader_options *options)
{
    if (threads_init(cv) != 0 || evgen_cv_plan_init(&cv->plan, cv->rd) != 0 || find_raw_variants(cv) != 0 ||
        evgen_cv_plan_metadata(&cv->plan, cv->rd, options) != 0) {
        cv->oom = 1;
        return -1;
    }
    write_file_header(cv);
    for (size_t i = 0; i < cv->plan.n_blocks; i++)
        write_block(cv, EVGEN_WIRE_BLOCK_METADATA, 0, 0, 0, 0, &cv->plan.blocks[i]);
    evgen_event ev;
    /* In time order: an .evtrace thread's events are in time order (the reader merges threads on
     * that), and a .nettrace thread's are not always in file order, since another thread can
     * write events for it (the sample profiler writes every thread's samples). */
    evgen_reader_rewind(cv->rd, EVGEN_ORDER_TIME);
    while (!cv->oom && !cv->write_errno && !cv->too_large && evgen_reader_next(cv->rd, &ev)) {
        evgen_progress_step(&cv->progress);
        write_event(cv, &ev);
    }
    for (size_t i = 0; i < cv->n_threads && !cv->oom && !cv->too_large; i++)
        flush_thread(cv, &cv->threads[i]);
    if (!cv->oom && !cv->too_large)
        write_end_block(cv);
    return cv->oom || cv->write_errno || cv->too_large ? -1 : 0;
}

/* ---- the call ------------------------------------------------------------------------------------- */

static void say(FILE *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(FILE *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(err, fmt, ap);
    va_end(ap);
    fputc('\n', err);
}

int evgen_convert(const char *in, const char *out, const evgen_reader_options *options, FILE *err)
{
    return evgen_convert_with(in, out, options, NULL, 0, err);
}

int evgen_convert_with(const char *in, const char *out, const evgen_reader_options *options,
                       const char *const *also_read, size_t n_also_read, FILE *err)
{
    return evgen_convert_format(in, out, options, 0, also_read, n_also_read, err);
}

int evgen_convert_format(const char *in, const char *out, const evgen_reader_options *options, unsigned format_version,
                         const char *const *also_read, size_t n_also_read, FILE *err)
{
    convert cv;
    memset(&cv, 0, sizeof cv);
    cv.format_version = format_version ? format_version : EVGEN_WIRE_FORMAT_VERSION;
    if (cv.format_version < EVGEN_WIRE_FORMAT_VERSION_OLDEST || cv.format_version > EVGEN_WIRE_FORMAT_VERSION) {
        say(err, "%s: cannot write .evtrace format %u (this evgen writes %u to %u)", out, format_version,
            EVGEN_WIRE_FORMAT_VERSION_OLDEST, EVGEN_WIRE_FORMAT_VERSION);
        return 1;
    }
    /* OUT first (evgen/files.h): refused before anything is read if it is an input or not a
     * regular file; else a temporary file beside what it replaces. */
    const char **inputs = calloc(n_also_read + 1, sizeof *inputs);
    evgen_output output;
    char *error = NULL;
    if (inputs) {
        inputs[0] = in;
        for (size_t i = 0; i < n_also_read; i++)
            inputs[i + 1] = also_read[i];
    }
    int opened = inputs ? evgen_output_open(&output, out, inputs, n_also_read + 1, &error) : -1;
    free(inputs);
    if (opened != 0) {
        say(err, "%s: %s", out, error ? error : "out of memory");
        free(error);
        return 1;
    }
    cv.rd = evgen_reader_open_with(in, options, &error);
    if (!cv.rd) {
        say(err, "%s: %s", in, error ? error : "out of memory");
        free(error);
        evgen_output_discard(&output);
        return 1;
    }
    evgen_reader_status(cv.rd, NULL); /* validation finished first: the threads' table is used as it stands */
    int status = 0;
    cv.tmp = output.tmp;
    cv.f = fdopen(output.fd, "wb");
    if (!cv.f) {
        say(err, "%s: cannot write %s: %s", out, cv.tmp, strerror(errno));
        evgen_output_discard(&output);
        status = 1;
    } else {
        output.fd = -1; /* the stream's now */
        setvbuf(cv.f, NULL, _IOFBF, 1u << 20);
        /* two passes over the events (find_raw_variants, then write_trace's) */
        evgen_progress_init(&cv.progress, err, in, 2 * cv.rd->total_events, evgen_reader_file_size(cv.rd), 1, -1);
        int rc = write_trace(&cv, options);
        evgen_progress_end(&cv.progress);
        if (fclose(cv.f) != 0 && !cv.write_errno)
            cv.write_errno = errno ? errno : EIO;
        if (rc != 0 || cv.write_errno) {
            if (cv.oom)
                say(err, "%s: out of memory", in);
            else if (cv.too_large)
                say(err, "%s: offset %llu: the event's payload is too large for an .evtrace block", in,
                    (unsigned long long)(cv.too_large - 1));
            else
                say(err, "%s: cannot write %s: %s", out, cv.tmp, strerror(cv.write_errno));
            evgen_output_discard(&output);
            status = 1;
        } else if (evgen_output_commit(&output, &error) != 0) {
            say(err, "%s: %s", out, error ? error : "out of memory");
            free(error);
            status = 1;
        }
    }
    /* The input's problems, after everything readable was converted, as evgen dump reports them. */
    size_t n_problems;
    const evgen_read_problem *problems = evgen_reader_problems(cv.rd, &n_problems);
    for (size_t i = 0; i < n_problems; i++)
        say(err, "%s: offset %llu: %s", in, (unsigned long long)problems[i].offset, problems[i].message);
    if (n_problems || evgen_reader_status(cv.rd, NULL) != EVGEN_READ_OK)
        status = 1;
    for (size_t i = 0; i < cv.n_threads; i++)
        evgen_wire_buf_free(&cv.threads[i].buf);
    free(cv.threads);
    evgen_cv_plan_free(&cv.plan);
    evgen_reader_close(cv.rd);
    return status;
}
