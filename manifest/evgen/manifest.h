/* evgen/manifest.h — the manifest language: special types and default (empty) X-macros.
 *
 * A manifest is a C header WITHOUT an include guard. It starts with
 *     #include <evgen/manifest.h>
 * and ends with
 *     #include <evgen/manifest_end.h>
 * and in between uses the macros below, one per line. The file that includes a manifest defines
 * the macros it cares about first (X-macro style); every macro it leaves undefined expands to
 * nothing, so a plain C file can, for instance, define only KNOWN_EVENT to list the events.
 * manifest_end.h undefines every macro again, so the manifest can be included once more with
 * other definitions. Full reference: docs/manifest.md.
 *
 * EVENT_PROVIDER(symbol, "name")
 *     Declares a provider. `symbol` is how KNOWN_EVENT refers to it; "name" is the provider name
 *     recorded in traces (e.g. "Microsoft-Windows-DotNETRuntime").
 *
 * KNOWN_EVENT(name, id, provider, level, keywords)
 *     Declares an event. `name` becomes part of C identifiers (FireEtw<name>, <name>_<Field>) and
 *     is unique in the manifest; `id` is unique within its provider; `level` and `keywords` are
 *     integer constant expressions, evaluated by the C compiler.
 *
 * EVENT_FIELD(event, since, type, name)
 *     Appends a field to `event`. `since` is the version that introduced it: version N of an
 *     event holds, in declaration order, every field with since <= N. Fields are only ever
 *     appended: `since` never decreases from one field to the next.
 *
 * EVENT_ARRAY(event, since, type, name, count_field)
 *     A counted array: `count_field` names an earlier integer field of the same event holding the
 *     element count. The element type is a scalar type or a struct declared in the manifest (laid
 *     out as the C compiler lays it out, padding included).
 *
 * EVENT_VERSION(event, version)
 *     Declares that `version` exists even though no field was introduced by it (a version bump
 *     with an unchanged payload, or an empty version 0 before the first field).
 *
 * EVENT_LEGACY_FIELD(event, version, type, name)
 *     Declares, field by field and in order, the exact layout of an OLD version that predates the
 *     append-only rule (CoreCLR's GCStart version 0 had Reason where version 1 has Depth). Legacy
 *     versions are the lowest versions of an event; each names a field declared by EVENT_FIELD.
 *     `evgen check` accepts a legacy layout only if it matches the lock file: it can describe
 *     history, never create a new break.
 *
 * EVENT_VERSION_ATTRIBUTES(event, version, level, keywords)
 *     Gives version `version` of `event` its own level and keywords (integer constant expressions,
 *     like KNOWN_EVENT's), for a version that shipped with other ones (CoreCLR's
 *     GCCreateConcurrentThread version 0 is keyword GC only, version 1 GC|Threading). Versions
 *     without it have KNOWN_EVENT's. A session records each version by its own attributes;
 *     EventEnabled<event>() is true while any version is recorded.
 *
 * Field types are platform-independent: int8_t..int64_t, uint8_t..uint64_t, float, double, bool
 * (1 byte), enums, typedefs of these, and the special types below. int, long, size_t, char and
 * plain pointers are refused, because their size depends on the platform.
 */
#ifndef EVGEN_MANIFEST_TYPES_H
#define EVGEN_MANIFEST_TYPES_H

#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

/* The manifest language's version. Bumped only when a macro is added or changes meaning.
 * 2: EVENT_VERSION_ATTRIBUTES. */
#define EVGEN_MANIFEST_LANGUAGE 2

/* NUL-terminated UTF-16LE string (ETW's win:UnicodeString). */
typedef const uint16_t *evgen_utf16z;
/* NUL-terminated UTF-8 string (ETW's win:AnsiString, read as UTF-8). */
typedef const char *evgen_utf8z;
/* 16-byte GUID, stored as Data1 (u32), Data2 (u16), Data3 (u16), Data4 (8 bytes), little-endian. */
typedef struct evgen_guid {
    uint32_t data1;
    uint16_t data2;
    uint16_t data3;
    uint8_t data4[8];
} evgen_guid;
/* Pointer-sized integer (ETW's win:Pointer): 4 or 8 bytes, the size recorded in the trace. */
typedef uintptr_t evgen_ptr;
/* ETW's 4-byte Boolean (win:Boolean): 0 is false, anything else true. */
typedef uint32_t evgen_bool32;

#endif /* EVGEN_MANIFEST_TYPES_H */

/* Default definitions: every macro the includer did not define expands to nothing. */
#ifndef EVENT_PROVIDER
#define EVENT_PROVIDER(symbol, name)
#endif
#ifndef KNOWN_EVENT
#define KNOWN_EVENT(name, id, provider, level, keywords)
#endif
#ifndef EVENT_FIELD
#define EVENT_FIELD(event, since, type, name)
#endif
#ifndef EVENT_ARRAY
#define EVENT_ARRAY(event, since, type, name, count_field)
#endif
#ifndef EVENT_VERSION
#define EVENT_VERSION(event, version)
#endif
#ifndef EVENT_LEGACY_FIELD
#define EVENT_LEGACY_FIELD(event, version, type, name)
#endif
#ifndef EVENT_VERSION_ATTRIBUTES
#define EVENT_VERSION_ATTRIBUTES(event, version, level, keywords)
#endif
