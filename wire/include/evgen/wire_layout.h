/* evgen/wire_layout.h — the one layout rule of a payload (docs/format.md: "a version's payload is
 * its fields in order, packed, no padding"): where each field starts and how its size is found.
 * The generator lowers every version of a manifest with it (the offsets of FireEtw stores and of
 * the accessors' offset tables), the reader every version a trace's metadata defines.
 *
 * A field starts `delta` bytes after the end of the last variable-size field before it (a string
 * or an array), or after the payload start if there is none. Pointer-sized fields count
 * `pointer_size` bytes each; `ptrs_before` says how many lie between that anchor and the field,
 * so an offset computed for 8-byte pointers can be moved to a trace with 4-byte ones. */
#ifndef EVGEN_WIRE_LAYOUT_H
#define EVGEN_WIRE_LAYOUT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct evgen_wire_slot {
    uint32_t var_before;  /* variable fields before this one: it starts at the end of the last (0: payload start) */
    int32_t anchor;       /* the index in the version of that last variable field, -1 if none */
    uint64_t delta;       /* bytes from the anchor's end (or the payload start) */
    uint32_t ptrs_before; /* pointer-sized fields counted in `delta` */
    uint64_t size;        /* bytes, fixed-size fields; 0: variable (its size is read from the payload) */
    uint32_t var;         /* a variable field: its number among the version's variable fields */
} evgen_wire_slot;

/* A version being laid out, field by field. Zero-initialize it (or evgen_wire_layout_init). */
typedef struct evgen_wire_layout {
    uint32_t pointer_size;
    uint32_t n_fields;
    uint32_t n_variable;
    int32_t anchor;
    uint64_t delta;
    uint32_t ptrs;
    int pointer_dependent; /* a pointer-sized field: the fixed size depends on pointer_size */
} evgen_wire_layout;

void evgen_wire_layout_init(evgen_wire_layout *l, unsigned pointer_size);
/* Places the next field: a scalar of `kind`, or an array of it (`is_array`: variable, as strings
 * are). Returns its slot. */
evgen_wire_slot evgen_wire_layout_add(evgen_wire_layout *l, unsigned kind, int is_array);
/* The payload size of a version without variable fields, or -1. */
int64_t evgen_wire_layout_fixed_size(const evgen_wire_layout *l);

/* A slot at one offset from the payload start whatever the pointer size: no variable field and no
 * pointer before it. The generated accessors read such a field without the offset table. */
static inline int evgen_wire_slot_is_fixed_offset(const evgen_wire_slot *s)
{
    return s->anchor < 0 && s->ptrs_before == 0;
}

/* The natural layout of a struct of scalar members with `pointer_size`-byte pointers: each member
 * at the next multiple of its alignment (evgen_wire_kind_align), the stride a multiple of the
 * largest. The C compilers evgen targets lay out a manifest's structs so (the generator records
 * the compiler's own offsets; the reader uses this to move a struct to a trace's pointer size).
 * Writes `offsets[n]`; returns the stride. */
uint32_t evgen_wire_struct_layout(const uint32_t *kinds, uint32_t n, unsigned pointer_size, uint32_t *offsets);
/* Whether a fixed-size member of `size` bytes (0: not a fixed-size kind) at `offset` lies inside an
 * element of a fixed struct of `stride` bytes: the format's rule for a struct's members. */
static inline int evgen_wire_member_fits(uint32_t size, uint32_t offset, uint32_t stride)
{
    return size != 0 && offset <= stride && stride - offset >= size;
}

/* The same under `#pragma pack(pack)`: no member aligned to more than `pack` bytes (1, 2, 4 or 8;
 * 0: no pack, the natural layout). CoreCLR packs its heap-dump element structs (pack 1). */
uint32_t evgen_wire_struct_layout_packed(const uint32_t *kinds, uint32_t n, unsigned pointer_size, uint32_t pack,
                                         uint32_t *offsets);

/* The bytes of one value of `kind` at `p`, of which `avail` are readable: a fixed-size kind's size
 * with `pointer_size`-byte pointers; a utf8z string's up to and including its 0 byte; a utf16z
 * string's up to and including a 0 unit at an even distance from `p`. 0 if `avail` does not hold
 * the value whole (an unterminated string, an odd UTF-16 remainder) or `kind` has no such size.
 * A variable struct's element (docs/format.md) is its members' values back to back, each found so. */
uint64_t evgen_wire_value_size(const uint8_t *p, uint64_t avail, unsigned kind, unsigned pointer_size);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_WIRE_LAYOUT_H */
