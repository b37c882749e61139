/* trace_parse.c — the runtime tests' own .evtrace parser (see trace_parse.h): written from
 * docs/format.md, sharing no code with libevgen-runtime, so the two check each other. */
#include "trace_parse.h"

#include "evgen/runtime_emit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t tp_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n; i-- > 0;)
        v = (v << 8) | p[i];
    return v;
}

typedef struct cursor {
    const uint8_t *p, *end;
    int bad;
} cursor;

static uint64_t get_varint(cursor *c)
{
    uint64_t v = 0;
    for (int i = 0; i < 10; i++) {
        if (c->p >= c->end) {
            c->bad = 1;
            return 0;
        }
        uint8_t b = *c->p++;
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80))
            return v;
    }
    c->bad = 1; /* longer than 10 bytes */
    return 0;
}

static int64_t get_zigzag(cursor *c)
{
    uint64_t z = get_varint(c);
    return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

static char *get_string(cursor *c)
{
    uint64_t n = get_varint(c);
    if (c->bad || n > (uint64_t)(c->end - c->p)) {
        c->bad = 1;
        return strdup("");
    }
    char *s = malloc(n + 1);
    memcpy(s, c->p, n);
    s[n] = 0;
    c->p += n;
    return s;
}

static int fail(tp_trace *t, const char *fmt, ...)
{
    if (!t->error[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->error, sizeof t->error, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* A count that must fit what is left of the payload (each element takes at least one byte). */
static size_t get_count(cursor *c)
{
    uint64_t n = get_varint(c);
    if (n > (uint64_t)(c->end - c->p)) {
        c->bad = 1;
        return 0;
    }
    return (size_t)n;
}

/* The kinds' sizes and classes are the table of evgen/wire_kinds.h (test_wire checks it against
 * docs/format.md); everything else here is parsed independently of libevgen-wire. */
static uint64_t kind_size(const tp_trace *t, uint64_t kind)
{
    return kind > UINT32_MAX ? 0 : evgen_wire_kind_size((unsigned)kind, t->pointer_size); /* 0: strings, structs */
}

static int is_integer_kind(uint64_t kind)
{
    return kind <= UINT32_MAX && evgen_wire_kind_is_integer((unsigned)kind);
}

static int is_string_kind(uint64_t kind)
{
    return kind <= UINT32_MAX && evgen_wire_kind_is_string((unsigned)kind);
}

static int parse_metadata(tp_trace *t, cursor *c, size_t offset)
{
    tp_manifest m = {0};
    m.first_type = get_varint(c);
    m.name = get_string(c);
    m.n_providers = get_count(c);
    m.providers = calloc(m.n_providers + 1, sizeof *m.providers);
    for (size_t i = 0; i < m.n_providers; i++)
        m.providers[i] = get_string(c);
    m.n_enums = get_count(c);
    m.enums = calloc(m.n_enums + 1, sizeof *m.enums);
    for (size_t i = 0; i < m.n_enums && !c->bad; i++) {
        tp_enum *e = &m.enums[i];
        e->name = get_string(c);
        e->n_consts = get_count(c);
        e->consts = calloc(e->n_consts + 1, sizeof *e->consts);
        for (size_t k = 0; k < e->n_consts && !c->bad; k++) {
            e->consts[k].name = get_string(c);
            e->consts[k].value = get_zigzag(c);
        }
    }
    m.n_structs = get_count(c);
    m.structs = calloc(m.n_structs + 1, sizeof *m.structs);
    for (size_t i = 0; i < m.n_structs && !c->bad; i++) {
        tp_struct *s = &m.structs[i];
        s->name = get_string(c);
        s->stride = get_varint(c);
        s->n_members = get_count(c);
        s->members = calloc(s->n_members + 1, sizeof *s->members);
        /* A variable struct (stride 0): members may be strings, one at least; each offset counts
         * the bytes after the last string member before it (docs/format.md). */
        uint64_t after_string = 0, strings = 0;
        for (size_t k = 0; k < s->n_members && !c->bad; k++) {
            tp_member *mb = &s->members[k];
            mb->name = get_string(c);
            mb->kind = get_varint(c);
            mb->offset = get_varint(c);
            mb->enum_plus1 = get_varint(c);
            if (c->bad)
                break;
            int sized = kind_size(t, mb->kind) != 0 || (s->stride == 0 && is_string_kind(mb->kind));
            if (!sized || mb->enum_plus1 > m.n_enums ||
                (s->stride == 0 ? mb->offset != after_string : mb->offset + kind_size(t, mb->kind) > s->stride))
                c->bad = 2;
            strings += is_string_kind(mb->kind);
            after_string = is_string_kind(mb->kind) ? 0 : after_string + kind_size(t, mb->kind);
        }
        if (!c->bad && s->stride == 0 && strings == 0)
            c->bad = 2;
    }
    m.n_events = get_count(c);
    m.events = calloc(m.n_events + 1, sizeof *m.events);
    size_t n_types = 0;
    for (size_t i = 0; i < m.n_events && !c->bad; i++) {
        tp_event *e = &m.events[i];
        e->name = get_string(c);
        e->provider = get_varint(c);
        e->id = get_varint(c);
        e->level = get_varint(c);
        e->keywords = get_varint(c);
        e->n_versions = get_count(c);
        e->versions = calloc(e->n_versions + 1, sizeof *e->versions);
        if (e->provider >= m.n_providers)
            c->bad = 2;
        for (size_t v = 0; v < e->n_versions && !c->bad; v++) {
            tp_version *ver = &e->versions[v];
            ver->version = get_varint(c);
            ver->flags = get_varint(c);
            /* Bit 1: the version's own level and keywords follow; other bits are not defined. */
            ver->level = e->level;
            ver->keywords = e->keywords;
            if (ver->flags & 2) {
                ver->level = get_varint(c);
                ver->keywords = get_varint(c);
                if (ver->level > 255)
                    c->bad = 2;
            }
            if (ver->flags & ~(uint64_t)3)
                c->bad = 2;
            ver->n_fields = get_count(c);
            ver->fields = calloc(ver->n_fields + 1, sizeof *ver->fields);
            for (size_t f = 0; f < ver->n_fields && !c->bad; f++) {
                tp_field *fd = &ver->fields[f];
                fd->name = get_string(c);
                fd->kind = get_varint(c);
                fd->flags = get_varint(c);
                fd->enum_plus1 = get_varint(c);
                fd->struct_plus1 = get_varint(c);
                fd->count_plus1 = get_varint(c);
                int array = (fd->flags & 1) != 0;
                if (c->bad)
                    break;
                if (fd->kind > UINT32_MAX || !evgen_wire_kind_valid((unsigned)fd->kind) || fd->enum_plus1 > m.n_enums ||
                    fd->struct_plus1 > m.n_structs || (fd->kind == EVGEN_WIRE_STRUCT) != (fd->struct_plus1 != 0) ||
                    (fd->kind == EVGEN_WIRE_STRUCT && !array) ||
                    (array && (fd->count_plus1 == 0 || fd->count_plus1 > f ||
                               !is_integer_kind(ver->fields[fd->count_plus1 - 1].kind) ||
                               (ver->fields[fd->count_plus1 - 1].flags & 1))) ||
                    (!array && fd->count_plus1 != 0) || (array && is_string_kind(fd->kind)))
                    c->bad = 2;
            }
            n_types++;
        }
    }
    if (c->bad || c->p != c->end) {
        t->manifests = realloc(t->manifests, (t->n_manifests + 1) * sizeof *t->manifests);
        t->manifests[t->n_manifests++] = m; /* freed with the trace */
        return fail(t, "metadata block at offset %zu: %s", offset,
                    c->bad == 2 ? "invalid descriptor" : c->bad ? "truncated" : "trailing bytes");
    }
    if (m.first_type != t->n_types) {
        t->manifests = realloc(t->manifests, (t->n_manifests + 1) * sizeof *t->manifests);
        t->manifests[t->n_manifests++] = m;
        return fail(t, "metadata block at offset %zu: first_type %llu, expected %zu", offset,
                    (unsigned long long)m.first_type, t->n_types);
    }
    t->manifests = realloc(t->manifests, (t->n_manifests + 1) * sizeof *t->manifests);
    t->manifests[t->n_manifests] = m;
    t->types = realloc(t->types, (t->n_types + n_types + 1) * sizeof *t->types);
    for (size_t i = 0; i < m.n_events; i++)
        for (size_t v = 0; v < m.events[i].n_versions; v++) {
            const tp_version *ver = &m.events[i].versions[v];
            tp_type ty = {t->n_manifests, i, v, 0, 0};
            for (size_t f = 0; f < ver->n_fields; f++) {
                const tp_field *fd = &ver->fields[f];
                if ((fd->flags & 1) || is_string_kind(fd->kind))
                    ty.variable = 1;
                else
                    ty.fixed_size += fd->kind == EVGEN_WIRE_STRUCT ? m.structs[fd->struct_plus1 - 1].stride : kind_size(t, fd->kind);
            }
            t->types[t->n_types++] = ty;
        }
    t->n_manifests++;
    return 0;
}

/* The bytes of one value of a string or fixed kind at `off`, or more than `size - off` if the
 * payload does not hold it whole. */
static uint64_t value_need(const tp_trace *t, uint64_t kind, const uint8_t *p, uint64_t off, uint64_t size)
{
    if (kind == EVGEN_WIRE_UTF8Z) {
        const uint8_t *z = off < size ? memchr(p + off, 0, size - off) : NULL;
        return z ? (uint64_t)(z - (p + off)) + 1 : size + 1;
    }
    if (kind == EVGEN_WIRE_UTF16Z) {
        for (uint64_t k = off; k + 1 < size; k += 2)
            if (p[k] == 0 && p[k + 1] == 0)
                return k + 2 - off;
        return size + 1;
    }
    return kind_size(t, kind);
}

/* Walks a variable payload field by field: it must take exactly `size` bytes. */
static int payload_fits(const tp_trace *t, const tp_type *ty, const uint8_t *p, uint64_t size)
{
    const tp_manifest *m = &t->manifests[ty->manifest];
    const tp_version *ver = &m->events[ty->event].versions[ty->version];
    uint64_t *values = calloc(ver->n_fields + 1, sizeof *values);
    uint64_t off = 0;
    int ok = 1;
    for (size_t f = 0; f < ver->n_fields && ok; f++) {
        const tp_field *fd = &ver->fields[f];
        uint64_t need;
        const tp_struct *st = fd->kind == EVGEN_WIRE_STRUCT ? &m->structs[fd->struct_plus1 - 1] : NULL;
        if ((fd->flags & 1) && st && st->stride == 0) { /* a variable struct: walked member by member */
            need = 0;
            for (uint64_t i = 0; i < values[fd->count_plus1 - 1] && need <= size - off; i++)
                for (size_t k = 0; k < st->n_members && need <= size - off; k++)
                    need += value_need(t, st->members[k].kind, p, off + need, size);
        } else if (fd->flags & 1) {
            uint64_t elem = st ? st->stride : kind_size(t, fd->kind);
            need = values[fd->count_plus1 - 1] * elem;
        } else if (is_string_kind(fd->kind)) {
            need = value_need(t, fd->kind, p, off, size);
        } else {
            need = kind_size(t, fd->kind);
            if (off + need <= size && is_integer_kind(fd->kind))
                values[f] = le(p + off, (int)need);
        }
        if (need > size - off)
            ok = 0;
        else
            off += need;
    }
    free(values);
    return ok && off == size;
}

/* Sequences run per (thread, stream): a stream is a nesting level of the thread's emits. */
typedef struct seq_entry {
    uint64_t tid;
    uint32_t stream;
    uint32_t next;
} seq_entry;

static int parse_events(tp_trace *t, const uint8_t *h, cursor *c, size_t offset, seq_entry **seqs, size_t *n_seqs,
                        tp_record_fn fn, void *context)
{
    uint64_t tid = le(h + 16, 8);
    uint32_t sequence = (uint32_t)le(h + 24, 4), count = (uint32_t)le(h + 28, 4), dropped = (uint32_t)le(h + 32, 4);
    uint64_t ticks = le(h + 40, 8);
    uint32_t stream = (uint32_t)le(h + 36, 4);
    if (stream >= EVGEN_MAX_NESTING)
        return fail(t, "events block at offset %zu: stream %u", offset, stream);
    size_t i;
    for (i = 0; i < *n_seqs && ((*seqs)[i].tid != tid || (*seqs)[i].stream != stream); i++) {
    }
    if (i == *n_seqs) {
        *seqs = realloc(*seqs, (*n_seqs + 1) * sizeof **seqs);
        (*seqs)[(*n_seqs)++] = (seq_entry){tid, stream, 0};
    }
    if ((*seqs)[i].next != sequence)
        return fail(t, "events block at offset %zu: thread %llu stream %u sequence %u, expected %u", offset,
                    (unsigned long long)tid, stream, sequence, (*seqs)[i].next);
    (*seqs)[i].next++;
    /* Format 1: a varint type and a zigzag delta. Format 2: an odd head repeats the previous
     * record's type with the delta head / 2; an even one is the type * 2, a zigzag delta after. */
    int have_previous = 0;
    uint64_t previous_type = 0;
    for (uint32_t k = 0; k < count; k++) {
        tp_record r = {tid, sequence, 0, 0, NULL, 0, stream};
        uint64_t head = get_varint(c);
        int64_t delta;
        if (t->format_version >= 2 && (head & 1)) {
            if (!have_previous)
                return fail(t, "events block at offset %zu: record %u repeats a type, and is the first", offset,
                            k);
            r.type = previous_type;
            delta = (int64_t)(head / 2);
        } else {
            r.type = t->format_version >= 2 ? head / 2 : head;
            delta = get_zigzag(c);
        }
        have_previous = 1;
        previous_type = r.type;
        if (c->bad || r.type >= t->n_types)
            return fail(t, "events block at offset %zu: record %u: bad header or undefined type", offset, k);
        const tp_type *ty = &t->types[r.type];
        uint64_t size = ty->variable ? get_varint(c) : ty->fixed_size;
        if (c->bad || size > (uint64_t)(c->end - c->p))
            return fail(t, "events block at offset %zu: record %u runs past the block", offset, k);
        if (ty->variable && !payload_fits(t, ty, c->p, size))
            return fail(t, "events block at offset %zu: record %u: size %llu does not match its fields", offset, k,
                        (unsigned long long)size);
        ticks += (uint64_t)delta;
        r.ticks = ticks;
        r.payload = c->p;
        r.size = (uint32_t)size;
        c->p += size;
        if (fn)
            fn(&r, context);
    }
    if (c->p != c->end)
        return fail(t, "events block at offset %zu: %zu bytes after %u records", offset, (size_t)(c->end - c->p),
                    count);
    t->n_records += count;
    t->dropped_in_blocks += dropped;
    return 0;
}

static int parse_end(tp_trace *t, cursor *c, size_t offset)
{
    t->n_end_threads = get_count(c);
    t->end_threads = calloc(t->n_end_threads + 1, sizeof *t->end_threads);
    for (size_t i = 0; i < t->n_end_threads; i++) {
        t->end_threads[i].thread_id = get_varint(c);
        t->end_threads[i].written = get_varint(c);
        t->end_threads[i].dropped = get_varint(c);
        t->end_threads[i].too_big = get_varint(c);
    }
    t->end_written = get_varint(c);
    t->end_dropped = get_varint(c);
    t->end_too_big = get_varint(c);
    if (c->bad || c->p != c->end)
        return fail(t, "end block at offset %zu: %s", offset, c->bad ? "truncated" : "trailing bytes");
    t->has_end = 1;
    return 0;
}

int tp_parse(const uint8_t *data, size_t size, tp_record_fn fn, void *context, tp_trace *t)
{
    memset(t, 0, sizeof *t);
    if (size < 48)
        return fail(t, "file of %zu bytes: shorter than the header", size);
    if (memcmp(data, "EVTRACE\0", 8) != 0)
        return fail(t, "bad magic");
    t->format_version = (uint16_t)le(data + 8, 2);
    t->header_size = (uint16_t)le(data + 10, 2);
    t->pointer_size = data[12];
    t->clock_kind = data[13];
    t->clock_frequency = le(data + 16, 8);
    t->start_ticks = le(data + 24, 8);
    t->start_unix_ns = le(data + 32, 8);
    t->process_id = (uint32_t)le(data + 40, 4);
    if (tp_crc32(0, data, 44) != (uint32_t)le(data + 44, 4))
        return fail(t, "header crc mismatch");
    if (t->format_version < 1 || t->format_version > 2 || t->header_size < 48 || t->header_size > size || le(data + 14, 2) != 0 ||
        (t->pointer_size != 4 && t->pointer_size != 8) || (t->clock_kind != 1 && t->clock_kind != 2) ||
        t->clock_frequency == 0)
        return fail(t, "bad header field");

    seq_entry *seqs = NULL;
    size_t n_seqs = 0, off = t->header_size;
    int rc = 0;
    while (off < size && rc == 0) {
        if (size - off < 48) {
            t->torn = 1;
            t->torn_offset = off;
            break;
        }
        const uint8_t *h = data + off;
        if (memcmp(h, "EVBK", 4) != 0) {
            rc = fail(t, "bad block magic at offset %zu", off);
            break;
        }
        uint64_t hsize = le(h + 6, 2), psize = le(h + 8, 4);
        if (hsize < 48) {
            rc = fail(t, "block at offset %zu: header_size %llu", off, (unsigned long long)hsize);
            break;
        }
        if (hsize + psize > size - off) {
            t->torn = 1;
            t->torn_offset = off;
            break;
        }
        uint32_t crc = tp_crc32(tp_crc32(0, h + 16, 32), h + hsize, psize);
        if (crc != (uint32_t)le(h + 12, 4)) {
            rc = fail(t, "block at offset %zu: crc mismatch", off);
            break;
        }
        if (h[5] != 0 || (h[4] != 2 && le(h + 36, 4) != 0)) {
            rc = fail(t, "block at offset %zu: nonzero flags or reserved", off);
            break;
        }
        if (t->has_end) {
            rc = fail(t, "block at offset %zu after the end block", off);
            break;
        }
        cursor c = {h + hsize, h + hsize + psize, 0};
        switch (h[4]) {
        case 1:
            if (le(h + 16, 8) || le(h + 24, 4) || le(h + 28, 4) || le(h + 32, 4) || le(h + 40, 8))
                rc = fail(t, "metadata block at offset %zu: nonzero event fields", off);
            else
                rc = parse_metadata(t, &c, off);
            break;
        case 2:
            rc = parse_events(t, h, &c, off, &seqs, &n_seqs, fn, context);
            break;
        case 3:
            rc = parse_end(t, &c, off);
            break;
        default:
            rc = fail(t, "block at offset %zu: unknown type %u", off, h[4]);
            break;
        }
        if (rc == 0)
            t->n_blocks[h[4]]++;
        off += hsize + psize;
    }
    free(seqs);
    return rc;
}

void tp_free(tp_trace *t)
{
    for (size_t i = 0; i < t->n_manifests; i++) {
        tp_manifest *m = &t->manifests[i];
        free(m->name);
        for (size_t k = 0; k < m->n_providers; k++)
            free(m->providers[k]);
        free(m->providers);
        for (size_t k = 0; k < m->n_enums; k++) {
            free(m->enums[k].name);
            for (size_t j = 0; j < m->enums[k].n_consts; j++)
                free(m->enums[k].consts[j].name);
            free(m->enums[k].consts);
        }
        free(m->enums);
        for (size_t k = 0; k < m->n_structs; k++) {
            free(m->structs[k].name);
            for (size_t j = 0; j < m->structs[k].n_members; j++)
                free(m->structs[k].members[j].name);
            free(m->structs[k].members);
        }
        free(m->structs);
        for (size_t k = 0; k < m->n_events; k++) {
            tp_event *e = &m->events[k];
            free(e->name);
            for (size_t v = 0; v < e->n_versions; v++) {
                for (size_t f = 0; f < e->versions[v].n_fields; f++)
                    free(e->versions[v].fields[f].name);
                free(e->versions[v].fields);
            }
            free(e->versions);
        }
        free(m->events);
    }
    free(t->manifests);
    free(t->types);
    free(t->end_threads);
    memset(t, 0, sizeof *t);
}

void tp_collect(const tp_record *r, void *context)
{
    tp_records *out = context;
    if (out->n == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 64;
        out->items = realloc(out->items, out->cap * sizeof *out->items);
    }
    out->items[out->n++] = *r;
}

void tp_records_free(tp_records *r)
{
    free(r->items);
    memset(r, 0, sizeof *r);
}

uint8_t *tp_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0, n;
    uint8_t *buf = malloc(cap);
    while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *size = len;
    return buf;
}
