/* layout.c — the payload layout rule and the natural struct layout of evgen/wire_layout.h. */
#include "evgen/wire_layout.h"

#include <string.h>

#include "evgen/wire_kinds.h"

void evgen_wire_layout_init(evgen_wire_layout *l, unsigned pointer_size)
{
    l->pointer_size = pointer_size;
    l->n_fields = l->n_variable = l->ptrs = 0;
    l->anchor = -1;
    l->delta = 0;
    l->pointer_dependent = 0;
}

evgen_wire_slot evgen_wire_layout_add(evgen_wire_layout *l, unsigned kind, int is_array)
{
    evgen_wire_slot s;
    s.var_before = l->n_variable;
    s.anchor = l->anchor;
    s.delta = l->delta;
    s.ptrs_before = l->ptrs;
    s.var = 0;
    int pointer = evgen_wire_kind_class(kind) == EVGEN_WIRE_CLASS_POINTER;
    if (pointer)
        l->pointer_dependent = 1;
    s.size = is_array ? 0 : evgen_wire_kind_size(kind, l->pointer_size);
    if (s.size == 0) { /* variable: the next field starts after it */
        s.var = l->n_variable++;
        l->anchor = (int32_t)l->n_fields;
        l->delta = 0;
        l->ptrs = 0;
    } else {
        l->delta += s.size;
        l->ptrs += (uint32_t)pointer;
    }
    l->n_fields++;
    return s;
}

int64_t evgen_wire_layout_fixed_size(const evgen_wire_layout *l)
{
    return l->n_variable ? -1 : (int64_t)l->delta;
}

uint32_t evgen_wire_struct_layout(const uint32_t *kinds, uint32_t n, unsigned pointer_size, uint32_t *offsets)
{
    return evgen_wire_struct_layout_packed(kinds, n, pointer_size, 0, offsets);
}

uint32_t evgen_wire_struct_layout_packed(const uint32_t *kinds, uint32_t n, unsigned pointer_size, uint32_t pack,
                                         uint32_t *offsets)
{
    uint32_t offset = 0, max_align = 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t size = evgen_wire_kind_size(kinds[i], pointer_size);
        uint32_t align = evgen_wire_kind_align(kinds[i], pointer_size);
        if (align == 0)
            align = 1;
        if (pack && align > pack)
            align = pack;
        offset = (offset + align - 1) / align * align;
        offsets[i] = offset;
        offset += size;
        if (align > max_align)
            max_align = align;
    }
    return (offset + max_align - 1) / max_align * max_align;
}

uint64_t evgen_wire_value_size(const uint8_t *p, uint64_t avail, unsigned kind, unsigned pointer_size)
{
    switch (evgen_wire_kind_class(kind)) {
    case EVGEN_WIRE_CLASS_UTF8: {
        const uint8_t *z = avail ? memchr(p, 0, (size_t)avail) : NULL;
        return z ? (uint64_t)(z - p) + 1 : 0;
    }
    case EVGEN_WIRE_CLASS_UTF16:
        for (uint64_t i = 0; i + 2 <= avail; i += 2)
            if (p[i] == 0 && p[i + 1] == 0)
                return i + 2;
        return 0;
    case EVGEN_WIRE_CLASS_STRUCT:
        return 0;
    case EVGEN_WIRE_CLASS_UNSIGNED:
    case EVGEN_WIRE_CLASS_SIGNED:
    case EVGEN_WIRE_CLASS_FLOAT:
    case EVGEN_WIRE_CLASS_BOOL:
    case EVGEN_WIRE_CLASS_POINTER:
    case EVGEN_WIRE_CLASS_GUID:
        break;
    }
    uint64_t n = evgen_wire_kind_size(kind, pointer_size);
    return n <= avail ? n : 0;
}
