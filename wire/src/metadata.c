/* metadata.c — the metadata block payload of evgen/wire_metadata.h: each element's encoder beside
 * its decoder, so the two cannot drift (docs/format.md, "Metadata block"). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "evgen/wire_kinds.h"
#include "evgen/wire_metadata.h"

/* A reference on the wire: 0 for none, else 1 + the index. */
static uint64_t ref(int32_t index)
{
    return index < 0 ? 0 : (uint64_t)index + 1;
}

/* ---- encoding ---------------------------------------------------------------------------- */

void evgen_wire_meta_put_head(evgen_wire_buf *b, uint64_t first_type, const char *manifest_name)
{
    evgen_wire_buf_varint(b, first_type);
    evgen_wire_buf_string(b, manifest_name);
}

void evgen_wire_meta_put_count(evgen_wire_buf *b, uint64_t n)
{
    evgen_wire_buf_varint(b, n);
}

void evgen_wire_meta_put_provider(evgen_wire_buf *b, const char *name)
{
    evgen_wire_buf_string(b, name);
}

void evgen_wire_meta_put_enum_head(evgen_wire_buf *b, const char *name, uint32_t n_consts)
{
    evgen_wire_buf_string(b, name);
    evgen_wire_buf_varint(b, n_consts);
}

void evgen_wire_meta_put_enum_const(evgen_wire_buf *b, const char *name, int64_t value)
{
    evgen_wire_buf_string(b, name);
    evgen_wire_buf_zigzag(b, value);
}

void evgen_wire_meta_put_struct_head(evgen_wire_buf *b, const char *name, uint32_t stride, uint32_t n_members)
{
    evgen_wire_buf_string(b, name);
    evgen_wire_buf_varint(b, stride);
    evgen_wire_buf_varint(b, n_members);
}

void evgen_wire_meta_put_member(evgen_wire_buf *b, const evgen_wire_member *m)
{
    evgen_wire_buf_string(b, m->name);
    evgen_wire_buf_varint(b, m->kind);
    evgen_wire_buf_varint(b, m->offset);
    evgen_wire_buf_varint(b, ref(m->enum_index));
}

void evgen_wire_meta_put_event_head(evgen_wire_buf *b, const evgen_wire_event_head *e)
{
    evgen_wire_buf_string(b, e->name);
    evgen_wire_buf_varint(b, e->provider);
    evgen_wire_buf_varint(b, e->id);
    evgen_wire_buf_varint(b, e->level);
    evgen_wire_buf_varint(b, e->keywords);
    evgen_wire_buf_varint(b, e->n_versions);
}

void evgen_wire_meta_put_version_head(evgen_wire_buf *b, const evgen_wire_version_head *v)
{
    uint32_t flags = v->flags & EVGEN_WIRE_VERSION_FLAGS;
    evgen_wire_buf_varint(b, v->version);
    evgen_wire_buf_varint(b, flags);
    if (flags & EVGEN_WIRE_VERSION_ATTRIBUTES) {
        evgen_wire_buf_varint(b, v->level);
        evgen_wire_buf_varint(b, v->keywords);
    }
    evgen_wire_buf_varint(b, v->n_fields);
}

void evgen_wire_meta_put_field(evgen_wire_buf *b, const evgen_wire_field *f)
{
    int array = (f->flags & EVGEN_WIRE_FIELD_IS_ARRAY) != 0;
    evgen_wire_buf_string(b, f->name);
    evgen_wire_buf_varint(b, f->kind);
    evgen_wire_buf_varint(b, array ? EVGEN_WIRE_FIELD_IS_ARRAY : 0);
    evgen_wire_buf_varint(b, ref(f->enum_index));
    evgen_wire_buf_varint(b, ref(f->struct_index));
    evgen_wire_buf_varint(b, array ? ref(f->count_field) : 0);
}

/* ---- decoding ---------------------------------------------------------------------------- */

void evgen_wire_meta_decoder_init(evgen_wire_meta_decoder *d, const uint8_t *payload, size_t size,
                                  void *(*alloc)(void *ctx, size_t size), void *alloc_ctx, char *why,
                                  size_t why_size)
{
    d->p = d->start = payload;
    d->end = payload ? payload + size : payload; /* no arithmetic on NULL (a decoder that only fails) */
    d->alloc = alloc;
    d->alloc_ctx = alloc_ctx;
    d->failed = 0;
    d->why = why;
    d->why_size = why_size;
    if (why_size)
        why[0] = '\0';
}

void evgen_wire_meta_fail(evgen_wire_meta_decoder *d, const char *fmt, ...)
{
    if (d->failed)
        return;
    d->failed = 1;
    if (!d->why_size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->why, d->why_size, fmt, ap);
    va_end(ap);
}

static uint64_t get_varint(evgen_wire_meta_decoder *d)
{
    uint64_t v = 0;
    if (!d->failed && evgen_wire_get_varint(&d->p, d->end, &v) != 0)
        evgen_wire_meta_fail(d, "bad varint at payload byte %zu", (size_t)(d->p - d->start));
    return d->failed ? 0 : v;
}

static const char *get_string(evgen_wire_meta_decoder *d)
{
    uint64_t n = get_varint(d);
    if (d->failed)
        return "";
    if (n > (uint64_t)(d->end - d->p)) {
        evgen_wire_meta_fail(d, "string of %llu bytes runs past the block", (unsigned long long)n);
        return "";
    }
    char *s = d->alloc(d->alloc_ctx, (size_t)n + 1);
    if (!s) {
        if (d->why_size)
            snprintf(d->why, d->why_size, "out of memory");
        d->failed = 2;
        return "";
    }
    memcpy(s, d->p, (size_t)n);
    s[n] = '\0';
    d->p += n;
    return s;
}

/* A reference checked against the `n` items defined: -1 for none, else the index. */
static int32_t get_ref(evgen_wire_meta_decoder *d, uint32_t n, const char *what)
{
    uint64_t v = get_varint(d);
    if (!d->failed && v > n)
        evgen_wire_meta_fail(d, "%s reference %llu out of range (%u defined)", what, (unsigned long long)v, n);
    return d->failed ? -1 : (int32_t)v - 1;
}

static uint32_t get_kind(evgen_wire_meta_decoder *d)
{
    uint64_t v = get_varint(d);
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void evgen_wire_meta_get_head(evgen_wire_meta_decoder *d, uint64_t *first_type, const char **manifest_name)
{
    *first_type = get_varint(d);
    *manifest_name = get_string(d);
}

uint32_t evgen_wire_meta_get_count(evgen_wire_meta_decoder *d, const char *what)
{
    uint64_t n = get_varint(d);
    if (!d->failed && n > (uint64_t)(d->end - d->p)) {
        evgen_wire_meta_fail(d, "%s count %llu exceeds the block", what, (unsigned long long)n);
        return 0;
    }
    return (uint32_t)n;
}

const char *evgen_wire_meta_get_provider(evgen_wire_meta_decoder *d)
{
    return get_string(d);
}

void evgen_wire_meta_get_enum_head(evgen_wire_meta_decoder *d, const char **name, uint32_t *n_consts)
{
    *name = get_string(d);
    *n_consts = evgen_wire_meta_get_count(d, "enum constant");
}

void evgen_wire_meta_get_enum_const(evgen_wire_meta_decoder *d, const char **name, int64_t *value)
{
    *name = get_string(d);
    *value = evgen_wire_unzigzag(get_varint(d));
}

void evgen_wire_meta_get_struct_head(evgen_wire_meta_decoder *d, const char **name, uint32_t *stride,
                                     uint32_t *n_members)
{
    *name = get_string(d);
    uint64_t s = get_varint(d);
    if (!d->failed && s > UINT32_MAX)
        evgen_wire_meta_fail(d, "struct %s: stride %llu", *name, (unsigned long long)s);
    *stride = d->failed ? 0 : (uint32_t)s;
    *n_members = evgen_wire_meta_get_count(d, "member");
}

void evgen_wire_meta_get_member(evgen_wire_meta_decoder *d, uint32_t n_enums, evgen_wire_member *m)
{
    m->name = get_string(d);
    m->kind = get_kind(d);
    uint64_t offset = get_varint(d);
    m->offset = offset > UINT32_MAX ? UINT32_MAX : (uint32_t)offset;
    m->enum_index = get_ref(d, n_enums, "enum");
}

void evgen_wire_meta_get_event_head(evgen_wire_meta_decoder *d, uint32_t n_providers, evgen_wire_event_head *e)
{
    e->name = get_string(d);
    uint64_t provider = get_varint(d), id = get_varint(d), level = get_varint(d);
    e->keywords = get_varint(d);
    if (!d->failed && (provider >= n_providers || id > UINT32_MAX || level > 255))
        evgen_wire_meta_fail(d, "event %s: provider %llu, id %llu or level %llu out of range", e->name,
                             (unsigned long long)provider, (unsigned long long)id, (unsigned long long)level);
    e->provider = d->failed ? 0 : (uint32_t)provider;
    e->id = d->failed ? 0 : (uint32_t)id;
    e->level = d->failed ? 0 : (uint8_t)level;
    e->n_versions = evgen_wire_meta_get_count(d, "version");
}

void evgen_wire_meta_get_version_head(evgen_wire_meta_decoder *d, const char *event, int64_t previous,
                                      evgen_wire_version_head *v)
{
    uint64_t version = get_varint(d), flags = get_varint(d);
    if (!d->failed && (version > UINT32_MAX || (previous >= 0 && version <= (uint64_t)previous)))
        evgen_wire_meta_fail(d, "event %s: version %llu out of order", event, (unsigned long long)version);
    /* What an unknown flag announces may follow the head, so nothing after it can be read. */
    if (!d->failed && (flags & ~(uint64_t)EVGEN_WIRE_VERSION_FLAGS))
        evgen_wire_meta_fail(d, "event %s: version %llu has flags 0x%llx this reader does not know (written by a newer evgen?)",
                             event, (unsigned long long)version, (unsigned long long)flags);
    v->version = d->failed ? 0 : (uint32_t)version;
    v->flags = d->failed ? 0 : (uint32_t)flags;
    v->level = 0;
    v->keywords = 0;
    if (v->flags & EVGEN_WIRE_VERSION_ATTRIBUTES) {
        uint64_t level = get_varint(d);
        v->keywords = get_varint(d);
        if (!d->failed && level > 255)
            evgen_wire_meta_fail(d, "event %s: version %u: level %llu out of range", event, v->version,
                                 (unsigned long long)level);
        v->level = d->failed ? 0 : (uint8_t)level;
        if (d->failed)
            v->keywords = 0;
    }
    v->n_fields = evgen_wire_meta_get_count(d, "field");
}

void evgen_wire_meta_get_field(evgen_wire_meta_decoder *d, uint32_t n_enums, uint32_t n_structs,
                               const evgen_wire_field *before, uint32_t index, const char *event,
                               evgen_wire_field *f)
{
    f->name = get_string(d);
    f->kind = get_kind(d);
    uint64_t flags = get_varint(d);
    f->flags = (uint8_t)(flags & EVGEN_WIRE_FIELD_IS_ARRAY);
    f->enum_index = get_ref(d, n_enums, "enum");
    f->struct_index = get_ref(d, n_structs, "struct");
    f->count_field = get_ref(d, index, "count field");
    if (d->failed)
        return;
    const char *problem = evgen_wire_field_problem(f, f->count_field >= 0 ? &before[f->count_field] : NULL);
    if (problem)
        evgen_wire_meta_fail(d, "event %s field %s: %s", event, f->name, problem);
}

void evgen_wire_meta_get_end(evgen_wire_meta_decoder *d)
{
    if (!d->failed && d->p != d->end)
        evgen_wire_meta_fail(d, "%zu bytes after the last event", (size_t)(d->end - d->p));
}

const char *evgen_wire_field_problem(const evgen_wire_field *f, const evgen_wire_field *count)
{
    int array = (f->flags & EVGEN_WIRE_FIELD_IS_ARRAY) != 0;
    int is_struct = f->kind == EVGEN_WIRE_STRUCT;
    if (!evgen_wire_kind_valid(f->kind))
        return "unknown kind";
    if (is_struct != (f->struct_index >= 0))
        return "a struct kind needs a struct and only it has one";
    if (is_struct && !array)
        return "a struct is only allowed as an array element";
    if (array && evgen_wire_kind_is_string(f->kind))
        return "an array of strings";
    if (array != (f->count_field >= 0) || (array && !count))
        return "an array needs a count field and only it has one";
    if (array && (!evgen_wire_kind_is_integer(count->kind) || (count->flags & EVGEN_WIRE_FIELD_IS_ARRAY)))
        return "the count field is not an integer";
    return NULL;
}
