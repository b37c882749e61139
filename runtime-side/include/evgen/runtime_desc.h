/* evgen/runtime_desc.h — the descriptors that generated code hands to libevgen-runtime: a
 * manifest's providers, events, versions, fields, enums and structs. They are what the trace's
 * metadata is written from, so a reader needs no generated code.
 *
 * Contract: descriptors are static data emitted by `evgen gen`; every struct that may grow
 * begins with its size, and the runtime reads only the fields that size covers. The runtime
 * writes only the fields marked "runtime" (type numbers, the registration chain). */
#ifndef EVGEN_RUNTIME_DESC_H
#define EVGEN_RUNTIME_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/wire_kinds.h" /* evgen_wire_kind: the kinds descriptors name */
#include "evgen/wire_metadata.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a descriptor or the emit fast path changes incompatibly; generated code checks it
 * with #error, so a stale generated file fails at compile time, not at run time. */
#define EVGEN_RUNTIME_ABI 3

typedef struct evgen_enum_const_desc {
    const char *name; /* display name (prefix stripped) */
    int64_t value;
} evgen_enum_const_desc;

typedef struct evgen_enum_desc {
    uint32_t size; /* sizeof(evgen_enum_desc) */
    const char *name;
    const evgen_enum_const_desc *consts;
    uint32_t n_consts;
} evgen_enum_desc;

typedef struct evgen_member_desc {
    const char *name;
    uint8_t kind;        /* evgen_wire_kind, a fixed-size scalar; in a variable struct a string too */
    int16_t enum_index;  /* into the manifest's enums, or -1 */
    uint32_t offset;     /* as the C compiler lays out the struct on this target; unused in a variable
                            struct (the metadata writer lays its members out for this target's pointers) */
} evgen_member_desc;

typedef struct evgen_struct_desc {
    uint32_t size; /* sizeof(evgen_struct_desc) */
    const char *name;
    uint32_t stride; /* sizeof the C struct, padding included; EVGEN_WIRE_STRIDE_VARIABLE (0) for a
                        variable struct: one with a string member, written member by member */
    const evgen_member_desc *members;
    uint32_t n_members;
} evgen_struct_desc;

#define EVGEN_FIELD_ARRAY EVGEN_WIRE_FIELD_IS_ARRAY

typedef struct evgen_field_desc {
    const char *name;
    uint8_t kind;         /* evgen_wire_kind; for an array, of the element */
    uint8_t flags;        /* EVGEN_FIELD_ARRAY */
    int16_t enum_index;   /* into the manifest's enums, or -1 */
    int16_t struct_index; /* into the manifest's structs when kind is STRUCT, or -1 */
    int16_t count_field;  /* arrays: index of the count field in this version, else -1 */
} evgen_field_desc;

#define EVGEN_VERSION_LEGACY EVGEN_WIRE_VERSION_LEGACY
#define EVGEN_VERSION_VARIABLE 0x2u
#define EVGEN_VERSION_ATTRIBUTES 0x4u /* level and keywords of its own (EVENT_VERSION_ATTRIBUTES) */

typedef struct evgen_version_desc {
    uint32_t size; /* sizeof(evgen_version_desc) */
    uint16_t version;
    uint16_t flags;      /* EVGEN_VERSION_LEGACY, EVGEN_VERSION_VARIABLE, EVGEN_VERSION_ATTRIBUTES */
    uint32_t fixed_size; /* payload bytes when not variable, with this target's pointers */
    const evgen_field_desc *fields;
    uint32_t n_fields;
    /* With EVGEN_VERSION_ATTRIBUTES: the version's own level and keywords (else the event's). */
    uint8_t level;
    uint64_t keywords;
    /* The enabled byte FireEtw<Event>_V<n> checks: 0 for the event's own, else 1 + its index in
     * the manifest's `enabled` (above the events' bytes). A version with attributes of its own has
     * a byte of its own, set for the sessions that record it; the versions without check the
     * event's byte, or one byte they share when the event's byte, which is set while any version
     * is recorded, would also let them through to sessions that record only another version. */
    uint32_t enabled;
} evgen_version_desc;

typedef struct evgen_event_desc {
    uint32_t size; /* sizeof(evgen_event_desc) */
    const char *name;
    uint32_t provider; /* index into the manifest's providers */
    uint32_t id;
    uint8_t level;
    uint64_t keywords;
    const evgen_version_desc *versions; /* first_version .. latest, in order */
    uint32_t n_versions;
    uint32_t type_offset; /* this event's first version's number among the manifest's types */
} evgen_event_desc;

typedef struct evgen_manifest_desc {
    uint32_t size; /* sizeof(evgen_manifest_desc) */
    uint32_t abi;  /* EVGEN_RUNTIME_ABI */
    const char *name;     /* e.g. "gcevents" */
    const char *const *providers;
    uint32_t n_providers;
    const evgen_event_desc *events;
    uint32_t n_events;
    uint32_t n_types; /* versions of all events: the manifest's trace types */
    const evgen_enum_desc *enums;
    uint32_t n_enums;
    const evgen_struct_desc *structs;
    uint32_t n_structs;
    /* One byte per event: bit s set while the session in slot s records some version of it
     * (EVGEN_MAX_SESSIONS); EventEnabled<Event>() reads it. Then the bytes of versions that have
     * their own (evgen_version_desc.enabled). */
    volatile uint8_t *enabled;
    /* runtime: the trace type number of this manifest's first type (process-wide numbering),
     * and the registration chain. */
    uint32_t type_base;
    struct evgen_manifest_desc *next;
    /* Bytes of `enabled`: n_events and the versions' (0: n_events). */
    uint32_t n_enabled;
} evgen_manifest_desc;

/* Registers a manifest with the runtime (generated code does it from a constructor). Idempotent.
 * A session open at the time records the manifest's metadata at once. Thread-safe. */
void evgen_register_manifest(evgen_manifest_desc *manifest);

/* Unregisters a manifest: its events are disabled in every session, everything already emitted
 * reaches each session's sink (the callback sink has decoded it), and the runtime forgets the
 * descriptors, so the code holding them may be unloaded. No thread may be inside one of its FireEtw
 * functions meanwhile (dlclose's own rule). Re-registering gives it new trace types. Not
 * async-signal-safe; not from an event callback. */
void evgen_unregister_manifest(evgen_manifest_desc *manifest);

/* The payload of the metadata block a trace holds for `manifest` (docs/format.md): its type base
 * (type_base as the descriptor holds it: 0 until the manifest is registered), name, providers,
 * enums, structs and events. The same encoder writes the trace's own metadata blocks, so the bytes
 * are those a session records for this manifest at this type base. A reader binds .nettrace events
 * to manifests given this way (evgen_reader_manifest in evgen/reader.h).
 *
 * Returns a malloc'd buffer the caller frees, its length in *size; NULL (and *size 0) if
 * `manifest` is NULL or memory runs out. Reads only the descriptors; needs no session and takes no
 * lock, so it is thread-safe as long as nothing registers the manifest at the same time. */
uint8_t *evgen_manifest_metadata(const evgen_manifest_desc *manifest, size_t *size);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_RUNTIME_DESC_H */
