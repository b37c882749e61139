/* ctf_event.c — an event's fields re-serialized in their CTF layout from their decoded values, as
 * ctf_metadata.c declares them: scalars as they are, GUIDs as their text, UTF-16 as UTF-8, struct
 * elements member by member without the C padding (docs/export-ctf.md, "Types"). */
#include <string.h>

#include "ctf_internal.h"
#include "evgen/wire_bytes.h"

static const char hex[] = "0123456789abcdef";

/* A GUID's text as dump prints it (Data1-Data2-Data3 little-endian, then 8 bytes), NUL-terminated. */
static void put_guid(evgen_wire_buf *out, const uint8_t *p)
{
    if (evgen_wire_buf_reserve(out, 37) != 0)
        return;
    char *w = (char *)out->data + out->len;
    uint32_t d1 = evgen_wire_le32(p);
    uint16_t d2 = evgen_wire_le16(p + 4), d3 = evgen_wire_le16(p + 6);
    for (int i = 0; i < 8; i++)
        *w++ = hex[(d1 >> (28 - 4 * i)) & 15];
    *w++ = '-';
    for (int i = 0; i < 4; i++)
        *w++ = hex[(d2 >> (12 - 4 * i)) & 15];
    *w++ = '-';
    for (int i = 0; i < 4; i++)
        *w++ = hex[(d3 >> (12 - 4 * i)) & 15];
    *w++ = '-';
    for (int i = 8; i < 16; i++) {
        if (i == 10)
            *w++ = '-';
        *w++ = hex[p[i] >> 4];
        *w++ = hex[p[i] & 15];
    }
    *w = '\0';
    out->len += 37;
}

/* UTF-16LE units as UTF-8 and a 0 byte (unpaired surrogates as U+FFFD, as dump shows them). */
static void put_utf16(evgen_wire_buf *out, const uint8_t *p, uint32_t units)
{
    evgen_utf16_view text = {p, units};
    size_t n = evgen_utf16_to_utf8(text, NULL, 0);
    if (evgen_wire_buf_reserve(out, n + 1) != 0)
        return;
    evgen_utf16_to_utf8(text, (char *)out->data + out->len, n + 1);
    out->len += n + 1;
}

/* One value of `kind` (`size` bytes at p; strings with their terminator). */
static void put_value(evgen_wire_buf *out, unsigned kind, const uint8_t *p, uint32_t size)
{
    switch (evgen_wire_kind_class(kind)) {
    case EVGEN_WIRE_CLASS_UNSIGNED:
    case EVGEN_WIRE_CLASS_SIGNED:
    case EVGEN_WIRE_CLASS_FLOAT:
    case EVGEN_WIRE_CLASS_BOOL:
    case EVGEN_WIRE_CLASS_POINTER:
    case EVGEN_WIRE_CLASS_UTF8: /* its bytes, its 0 byte included */
        evgen_wire_buf_raw(out, p, size);
        break;
    case EVGEN_WIRE_CLASS_GUID:
        put_guid(out, p);
        break;
    case EVGEN_WIRE_CLASS_UTF16:
        put_utf16(out, p, size >= 2 ? (size - 2) / 2 : 0);
        break;
    case EVGEN_WIRE_CLASS_STRUCT: /* never a value: arrays of structs are walked by put_array */
        break;
    }
}

/* A value of `kind` that is not there, as zeros (an empty string), so that the layout holds. */
static void put_absent(evgen_wire_buf *out, unsigned kind, unsigned pointer_size)
{
    static const uint8_t zeros[16];
    unsigned size = evgen_wire_kind_size(kind, pointer_size);
    if (kind == EVGEN_WIRE_GUID)
        put_guid(out, zeros);
    else if (evgen_wire_kind_is_string(kind))
        evgen_wire_buf_raw(out, zeros, 1);
    else
        evgen_wire_buf_raw(out, zeros, size <= sizeof zeros ? size : 0);
}

static void put_array(evgen_wire_buf *out, const evgen_trace_field *fd, const evgen_trace_manifest *m,
                      const uint8_t *p, uint32_t size, unsigned pointer_size, int own_length)
{
    const evgen_trace_struct *st = fd->kind == EVGEN_WIRE_STRUCT ? &m->structs[fd->struct_index] : NULL;
    size_t length_at = out->len;
    if (own_length)
        evgen_wire_buf_raw(out, "\0\0\0\0", 4); /* the count, once the elements are walked */
    uint32_t count = 0;
    if (!st) {
        uint32_t elem = evgen_wire_kind_size(fd->kind, pointer_size);
        count = elem ? size / elem : 0;
        if (fd->kind == EVGEN_WIRE_GUID)
            for (uint32_t i = 0; i < count; i++)
                put_guid(out, p + (size_t)i * elem);
        else /* integers, floats, bools, pointers: the elements' bytes are their CTF layout */
            evgen_wire_buf_raw(out, p, (size_t)count * elem);
    } else {
        for (uint32_t at = 0; at < size; count++) {
            const uint8_t *e = p + at;
            uint32_t esize = evgen_struct_element_size(st, e, size - at, pointer_size);
            if (esize == 0) /* never for an array located whole */
                break;
            at += esize;
            for (uint32_t k = 0; k < st->n_members; k++) {
                uint32_t mo, ms;
                unsigned kind = st->members[k].kind;
                if (evgen_struct_member(st, e, esize, pointer_size, k, &mo, &ms))
                    put_value(out, kind, e + mo, ms);
                else /* never for an element walked whole; the layout is kept all the same */
                    put_absent(out, kind, pointer_size);
            }
        }
    }
    if (own_length && !out->failed)
        evgen_wire_put_le32(out->data + length_at, count);
}

void ctf_event_put_field(evgen_wire_buf *out, const evgen_event *ev, uint32_t f, uint32_t off, uint32_t size)
{
    const evgen_trace_field *fd = &ev->layout->fields[f];
    const uint8_t *p = ev->payload + off;
    if (fd->is_array)
        put_array(out, fd, ev->info->manifest, p, size, ev->pointer_size, ctf_field_has_own_length(ev->layout, f));
    else
        put_value(out, fd->kind, p, size);
}

void ctf_event_put_raw(evgen_wire_buf *out, const uint8_t *p, uint32_t n)
{
    uint8_t length[4];
    evgen_wire_put_le32(length, n);
    evgen_wire_buf_raw(out, length, 4);
    evgen_wire_buf_raw(out, p, n);
}
