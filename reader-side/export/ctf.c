/* ctf.c — the ctf exporter (evgen/export.h): a CTF 1.8 trace directory that babeltrace2 and Trace
 * Compass read — every event of the trace, in time order, in the data stream of its thread, its
 * fields re-serialized by its class; then the TSDL metadata, which names the classes the events
 * needed (docs/export-ctf.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_internal.h"

/* The trace's UUID: a hash of the file's bytes (version 8, RFC 9562's custom UUIDs), so that one
 * trace always exports to the same bytes and two traces to different UUIDs. */
static void trace_uuid(const evgen_reader *rd, uint8_t uuid[16])
{
    /* Two multiply-xorshift lanes over 8-byte words (the high bits folded back each step), then
     * the last bytes: a few cycles a word. */
    uint64_t a = 0xcbf29ce484222325u, b = 0x84222325cbf29ce4u ^ rd->size;
    size_t i = 0;
    for (; i + 8 <= rd->size; i += 8) {
        uint64_t w = evgen_wire_le64(rd->data + i);
        a = (a ^ w) * 0x100000001b3u;
        a ^= a >> 32;
        b = (b ^ w) * 0x9e3779b97f4a7c15u;
        b ^= b >> 29;
    }
    for (; i < rd->size; i++) {
        a = (a ^ rd->data[i]) * 0x100000001b3u;
        b = (b ^ rd->data[i]) * 0x9e3779b97f4a7c15u;
    }
    a ^= a >> 31;
    b ^= b >> 31;
    evgen_wire_put_le64(uuid, a);
    evgen_wire_put_le64(uuid + 8, b);
    uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x80);
    uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);
}

typedef struct ctf_export {
    evgen_export_run *run;
    evgen_reader *rd;
    ctf_classes classes;
    ctf_streams streams;
    evgen_wire_buf fields; /* one event's fields */
    uint32_t *off, *size;  /* where each field of the event lies */
} ctf_export;

/* One event, as dump shows it: a raw type of evgen convert as the version it was read with (or as
 * its payload alone); its fields up to the first one the payload does not hold whole; the bytes
 * after the last one as raw. */
static int export_event(ctf_export *x, const evgen_event *ev)
{
    const rd_version *v = evgen_rd_version_of(ev);
    const ctf_version_plan *p = &x->classes.plans[v->serial];
    evgen_event shown = *ev;
    uint32_t n = p->n_fields, raw_off, raw_size;
    if (p->raw_type && evgen_event_field(ev, 1, &raw_off, &raw_size)) {
        shown.payload = ev->payload + raw_off;
        shown.size = raw_size;
        if (p->bound) {
            v = x->rd->versions[p->bound - 1];
            shown.info = v->info;
            shown.layout = v->pub;
            shown.version = v->pub->version;
            evgen_event_locate_variable(&shown);
            n = x->classes.plans[v->serial].n_fields;
        }
    } /* a raw type whose Raw the payload does not hold: the whole payload as raw */
    uint32_t whole = 0, end = 0;
    for (; whole < n; whole++) {
        if (!evgen_event_field(&shown, whole, &x->off[whole], &x->size[whole]))
            break;
        end = x->off[whole] + x->size[whole];
    }
    uint32_t rest = shown.size > end ? shown.size - end : 0;
    long id = ctf_class_for(&x->classes, v, whole, rest);
    if (id < 0) {
        evgen_export_error(x->run, "out of memory");
        return -1;
    }
    x->fields.len = 0;
    for (uint32_t f = 0; f < whole; f++)
        ctf_event_put_field(&x->fields, &shown, f, x->off[f], x->size[f]);
    if (x->classes.items[id].raw)
        ctf_event_put_raw(&x->fields, shown.payload + end, rest);
    ctf_stream *st = ctf_stream_of(&x->streams, x->rd, ev->thread_id, ev->stream);
    if (!st || x->fields.failed) {
        evgen_export_error(x->run, "out of memory");
        return -1;
    }
    return ctf_stream_event(&x->streams, st, (uint32_t)id, ev->ticks, x->fields.data, x->fields.len);
}

static int write_metadata(ctf_export *x, int64_t offset_s, uint64_t offset, const uint8_t *uuid)
{
    char *path = evgen_export_path(x->run, "metadata");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) {
        evgen_export_error(x->run, "cannot write %s", path ? path : "the metadata: out of memory");
        free(path);
        return -1;
    }
    const char *trace = x->run->trace_paths[0], *slash = strrchr(trace, '/');
    ctf_metadata_in in = {x->rd, &x->classes, slash ? slash + 1 : trace, uuid, offset_s, offset};
    int rc = ctf_metadata_write(f, &in);
    if (ferror(f) | (fclose(f) != 0)) {
        evgen_export_error(x->run, "cannot write %s", path);
        rc = -1;
    } else if (rc != 0) {
        evgen_export_error(x->run, "out of memory");
    }
    free(path);
    return rc;
}

static int write_ctf(evgen_export_run *run)
{
    ctf_export x;
    memset(&x, 0, sizeof x);
    x.run = run;
    x.rd = run->readers[0];
    const evgen_trace_header *h = evgen_reader_header(x.rd);
    int64_t offset_s;
    uint64_t offset;
    if (ctf_clock_offset(h, &offset_s, &offset) != 0) {
        evgen_export_error(run, "the trace's clock (start_ticks %" PRIu64 " at %" PRIu64 " Hz, start_unix_ns %" PRIu64
                           ") starts more than 292 years from the Unix epoch: no CTF clock offset holds it",
                           h->start_ticks, h->clock_frequency, h->start_unix_ns);
        return -1;
    }
    uint8_t uuid[16];
    trace_uuid(x.rd, uuid);
    uint32_t max_fields = 0;
    for (size_t s = 0; s < x.rd->n_versions; s++)
        if (x.rd->versions[s]->pub->n_fields > max_fields)
            max_fields = x.rd->versions[s]->pub->n_fields;
    x.off = calloc(max_fields + 1, sizeof *x.off);
    x.size = calloc(max_fields + 1, sizeof *x.size);
    ctf_streams_init(&x.streams, run, uuid);
    x.streams.max_ticks = ctf_clock_max_ticks(h, offset_s);
    int rc = -1;
    if (!x.off || !x.size || ctf_classes_init(&x.classes, x.rd) != 0) {
        evgen_export_error(run, "out of memory");
        goto done;
    }
    evgen_export_rewind(run, 0);
    evgen_event ev;
    while (evgen_export_next(run, 0, &ev))
        if (export_event(&x, &ev) != 0)
            goto done;
    if (ctf_streams_finish(&x.streams, x.rd) != 0 || write_metadata(&x, offset_s, offset, uuid) != 0)
        goto done;
    if (x.streams.beyond)
        fprintf(run->err, "%s: note: %" PRIu64 " events written at %" PRIu64 " ticks, the latest time a CTF clock "
                "of this trace holds (their timestamps were later: corrupt?)\n", run->out, x.streams.beyond,
                x.streams.max_ticks);
    if (x.streams.clamped)
        fprintf(run->err, "%s: note: %" PRIu64 " events written at the time of the event before them in their "
                "thread (the trace's clock went back; CTF streams never do)\n", run->out, x.streams.clamped);
    rc = 0;
done:
    ctf_streams_free(&x.streams);
    ctf_classes_free(&x.classes);
    evgen_wire_buf_free(&x.fields);
    free(x.off);
    free(x.size);
    return rc;
}

const evgen_exporter evgen_exporter_ctf = {
    .name = "ctf",
    .summary = "a CTF 1.8 trace: TSDL metadata, a stream per thread (babeltrace2, Trace Compass)",
    .out_name = "DIR",
    .out_is_directory = 1,
    .several_traces = 0,
    .write = write_ctf,
};
