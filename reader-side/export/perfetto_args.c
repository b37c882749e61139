/* perfetto_args.c — an event's fields as the "args" of its trace event (docs/export-perfetto.md,
 * "Args"): each field decoded from the trace's own metadata by its wire kind, the way `evgen dump
 * --json` decodes it (GUID text, pointers in hex, bools, UTF-8 and UTF-16 strings, arrays, struct
 * elements, the undecoded tail in hex), with two rules for the JavaScript that reads the file: an
 * enum value that has a name is the string "Name (value)", and an integer beyond ±(2^53 - 1) is
 * the string of its decimal digits. What is not a field (the version, where a cut payload ends,
 * the tail) goes under a key starting with '@', which no field name does. Also the numbers and the
 * event head every trace event starts with. */
#include <stdio.h>
#include <string.h>

#include "perfetto.h"
#include "evgen/wire_bytes.h"
#include "evgen/wire_kinds.h"

/* ---- numbers and heads -------------------------------------------------------------------------- */

/* A magnitude with its sign: a number, or beyond PF_EXACT_MAX a string. */
static char *fmt_int(char *w, int negative, uint64_t magnitude)
{
    int quoted = magnitude > PF_EXACT_MAX;
    if (quoted)
        *w++ = '"';
    if (negative)
        *w++ = '-';
    w = fmt_u64(w, magnitude);
    if (quoted)
        *w++ = '"';
    return w;
}

void pf_u64(pf_out *out, uint64_t v)
{
    jw_value(&out->jw);
    out->o.p = fmt_int(room(&out->o, ROOM), 0, v);
}

void pf_i64(pf_out *out, int64_t v)
{
    jw_value(&out->jw);
    out->o.p = fmt_int(room(&out->o, ROOM), v < 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

void pf_event_open(pf_out *out, const char *name, const char *cat, const char *ph, uint64_t ts_ns, uint64_t tid)
{
    json_writer *w = &out->jw;
    jw_line_before_item(w);
    jw_begin_object(w);
    jw_key_string(w, "name", name);
    if (cat)
        jw_key_string(w, "cat", cat);
    jw_key_string(w, "ph", ph);
    /* microseconds, exact to the nanosecond: 5455940.736 */
    jw_key(w, "ts");
    char *p = room(&out->o, ROOM);
    p = fmt_u64(p, ts_ns / 1000);
    unsigned ns = (unsigned)(ts_ns % 1000);
    p[0] = '.';
    p[1] = (char)('0' + ns / 100);
    p[2] = (char)('0' + ns / 10 % 10);
    p[3] = (char)('0' + ns % 10);
    out->o.p = p + 4;
    jw_key(w, "pid");
    pf_u64(out, out->pid);
    jw_key(w, "tid");
    pf_u64(out, tid);
}

/* ---- values --------------------------------------------------------------------------------------- */

/* One fixed-size value of `kind` at p (its size known to fit), after the writer's jw_value. */
static void put_scalar(pf_out *out, unsigned kind, const uint8_t *p, const evgen_trace_enum *en)
{
    dump_buffer *o = &out->o;
    unsigned size = evgen_wire_kind_size(kind, out->pointer_size);
    char *w = room(o, ROOM);
    switch (evgen_wire_kind_class(kind)) {
    case EVGEN_WIRE_CLASS_UNSIGNED:
    case EVGEN_WIRE_CLASS_SIGNED: {
        int is_signed = evgen_wire_kind_is_signed(kind);
        uint64_t u = evgen_wire_load(p, size);
        int64_t s = is_signed ? evgen_wire_load_signed(p, size) : (int64_t)u;
        int negative = is_signed && s < 0;
        uint64_t magnitude = negative ? 0 - (uint64_t)s : u;
        const char *constant = en ? evgen_trace_enum_name(en, s) : NULL;
        if (constant) { /* "AllocSmall (0)" */
            putc_(o, '"');
            put_utf8_chars(o, (const uint8_t *)constant, strlen(constant), 1);
            w = room(o, ROOM);
            *w++ = ' ';
            *w++ = '(';
            if (negative)
                *w++ = '-';
            w = fmt_u64(w, magnitude);
            *w++ = ')';
            *w++ = '"';
        } else {
            w = fmt_int(w, negative, magnitude);
        }
        break;
    }
    case EVGEN_WIRE_CLASS_FLOAT:
        w = fmt_float(w, kind, p, 1);
        break;
    case EVGEN_WIRE_CLASS_BOOL: /* a bool32 holding another value: the value, as dump prints it */
        w = fmt_bool(w, evgen_wire_load(p, size));
        break;
    case EVGEN_WIRE_CLASS_GUID:
        *w++ = '"';
        w = fmt_guid(w, p);
        *w++ = '"';
        break;
    case EVGEN_WIRE_CLASS_POINTER:
        w = fmt_pointer(w, evgen_wire_load(p, size), 1);
        break;
    case EVGEN_WIRE_CLASS_UTF8:
    case EVGEN_WIRE_CLASS_UTF16:
    case EVGEN_WIRE_CLASS_STRUCT: /* not a scalar (nor a kind at all): never from checked metadata */
        memcpy(w, "null", 4);
        w += 4;
        break;
    }
    o->p = w;
}

static void put_array(pf_out *out, const evgen_trace_field *fd, const evgen_trace_manifest *m, const uint8_t *p,
                      uint32_t size)
{
    json_writer *w = &out->jw;
    const evgen_trace_struct *st = fd->kind == EVGEN_WIRE_STRUCT ? &m->structs[fd->struct_index] : NULL;
    uint32_t elem = st ? st->stride : evgen_wire_kind_size(fd->kind, out->pointer_size);
    const evgen_trace_enum *en = fd->enum_index >= 0 ? &m->enums[fd->enum_index] : NULL;
    uint32_t count = elem ? size / elem : 0;
    jw_begin_array(w);
    /* Struct elements one after the other (a variable struct's are walked); scalars by index. */
    uint32_t at = 0;
    for (uint32_t i = 0; st ? at < size : i < count; i++) {
        const uint8_t *e = st ? p + at : p + (size_t)i * elem;
        uint32_t esize = st ? evgen_struct_element_size(st, e, size - at, out->pointer_size) : elem;
        if (esize == 0) /* never for an array the plan located whole */
            break;
        at += esize;
        if (!st) {
            jw_value(w);
            put_scalar(out, fd->kind, e, en);
            continue;
        }
        jw_begin_object(w);
        for (uint32_t k = 0; k < st->n_members; k++) {
            const evgen_trace_member *mb = &st->members[k];
            jw_key(w, mb->name);
            jw_value(w);
            uint32_t mo, ms;
            evgen_wire_class cls = evgen_wire_kind_class(mb->kind);
            if (!evgen_struct_member(st, e, esize, out->pointer_size, k, &mo, &ms))
                puts_(&out->o, "null"); /* never: the element was walked whole */
            else if (cls == EVGEN_WIRE_CLASS_UTF8)
                put_utf8(&out->o, e + mo, ms - 1, 1);
            else if (cls == EVGEN_WIRE_CLASS_UTF16)
                put_utf16(&out->o, e + mo, (ms - 2) / 2, 1);
            else
                put_scalar(out, mb->kind, e + mo, mb->enum_index >= 0 ? &m->enums[mb->enum_index] : NULL);
        }
        jw_end(w);
    }
    jw_end(w);
}

static void put_field(pf_out *out, const evgen_event *ev, uint32_t f, uint32_t off, uint32_t size)
{
    const evgen_trace_field *fd = &ev->layout->fields[f];
    const evgen_trace_manifest *m = ev->info->manifest;
    const uint8_t *p = ev->payload + off;
    evgen_wire_class cls = evgen_wire_kind_class(fd->kind);
    if (fd->is_array) {
        put_array(out, fd, m, p, size);
        return;
    }
    jw_value(&out->jw);
    if (cls == EVGEN_WIRE_CLASS_UTF8)
        put_utf8(&out->o, p, size - 1, 1);
    else if (cls == EVGEN_WIRE_CLASS_UTF16)
        put_utf16(&out->o, p, (size - 2) / 2, 1);
    else
        put_scalar(out, fd->kind, p, fd->enum_index >= 0 ? &m->enums[fd->enum_index] : NULL);
}

/* Payload bytes from `off` on, in hex: what no field describes (an unbound event's payload, the
 * tail past the fields a version describes), as dump's "raw". */
static void put_raw(pf_out *out, const evgen_event *ev, uint32_t off)
{
    dump_buffer *o = &out->o;
    jw_key(&out->jw, "@raw");
    jw_value(&out->jw);
    putc_(o, '"');
    for (uint32_t i = off; i < ev->size; i++) {
        char *w = room(o, 2);
        w[0] = hexdigits[ev->payload[i] >> 4];
        w[1] = hexdigits[ev->payload[i] & 15];
        o->p = w + 2;
    }
    putc_(o, '"');
}

void pf_event_args(pf_out *out, const evgen_event *ev)
{
    json_writer *w = &out->jw;
    jw_key(w, "args");
    jw_begin_object(w);
    uint32_t n = ev->layout->n_fields, f, end = 0;
    for (f = 0; f < n; f++) {
        uint32_t off, size;
        if (!evgen_event_field(ev, f, &off, &size))
            break; /* the payload ends before this field: it and the rest are left out */
        end = off + size;
        jw_key(w, ev->layout->fields[f].name);
        put_field(out, ev, f, off, size);
    }
    if (f < n)
        jw_key_string(w, "@truncated", ev->layout->fields[f].name);
    else if (end < ev->size)
        put_raw(out, ev, end);
    jw_key(w, "@version");
    pf_u64(out, ev->layout->version);
    if (ev->stream) { /* an event of a signal handler's nested stream (.evtrace) */
        jw_key(w, "@stream");
        pf_u64(out, ev->stream);
    }
    jw_end(w);
}
