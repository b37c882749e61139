/* perfetto.c — `evgen export --perfetto FILE.json TRACE` (evgen/export.h, docs/export-perfetto.md):
 * the trace as a Chrome JSON trace-event file that the Perfetto UI and chrome://tracing open,
 * streamed through dump's output buffer and JSON writer, one trace event per line, nothing kept per
 * event: the process's and threads' names, every event an instant on its thread's track with its
 * fields as args (perfetto_args.c), and the GCs, runtime pauses and GC counters derived from
 * CoreCLR's GC events (perfetto_gc.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "perfetto.h"
#include "evgen/export.h"

/* Perfetto reads a tid as a uint32: a thread whose id does not fit, and the GC track, get a
 * synthetic tid, counting down from here past the trace's own thread ids and process id. */
#define PF_SYNTHETIC_TID 0xFFFFFF00u

static uint64_t synthetic_tid(const evgen_reader *rd, uint64_t pid, uint64_t *next)
{
    while (*next == pid || evgen_rd_thread_find(rd, *next) != RD_NONE)
        (*next)--;
    return (*next)--;
}

/* "displayTimeUnit" and "otherData": where the file comes from, and the trace's read problems (the
 * driver prints them too), before the events. */
static void put_header(const evgen_export_run *run, pf_out *out)
{
    const evgen_reader *rd = run->readers[0];
    const evgen_trace_header *h = evgen_reader_header(rd);
    json_writer *w = &out->jw;
    jw_key_string(w, "displayTimeUnit", "ns");
    jw_key(w, "otherData");
    jw_begin_object(w);
    jw_key_string(w, "exporter", "evgen export --perfetto");
    jw_key_string(w, "trace", run->trace_paths[0]);
    jw_key_string(w, "container", h->container == EVGEN_CONTAINER_NETTRACE ? "nettrace" : "evtrace");
    jw_key_u64(w, "format_version", h->format_version);
    jw_key_u64(w, "pointer_size", h->pointer_size);
    jw_key(w, "clock_frequency");
    pf_u64(out, h->clock_frequency);
    jw_key(w, "start_unix_ns");
    pf_u64(out, h->start_unix_ns);
    jw_key(w, "process_id");
    pf_u64(out, h->process_id);
    jw_key(w, "events");
    pf_u64(out, rd->total_events);
    evgen_read_status status = evgen_reader_status(rd, NULL);
    jw_key_string(w, "status", status == EVGEN_READ_OK ? "ok" : status == EVGEN_READ_CORRUPT ? "corrupt" : "truncated");
    size_t n_problems;
    const evgen_read_problem *problems = evgen_reader_problems(rd, &n_problems);
    jw_key(w, "problems");
    jw_begin_array(w);
    for (size_t i = 0; i < n_problems; i++) {
        jw_begin_object(w);
        jw_key(w, "offset");
        pf_u64(out, problems[i].offset);
        jw_key_string(w, "message", problems[i].message);
        jw_end(w);
    }
    jw_end(w);
    jw_end(w);
}

/* One "M" event: {"name":what,"cat":"__metadata","ph":"M","pid":..,"tid":..,"args":{key:value}}
 * (the category Chrome gives its own; some readers want every event to have one). */
static void put_metadata(pf_out *out, const char *what, uint64_t tid, const char *key, const char *text,
                         int64_t number)
{
    json_writer *w = &out->jw;
    jw_line_before_item(w);
    jw_begin_object(w);
    jw_key_string(w, "name", what);
    jw_key_string(w, "cat", "__metadata");
    jw_key_string(w, "ph", "M");
    jw_key(w, "pid");
    pf_u64(out, out->pid);
    jw_key(w, "tid");
    pf_u64(out, tid);
    jw_key(w, "args");
    jw_begin_object(w);
    jw_key(w, key);
    if (text)
        jw_string(w, text);
    else
        pf_i64(out, number);
    jw_end(w);
    jw_end(w);
}

/* The process (named after the trace file), each thread ("thread ID", its real id even when its
 * tid is synthetic), and the GC track, sorted first where the viewer sorts threads. */
static void put_names(const evgen_export_run *run, pf_out *out, const evgen_reader_thread *threads,
                      const uint64_t *tids, size_t n_threads, uint64_t gc_tid, int gc_track)
{
    const char *path = run->trace_paths[0], *slash = strrchr(path, '/');
    put_metadata(out, "process_name", out->pid, "name", slash ? slash + 1 : path, 0);
    for (size_t i = 0; i < n_threads; i++) {
        char name[48];
        snprintf(name, sizeof name, "thread %llu", (unsigned long long)threads[i].thread_id);
        put_metadata(out, "thread_name", tids[i], "name", name, 0);
    }
    if (gc_track) {
        put_metadata(out, "thread_name", gc_tid, "name", "GCs", 0);
        put_metadata(out, "thread_sort_index", gc_tid, "sort_index", NULL, -1);
    }
}

static int write_perfetto(evgen_export_run *run)
{
    evgen_reader *rd = run->readers[0];
    const evgen_trace_header *h = evgen_reader_header(rd);
    pf_out out;
    memset(&out, 0, sizeof out);
    out.pid = h->process_id;
    out.pointer_size = h->pointer_size;
    out.o.fd = fileno(run->file); /* the driver's stream is left unused and closed empty */
    out.o.buf = out.o.p = malloc(OUT_SIZE);
    out.o.end = out.o.buf ? out.o.buf + OUT_SIZE : NULL;
    jw_init(&out.jw, &out.o);

    size_t n_threads;
    const evgen_reader_thread *threads = evgen_reader_threads(rd, &n_threads, NULL);
    uint64_t *tids = calloc(n_threads + 1, sizeof *tids);
    uint64_t next_tid = PF_SYNTHETIC_TID, gc_tid = synthetic_tid(rd, out.pid, &next_tid);
    for (size_t i = 0; tids && i < n_threads; i++)
        tids[i] = threads[i].thread_id <= UINT32_MAX ? threads[i].thread_id : synthetic_tid(rd, out.pid, &next_tid);
    pf_gc *gc = tids ? pf_gc_new(rd, gc_tid, tids) : NULL;
    int rc = 0;
    if (!out.o.buf || !gc) {
        evgen_export_error(run, "out of memory");
        rc = -1;
        goto done;
    }

    json_writer *w = &out.jw;
    jw_begin_object(w);
    put_header(run, &out);
    jw_key(w, "traceEvents");
    jw_begin_array(w);
    put_names(run, &out, threads, tids, n_threads, gc_tid, pf_gc_defines_gcs(gc));

    evgen_event ev;
    size_t thread = 0;
    uint64_t end_ns = 0;
    evgen_export_rewind(run, 0);
    while (!out.o.error && evgen_export_next(run, 0, &ev)) {
        if (thread >= n_threads || threads[thread].thread_id != ev.thread_id)
            thread = evgen_rd_thread_find(rd, ev.thread_id);
        uint64_t tid = thread < n_threads ? tids[thread] : ev.thread_id;
        pf_gc_before(gc, &out, &ev, thread);
        pf_event_open(&out, ev.info->name, ev.info->provider, "i", ev.timestamp_ns, tid);
        jw_key_string(w, "s", "t");
        pf_event_args(&out, &ev);
        jw_end(w);
        pf_gc_after(gc, &out, &ev, thread);
        if (ev.timestamp_ns > end_ns)
            end_ns = ev.timestamp_ns;
    }
    pf_gc_finish(gc, &out, end_ns);
    putc_(&out.o, '\n');
    jw_end(w); /* traceEvents */
    jw_end(w); /* the document, and its line */
    out_flush(&out.o);
    if (out.o.error) {
        evgen_export_error(run, "cannot write: %s", strerror(out.o.error));
        rc = -1;
    }
done:
    pf_gc_free(gc);
    free(tids);
    free(out.o.buf);
    return rc;
}

const evgen_exporter evgen_exporter_perfetto = {
    .name = "perfetto",
    .summary = "Chrome JSON trace events the Perfetto UI opens: events, GC slices, heap counters",
    .out_name = "FILE.json",
    .out_is_directory = 0,
    .several_traces = 0,
    .write = write_perfetto,
};
