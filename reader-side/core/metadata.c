/* metadata.c — decodes a metadata block (docs/format.md) into the evgen_trace_* tables, checks
 * every descriptor against the rules of the format, and lowers each version into its field plan
 * (where each field starts, how its size is found) once, for every event read later. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* ---- the arena ---------------------------------------------------------------------------- */

struct rd_arena_chunk {
    rd_arena_chunk *next;
    size_t size;
    max_align_t data[];
};

void *evgen_rd_arena_alloc(rd_arena *a, size_t size)
{
    size = (size + 7) & ~(size_t)7;
    if (size == 0)
        size = 8;
    if (!a->head || a->cap - a->used < size) {
        size_t cap = size > 32768 ? size : 32768;
        if (cap > SIZE_MAX - sizeof(rd_arena_chunk))
            return NULL;
        rd_arena_chunk *c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = a->head;
        c->size = cap;
        a->head = c;
        a->used = 0;
        a->cap = cap;
    }
    void *p = (char *)a->head->data + a->used;
    a->used += size;
    memset(p, 0, size);
    return p;
}

void evgen_rd_arena_free(rd_arena *a)
{
    for (rd_arena_chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    memset(a, 0, sizeof *a);
}

int evgen_rd_grow(void **items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 8;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem)
            return -1;
        n *= 2;
    }
    void *p = realloc(*items, n * elem);
    if (!p)
        return -1;
    *items = p;
    *cap = n;
    return 0;
}

/* ---- decoding ----------------------------------------------------------------------------- */

uint32_t evgen_rd_kind_size(const evgen_reader *rd, unsigned kind)
{
    static const uint8_t sizes[] = {0, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 1, 4, 16};
    if (kind >= RD_U8 && kind <= RD_GUID)
        return sizes[kind];
    if (kind == RD_PTR)
        return rd->header.pointer_size;
    return 0;
}

static int is_integer(unsigned kind)
{
    return kind >= RD_U8 && kind <= RD_I64;
}

typedef struct mcur {
    const uint8_t *p, *end, *start;
    evgen_reader *rd;
    int bound; /* a manifest given to bind another format's events: not the file's */
    char *why;
    size_t why_size;
    int failed; /* 1: bad encoding or descriptor, 2: out of memory */
} mcur;

static void bad(mcur *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(mcur *c, const char *fmt, ...)
{
    if (c->failed)
        return;
    c->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, c->why_size, fmt, ap);
    va_end(ap);
}

static void *alloc(mcur *c, size_t n, size_t elem)
{
    if (c->failed)
        return NULL;
    void *p = n && elem > SIZE_MAX / n ? NULL : evgen_rd_arena_alloc(&c->rd->arena, n * elem);
    if (!p) {
        snprintf(c->why, c->why_size, "out of memory");
        c->failed = 2;
    }
    return p;
}

static uint64_t get_varint(mcur *c)
{
    uint64_t v = 0;
    if (!c->failed && rd_varint(&c->p, c->end, &v) != 0)
        bad(c, "bad varint at payload byte %zu", (size_t)(c->p - c->start));
    return v;
}

/* A count of items that each take at least one byte of what is left. */
static uint32_t get_count(mcur *c, const char *what)
{
    uint64_t n = get_varint(c);
    if (!c->failed && n > (uint64_t)(c->end - c->p)) {
        bad(c, "%s count %llu exceeds the block", what, (unsigned long long)n);
        return 0;
    }
    return (uint32_t)n;
}

static const char *get_string(mcur *c)
{
    uint64_t n = get_varint(c);
    if (c->failed)
        return "";
    if (n > (uint64_t)(c->end - c->p)) {
        bad(c, "string of %llu bytes runs past the block", (unsigned long long)n);
        return "";
    }
    char *s = alloc(c, (size_t)n + 1, 1);
    if (!s)
        return "";
    memcpy(s, c->p, (size_t)n);
    c->p += n;
    return s;
}

/* enum+1 / struct+1 / count+1 references: -1 for none, else the index, checked against `n`. */
static int32_t get_ref(mcur *c, uint32_t n, const char *what)
{
    uint64_t v = get_varint(c);
    if (!c->failed && v > n)
        bad(c, "%s reference %llu out of range (%u defined)", what, (unsigned long long)v, n);
    return c->failed ? -1 : (int32_t)v - 1;
}

static void decode_enums(mcur *c, evgen_trace_manifest *m)
{
    m->n_enums = get_count(c, "enum");
    evgen_trace_enum *enums = alloc(c, m->n_enums, sizeof *enums);
    for (uint32_t i = 0; i < m->n_enums && !c->failed; i++) {
        evgen_trace_enum *e = &enums[i];
        e->name = get_string(c);
        e->n_consts = get_count(c, "enum constant");
        evgen_trace_enum_const *k = alloc(c, e->n_consts, sizeof *k);
        for (uint32_t j = 0; j < e->n_consts && !c->failed; j++) {
            k[j].name = get_string(c);
            k[j].value = rd_unzigzag(get_varint(c));
        }
        e->consts = k;
    }
    m->enums = enums;
}

/* A manifest bound to a .nettrace trace with 4-byte pointers: the generator laid its structs out
 * for 8-byte ones, so a struct with a pointer member is laid out again for the trace, each member
 * at its natural alignment (MSVC's rule, the compiler of the Windows x86 runtime). */
static void relayout_for_trace_pointers(const mcur *c, evgen_trace_struct *s, evgen_trace_member *mb)
{
    const evgen_reader *rd = c->rd;
    int has_pointer = 0;
    for (uint32_t j = 0; j < s->n_members; j++)
        has_pointer |= mb[j].kind == RD_PTR;
    if (!c->bound || rd->header.pointer_size == 8 || !has_pointer)
        return;
    uint32_t offset = 0, max_align = 1;
    for (uint32_t j = 0; j < s->n_members; j++) {
        uint32_t size = evgen_rd_kind_size(rd, mb[j].kind), align = mb[j].kind == RD_GUID ? 4 : size;
        offset = (offset + align - 1) / align * align;
        mb[j].offset = offset;
        offset += size;
        if (align > max_align)
            max_align = align;
    }
    s->stride = (offset + max_align - 1) / max_align * max_align;
}

static void decode_structs(mcur *c, evgen_trace_manifest *m)
{
    m->n_structs = get_count(c, "struct");
    evgen_trace_struct *structs = alloc(c, m->n_structs, sizeof *structs);
    for (uint32_t i = 0; i < m->n_structs && !c->failed; i++) {
        evgen_trace_struct *s = &structs[i];
        s->name = get_string(c);
        uint64_t stride = get_varint(c);
        if (!c->failed && (stride == 0 || stride > UINT32_MAX))
            bad(c, "struct %s: stride %llu", s->name, (unsigned long long)stride);
        s->stride = (uint32_t)stride;
        s->n_members = get_count(c, "member");
        evgen_trace_member *mb = alloc(c, s->n_members, sizeof *mb);
        for (uint32_t j = 0; j < s->n_members && !c->failed; j++) {
            mb[j].name = get_string(c);
            uint64_t kind = get_varint(c), offset = get_varint(c);
            mb[j].enum_index = get_ref(c, m->n_enums, "enum");
            uint32_t size = kind <= RD_KIND_MAX ? evgen_rd_kind_size(c->rd, (unsigned)kind) : 0;
            if (!c->failed && (size == 0 || offset > s->stride || s->stride - offset < size))
                bad(c, "struct %s member %s: kind %llu at offset %llu does not fit a %u-byte element", s->name,
                    mb[j].name, (unsigned long long)kind, (unsigned long long)offset, s->stride);
            mb[j].kind = (uint8_t)kind;
            mb[j].offset = (uint32_t)offset;
        }
        if (!c->failed)
            relayout_for_trace_pointers(c, s, mb);
        s->members = mb;
    }
    m->structs = structs;
}

static void decode_field(mcur *c, const evgen_trace_manifest *m, evgen_trace_field *fields, uint32_t f,
                         const char *event)
{
    evgen_trace_field *fd = &fields[f];
    fd->name = get_string(c);
    uint64_t kind = get_varint(c), flags = get_varint(c);
    fd->enum_index = get_ref(c, m->n_enums, "enum");
    fd->struct_index = get_ref(c, m->n_structs, "struct");
    fd->count_field = get_ref(c, f, "count field");
    if (c->failed)
        return;
    fd->kind = (uint8_t)kind;
    fd->is_array = (uint8_t)(flags & 1);
    const char *problem = NULL;
    if (kind < RD_U8 || kind > RD_KIND_MAX)
        problem = "unknown kind";
    else if ((kind == RD_STRUCT) != (fd->struct_index >= 0))
        problem = "a struct kind needs a struct and only it has one";
    else if (kind == RD_STRUCT && !fd->is_array)
        problem = "a struct is only allowed as an array element";
    else if (fd->is_array && (kind == RD_UTF8Z || kind == RD_UTF16Z))
        problem = "an array of strings";
    else if (fd->is_array != (fd->count_field >= 0))
        problem = "an array needs a count field and only it has one";
    else if (fd->is_array &&
             (!is_integer(fields[fd->count_field].kind) || fields[fd->count_field].is_array))
        problem = "the count field is not an integer";
    if (problem)
        bad(c, "event %s field %s: %s", event, fd->name, problem);
}

/* Lowers a version: each field's start rule and size; the fixed size; the variable fields. */
static void lower(mcur *c, const evgen_trace_manifest *m, evgen_trace_version *v, rd_version *rv)
{
    rv->plan = alloc(c, v->n_fields, sizeof *rv->plan);
    uint32_t n_var = 0;
    for (uint32_t f = 0; f < v->n_fields && !c->failed; f++)
        n_var += v->fields[f].is_array || v->fields[f].kind == RD_UTF8Z || v->fields[f].kind == RD_UTF16Z;
    rv->var_fields = alloc(c, n_var, sizeof *rv->var_fields);
    if (c->failed)
        return;
    uint64_t delta = 0;
    uint32_t after = 0;
    for (uint32_t f = 0; f < v->n_fields; f++) {
        const evgen_trace_field *fd = &v->fields[f];
        rd_field *pl = &rv->plan[f];
        pl->after = after;
        pl->delta = delta;
        if (fd->is_array || fd->kind == RD_UTF8Z || fd->kind == RD_UTF16Z) {
            if (fd->is_array) {
                pl->step = RD_STEP_ARRAY;
                pl->elem = fd->kind == RD_STRUCT ? m->structs[fd->struct_index].stride
                                                 : evgen_rd_kind_size(c->rd, fd->kind);
                pl->count_field = (uint32_t)fd->count_field;
                pl->count_kind = v->fields[fd->count_field].kind;
            } else {
                pl->step = fd->kind == RD_UTF8Z ? RD_STEP_UTF8Z : RD_STEP_UTF16Z;
            }
            pl->var = after;
            rv->var_fields[after++] = f;
            delta = 0;
        } else {
            pl->step = RD_STEP_FIXED;
            pl->size = evgen_rd_kind_size(c->rd, fd->kind);
            delta += pl->size;
        }
    }
    v->n_variable = after;
    v->fixed_size = after ? -1 : (int64_t)delta;
    if (!after && delta > UINT32_MAX)
        bad(c, "a fixed payload of %llu bytes", (unsigned long long)delta);
}

static void decode_events(mcur *c, evgen_trace_manifest *m, const char *const *providers, uint32_t n_providers,
                          rd_event ***out, uint32_t *n_out, uint64_t *n_types)
{
    uint32_t n = get_count(c, "event");
    rd_event **events = alloc(c, n, sizeof *events);
    *n_types = 0;
    for (uint32_t i = 0; i < n && !c->failed; i++) {
        rd_event *e = events[i] = alloc(c, 1, sizeof *e);
        if (!e)
            break;
        evgen_trace_event_info *info = &e->pub;
        info->name = get_string(c);
        uint64_t provider = get_varint(c), id = get_varint(c), level = get_varint(c);
        info->keywords = get_varint(c);
        if (!c->failed && (provider >= n_providers || id > UINT32_MAX || level > 255))
            bad(c, "event %s: provider %llu, id %llu or level %llu out of range", info->name,
                (unsigned long long)provider, (unsigned long long)id, (unsigned long long)level);
        if (c->failed)
            break;
        info->provider = providers[provider];
        info->id = (uint32_t)id;
        info->level = (uint8_t)level;
        info->manifest = m;
        info->n_versions = get_count(c, "version");
        evgen_trace_version *versions = alloc(c, info->n_versions, sizeof *versions);
        e->versions = alloc(c, info->n_versions, sizeof *e->versions);
        for (uint32_t k = 0; k < info->n_versions && !c->failed; k++) {
            evgen_trace_version *v = &versions[k];
            uint64_t version = get_varint(c), flags = get_varint(c);
            if (!c->failed && (version > UINT32_MAX || (k && version <= versions[k - 1].version)))
                bad(c, "event %s: version %llu out of order", info->name, (unsigned long long)version);
            v->version = (uint32_t)version;
            v->legacy = (uint32_t)(flags & 1);
            v->n_fields = get_count(c, "field");
            evgen_trace_field *fields = alloc(c, v->n_fields, sizeof *fields);
            for (uint32_t f = 0; f < v->n_fields && !c->failed; f++)
                decode_field(c, m, fields, f, info->name);
            v->fields = fields;
            e->versions[k].pub = v;
            e->versions[k].info = info;
            lower(c, m, v, &e->versions[k]);
        }
        info->versions = versions;
        *n_types += info->n_versions;
    }
    *out = events;
    *n_out = n;
}

int evgen_rd_metadata_decode(evgen_reader *rd, const uint8_t *p, const uint8_t *end, int bound, rd_metadata *out,
                             char *why, size_t why_size)
{
    mcur c = {p, end, p, rd, bound, why, why_size, 0};
    memset(out, 0, sizeof *out);
    uint64_t first_type = get_varint(&c);
    evgen_trace_manifest *m = alloc(&c, 1, sizeof *m);
    if (!m)
        return c.failed == 2 ? -2 : -1;
    m->name = get_string(&c);
    uint32_t n_providers = get_count(&c, "provider");
    const char **providers = alloc(&c, n_providers, sizeof *providers);
    for (uint32_t i = 0; i < n_providers && !c.failed; i++)
        providers[i] = get_string(&c);
    decode_enums(&c, m);
    decode_structs(&c, m);
    rd_event **events = NULL;
    uint32_t n_events = 0;
    uint64_t n_types = 0;
    decode_events(&c, m, providers, n_providers, &events, &n_events, &n_types);
    if (!c.failed && c.p != c.end)
        bad(&c, "%zu bytes after the last event", (size_t)(c.end - c.p));
    if (c.failed)
        return c.failed == 2 ? -2 : -1;
    *out = (rd_metadata){m, events, n_events, first_type, n_types};
    return 0;
}

int evgen_rd_metadata_add(evgen_reader *rd, const rd_metadata *md)
{
    if (evgen_rd_grow((void **)&rd->manifests, &rd->cap_manifests, rd->n_manifests + 1, sizeof *rd->manifests))
        return -1;
    rd->manifests[rd->n_manifests++] = md->manifest;
    for (uint32_t i = 0; i < md->n_events; i++)
        if (evgen_rd_add_event(rd, md->events[i]) != 0)
            return -1;
    return 0;
}

int evgen_rd_lower(evgen_reader *rd, const evgen_trace_manifest *m, evgen_trace_version *v, rd_version *rv)
{
    char why[64];
    mcur c = {NULL, NULL, NULL, rd, 0, why, sizeof why, 0};
    lower(&c, m, v, rv);
    return c.failed ? -1 : 0;
}

int evgen_rd_add_event(evgen_reader *rd, rd_event *e)
{
    if (evgen_rd_grow((void **)&rd->events, &rd->cap_events, rd->n_events + 1, sizeof *rd->events) ||
        evgen_rd_grow((void **)&rd->versions, &rd->cap_versions, rd->n_versions + e->pub.n_versions,
                      sizeof *rd->versions))
        return -1;
    e->pub.index = (uint32_t)rd->n_events;
    rd->events[rd->n_events++] = e;
    for (uint32_t k = 0; k < e->pub.n_versions; k++) {
        rd_version *v = &e->versions[k];
        v->serial = (uint32_t)rd->n_versions;
        rd->versions[rd->n_versions++] = v;
        if (v->pub->n_variable > rd->max_variable)
            rd->max_variable = v->pub->n_variable;
    }
    return 0;
}
