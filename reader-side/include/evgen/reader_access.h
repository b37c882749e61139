/* evgen/reader_access.h — what generated readers (NAME_reader.h) are made of: an offset table per
 * event (one row per version, one slot per field) and inline accessors that find a field in an
 * event of any version: at its fixed offset with one bounds check, or after a variable-length
 * field whose end the reader computed once per event. A field the version does not have, or the
 * payload does not hold whole, is absent: its accessor returns 0 (or an empty view) and
 * <Event>_has_<Field>() says 0. A payload of a newer version than the generated reader knows is
 * read through the newest version it knows: the fields it knows sit where they always did.
 * Compiles as C99 and C++11. */
#ifndef EVGEN_READER_ACCESS_H
#define EVGEN_READER_ACCESS_H

#include <stdint.h>
#include <string.h>

#include "evgen/manifest.h" /* evgen_guid */
#include "evgen/reader.h"
#include "evgen/wire_kinds.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "evgen: generated readers load little-endian fields with memcpy; port them to this byte order"
#endif

/* Bumped when the tables below change; generated readers check it with #error. */
#define EVGEN_READER_ABI 1

#define EVGEN_ACCESS_POINTER 0u     /* slot size: the trace's pointer size */
#define EVGEN_ACCESS_VARIABLE 0xFFu /* slot size: a string or an array */

/* Where one field is in one version. */
typedef struct evgen_access_slot {
    int32_t offset;       /* from the payload start, or from the end of variable field `after` (8-byte pointers) */
    int16_t after;        /* -1, or the ordinal among variable-length fields of the one it follows */
    uint8_t size;         /* bytes (1, 2, 4, 8, 16), EVGEN_ACCESS_POINTER or EVGEN_ACCESS_VARIABLE */
    uint8_t ptrs_before;  /* pointers between the base and the field: 8 bytes each in `offset` */
    uint8_t present;      /* 0: this version has no such field */
    uint8_t var_ordinal;  /* a variable-length field's own ordinal */
    uint16_t index;       /* the field's position in the version (its trace metadata) */
} evgen_access_slot;

typedef struct evgen_access_layout {
    uint32_t first_version;
    uint32_t n_versions;
    uint32_t n_fields;
    const evgen_access_slot *slots; /* [n_versions][n_fields] */
} evgen_access_layout;

static inline const evgen_access_slot *evgen_access_slot_of(const evgen_event *ev, const evgen_access_layout *l,
                                                           uint32_t field)
{
    if (ev->version < l->first_version)
        return NULL;
    uint32_t row = ev->version - l->first_version;
    if (row >= l->n_versions)
        row = l->n_versions - 1; /* a newer version: the fields this reader knows are its prefix */
    const evgen_access_slot *s = &l->slots[row * l->n_fields + field];
    return s->present ? s : NULL;
}

/* Finds field `field` in `ev`: returns 1 with its offset and size, or 0 if absent. */
static inline int evgen_access_locate(const evgen_event *ev, const evgen_access_layout *l, uint32_t field,
                                      uint32_t *offset, uint32_t *size)
{
    const evgen_access_slot *s = evgen_access_slot_of(ev, l, field);
    if (!s)
        return 0;
    uint32_t base = 0;
    if (s->after >= 0) {
        if ((uint32_t)s->after >= ev->n_variable || ev->variable_end[s->after] == UINT32_MAX)
            return 0;
        base = ev->variable_end[s->after];
    }
    uint32_t o = base + (uint32_t)s->offset - (8u - ev->pointer_size) * s->ptrs_before;
    uint32_t n;
    if (s->size == EVGEN_ACCESS_VARIABLE) {
        if (s->var_ordinal >= ev->n_variable || ev->variable_end[s->var_ordinal] == UINT32_MAX ||
            ev->variable_end[s->var_ordinal] < o)
            return 0;
        n = ev->variable_end[s->var_ordinal] - o;
    } else {
        n = s->size == EVGEN_ACCESS_POINTER ? ev->pointer_size : s->size;
    }
    if (o > ev->size || n > ev->size - o)
        return 0;
    *offset = o;
    *size = n;
    return 1;
}

static inline int evgen_access_has(const evgen_event *ev, const evgen_access_layout *l, uint32_t field)
{
    uint32_t o, n;
    return evgen_access_locate(ev, l, field, &o, &n);
}

/* A little-endian integer of 1, 2, 4 or 8 bytes. */
static inline uint64_t evgen_load_uint(const uint8_t *p, uint32_t n)
{
    switch (n) {
    case 1: return p[0];
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
    default: return 0;
    }
}

static inline uint64_t evgen_access_uint(const evgen_event *ev, const evgen_access_layout *l, uint32_t field)
{
    uint32_t o, n;
    return evgen_access_locate(ev, l, field, &o, &n) ? evgen_load_uint(ev->payload + o, n) : 0;
}

static inline int64_t evgen_access_int(const evgen_event *ev, const evgen_access_layout *l, uint32_t field)
{
    uint32_t o, n;
    if (!evgen_access_locate(ev, l, field, &o, &n) || n > 8 || n == 0)
        return 0;
    uint64_t v = evgen_load_uint(ev->payload + o, n);
    if (n < 8 && (v >> (8 * n - 1)) & 1u)
        v |= ~(uint64_t)0 << (8 * n); /* sign-extend a narrower old version */
    return (int64_t)v;
}

static inline double evgen_access_f64(const evgen_event *ev, const evgen_access_layout *l, uint32_t field)
{
    uint32_t o, n;
    if (!evgen_access_locate(ev, l, field, &o, &n))
        return 0;
    if (n == 4) {
        float f;
        memcpy(&f, ev->payload + o, 4);
        return f;
    }
    double d = 0;
    if (n == 8)
        memcpy(&d, ev->payload + o, 8);
    return d;
}

static inline evgen_guid evgen_access_guid(const evgen_event *ev, const evgen_access_layout *l, uint32_t field)
{
    evgen_guid g;
    uint32_t o, n;
    memset(&g, 0, sizeof g);
    if (evgen_access_locate(ev, l, field, &o, &n) && n == 16)
        memcpy(&g, ev->payload + o, 16);
    return g;
}

static inline evgen_utf8_view evgen_access_utf8(const evgen_event *ev, const evgen_access_layout *l, uint32_t field)
{
    evgen_utf8_view v = {"", 0};
    uint32_t o, n;
    if (evgen_access_locate(ev, l, field, &o, &n) && n >= 1) {
        v.data = (const char *)ev->payload + o;
        v.length = n - 1; /* without the terminator */
    }
    return v;
}

static inline evgen_utf16_view evgen_access_utf16(const evgen_event *ev, const evgen_access_layout *l, uint32_t field)
{
    evgen_utf16_view v = {(const uint8_t *)"", 0};
    uint32_t o, n;
    if (evgen_access_locate(ev, l, field, &o, &n) && n >= 2) {
        v.data = ev->payload + o;
        v.units = n / 2 - 1;
    }
    return v;
}

/* Arrays: the element size comes from the trace (a struct's stride as the writer laid it out). */
static inline const evgen_trace_struct *evgen_access_struct_of(const evgen_event *ev, const evgen_access_layout *l,
                                                               uint32_t field)
{
    const evgen_access_slot *s = evgen_access_slot_of(ev, l, field);
    if (!s || s->index >= ev->layout->n_fields)
        return NULL;
    const evgen_trace_field *f = &ev->layout->fields[s->index];
    const evgen_trace_manifest *m = ev->info->manifest;
    return f->kind == EVGEN_WIRE_STRUCT && f->struct_index >= 0 && (uint32_t)f->struct_index < m->n_structs
               ? &m->structs[f->struct_index]
               : NULL;
}

/* Bytes of one element: a scalar's size or a struct's stride; 0 for a variable struct (walked). */
static inline uint32_t evgen_access_element_size(const evgen_event *ev, const evgen_access_layout *l, uint32_t field)
{
    const evgen_access_slot *s = evgen_access_slot_of(ev, l, field);
    if (!s || s->index >= ev->layout->n_fields)
        return 0;
    const evgen_trace_field *f = &ev->layout->fields[s->index];
    if (f->kind == EVGEN_WIRE_STRUCT) {
        const evgen_trace_struct *st = evgen_access_struct_of(ev, l, field);
        return st ? st->stride : 0;
    }
    return evgen_wire_kind_size(f->kind, ev->pointer_size);
}

/* Element `i` of an array: its bytes and their number, or NULL past the end. The elements of a
 * variable struct are walked from the first, so reading them all in order costs O(n^2): a loop
 * over a large one should walk them itself with evgen_struct_element_size. */
static inline const uint8_t *evgen_access_element_sized(const evgen_event *ev, const evgen_access_layout *l,
                                                        uint32_t field, uint32_t i, uint32_t *element_size)
{
    uint32_t o, n, e = evgen_access_element_size(ev, l, field);
    if (!evgen_access_locate(ev, l, field, &o, &n))
        return NULL;
    if (e) {
        if (i >= n / e)
            return NULL;
        *element_size = e;
        return ev->payload + o + (size_t)i * e;
    }
    const evgen_trace_struct *st = evgen_access_struct_of(ev, l, field);
    if (!st || !st->variable)
        return NULL;
    for (uint32_t k = 0, at = 0; at < n; k++) {
        uint32_t size = evgen_struct_element_size(st, ev->payload + o + at, n - at, ev->pointer_size);
        if (size == 0)
            return NULL;
        if (k == i) {
            *element_size = size;
            return ev->payload + o + at;
        }
        at += size;
    }
    return NULL;
}

static inline const uint8_t *evgen_access_element(const evgen_event *ev, const evgen_access_layout *l, uint32_t field,
                                                  uint32_t i)
{
    uint32_t size;
    return evgen_access_element_sized(ev, l, field, i, &size);
}

/* The number of whole elements the payload holds. */
static inline uint32_t evgen_access_count(const evgen_event *ev, const evgen_access_layout *l, uint32_t field)
{
    uint32_t o, n, e = evgen_access_element_size(ev, l, field);
    if (!evgen_access_locate(ev, l, field, &o, &n))
        return 0;
    if (e)
        return n / e;
    const evgen_trace_struct *st = evgen_access_struct_of(ev, l, field);
    uint32_t count = 0;
    for (uint32_t at = 0; st && st->variable && at < n; count++) {
        uint32_t size = evgen_struct_element_size(st, ev->payload + o + at, n - at, ev->pointer_size);
        if (size == 0)
            break;
        at += size;
    }
    return count;
}

/* Member `member` of element `i` of a struct array, located with the trace's struct layout (a
 * variable struct's members walked). */
static inline const uint8_t *evgen_access_member(const evgen_event *ev, const evgen_access_layout *l, uint32_t field,
                                                 uint32_t i, uint32_t member, uint32_t *size)
{
    uint32_t esize = 0, mo, ms;
    const uint8_t *element = evgen_access_element_sized(ev, l, field, i, &esize);
    const evgen_trace_struct *st = evgen_access_struct_of(ev, l, field);
    if (!element || !st || !evgen_struct_member(st, element, esize, ev->pointer_size, member, &mo, &ms))
        return NULL;
    *size = ms;
    return element + mo;
}

static inline uint64_t evgen_access_member_uint(const evgen_event *ev, const evgen_access_layout *l, uint32_t field,
                                                uint32_t i, uint32_t member)
{
    uint32_t n = 0;
    const uint8_t *p = evgen_access_member(ev, l, field, i, member, &n);
    return p ? evgen_load_uint(p, n) : 0;
}

/* Elements of scalar arrays, and struct members, by their size in the trace. */
static inline uint64_t evgen_element_uint(const uint8_t *p, uint32_t n)
{
    return p ? evgen_load_uint(p, n) : 0;
}

static inline int64_t evgen_element_int(const uint8_t *p, uint32_t n)
{
    if (!p || n == 0 || n > 8)
        return 0;
    uint64_t v = evgen_load_uint(p, n);
    if (n < 8 && (v >> (8 * n - 1)) & 1u)
        v |= ~(uint64_t)0 << (8 * n);
    return (int64_t)v;
}

static inline double evgen_element_f64(const uint8_t *p, uint32_t n)
{
    if (p && n == 4) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    double d = 0;
    if (p && n == 8)
        memcpy(&d, p, 8);
    return d;
}

static inline evgen_guid evgen_element_guid(const uint8_t *p, uint32_t n)
{
    evgen_guid g;
    memset(&g, 0, sizeof g);
    if (p && n == 16)
        memcpy(&g, p, 16);
    return g;
}

/* String members of a variable struct: `n` bytes, the terminator included. */
static inline evgen_utf8_view evgen_element_utf8(const uint8_t *p, uint32_t n)
{
    evgen_utf8_view v = {"", 0};
    if (p && n >= 1) {
        v.data = (const char *)p;
        v.length = n - 1;
    }
    return v;
}

static inline evgen_utf16_view evgen_element_utf16(const uint8_t *p, uint32_t n)
{
    evgen_utf16_view v = {(const uint8_t *)"", 0};
    if (p && n >= 2) {
        v.data = p;
        v.units = n / 2 - 1;
    }
    return v;
}

/* The accessors of one field, one generated line each:
 *   <Event>_has_<Field>(ev) and <Event>_<Field>(ev), for scalars, GUIDs and strings;
 *   <Event>_has_<Field>(ev), <Event>_<Field>_count(ev), <Event>_<Field>_element(ev, i) for arrays,
 *   plus <Event>_<Field>_at(ev, i) for scalar elements and <Event>_<Field>_<Member>(ev, i) for
 *   struct members. GETTER is one of the evgen_access_* / evgen_element_* functions above. */
#define EVGEN_READER_FIELD(EVENT, FIELD, TYPE, GETTER, LAYOUT, K)                                  \
    static inline int EVENT##_has_##FIELD(const evgen_event *ev)                                     \
    {                                                                                               \
        return evgen_access_has(ev, &(LAYOUT), (K));                                                \
    }                                                                                               \
    static inline TYPE EVENT##_##FIELD(const evgen_event *ev)                                        \
    {                                                                                               \
        return GETTER(ev, &(LAYOUT), (K)); /* converted to TYPE as a return value */               \
    }

/* Fixed-size loads for the fast path below. */
static inline uint64_t evgen_fixed_u8(const uint8_t *p) { return p[0]; }
static inline uint64_t evgen_fixed_u16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint64_t evgen_fixed_u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t evgen_fixed_u64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline int64_t evgen_fixed_i8(const uint8_t *p) { return (int8_t)p[0]; }
static inline int64_t evgen_fixed_i16(const uint8_t *p) { int16_t v; memcpy(&v, p, 2); return v; }
static inline int64_t evgen_fixed_i32(const uint8_t *p) { int32_t v; memcpy(&v, p, 4); return v; }
static inline int64_t evgen_fixed_i64(const uint8_t *p) { int64_t v; memcpy(&v, p, 8); return v; }
static inline double evgen_fixed_f32(const uint8_t *p) { float v; memcpy(&v, p, 4); return v; }
static inline double evgen_fixed_f64(const uint8_t *p) { double v; memcpy(&v, p, 8); return v; }

/* A field at the same fixed offset in every version from MIN_VERSION on (append-only makes that the
 * rule; newer versions than the reader knows included): one compare of the version, one bounds
 * check and one load, all constants; other versions (older, legacy) take the table. */
#define EVGEN_READER_FIXED(EVENT, FIELD, TYPE, GETTER, LAYOUT, K, OFFSET, SIZE, MIN_VERSION, LOADER)  \
    static inline int EVENT##_has_##FIELD(const evgen_event *ev)                                     \
    {                                                                                               \
        if (ev->version + 1u > (MIN_VERSION)) /* version >= MIN_VERSION, without always-true warnings */ \
            return ev->size >= (OFFSET) + (SIZE);                                                    \
        return evgen_access_has(ev, &(LAYOUT), (K));                                                \
    }                                                                                               \
    static inline TYPE EVENT##_##FIELD(const evgen_event *ev)                                        \
    {                                                                                               \
        if (ev->version + 1u > (MIN_VERSION))                                                        \
            return ev->size >= (OFFSET) + (SIZE) ? LOADER(ev->payload + (OFFSET)) : 0;               \
        return GETTER(ev, &(LAYOUT), (K));                                                          \
    }

#define EVGEN_READER_ARRAY(EVENT, FIELD, LAYOUT, K)                                                 \
    static inline int EVENT##_has_##FIELD(const evgen_event *ev)                                     \
    {                                                                                               \
        return evgen_access_has(ev, &(LAYOUT), (K));                                                \
    }                                                                                               \
    static inline uint32_t EVENT##_##FIELD##_count(const evgen_event *ev)                            \
    {                                                                                               \
        return evgen_access_count(ev, &(LAYOUT), (K));                                              \
    }                                                                                               \
    static inline const uint8_t *EVENT##_##FIELD##_element(const evgen_event *ev, uint32_t i)        \
    {                                                                                               \
        return evgen_access_element(ev, &(LAYOUT), (K), i);                                         \
    }

#define EVGEN_READER_ARRAY_AT(EVENT, FIELD, TYPE, ELEMENT_GETTER, LAYOUT, K)                       \
    static inline TYPE EVENT##_##FIELD##_at(const evgen_event *ev, uint32_t i)                       \
    {                                                                                               \
        return ELEMENT_GETTER(evgen_access_element(ev, &(LAYOUT), (K), i),                          \
                              evgen_access_element_size(ev, &(LAYOUT), (K)));                       \
    }

#define EVGEN_READER_MEMBER(EVENT, FIELD, MEMBER, TYPE, ELEMENT_GETTER, LAYOUT, K, M)              \
    static inline TYPE EVENT##_##FIELD##_##MEMBER(const evgen_event *ev, uint32_t i)                 \
    {                                                                                               \
        uint32_t n = 0;                                                                             \
        const uint8_t *p = evgen_access_member(ev, &(LAYOUT), (K), i, (M), &n);                     \
        return ELEMENT_GETTER(p, n);                                                                \
    }

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_READER_ACCESS_H */
