/* metadata.c — decodes a metadata block (docs/format.md) into the evgen_trace_* tables, checks
 * every descriptor against the rules of the format, and lowers each version into its field plan
 * (where each field starts, how its size is found) once, for every event read later. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "evgen/wire_layout.h"
#include "evgen/wire_metadata.h"

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

/* The element codec and the format's rules are libevgen-wire's (evgen/wire_metadata.h); this file
 * builds the reader's tables from what it decodes, and lowers each version by the wire's layout
 * rule (evgen/wire_layout.h) with this trace's pointer size. */

uint32_t evgen_rd_kind_size(const evgen_reader *rd, unsigned kind)
{
    return evgen_wire_kind_size(kind, rd->header.pointer_size);
}

typedef struct mcur {
    evgen_wire_meta_decoder d;
    evgen_reader *rd;
    int bound; /* a manifest given to bind another format's events: not the file's */
} mcur;

static void *arena_alloc(void *ctx, size_t size)
{
    return evgen_rd_arena_alloc(ctx, size);
}

static void *alloc(mcur *c, size_t n, size_t elem)
{
    if (c->d.failed)
        return NULL;
    void *p = n && elem > SIZE_MAX / n ? NULL : evgen_rd_arena_alloc(&c->rd->arena, n * elem);
    if (!p) {
        if (c->d.why_size)
            snprintf(c->d.why, c->d.why_size, "out of memory");
        c->d.failed = 2;
    }
    return p;
}

static void decode_enums(mcur *c, evgen_trace_manifest *m)
{
    m->n_enums = evgen_wire_meta_get_count(&c->d, "enum");
    evgen_trace_enum *enums = alloc(c, m->n_enums, sizeof *enums);
    for (uint32_t i = 0; i < m->n_enums && !c->d.failed; i++) {
        evgen_trace_enum *e = &enums[i];
        evgen_wire_meta_get_enum_head(&c->d, &e->name, &e->n_consts);
        evgen_trace_enum_const *k = alloc(c, e->n_consts, sizeof *k);
        for (uint32_t j = 0; j < e->n_consts && !c->d.failed; j++)
            evgen_wire_meta_get_enum_const(&c->d, &k[j].name, &k[j].value);
        e->consts = k;
    }
    m->enums = enums;
}

int evgen_rd_bound_laid_out_again(const evgen_reader *rd)
{
    return rd->header.pointer_size != 8;
}

/* A manifest bound to a .nettrace trace with 4-byte pointers: the generator laid its structs out
 * for 8-byte ones, so a struct with a pointer member is laid out again for the trace by the wire's
 * natural layout (MSVC's rule too, the compiler of the Windows x86 runtime), under the same
 * `#pragma pack` as the recorded one: the largest pack whose 8-byte layout gives the recorded
 * offsets and stride (CoreCLR's heap-dump elements are packed: GCBulkRootEdge is 21 bytes with
 * 8-byte pointers, 17 with 4). A layout no pack explains is laid out naturally. */
static void relayout_for_trace_pointers(mcur *c, evgen_trace_struct *s, evgen_trace_member *mb)
{
    const evgen_reader *rd = c->rd;
    int has_pointer = 0;
    for (uint32_t j = 0; j < s->n_members; j++)
        has_pointer |= evgen_wire_kind_class(mb[j].kind) == EVGEN_WIRE_CLASS_POINTER;
    if (!c->bound || !evgen_rd_bound_laid_out_again(rd) || !has_pointer || s->variable)
        return;
    uint32_t *kinds = alloc(c, s->n_members, 2 * sizeof *kinds), *offsets = kinds + s->n_members;
    if (!kinds)
        return;
    for (uint32_t j = 0; j < s->n_members; j++)
        kinds[j] = mb[j].kind;
    uint32_t pack = 0;
    for (uint32_t candidate = 8; candidate >= 1 && !pack; candidate /= 2) {
        int same = evgen_wire_struct_layout_packed(kinds, s->n_members, 8, candidate, offsets) == s->stride;
        for (uint32_t j = 0; j < s->n_members && same; j++)
            same = offsets[j] == mb[j].offset;
        pack = same ? candidate : 0;
    }
    s->stride = evgen_wire_struct_layout_packed(kinds, s->n_members, rd->header.pointer_size, pack, offsets);
    for (uint32_t j = 0; j < s->n_members; j++)
        mb[j].offset = offsets[j];
}

static void decode_structs(mcur *c, evgen_trace_manifest *m)
{
    m->n_structs = evgen_wire_meta_get_count(&c->d, "struct");
    evgen_trace_struct *structs = alloc(c, m->n_structs, sizeof *structs);
    for (uint32_t i = 0; i < m->n_structs && !c->d.failed; i++) {
        evgen_trace_struct *s = &structs[i];
        evgen_wire_meta_get_struct_head(&c->d, &s->name, &s->stride, &s->n_members);
        s->variable = s->stride == EVGEN_WIRE_STRIDE_VARIABLE;
        evgen_trace_member *mb = alloc(c, s->n_members, sizeof *mb);
        /* A variable struct's members: by the payload layout rule, applied to an element. */
        evgen_wire_layout layout;
        evgen_wire_layout_init(&layout, c->rd->header.pointer_size);
        int strings = 0;
        for (uint32_t j = 0; j < s->n_members && !c->d.failed; j++) {
            evgen_wire_member w;
            evgen_wire_meta_get_member(&c->d, m->n_enums, &w);
            uint32_t size = evgen_rd_kind_size(c->rd, w.kind);
            if (c->d.failed) {
            } else if (s->variable) {
                int string = evgen_wire_kind_is_string(w.kind);
                if (size == 0 && !string) {
                    evgen_wire_meta_fail(&c->d, "struct %s member %s: kind %u in a variable struct", s->name, w.name,
                                         w.kind);
                } else {
                    evgen_wire_slot slot = evgen_wire_layout_add(&layout, w.kind, 0);
                    /* A manifest bound to another format was laid out for 8-byte pointers. */
                    if (c->bound)
                        w.offset = (uint32_t)slot.delta;
                    if (w.offset != slot.delta)
                        evgen_wire_meta_fail(&c->d, "struct %s member %s: offset %u, where the layout rule puts %llu",
                                             s->name, w.name, w.offset, (unsigned long long)slot.delta);
                    strings += string;
                }
            } else if (!evgen_wire_member_fits(size, w.offset, s->stride)) {
                evgen_wire_meta_fail(&c->d, "struct %s member %s: kind %u at offset %u does not fit a %u-byte element",
                                     s->name, w.name, w.kind, w.offset, s->stride);
            }
            mb[j].name = w.name;
            mb[j].kind = (uint8_t)w.kind;
            mb[j].offset = w.offset;
            mb[j].enum_index = w.enum_index;
        }
        /* Each element holds a string (1 byte at least): walking one always moves on. */
        if (!c->d.failed && s->variable && !strings)
            evgen_wire_meta_fail(&c->d, "struct %s: a variable struct without a string member", s->name);
        if (!c->d.failed)
            relayout_for_trace_pointers(c, s, mb);
        s->members = mb;
    }
    m->structs = structs;
}

/* Lowers a version by the wire's layout rule: each field's start rule and size; the fixed size;
 * the variable fields. */
static void lower(mcur *c, const evgen_trace_manifest *m, evgen_trace_version *v, rd_version *rv)
{
    rv->plan = alloc(c, v->n_fields, sizeof *rv->plan);
    if (c->d.failed)
        return;
    evgen_wire_layout layout;
    evgen_wire_layout_init(&layout, c->rd->header.pointer_size);
    for (uint32_t f = 0; f < v->n_fields; f++) {
        const evgen_trace_field *fd = &v->fields[f];
        rd_field *pl = &rv->plan[f];
        evgen_wire_slot s = evgen_wire_layout_add(&layout, fd->kind, fd->is_array);
        pl->after = s.var_before;
        pl->delta = s.delta;
        if (s.size == 0) {
            if (fd->is_array && fd->kind == EVGEN_WIRE_STRUCT && m->structs[fd->struct_index].variable) {
                pl->step = RD_STEP_VAR_ARRAY;
                pl->vstruct = &m->structs[fd->struct_index];
                pl->pointer_size = (uint8_t)c->rd->header.pointer_size;
                pl->count_field = (uint32_t)fd->count_field;
                pl->count_kind = v->fields[fd->count_field].kind;
            } else if (fd->is_array) {
                pl->step = RD_STEP_ARRAY;
                pl->elem = fd->kind == EVGEN_WIRE_STRUCT ? m->structs[fd->struct_index].stride
                                                         : evgen_rd_kind_size(c->rd, fd->kind);
                pl->count_field = (uint32_t)fd->count_field;
                pl->count_kind = v->fields[fd->count_field].kind;
            } else {
                pl->step = fd->kind == EVGEN_WIRE_UTF8Z ? RD_STEP_UTF8Z : RD_STEP_UTF16Z;
            }
            pl->var = s.var;
        } else {
            pl->step = RD_STEP_FIXED;
            pl->size = s.size;
        }
    }
    rv->var_fields = alloc(c, layout.n_variable, sizeof *rv->var_fields);
    if (c->d.failed)
        return;
    for (uint32_t f = 0; f < v->n_fields; f++)
        if (rv->plan[f].step != RD_STEP_FIXED)
            rv->var_fields[rv->plan[f].var] = f;
    int64_t fixed = evgen_wire_layout_fixed_size(&layout);
    v->n_variable = layout.n_variable;
    v->fixed_size = fixed;
    if (fixed > (int64_t)UINT32_MAX)
        evgen_wire_meta_fail(&c->d, "a fixed payload of %llu bytes", (unsigned long long)fixed);
}

static void decode_events(mcur *c, evgen_trace_manifest *m, const char *const *providers, uint32_t n_providers,
                          rd_event ***out, uint32_t *n_out, uint64_t *n_types)
{
    uint32_t n = evgen_wire_meta_get_count(&c->d, "event");
    rd_event **events = alloc(c, n, sizeof *events);
    *n_types = 0;
    for (uint32_t i = 0; i < n && !c->d.failed; i++) {
        rd_event *e = events[i] = alloc(c, 1, sizeof *e);
        if (!e)
            break;
        evgen_trace_event_info *info = &e->pub;
        evgen_wire_event_head head;
        evgen_wire_meta_get_event_head(&c->d, n_providers, &head);
        if (c->d.failed)
            break;
        info->name = head.name;
        info->provider = providers[head.provider];
        info->id = head.id;
        info->level = head.level;
        info->keywords = head.keywords;
        info->manifest = m;
        info->n_versions = head.n_versions;
        evgen_trace_version *versions = alloc(c, info->n_versions, sizeof *versions);
        e->versions = alloc(c, info->n_versions, sizeof *e->versions);
        for (uint32_t k = 0; k < info->n_versions && !c->d.failed; k++) {
            evgen_trace_version *v = &versions[k];
            evgen_wire_version_head vh;
            evgen_wire_meta_get_version_head(&c->d, info->name, k ? (int64_t)versions[k - 1].version : -1, &vh);
            v->version = vh.version;
            v->legacy = vh.flags & EVGEN_WIRE_VERSION_LEGACY;
            v->own_attributes = (vh.flags & EVGEN_WIRE_VERSION_ATTRIBUTES) != 0;
            v->level = v->own_attributes ? vh.level : info->level;
            v->keywords = v->own_attributes ? vh.keywords : info->keywords;
            v->n_fields = vh.n_fields;
            evgen_trace_field *fields = alloc(c, v->n_fields, sizeof *fields);
            evgen_wire_field *wire = alloc(c, v->n_fields, sizeof *wire);
            for (uint32_t f = 0; f < v->n_fields && !c->d.failed; f++) {
                evgen_wire_meta_get_field(&c->d, m->n_enums, m->n_structs, wire, f, info->name, &wire[f]);
                fields[f].name = wire[f].name;
                fields[f].kind = (uint8_t)wire[f].kind;
                fields[f].is_array = (uint8_t)(wire[f].flags & EVGEN_WIRE_FIELD_IS_ARRAY);
                fields[f].enum_index = wire[f].enum_index;
                fields[f].struct_index = wire[f].struct_index;
                fields[f].count_field = wire[f].count_field;
            }
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
    mcur c;
    evgen_wire_meta_decoder_init(&c.d, p, (size_t)(end - p), arena_alloc, &rd->arena, why, why_size);
    c.rd = rd;
    c.bound = bound;
    memset(out, 0, sizeof *out);
    uint64_t first_type;
    const char *name;
    evgen_wire_meta_get_head(&c.d, &first_type, &name);
    evgen_trace_manifest *m = alloc(&c, 1, sizeof *m);
    if (!m)
        return c.d.failed == 2 ? -2 : -1;
    m->name = name;
    uint32_t n_providers = evgen_wire_meta_get_count(&c.d, "provider");
    const char **providers = alloc(&c, n_providers, sizeof *providers);
    for (uint32_t i = 0; i < n_providers && !c.d.failed; i++)
        providers[i] = evgen_wire_meta_get_provider(&c.d);
    decode_enums(&c, m);
    decode_structs(&c, m);
    rd_event **events = NULL;
    uint32_t n_events = 0;
    uint64_t n_types = 0;
    decode_events(&c, m, providers, n_providers, &events, &n_events, &n_types);
    evgen_wire_meta_get_end(&c.d);
    if (c.d.failed)
        return c.d.failed == 2 ? -2 : -1;
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
    mcur c;
    evgen_wire_meta_decoder_init(&c.d, NULL, 0, arena_alloc, &rd->arena, why, sizeof why);
    c.rd = rd;
    c.bound = 0;
    lower(&c, m, v, rv);
    return c.d.failed ? -1 : 0;
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

int evgen_rd_load_manifests(evgen_reader *rd, const evgen_reader_options *options, char **error)
{
    size_t n = options ? options->n_manifests : 0;
    for (size_t i = 0; i < n; i++) {
        const evgen_reader_manifest *m = options->manifests[i];
        char why[256];
        if (!m || !m->metadata) {
            *error = evgen_rd_format("manifest %zu given to the reader is empty", i);
            return -1;
        }
        rd_metadata md;
        int rc = evgen_rd_metadata_decode(rd, m->metadata, m->metadata + m->size, 1, &md, why, sizeof why);
        if (rc == 0 && evgen_rd_metadata_add(rd, &md) != 0)
            rc = -2;
        if (rc != 0) {
            *error = evgen_rd_format("manifest %s given to the reader does not decode: %s", m->name ? m->name : "?",
                                     rc == -2 ? "out of memory" : why);
            return -1;
        }
    }
    return 0;
}
