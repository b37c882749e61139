/* dump.c — `evgen dump`: every event as a text or JSON line decoded from the trace's metadata,
 * written through the dump's output buffer (dump_out.h) and, in JSON, its one JSON writer
 * (dump_json.h), with nothing allocated per event (each version's line head and field keys are
 * rendered once), on two cores where it can (dump_pipeline.c); --stats (dump_stats.c); the trace's
 * problems on stderr; a progress bar on a terminal. */
#include "evgen/dump.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_internal.h" /* the raw types of evgen convert */
#include "core.h"
#include "dump_internal.h"
#include "dump_json.h"
#include "dump_out.h"
#include "dump_stats.h"
#include "progress.h"
#include "evgen/gc_dynamic.h"
#include "evgen/wire_bytes.h"
#include "evgen/wire_format.h"
#include "evgen/wire_kinds.h"

void evgen_dump_options_init(evgen_dump_options *o)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->order = EVGEN_ORDER_TIME;
    o->to_ns = UINT64_MAX;
    o->progress = 1;
}

/* ---- values ------------------------------------------------------------------------------- */

/* One fixed-size value of `kind` at p (its size known to fit). `name` receives the enum constant
 * of an enum value in JSON (NULL if none). */
static void put_scalar(dumper *d, unsigned kind, const uint8_t *p, const evgen_trace_enum *en, const char **name)
{
    dump_buffer *o = &d->o;
    char *w = room(o, ROOM);
    unsigned size = evgen_wire_kind_size(kind, d->pointer_size);
    switch (evgen_wire_kind_class(kind)) {
    case EVGEN_WIRE_CLASS_UNSIGNED:
    case EVGEN_WIRE_CLASS_SIGNED: {
        int is_signed = evgen_wire_kind_is_signed(kind);
        uint64_t u = evgen_wire_load(p, size);
        int64_t s = is_signed ? evgen_wire_load_signed(p, size) : (int64_t)u;
        const char *constant = en ? evgen_trace_enum_name(en, s) : NULL;
        if (constant && !d->json) { /* Reason=AllocSmall(0) */
            puts_(o, constant);
            w = room(o, ROOM);
            *w++ = '(';
            w = is_signed ? fmt_i64(w, s) : fmt_u64(w, u);
            *w++ = ')';
        } else {
            w = is_signed ? fmt_i64(w, s) : fmt_u64(w, u);
        }
        if (name)
            *name = constant;
        break;
    }
    case EVGEN_WIRE_CLASS_FLOAT:
        w = fmt_float(w, kind, p, d->json);
        break;
    case EVGEN_WIRE_CLASS_BOOL:
        w = fmt_bool(w, evgen_wire_load(p, size));
        break;
    case EVGEN_WIRE_CLASS_GUID:
        if (d->json)
            *w++ = '"';
        w = fmt_guid(w, p);
        if (d->json)
            *w++ = '"';
        break;
    case EVGEN_WIRE_CLASS_POINTER:
        w = fmt_pointer(w, evgen_wire_load(p, size), d->json);
        break;
    case EVGEN_WIRE_CLASS_UTF8:
    case EVGEN_WIRE_CLASS_UTF16:
    case EVGEN_WIRE_CLASS_STRUCT: /* not a scalar (nor a kind at all): never from checked metadata */
        *w++ = '?';
        break;
    }
    o->p = w;
}

static void put_array(dumper *d, const evgen_trace_field *fd, const evgen_trace_manifest *m, const uint8_t *p,
                      uint32_t size)
{
    dump_buffer *o = &d->o;
    json_writer *w = &d->jw;
    const evgen_trace_struct *st = fd->kind == EVGEN_WIRE_STRUCT ? &m->structs[fd->struct_index] : NULL;
    uint32_t elem = st ? st->stride : evgen_wire_kind_size(fd->kind, d->pointer_size);
    const evgen_trace_enum *en = fd->enum_index >= 0 ? &m->enums[fd->enum_index] : NULL;
    uint32_t count = elem ? size / elem : 0;
    if (d->json)
        jw_begin_array(w);
    else
        putc_(o, '[');
    /* Struct elements one after the other (a variable struct's are walked); scalars by index. */
    uint32_t at = 0;
    for (uint32_t i = 0; st ? at < size : i < count; i++) {
        const uint8_t *e = st ? p + at : p + (size_t)i * elem;
        uint32_t esize = st ? evgen_struct_element_size(st, e, size - at, d->pointer_size) : elem;
        if (esize == 0) /* never for an array the plan located whole */
            break;
        at += esize;
        if (!d->json && i)
            putc_(o, ',');
        if (!st) {
            if (d->json)
                jw_value(w);
            put_scalar(d, fd->kind, e, en, NULL);
            continue;
        }
        if (d->json)
            jw_begin_object(w);
        else
            putc_(o, '{');
        for (uint32_t k = 0; k < st->n_members; k++) {
            const evgen_trace_member *mb = &st->members[k];
            if (d->json) {
                jw_key(w, mb->name);
            } else {
                if (k)
                    putc_(o, ',');
                puts_(o, mb->name);
                putc_(o, '=');
            }
            uint32_t mo, ms;
            evgen_wire_class cls = evgen_wire_kind_class(mb->kind);
            if (!evgen_struct_member(st, e, esize, d->pointer_size, k, &mo, &ms))
                puts_(o, d->json ? "null" : "?"); /* never: the element was walked whole */
            else if (cls == EVGEN_WIRE_CLASS_UTF8)
                put_utf8(o, e + mo, ms - 1, d->json);
            else if (cls == EVGEN_WIRE_CLASS_UTF16)
                put_utf16(o, e + mo, (ms - 2) / 2, d->json);
            else
                put_scalar(d, mb->kind, e + mo, mb->enum_index >= 0 ? &m->enums[mb->enum_index] : NULL, NULL);
        }
        if (d->json)
            jw_end(w);
        else
            putc_(o, '}');
    }
    if (d->json)
        jw_end(w);
    else
        putc_(o, ']');
}

static void put_field(dumper *d, const evgen_event *ev, uint32_t f, uint32_t off, uint32_t size)
{
    const evgen_trace_field *fd = &ev->layout->fields[f];
    const evgen_trace_manifest *m = ev->info->manifest;
    const uint8_t *p = ev->payload + off;
    evgen_wire_class cls = evgen_wire_kind_class(fd->kind);
    if (fd->is_array) {
        put_array(d, fd, m, p, size);
    } else if (cls == EVGEN_WIRE_CLASS_UTF8) {
        put_utf8(&d->o, p, size - 1, d->json);
    } else if (cls == EVGEN_WIRE_CLASS_UTF16) {
        put_utf16(&d->o, p, (size - 2) / 2, d->json);
    } else {
        const char *name = NULL;
        put_scalar(d, fd->kind, p, fd->enum_index >= 0 ? &m->enums[fd->enum_index] : NULL, d->json ? &name : NULL);
        if (name && d->n_names < sizeof d->names / sizeof d->names[0]) {
            d->names[d->n_names] = name;
            d->name_fields[d->n_names++] = f;
        }
    }
}

/* ---- lines -------------------------------------------------------------------------------- */

/* Renders text at setup (never per event) into a buffer of `capacity` bytes, through the same
 * output functions: the capacity covers the worst escaping, so nothing is flushed. */
static int render_begin(dumper *d, dump_buffer *saved, size_t capacity)
{
    *saved = d->o;
    d->o.buf = d->o.p = calloc(1, capacity); /* zeroed: put_rendered copies whole 16-byte steps */
    d->o.end = d->o.buf ? d->o.buf + capacity : NULL;
    d->o.fd = -1;
    d->o.error = 0;
    return d->o.buf ? 0 : -1;
}

static int render_end(dumper *d, dump_buffer *saved, char **text, size_t *len)
{
    int ok = !d->o.error;
    *len = (size_t)(d->o.p - d->o.buf);
    *text = d->o.buf;
    d->o = *saved;
    return ok ? 0 : -1;
}

static int prepare_version(dumper *d, const rd_version *v)
{
    const evgen_trace_event_info *info = v->info;
    dump_buffer saved;
    uint32_t serial = v->serial;
    if (render_begin(d, &saved, 6 * (strlen(info->name) + strlen(info->provider)) + 2 * ROOM) != 0)
        return -1;
    if (d->json) { /* whole members, replayed with jw_members_rendered */
        json_writer members;
        jw_init_members(&members, &d->o);
        jw_key_string(&members, "event", info->name);
        jw_key_string(&members, "provider", info->provider);
        jw_key_u64(&members, "id", info->id);
        jw_key_u64(&members, "version", v->pub->version);
    } else {
        putc_(&d->o, ' ');
        puts_(&d->o, info->name);
        char *w = room(&d->o, ROOM);
        memcpy(w, "_V", 2);
        d->o.p = fmt_u64(w + 2, v->pub->version);
    }
    if (render_end(d, &saved, &d->head[serial], &d->head_len[serial]) != 0)
        return -1;
    d->raw_type[serial] = (uint8_t)evgen_cv_is_raw_type(v->pub, info);
    uint32_t n = v->pub->n_fields;
    d->prefix[serial] = calloc(n + 1, sizeof **d->prefix);
    d->prefix_len[serial] = calloc(n + 1, sizeof **d->prefix_len);
    if (!d->prefix[serial] || !d->prefix_len[serial])
        return -1;
    for (uint32_t f = 0; f < n; f++) {
        if (render_begin(d, &saved, 6 * strlen(v->pub->fields[f].name) + ROOM) != 0)
            return -1;
        if (d->json) { /* the comma a field after the first needs, then its key (json_key below) */
            putc_(&d->o, ',');
            put_json_string(&d->o, v->pub->fields[f].name);
            putc_(&d->o, ':');
        } else {
            putc_(&d->o, ' ');
            puts_(&d->o, v->pub->fields[f].name);
            putc_(&d->o, '=');
        }
        if (render_end(d, &saved, &d->prefix[serial][f], &d->prefix_len[serial][f]) != 0)
            return -1;
    }
    dump_op *ops = d->ops[serial] = calloc(n + 1, sizeof *ops);
    if (!ops)
        return -1;
    for (uint32_t f = 0; f < n; f++) {
        const evgen_trace_field *fd = &v->pub->fields[f];
        const rd_field *pl = &v->plan[f];
        /* JSON: field 0 is always a line's first member of "fields", the others never are */
        size_t skip = d->json && f == 0;
        ops[f].key = d->prefix[serial][f] + skip;
        ops[f].key_len = (uint32_t)(d->prefix_len[serial][f] - skip);
        if (pl->after == 0 && pl->step == RD_STEP_FIXED && pl->size <= 8 && pl->delta <= UINT32_MAX - 8 &&
            !fd->is_array && fd->enum_index < 0 && evgen_wire_kind_class(fd->kind) == EVGEN_WIRE_CLASS_UNSIGNED &&
            ops[f].key_len <= 64) {
            ops[f].offset = (uint32_t)pl->delta;
            ops[f].size = (uint8_t)pl->size;
            ops[f].end = ops[f].offset + ops[f].size;
        }
    }
    return 0;
}

/* CoreCLR's GCDynamicEvent carries a named payload (Name, Data) that evgen/gc_dynamic.h decodes:
 * the indexes of its Name (UTF-16) and Data (byte array) fields + 1, 16 bits each, or 0. */
static uint32_t dynamic_fields(const rd_version *v)
{
    if (strcmp(v->info->name, "GCDynamicEvent") != 0 || strcmp(v->info->provider, "Microsoft-Windows-DotNETRuntime") != 0)
        return 0;
    uint32_t name = 0, data = 0;
    for (uint32_t f = 0; f < v->pub->n_fields && f < 0xffff; f++) {
        const evgen_trace_field *fd = &v->pub->fields[f];
        if (strcmp(fd->name, "Name") == 0 && !fd->is_array && fd->kind == EVGEN_WIRE_UTF16Z)
            name = f + 1;
        else if (strcmp(fd->name, "Data") == 0 && fd->is_array && fd->kind == EVGEN_WIRE_U8)
            data = f + 1;
    }
    return name && data ? name | data << 16 : 0;
}

static void free_prepared(dumper *d)
{
    for (size_t s = 0; d->head && s < d->rd->n_versions; s++) {
        free(d->head[s]);
        for (uint32_t f = 0; d->prefix[s] && f < d->rd->versions[s]->pub->n_fields; f++)
            free(d->prefix[s][f]);
        free(d->prefix[s]);
        free(d->prefix_len[s]);
        if (d->ops)
            free(d->ops[s]);
    }
    free(d->head);
    free(d->head_len);
    free(d->prefix);
    free(d->prefix_len);
    free(d->ops);
    free(d->raw_type);
    free(d->raw_bound);
    free(d->dynamic);
}

static int prepare(dumper *d)
{
    size_t n = d->rd->n_versions;
    d->head = calloc(n + 1, sizeof *d->head);
    d->head_len = calloc(n + 1, sizeof *d->head_len);
    d->prefix = calloc(n + 1, sizeof *d->prefix);
    d->prefix_len = calloc(n + 1, sizeof *d->prefix_len);
    d->ops = calloc(n + 1, sizeof *d->ops);
    d->raw_type = calloc(n + 1, sizeof *d->raw_type);
    d->raw_bound = calloc(n + 1, sizeof *d->raw_bound);
    d->dynamic = calloc(n + 1, sizeof *d->dynamic);
    if (!d->head || !d->head_len || !d->prefix || !d->prefix_len || !d->ops || !d->raw_type || !d->raw_bound || !d->dynamic)
        return -1;
    for (size_t s = 0; s < n; s++)
        if (prepare_version(d, d->rd->versions[s]) != 0)
            return -1;
    for (size_t s = 0; s < n; s++) {
        if (d->raw_type[s])
            d->raw_bound[s] = evgen_cv_raw_bound(d->rd, d->rd->versions[s]);
        d->dynamic[s] = dynamic_fields(d->rd->versions[s]);
    }
    return 0;
}

/* Keys of every JSON line, zero-padded for put_rendered's 16-byte steps; those of a line's head
 * (put_line_head) with the punctuation before them. */
static const char key_timestamp[32] = "{\"timestamp_ns\":", key_thread[32] = ",\"thread\":",
                  key_stream[32] = ",\"stream\":", key_fields[32] = ",\"fields\":{", key_raw[32] = "\"raw\":",
                  key_names[32] = "\"names\":";

/* Copies a 32-byte key at `w` (room for 32) and returns the byte after the key itself. */
static char *put_key_at(char *w, const char key[32])
{
    memcpy(w, key, 32);
    return w + strlen(key);
}

/* Payload bytes from `off` on, in hex: the member "raw" of "fields" (JSON) or raw=… (text). What
 * no field describes is printed this way in every path, so nothing is hidden: the payload of an
 * event no metadata describes, the tail past the fields it describes (a newer version's fields,
 * or bytes of unknown meaning), and evgen convert's copy of an undecoded payload. */
static void put_raw(dumper *d, const evgen_event *ev, uint32_t off)
{
    dump_buffer *o = &d->o;
    if (d->json) {
        jw_key_rendered(&d->jw, key_raw, strlen(key_raw));
        putc_(o, '"');
    } else {
        puts_(o, " raw=");
    }
    for (uint32_t i = off; i < ev->size; i++) {
        char *w = room(o, 2);
        w[0] = hexdigits[ev->payload[i] >> 4];
        w[1] = hexdigits[ev->payload[i] & 15];
        o->p = w + 2;
    }
    if (d->json)
        putc_(o, '"');
}

/* The start of a line: time, thread, nested stream, then the version's rendered head. */
static void put_line_head(dumper *d, const evgen_event *ev, const rd_version *v)
{
    dump_buffer *o = &d->o;
    if (!d->json) {
        char *w = room(o, ROOM);
        w = fmt_u64(w, ev->timestamp_ns);
        *w++ = ' ';
        o->p = fmt_u64(w, ev->thread_id);
        put_rendered(o, d->head[v->serial], d->head_len[v->serial]);
        return;
    }
    /* Written at once, as a line's value at the top level, its members begun, "fields" open and
     * empty: the writer is left as its calls would have left it. */
    char *at = room(o, ROOM); /* three keys and three numbers */
    at = fmt_u64(put_key_at(at, key_timestamp), ev->timestamp_ns);
    at = fmt_u64(put_key_at(at, key_thread), ev->thread_id);
    if (ev->stream) /* an event of a signal handler's nested stream; most have none */
        at = fmt_u64(put_key_at(at, key_stream), ev->stream);
    *at++ = ',';
    o->p = at;
    put_rendered(o, d->head[v->serial], d->head_len[v->serial]);
    put_rendered(o, key_fields, strlen(key_fields));
    json_writer *w = &d->jw;
    w->depth = 2;
    w->has_item[1] = 1;
    w->is_array[1] = 0;
    w->has_item[2] = 0;
    w->is_array[2] = 0;
}

/* The event's stack, innermost first, as hex instruction pointers (JSON strings, as pointers are). */
static void put_stack(dumper *d, const evgen_event *ev)
{
    dump_buffer *o = &d->o;
    if (d->json) {
        jw_key(&d->jw, "stack");
        jw_begin_array(&d->jw);
    } else {
        puts_(o, " stack=[");
    }
    for (uint32_t i = 0; i < ev->stack_depth; i++) {
        if (d->json)
            jw_value(&d->jw);
        else if (i)
            putc_(o, ',');
        char *w = room(o, ROOM);
        if (d->json)
            *w++ = '"';
        *w++ = '0';
        *w++ = 'x';
        w = fmt_hex(w, evgen_event_stack_ip(ev, i), 1);
        if (d->json)
            *w++ = '"';
        o->p = w;
    }
    if (d->json)
        jw_end(&d->jw);
    else
        putc_(o, ']');
}

/* A GCDynamicEvent's Data decoded by its Name (evgen/gc_dynamic.h): in JSON the member "decoded"
 * ({"layout":"CommittedUsage","status":"ok","Version":1,...}), in text decoded=Layout{Field=v,...}.
 * Nothing for a Name the decoder does not know: Data is printed as bytes anyway. */
static void put_dynamic(dumper *d, const evgen_event *ev, uint32_t fields)
{
    uint32_t name_off, name_size, data_off, data_size;
    if (!evgen_event_field(ev, (fields & 0xffff) - 1, &name_off, &name_size) ||
        !evgen_event_field(ev, (fields >> 16) - 1, &data_off, &data_size) || name_size < 2)
        return;
    evgen_gc_dynamic g;
    evgen_gc_dynamic_status st = evgen_gc_dynamic_decode((evgen_utf16_view){ev->payload + name_off, name_size / 2 - 1},
                                                         ev->payload + data_off, data_size, &g);
    if (st == EVGEN_GC_DYNAMIC_UNKNOWN_NAME)
        return;
    dump_buffer *o = &d->o;
    json_writer *w = &d->jw;
    if (d->json) {
        jw_key(w, "decoded");
        jw_begin_object(w);
        jw_key_string(w, "layout", g.name);
        jw_key_string(w, "status", evgen_gc_dynamic_status_name(st));
    } else {
        puts_(o, " decoded=");
        puts_(o, g.name);
        putc_(o, '{');
    }
    for (size_t i = 0; i < g.n_fields; i++) {
        const evgen_gc_dynamic_field *f = &g.fields[i];
        if (d->json) {
            jw_key(w, f->name);
            jw_value(w);
        } else {
            if (i)
                putc_(o, ',');
            puts_(o, f->name);
            putc_(o, '=');
        }
        if (f->kind == EVGEN_GC_DYNAMIC_F32) /* as a float32 field prints (host order, as put_scalar reads) */
            put_scalar(d, EVGEN_WIRE_F32, (const uint8_t *)&f->f, NULL, NULL);
        else
            put_u64(o, f->u);
    }
    if (d->json) {
        jw_end(w);
    } else {
        putc_(o, '}');
        if (st != EVGEN_GC_DYNAMIC_OK) {
            puts_(o, " decoded_status=\"");
            puts_(o, evgen_gc_dynamic_status_name(st));
            putc_(o, '"');
        }
    }
}

/* The end of a line: the fields left out of a payload that ends early; in JSON, the enum constant
 * names of the fields that have one; a GCDynamicEvent's decoded Data; with --stacks, the stack. */
static void put_line_end(dumper *d, const evgen_event *ev, const rd_version *v, uint32_t truncated_at, uint32_t n)
{
    dump_buffer *o = &d->o;
    if (!d->json) {
        if (truncated_at < n) { /* the payload ends before this field: it and the rest are left out */
            puts_(o, " <truncated at ");
            puts_(o, ev->layout->fields[truncated_at].name);
            putc_(o, '>');
        }
        if (d->dynamic[v->serial])
            put_dynamic(d, ev, d->dynamic[v->serial]);
        if (d->stacks && ev->stack_depth)
            put_stack(d, ev);
        putc_(o, '\n');
        return;
    }
    json_writer *w = &d->jw;
    jw_end(w); /* "fields" */
    if (d->n_names) {
        jw_key_rendered(w, key_names, strlen(key_names));
        jw_begin_object(w);
        for (size_t i = 0; i < d->n_names; i++) { /* keyed by the field's own rendered key */
            uint32_t f = d->name_fields[i];
            jw_key_rendered(w, d->prefix[v->serial][f] + 1, d->prefix_len[v->serial][f] - 1); /* no comma */
            jw_string(w, d->names[i]);
        }
        jw_end(w);
    }
    if (truncated_at < n)
        jw_key_string(w, "truncated", ev->layout->fields[truncated_at].name);
    if (d->dynamic[v->serial])
        put_dynamic(d, ev, d->dynamic[v->serial]);
    if (d->stacks && ev->stack_depth)
        put_stack(d, ev);
    jw_end(w); /* the line */
}

void evgen_dump_event(dumper *d, const evgen_event *ev)
{
    dump_buffer *o = &d->o;
    const rd_version *v = evgen_rd_version_of(ev);
    d->n_names = 0;
    evgen_event bound;
    if (d->raw_type[v->serial]) { /* evgen convert's copy of a payload it could not type */
        uint32_t off = 0, size = 0;
        int whole = evgen_event_field(ev, 1, &off, &size);
        if (whole && d->raw_bound[v->serial]) { /* read as the version the .nettrace reader used */
            v = d->rd->versions[d->raw_bound[v->serial] - 1];
            bound = *ev;
            bound.info = v->info;
            bound.layout = v->pub;
            bound.payload = ev->payload + off;
            bound.size = size;
            bound.n_variable = 0;
            ev = &bound;
        } else { /* an undecoded payload: printed as one */
            put_line_head(d, ev, v);
            if (whole && size)
                put_raw(d, ev, off);
            put_line_end(d, ev, v, 0, 0);
            return;
        }
    }
    put_line_head(d, ev, v);
    uint32_t n = ev->layout->n_fields, f, end = 0;
    const dump_op *ops = d->ops[v->serial];
    char *w = o->p; /* the fields through a local pointer (dump_out.h: room_at) */
    for (f = 0; f < n; f++) {
        const dump_op *op = &ops[f];
        if (op->size) { /* the common case (dump_op) */
            if (op->end > ev->size)
                break; /* the payload ends before it */
            w = room_at(o, w, 80 + ROOM);
            /* 32 or 64 bytes of the rendered buffer at once: no loop whose exit is mispredicted */
            memcpy(w, op->key, 32);
            if (op->key_len > 32)
                memcpy(w + 32, op->key + 32, 32);
            w = fmt_u64(w + op->key_len, evgen_wire_load(ev->payload + op->offset, op->size));
            end = op->end;
            continue;
        }
        /* Where the field is: the plan applied to the ends the event holds (evgen_rd_locate, inline). */
        const rd_field *pl = &v->plan[f];
        uint32_t off, size;
        if (pl->after > ev->n_variable || (pl->step != RD_STEP_FIXED && pl->var >= ev->n_variable)) {
            if (!evgen_event_field(ev, f, &off, &size))
                break;
        } else if (!evgen_rd_locate(pl, ev->variable_end, ev->size, &off, &size)) {
            break;
        }
        end = off + size;
        w = put_rendered_at(o, w, op->key, op->key_len);
        const evgen_trace_field *fd = &ev->layout->fields[f];
        if (!fd->is_array && fd->enum_index < 0 &&
            evgen_wire_kind_class(fd->kind) == EVGEN_WIRE_CLASS_UNSIGNED) { /* the common case */
            w = room_at(o, w, ROOM);
            w = fmt_u64(w, evgen_wire_load(ev->payload + off, size));
        } else {
            o->p = w;
            put_field(d, ev, f, off, size);
            w = o->p;
        }
    }
    o->p = w;
    if (d->json && f > 0) /* the members written carry their commas: the writer learns of them */
        d->jw.has_item[d->jw.depth] = 1;
    if (f == n && end < ev->size)
        put_raw(d, ev, end);
    put_line_end(d, ev, v, f, n);
}

/* ---- the dump ----------------------------------------------------------------------------- */

int evgen_dump(const char *path, const evgen_dump_options *options, int out_fd, FILE *err)
{
    evgen_dump_options opt;
    evgen_dump_options_init(&opt);
    if (options)
        memcpy(&opt, options, options->size < sizeof opt ? options->size : sizeof opt);

    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_with(path, opt.reader, &error);
    if (!rd) {
        fprintf(err, "%s: %s\n", path, error ? error : "cannot open");
        free(error);
        return 1;
    }
    int status = 0;
    dumper d;
    memset(&d, 0, sizeof d);
    d.rd = rd;
    d.json = opt.json;
    d.stacks = opt.stacks;
    d.pointer_size = rd->header.pointer_size;
    d.o.fd = out_fd;
    d.o.buf = d.o.p = malloc(OUT_SIZE);
    d.o.end = d.o.buf ? d.o.buf + OUT_SIZE : NULL;
    jw_init(&d.jw, &d.o);
    uint8_t *keep = NULL; /* by event index: the --event filter */
    stat_entry *by_version = NULL, *by_thread = NULL;
    if (!d.o.buf || prepare(&d) != 0) {
        fprintf(err, "%s: out of memory\n", path);
        status = 1;
        goto done;
    }
    if (opt.n_events) {
        keep = calloc(rd->n_events + 1, 1);
        if (!keep) {
            fprintf(err, "%s: out of memory\n", path);
            status = 1;
            goto done;
        }
        for (size_t i = 0; i < opt.n_events; i++) {
            int found = 0;
            for (size_t e = 0; e < rd->n_events; e++)
                if (strcmp(rd->events[e]->pub.name, opt.events[i]) == 0)
                    keep[e] = 1, found = 1;
            if (!found) {
                fprintf(err, "%s: no event named '%s' in the trace's metadata\n", path, opt.events[i]);
                status = 1;
            }
        }
        if (status)
            goto done;
    }
    if (opt.stats) {
        evgen_reader_status(rd, NULL); /* validation finished first: the threads' table is final */
        by_version = calloc(rd->n_versions + 1, sizeof *by_version);
        by_thread = calloc(rd->n_threads + 1, sizeof *by_thread);
        if (!by_version || !by_thread) {
            fprintf(err, "%s: out of memory\n", path);
            status = 1;
            goto done;
        }
    }

    evgen_progress pr;
    evgen_progress_init(&pr, err, path, rd->total_events, rd->size, opt.progress, out_fd);
    size_t thread_hint = 0;
    evgen_event ev;
    evgen_reader_rewind(rd, opt.order == EVGEN_ORDER_FILE ? EVGEN_ORDER_FILE : EVGEN_ORDER_TIME);
    dump_pipeline *pl = opt.stats ? NULL : evgen_dump_pipeline_start(&d); /* NULL: one thread */
    while (evgen_reader_next(rd, &ev)) {
        evgen_progress_step(&pr);
        if ((keep && !keep[ev.info->index]) || ev.timestamp_ns < opt.from_ns || ev.timestamp_ns > opt.to_ns)
            continue;
        if (!opt.stats) {
            if (pl)
                evgen_dump_pipeline_add(pl, &ev);
            else
                evgen_dump_event(&d, &ev);
            if (d.o.error)
                break;
            continue;
        }
        stat_entry *sv = &by_version[evgen_rd_version_of(&ev)->serial];
        sv->count++;
        sv->bytes += ev.size;
        if (rd->threads[thread_hint].thread_id != ev.thread_id)
            thread_hint = evgen_rd_thread_find(rd, ev.thread_id);
        by_thread[thread_hint].count++;
    }
    if (pl)
        evgen_dump_pipeline_finish(pl);
    evgen_progress_end(&pr);
    if (opt.stats && !d.o.error) {
        if (opt.json)
            dump_stats_json(&d.o, rd, path, by_version, by_thread);
        else
            dump_stats_text(&d.o, rd, path, by_version, by_thread);
    }
    out_flush(&d.o);
    if (d.o.error) {
        fprintf(err, "%s: cannot write the output: %s\n", path, strerror(d.o.error));
        status = 1;
    }
    evgen_reader_problems(rd, NULL); /* the blocks no event was read from verified too */
    for (size_t i = 0; i < rd->n_problems; i++)
        fprintf(err, "%s: offset %llu: %s\n", path, (unsigned long long)rd->problems[i].offset,
                rd->problems[i].message);
    if (rd->n_problems)
        status = 1;

done:
    free(by_version);
    free(by_thread);
    free(keep);
    free_prepared(&d);
    free(d.o.buf);
    evgen_reader_close(rd);
    return status;
}
