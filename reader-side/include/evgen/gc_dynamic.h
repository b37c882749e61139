/* evgen/gc_dynamic.h — decodes the named payloads of CoreCLR's GCDynamicEvent (CommittedUsage,
 * HeapCountTuning, HeapCountSample): from the event's Name and Data, a list of named fields.
 *
 * GCDynamicEvent (id 39 of Microsoft-Windows-DotNETRuntime) carries a Name and DataSize bytes of
 * Data whose layout depends on the Name: the GC's DYNAMIC_EVENT declarations
 * (src/coreclr/gc/gcevents.h), serialized little-endian and packed, a UInt16 Version first. This
 * decoder knows version 1 of the three the runtime fires. It reads only the `size` bytes it is
 * given, never allocates, keeps no state and is safe to call from any thread. */
#ifndef EVGEN_GC_DYNAMIC_H
#define EVGEN_GC_DYNAMIC_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A decoded field's wire type. */
typedef enum evgen_gc_dynamic_kind {
    EVGEN_GC_DYNAMIC_U16, /* value in .u */
    EVGEN_GC_DYNAMIC_U64, /* value in .u */
    EVGEN_GC_DYNAMIC_F32  /* value in .f */
} evgen_gc_dynamic_kind;

typedef struct evgen_gc_dynamic_field {
    const char *name; /* static, e.g. "GCIndex" */
    evgen_gc_dynamic_kind kind;
    uint64_t u;
    float f;
} evgen_gc_dynamic_field;

typedef enum evgen_gc_dynamic_status {
    EVGEN_GC_DYNAMIC_OK,              /* every field of the layout decoded */
    EVGEN_GC_DYNAMIC_UNKNOWN_NAME,    /* a Name this decoder does not know: nothing decoded */
    EVGEN_GC_DYNAMIC_UNKNOWN_VERSION, /* a known Name of another Version: only Version decoded */
    EVGEN_GC_DYNAMIC_TRUNCATED        /* Data shorter than the layout: the whole fields it holds decoded */
} evgen_gc_dynamic_status;

/* The most fields a layout has (HeapCountTuning). */
#define EVGEN_GC_DYNAMIC_MAX_FIELDS 9

typedef struct evgen_gc_dynamic {
    const char *name;  /* the layout's name as CoreCLR spells it, or NULL for an unknown Name */
    uint16_t version;  /* the layout's version (1) */
    size_t layout_size; /* bytes the layout takes; 0 for an unknown Name */
    size_t extra;      /* bytes of Data after the layout (fields of a later runtime), not decoded */
    size_t n_fields;   /* fields decoded, in payload order, Version first */
    evgen_gc_dynamic_field fields[EVGEN_GC_DYNAMIC_MAX_FIELDS];
} evgen_gc_dynamic;

/* Decodes `size` bytes of Data for the event Name `name` (UTF-16, as the GCDynamicEvent_Name
 * accessor returns it; compared ignoring ASCII case, as TraceEvent does). Fills *out in every
 * case, and returns how far it got. `data` may be NULL when `size` is 0. */
evgen_gc_dynamic_status evgen_gc_dynamic_decode(evgen_utf16_view name, const uint8_t *data, size_t size,
                                                evgen_gc_dynamic *out);

/* The same, with the Name as a NUL-terminated UTF-8 string. */
evgen_gc_dynamic_status evgen_gc_dynamic_decode_utf8(const char *name, const uint8_t *data, size_t size,
                                                     evgen_gc_dynamic *out);

/* The decoded field named `field` (exact spelling), or NULL if it was not decoded. */
const evgen_gc_dynamic_field *evgen_gc_dynamic_find(const evgen_gc_dynamic *decoded, const char *field);

/* One word for a status: "ok", "unknown name", "unknown version", "truncated". */
const char *evgen_gc_dynamic_status_name(evgen_gc_dynamic_status status);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_GC_DYNAMIC_H */
