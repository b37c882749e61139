/* dump_stats.c — `evgen dump --stats` (dump_stats.h): per event version and per thread, the events
 * and bytes read, the writer's own totals where the trace has them, the status and the problems;
 * JSON through the dump's one JSON writer (dump_json.h). */
#include "dump_stats.h"

#include <stdio.h>
#include <string.h>

#include "dump_json.h"
#include "evgen/wire_format.h"

/* Was the file a .nettrace one? Its header and statistics say which container they describe. */
static int is_nettrace(const evgen_reader *rd)
{
    return rd->header.container == EVGEN_CONTAINER_NETTRACE;
}

static const char *status_name(evgen_read_status s)
{
    switch (s) {
    case EVGEN_READ_OK:
        return "ok";
    case EVGEN_READ_CORRUPT:
        return "corrupt";
    case EVGEN_READ_TRUNCATED:
        return "truncated";
    }
    return "?";
}

/* Right-aligned in `width` columns. */
static void put_u64_col(dump_buffer *o, uint64_t v, int width)
{
    char num[24];
    int n = (int)(fmt_u64(num, v) - num);
    char *w = room(o, ROOM);
    for (; n < width; width--)
        *w++ = ' ';
    memcpy(w, num, (size_t)n);
    o->p = w + n;
}

static const char *clock_name(unsigned kind)
{
    return kind == EVGEN_WIRE_CLOCK_MONOTONIC ? "monotonic" : kind == EVGEN_WIRE_CLOCK_TSC ? "tsc" : "qpc";
}

void dump_stats_text(dump_buffer *o, const evgen_reader *rd, const char *path, const stat_entry *by_version,
                     const stat_entry *by_thread)
{
    const evgen_trace_header *h = &rd->header;
    char line[512];
    snprintf(line, sizeof line,
             "trace: %s\n  %llu bytes, %sformat %u, pointer size %u, clock %s at %llu Hz, process %u\n", path,
             (unsigned long long)rd->size, is_nettrace(rd) ? "nettrace " : "", h->format_version, h->pointer_size,
             clock_name(h->clock_kind), (unsigned long long)h->clock_frequency, h->process_id);
    puts_(o, line);
    puts_(o, "events:\n         count          bytes  event\n");
    uint64_t events = 0, bytes = 0;
    for (size_t s = 0; s < rd->n_versions; s++) {
        if (!by_version[s].count)
            continue;
        const rd_version *v = rd->versions[s];
        put_u64_col(o, by_version[s].count, 14);
        put_u64_col(o, by_version[s].bytes, 15);
        puts_(o, "  ");
        puts_(o, v->info->name);
        puts_(o, "_V");
        put_u64(o, v->pub->version);
        puts_(o, " (");
        puts_(o, v->info->provider);
        puts_(o, ")\n");
        events += by_version[s].count;
        bytes += by_version[s].bytes;
    }
    /* An end block (.evtrace) has the writer's own totals; a .nettrace file's end has none, and
     * its dropped events are the sequence-number gaps. */
    int end_totals = rd->has_end && !is_nettrace(rd);
    puts_(o, end_totals ? "threads:\n        thread         events        dropped    end: written        dropped"
                          "        too big\n"
                        : is_nettrace(rd) ? "threads:\n        thread         events           lost\n"
                                 : "threads:\n        thread         events        dropped\n");
    uint64_t dropped = 0, dropped_end = 0, too_big = 0;
    for (size_t t = 0; t < rd->n_threads; t++) {
        const evgen_reader_thread *th = &rd->threads[t];
        put_u64_col(o, th->thread_id, 14);
        put_u64_col(o, by_thread[t].count, 15);
        put_u64_col(o, th->dropped, 15);
        if (end_totals) {
            put_u64_col(o, th->written_end, 18);
            put_u64_col(o, th->dropped_end, 15);
            put_u64_col(o, th->too_big_end, 15);
        }
        putc_(o, '\n');
        dropped += th->dropped;
        dropped_end += th->dropped_end;
        too_big += th->too_big_end;
    }
    if (is_nettrace(rd))
        snprintf(line, sizeof line, "totals: %llu events, %llu payload bytes, %llu lost (sequence gaps), %zu threads\n",
                 (unsigned long long)events, (unsigned long long)bytes, (unsigned long long)dropped, rd->n_threads);
    else
        snprintf(line, sizeof line,
                 "totals: %llu events, %llu payload bytes, %llu dropped%s, %llu too big, %zu threads\n",
                 (unsigned long long)events, (unsigned long long)bytes,
                 (unsigned long long)(rd->has_end ? dropped_end : dropped), rd->has_end ? "" : " (blocks' counts)",
                 (unsigned long long)too_big, rd->n_threads);
    puts_(o, line);
    uint64_t at;
    evgen_read_status st = evgen_reader_status(rd, &at);
    snprintf(line, sizeof line, "status: %s%s", status_name(st), st == EVGEN_READ_TRUNCATED ? " at offset " : "");
    puts_(o, line);
    if (st == EVGEN_READ_TRUNCATED)
        put_u64(o, at);
    puts_(o, is_nettrace(rd) ? (rd->has_end ? ", end of stream found\n" : ", no end of stream\n")
                    : rd->has_end ? ", end block found\n" : ", no end block\n");
    snprintf(line, sizeof line, "problems: %zu\n", rd->n_problems);
    puts_(o, line);
    for (size_t i = 0; i < rd->n_problems; i++) {
        puts_(o, "  offset ");
        put_u64(o, rd->problems[i].offset);
        puts_(o, ": ");
        puts_(o, rd->problems[i].message);
        putc_(o, '\n');
    }
}

void dump_stats_json(dump_buffer *o, const evgen_reader *rd, const char *path, const stat_entry *by_version,
                     const stat_entry *by_thread)
{
    const evgen_trace_header *h = &rd->header;
    int end_totals = rd->has_end && !is_nettrace(rd);
    json_writer jw, *w = &jw;
    jw_init(w, o);
    jw_begin_object(w);
    jw_key_string(w, "trace", path);
    jw_key_u64(w, "file_size", rd->size);
    jw_key_string(w, "container", is_nettrace(rd) ? "nettrace" : "evtrace");
    jw_key_u64(w, "format_version", h->format_version);
    jw_key_u64(w, "pointer_size", h->pointer_size);
    jw_key_u64(w, "clock_kind", h->clock_kind);
    jw_key_u64(w, "clock_frequency", h->clock_frequency);
    jw_key_u64(w, "start_unix_ns", h->start_unix_ns);
    jw_key_u64(w, "process_id", h->process_id);
    jw_key(w, "events");
    jw_begin_array(w);
    uint64_t events = 0, bytes = 0;
    for (size_t s = 0; s < rd->n_versions; s++) {
        if (!by_version[s].count)
            continue;
        const rd_version *v = rd->versions[s];
        jw_begin_object(w);
        jw_key_string(w, "event", v->info->name);
        jw_key_string(w, "provider", v->info->provider);
        jw_key_u64(w, "version", v->pub->version);
        jw_key_u64(w, "count", by_version[s].count);
        jw_key_u64(w, "bytes", by_version[s].bytes);
        jw_end(w);
        events += by_version[s].count;
        bytes += by_version[s].bytes;
    }
    jw_end(w);
    jw_key(w, "threads");
    jw_begin_array(w);
    uint64_t dropped = 0, dropped_end = 0, too_big = 0;
    for (size_t t = 0; t < rd->n_threads; t++) {
        const evgen_reader_thread *th = &rd->threads[t];
        jw_begin_object(w);
        jw_key_u64(w, "thread", th->thread_id);
        jw_key_u64(w, "events", by_thread[t].count);
        jw_key_u64(w, "dropped", th->dropped);
        if (end_totals) {
            jw_key_u64(w, "written_end", th->written_end);
            jw_key_u64(w, "dropped_end", th->dropped_end);
            jw_key_u64(w, "too_big_end", th->too_big_end);
        }
        jw_end(w);
        dropped += th->dropped;
        dropped_end += th->dropped_end;
        too_big += th->too_big_end;
    }
    jw_end(w);
    jw_key(w, "totals");
    jw_begin_object(w);
    jw_key_u64(w, "events", events);
    jw_key_u64(w, "bytes", bytes);
    jw_key_u64(w, "dropped", end_totals ? dropped_end : dropped);
    jw_key_u64(w, "too_big", too_big);
    jw_key_u64(w, "threads", rd->n_threads);
    jw_end(w);
    uint64_t at;
    evgen_read_status st = evgen_reader_status(rd, &at);
    jw_key(w, "has_end");
    jw_bool(w, rd->has_end);
    jw_key_string(w, "status", status_name(st));
    if (st == EVGEN_READ_TRUNCATED)
        jw_key_u64(w, "truncated_at", at);
    jw_key(w, "problems");
    jw_begin_array(w);
    for (size_t i = 0; i < rd->n_problems; i++) {
        jw_begin_object(w);
        jw_key_u64(w, "offset", rd->problems[i].offset);
        jw_key_string(w, "message", rd->problems[i].message);
        jw_end(w);
    }
    jw_end(w);
    jw_end(w); /* and the line */
}
