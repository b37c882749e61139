/* nettrace_meta.c — a .nettrace file's metadata: records decoded (V4/V5 metadata events with their
 * V1 field lists and V5 V2Params tags; V6 metadata rows), then bound. A record whose (provider,
 * event id) a manifest given at open knows is read with that manifest's layout of the version the
 * record names (the newest the manifest has at or below it), so generated accessors work
 * unchanged; any other becomes an event of its own, with the fields the trace describes as far as
 * the .evtrace kinds express them (EventSource events describe theirs; runtime events none). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nettrace.h"

/* EventPipe type codes (System.TypeCode, and the format's own). */
enum { TC_OBJECT = 1, TC_BOOLEAN = 3, TC_CHAR = 4, TC_SBYTE = 5, TC_BYTE = 6, TC_INT16 = 7, TC_UINT16 = 8,
       TC_INT32 = 9, TC_UINT32 = 10, TC_INT64 = 11, TC_UINT64 = 12, TC_SINGLE = 13, TC_DOUBLE = 14,
       TC_DATETIME = 16, TC_GUID = 17, TC_STRING = 18, TC_ARRAY = 19, TC_UTF8_UNIT = 23, TC_RELLOC = 24,
       TC_DATALOC = 25 };

#define NT_MAX_DEPTH 8
#define NT_MAX_METADATA_ID (1u << 22)

/* The wire kind of a fixed-size type code, or 0 if evgen has none. */
static uint8_t kind_of(uint32_t code)
{
    switch (code) {
    case TC_BOOLEAN: return EVGEN_WIRE_BOOL32;
    case TC_CHAR: return EVGEN_WIRE_U16;
    case TC_SBYTE: return EVGEN_WIRE_I8;
    case TC_BYTE: return EVGEN_WIRE_U8;
    case TC_INT16: return EVGEN_WIRE_I16;
    case TC_UINT16: return EVGEN_WIRE_U16;
    case TC_INT32: return EVGEN_WIRE_I32;
    case TC_UINT32: return EVGEN_WIRE_U32;
    case TC_INT64: return EVGEN_WIRE_I64;
    case TC_UINT64: return EVGEN_WIRE_U64;
    case TC_SINGLE: return EVGEN_WIRE_F32;
    case TC_DOUBLE: return EVGEN_WIRE_F64;
    case TC_DATETIME: return EVGEN_WIRE_I64; /* a FILETIME */
    case TC_GUID: return EVGEN_WIRE_GUID;
    case TC_UTF8_UNIT: return EVGEN_WIRE_U8;
    case TC_RELLOC: case TC_DATALOC: return EVGEN_WIRE_U32; /* the size and position word itself */
    default: return 0;
    }
}

/* ---- the fields a record describes ------------------------------------------------------------ */

/* Fields as far as they go: the first one evgen cannot express ends the list, and the payload
 * after it is raw (the .evtrace rule for a newer version's tail). */
typedef struct fields {
    evgen_reader *rd;
    evgen_trace_field *items;
    uint32_t n, cap;
    int stopped; /* a field could not be expressed */
    int oom;
} fields;

static char *arena_string(evgen_reader *rd, const char *a, const char *b, size_t b_len)
{
    size_t n = strlen(a);
    char *s = evgen_rd_arena_alloc(&rd->arena, n + b_len + 1);
    if (s) {
        memcpy(s, a, n);
        memcpy(s + n, b, b_len);
        s[n + b_len] = '\0';
    }
    return s;
}

static void add_field(fields *f, const char *name, uint8_t kind, int is_array, int32_t count_field)
{
    if (f->stopped || f->oom)
        return;
    if (f->n == f->cap) {
        uint32_t cap = f->cap ? 2 * f->cap : 16;
        evgen_trace_field *items = evgen_rd_arena_alloc(&f->rd->arena, cap * sizeof *items);
        if (!items) {
            f->oom = 1;
            return;
        }
        if (f->n)
            memcpy(items, f->items, f->n * sizeof *items);
        f->items = items;
        f->cap = cap;
    }
    evgen_trace_field *x = &f->items[f->n++];
    x->name = name;
    x->kind = kind;
    x->is_array = (uint8_t)is_array;
    x->enum_index = -1;
    x->struct_index = -1;
    x->count_field = count_field;
}

/* A field of `code` (element `element` for an array) named prefix + name. */
static void add_typed(fields *f, const char *prefix, const char *name, uint32_t code, uint32_t element)
{
    if (f->stopped || f->oom)
        return;
    const char *full = arena_string(f->rd, prefix, name, strlen(name));
    if (!full) {
        f->oom = 1;
        return;
    }
    if (code == TC_STRING) {
        add_field(f, full, EVGEN_WIRE_UTF16Z, 0, -1);
    } else if (code == TC_ARRAY && kind_of(element)) {
        /* A uint16 count, then the elements: the count as a field of its own, as evgen arrays have. */
        const char *count = arena_string(f->rd, full, "Count", 5);
        if (!count) {
            f->oom = 1;
            return;
        }
        add_field(f, count, EVGEN_WIRE_U16, 0, -1);
        add_field(f, full, kind_of(element), 1, (int32_t)f->n - 1);
    } else if (kind_of(code)) {
        add_field(f, full, kind_of(code), 0, -1);
    } else {
        f->stopped = 1;
    }
}

/* ---- reading ------------------------------------------------------------------------------------ */

/* A NUL-terminated UTF-16LE string, as UTF-8 in the arena ("" at the end of the data). */
static const char *take_utf16(rd_ncur *c, evgen_reader *rd)
{
    const uint8_t *s = c->p;
    size_t units = 0;
    for (;;) {
        if ((size_t)(c->end - c->p) < 2) {
            c->bad = 1;
            return "";
        }
        uint16_t u = evgen_wire_le16(c->p);
        c->p += 2;
        if (!u)
            break;
        units++;
    }
    evgen_utf16_view v = {s, (uint32_t)units};
    size_t n = evgen_utf16_to_utf8(v, NULL, 0);
    char *out = evgen_rd_arena_alloc(&rd->arena, n + 1);
    if (!out) {
        c->bad = 1;
        return "";
    }
    evgen_utf16_to_utf8(v, out, n + 1);
    return out;
}

/* A varuint32-length-prefixed UTF-8 string (V6), in the arena. */
static const char *take_utf8(rd_ncur *c, evgen_reader *rd)
{
    uint64_t n = rd_nt_take_varint(c);
    if (c->bad || n > (size_t)(c->end - c->p)) {
        c->bad = 1;
        return "";
    }
    char *out = evgen_rd_arena_alloc(&rd->arena, (size_t)n + 1);
    if (!out) {
        c->bad = 1;
        return "";
    }
    memcpy(out, c->p, (size_t)n);
    out[n] = '\0';
    c->p += n;
    return out;
}

/* A V1 field list (int32 count, then type code, nested list for objects, name). Nested objects'
 * fields are flattened as Outer.Inner: named once the object's own name, which follows them, is
 * read. */
static void v1_fields(rd_ncur *c, fields *f, int depth)
{
    uint32_t n = (uint32_t)rd_nt_take(c, 4);
    for (uint32_t i = 0; i < n && !c->bad; i++) {
        uint32_t code = (uint32_t)rd_nt_take(c, 4);
        if (code == TC_OBJECT) {
            if (depth >= NT_MAX_DEPTH) {
                c->bad = 1;
                return;
            }
            uint32_t first = f->n;
            v1_fields(c, f, depth + 1);
            const char *name = take_utf16(c, f->rd);
            for (uint32_t k = first; k < f->n && !f->oom; k++) {
                const char *inner = f->items[k].name;
                char *full = arena_string(f->rd, name, ".", 1);
                full = full ? arena_string(f->rd, full, inner, strlen(inner)) : NULL;
                if (!full)
                    f->oom = 1;
                else
                    f->items[k].name = full;
            }
        } else {
            const char *name = take_utf16(c, f->rd);
            add_typed(f, "", name, code, 0);
        }
    }
}

/* A V5 V2Params field list: int32 count, then per field int32 size (inclusive), name, type code,
 * element type code for arrays, nested list for objects. */
static void v2_fields(rd_ncur *c, fields *f, const char *prefix, int depth)
{
    uint32_t n = (uint32_t)rd_nt_take(c, 4);
    for (uint32_t i = 0; i < n && !c->bad; i++) {
        const uint8_t *start = c->p;
        uint32_t size = (uint32_t)rd_nt_take(c, 4);
        if (c->bad || size < 4 || size > (size_t)(c->end - start)) {
            c->bad = 1;
            return;
        }
        rd_ncur fc = {c->p, start + size, 0};
        const char *name = take_utf16(&fc, f->rd);
        uint32_t code = (uint32_t)rd_nt_take(&fc, 4), element = 0;
        if (code == TC_ARRAY)
            element = (uint32_t)rd_nt_take(&fc, 4);
        if (code == TC_OBJECT && depth < NT_MAX_DEPTH) {
            char *inner = arena_string(f->rd, prefix, name, strlen(name));
            inner = inner ? arena_string(f->rd, inner, ".", 1) : NULL;
            if (inner)
                v2_fields(&fc, f, inner, depth + 1);
            else
                f->oom = 1;
        } else {
            add_typed(f, prefix, name, code, element);
        }
        c->p = start + size;
    }
}

static void finish(fields *f, rd_nt_meta_record *r)
{
    r->fields = f->items;
    r->n_fields = f->n;
}

int evgen_rd_nt_meta_v5(evgen_reader *rd, const uint8_t *p, const uint8_t *end, rd_nt_meta_record *r, char *why,
                        size_t why_size)
{
    memset(r, 0, sizeof *r);
    rd_ncur c = {p, end, 0};
    r->id = (uint32_t)rd_nt_take(&c, 4);
    r->provider = take_utf16(&c, rd);
    r->event_id = (uint32_t)rd_nt_take(&c, 4);
    r->name = take_utf16(&c, rd);
    r->keywords = rd_nt_take(&c, 8);
    r->version = (uint32_t)rd_nt_take(&c, 4);
    r->level = (uint32_t)rd_nt_take(&c, 4);
    if (c.bad) {
        snprintf(why, why_size, "the record ends inside its header");
        return -1;
    }
    fields f = {rd, NULL, 0, 0, 0, 0};
    if (c.p < c.end) /* runtime events may stop here: no field list at all */
        v1_fields(&c, &f, 0);
    /* V5 tags: an opcode, or a V2Params field list that replaces the (then empty) V1 list. */
    while (!c.bad && c.p < c.end) {
        uint32_t bytes = (uint32_t)rd_nt_take(&c, 4);
        uint8_t kind = (uint8_t)rd_nt_take(&c, 1);
        if (c.bad || bytes > (size_t)(c.end - c.p)) {
            c.bad = 1;
            break;
        }
        rd_ncur t = {c.p, c.p + bytes, 0};
        if (kind == 2) {
            fields f2 = {rd, NULL, 0, 0, 0, 0};
            v2_fields(&t, &f2, "", 0);
            if (t.bad) {
                c.bad = 1;
                break;
            }
            f = f2;
        }
        c.p += bytes;
    }
    if (f.oom) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (c.bad) {
        snprintf(why, why_size, "event %u of %s: the field descriptions do not decode", r->event_id, r->provider);
        return -1;
    }
    finish(&f, r);
    return 0;
}

/* ---- V6 --------------------------------------------------------------------------------------- */

static void v6_type(rd_ncur *c, fields *f, const char *prefix, const char *name, int depth);

/* FieldDescriptions: uint16 count, each uint16 size, name, type. */
static void v6_fields(rd_ncur *c, fields *f, const char *prefix, int depth)
{
    uint32_t n = (uint32_t)rd_nt_take(c, 2);
    for (uint32_t i = 0; i < n && !c->bad; i++) {
        uint32_t size = (uint32_t)rd_nt_take(c, 2);
        if (c->bad || size > (size_t)(c->end - c->p)) {
            c->bad = 1;
            return;
        }
        rd_ncur fc = {c->p, c->p + size, 0};
        const char *name = take_utf8(&fc, f->rd);
        v6_type(&fc, f, prefix, name, depth);
        if (fc.bad)
            c->bad = 1;
        c->p += size;
    }
}

static void v6_type(rd_ncur *c, fields *f, const char *prefix, const char *name, int depth)
{
    uint32_t code = (uint32_t)rd_nt_take(c, 1);
    if (c->bad || depth >= NT_MAX_DEPTH) {
        c->bad = 1;
        return;
    }
    if (code == TC_OBJECT) {
        char *inner = arena_string(f->rd, prefix, name, strlen(name));
        inner = inner ? arena_string(f->rd, inner, ".", 1) : NULL;
        if (!inner) {
            f->oom = 1;
            return;
        }
        v6_fields(c, f, inner, depth + 1);
    } else if (code == TC_ARRAY || code == 22 || code == TC_RELLOC || code == TC_DATALOC) {
        /* The element type follows; only a plain array of a fixed-size kind is expressible. */
        const uint8_t *at = c->p;
        uint32_t element = (uint32_t)rd_nt_take(c, 1);
        c->p = at;
        fields none = {f->rd, NULL, 0, 0, 1, 0}; /* parse (to skip) the element type, adding nothing */
        v6_type(c, &none, "", "", depth + 1);
        if (code == 22)
            rd_nt_take(c, 2); /* the fixed length */
        if (code == TC_ARRAY && element != TC_OBJECT && element != TC_ARRAY)
            add_typed(f, prefix, name, TC_ARRAY, element);
        else if (code == TC_ARRAY || code == 22)
            f->stopped = 1;
        else
            add_typed(f, prefix, name, code, 0);
    } else {
        add_typed(f, prefix, name, code, 0);
    }
}

int evgen_rd_nt_meta_v6(evgen_reader *rd, const uint8_t *p, const uint8_t *end, rd_nt_meta_record *r, char *why,
                        size_t why_size)
{
    memset(r, 0, sizeof *r);
    rd_ncur c = {p, end, 0};
    uint64_t id = rd_nt_take_varint(&c);
    r->provider = take_utf8(&c, rd);
    uint64_t event_id = rd_nt_take_varint(&c);
    r->name = take_utf8(&c, rd);
    fields f = {rd, NULL, 0, 0, 0, 0};
    v6_fields(&c, &f, "", 0);
    r->level = 0;
    uint32_t opt = (uint32_t)rd_nt_take(&c, 2);
    if (!c.bad && opt <= (size_t)(c.end - c.p)) {
        rd_ncur o = {c.p, c.p + opt, 0};
        while (!o.bad && o.p < o.end) {
            uint8_t kind = (uint8_t)rd_nt_take(&o, 1);
            switch (kind) {
            case 1: rd_nt_take(&o, 1); break;                               /* opcode */
            case 3: r->keywords = rd_nt_take(&o, 8); break;
            case 4: case 5: take_utf8(&o, rd); break;                 /* message template, description */
            case 6: take_utf8(&o, rd); take_utf8(&o, rd); break;      /* key, value */
            case 7: rd_nt_take(&o, 8); rd_nt_take(&o, 8); break;                  /* provider guid */
            case 8: r->level = (uint32_t)rd_nt_take(&o, 1); break;
            case 9: r->version = (uint32_t)rd_nt_take(&o, 1); break;
            default: o.p = o.end; break;                              /* unknown: the rest is its */
            }
        }
    } else {
        c.bad = 1;
    }
    if (f.oom) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (c.bad || id > UINT32_MAX || event_id > UINT32_MAX) {
        snprintf(why, why_size, "metadata row of %s does not decode", r->provider);
        return -1;
    }
    r->id = (uint32_t)id;
    r->event_id = (uint32_t)event_id;
    finish(&f, r);
    return 0;
}

/* ---- binding ---------------------------------------------------------------------------------- */

/* The manifest event a record binds to, and its version: the newest at or below the record's. */
static const rd_version *bound_version(const evgen_reader *rd, const rd_nt_meta_record *r)
{
    for (size_t i = 0; i < rd->n_events; i++) {
        const rd_event *e = rd->events[i];
        if (e->pub.unbound || e->pub.id != r->event_id || strcasecmp(e->pub.provider, r->provider) != 0)
            continue;
        const rd_version *best = NULL;
        for (uint32_t k = 0; k < e->pub.n_versions; k++)
            if (e->pub.versions[k].version <= r->version)
                best = &e->versions[k];
        if (best)
            return best;
    }
    return NULL;
}

/* An event of its own for a record no manifest knows. */
static const rd_version *own_version(evgen_reader *rd, const rd_nt_meta_record *r)
{
    rd_nettrace *nt = evgen_rd_nt(rd);
    if (!nt->own) {
        nt->own = evgen_rd_arena_alloc(&rd->arena, sizeof *nt->own);
        if (!nt->own)
            return NULL;
        nt->own->name = "nettrace";
    }
    rd_event *e = evgen_rd_arena_alloc(&rd->arena, sizeof *e);
    evgen_trace_version *v = evgen_rd_arena_alloc(&rd->arena, sizeof *v);
    rd_version *rv = evgen_rd_arena_alloc(&rd->arena, sizeof *rv);
    if (!e || !v || !rv)
        return NULL;
    const char *name = r->name;
    if (!name[0]) { /* runtime events carry no name: their id stands in */
        char buf[24];
        snprintf(buf, sizeof buf, "Event%u", r->event_id);
        name = arena_string(rd, buf, "", 0);
        if (!name)
            return NULL;
    }
    e->pub.name = name;
    e->pub.provider = r->provider;
    e->pub.id = r->event_id;
    e->pub.level = (uint8_t)r->level;
    e->pub.keywords = r->keywords;
    e->pub.manifest = nt->own;
    e->pub.unbound = 1;
    v->version = r->version;
    v->fields = r->fields;
    v->n_fields = r->n_fields;
    v->level = e->pub.level;
    v->keywords = e->pub.keywords;
    e->pub.versions = v;
    e->pub.n_versions = 1;
    rv->pub = v;
    rv->info = &e->pub;
    e->versions = rv;
    if (evgen_rd_lower(rd, nt->own, v, rv) != 0 || evgen_rd_add_event(rd, e) != 0)
        return NULL;
    return rv;
}

int evgen_rd_nt_define(evgen_reader *rd, const rd_nt_meta_record *r, uint64_t offset)
{
    rd_nettrace *nt = evgen_rd_nt(rd);
    if (r->id == 0 || r->id >= NT_MAX_METADATA_ID) {
        evgen_rd_problem(rd, offset, "metadata id %u out of range: its events cannot be read", r->id);
        return 0;
    }
    if (evgen_rd_grow((void **)&nt->metas, &nt->cap_metas, (size_t)r->id + 1, sizeof *nt->metas) != 0)
        return -1;
    if (nt->n_metas <= r->id) {
        memset(nt->metas + nt->n_metas, 0, ((size_t)r->id + 1 - nt->n_metas) * sizeof *nt->metas);
        nt->n_metas = (size_t)r->id + 1;
    }
    const rd_version *v = bound_version(rd, r);
    if (!v)
        v = own_version(rd, r);
    if (!v)
        return -1;
    nt->metas[r->id].version = v;
    nt->metas[r->id].trace_version = r->version;
    return 0;
}
