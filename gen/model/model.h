/* model.h — the one model in the middle of evgen: what a manifest declares, and its lowered
 * per-version layouts. Only the front end (frontend_clang.c) fills the declarations; the
 * checker/lowerer (model_check.c) computes the layouts; every back end reads a const model. Its
 * names begin evgen_model_ (kinds are evgen_wire_kind, of evgen/wire_kinds.h), none of libevgen-reader's or
 * libevgen-runtime's: a source may include the model beside evgen/reader.h. */
#ifndef EVGEN_GEN_MODEL_H
#define EVGEN_GEN_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "evgen/wire_kinds.h"

/* The kinds are the wire's (evgen/wire_kinds.h: one list for the generator, runtime and reader).
 * The generator lays payloads out for 8-byte pointers; layouts mark what depends on it. */
#define EVGEN_MODEL_POINTER_SIZE 8u

/* The kind's spelling in locks and `evgen describe` ("uint32"), "?" for no kind. */
const char *evgen_kind_name(evgen_wire_kind kind);
/* Fixed wire size of a scalar kind with the model's 8-byte pointers; 0 for strings and structs. */
unsigned evgen_kind_size(evgen_wire_kind kind);

/* A position in a manifest or lock file. `file` points into the model's string pool. */
typedef struct evgen_model_loc {
    const char *file;
    unsigned line;
    unsigned col;
} evgen_model_loc;

typedef struct evgen_model_enum_const {
    char *name;         /* C name, e.g. GCReason_AllocSmall */
    char *display_name; /* without the enum's "GCReason_" prefix when every constant has it */
    int64_t value;
} evgen_model_enum_const;

typedef struct evgen_model_enum {
    char *name; /* typedef or tag name */
    evgen_model_enum_const *consts;
    size_t n_consts;
} evgen_model_enum;

/* A struct used as an array element, laid out as the C compiler lays it out for the target; a
 * variable struct (one with a string member) is packed and written member by member. */
typedef struct evgen_model_struct_member {
    char *name;
    evgen_wire_kind kind; /* a fixed-size scalar kind, or in a variable struct a string kind too */
    unsigned offset;      /* in the C struct; in a variable struct, lowered to the wire's: bytes after the
                             last string member before it (the payload layout rule, 8-byte pointers) */
    unsigned size;
    int enum_index; /* -1 if not an enum */
    char *c_spelling; /* the member's type as the manifest spells it: "uint64_t", "evgen_utf16z" */
    evgen_model_loc loc;
} evgen_model_struct_member;

typedef struct evgen_model_struct {
    char *name;   /* typedef or tag name, for people and metadata */
    char *c_type; /* how C code names it: "FitBucket", or "struct Timing" without a typedef */
    unsigned size; /* stride, padding included; a variable struct's is 0 once lowered (no stride) */
    unsigned align;
    bool pointer_dependent; /* holds an evgen_ptr: size assumes the target's pointers */
    bool variable;          /* has a string member: elements are members back to back (docs/format.md) */
    evgen_model_struct_member *members;
    size_t n_members;
    evgen_model_loc loc;
} evgen_model_struct;

/* A resolved field type. */
typedef struct evgen_model_type {
    evgen_wire_kind kind;
    int enum_index;   /* into model->enums, or -1 */
    int struct_index; /* into model->structs when kind == EVGEN_WIRE_STRUCT, else -1 */
    char *c_spelling; /* the type as the manifest spells it: "uint64_t", "GCReason" */
} evgen_model_type;

/* One EVENT_FIELD / EVENT_ARRAY / EVENT_LEGACY_FIELD line, as declared. */
typedef struct evgen_model_field {
    char *name;
    evgen_model_type type; /* for an array: the element type */
    unsigned since;        /* for a legacy field: the legacy version it belongs to */
    bool is_array;
    char *count_name;          /* arrays: the count field's name */
    int count_index;           /* arrays: index of the count field in event->fields (after checks) */
    evgen_model_loc loc;       /* the macro invocation */
    evgen_model_loc since_loc; /* each argument's position */
    evgen_model_loc type_loc;
    evgen_model_loc name_loc;
    evgen_model_loc count_loc;
} evgen_model_field;

/* One field's place in one version of an event (lowered). */
/* A field placed in a version by the wire's layout rule (evgen/wire_layout.h), 8-byte pointers. */
typedef struct evgen_model_slot {
    const evgen_model_field *field; /* the declaration (a legacy one for legacy versions) */
    unsigned size;                  /* fixed wire size; 0 if variable-length */
    unsigned offset;                /* from the payload start, or from the end of slot `after` */
    int after;                      /* -1: fixed offset; else index of the last variable-length slot before */
    unsigned ptrs_before;           /* evgen_ptr slots between the base and this slot (offset assumes 8 each) */
    unsigned var_before;            /* variable-length slots before this one */
    unsigned var;                   /* a variable-length slot: its number among the version's */
    bool fixed_offset;              /* at one offset whatever the pointer size (evgen_wire_slot_is_fixed_offset) */
} evgen_model_slot;

typedef struct evgen_model_version {
    unsigned version;
    bool legacy; /* laid out by EVENT_LEGACY_FIELD lines */
    /* The version's level and keywords: its EVENT_VERSION_ATTRIBUTES line's (own_attributes), else
     * the event's. */
    bool own_attributes;
    uint64_t level;
    uint64_t keywords;
    /* The runtime's enabled byte its FireEtw checks: -1 for the event's (set while any version is
     * recorded), else an index among the manifest's bytes, above the events' (model->n_enabled). */
    int enabled_byte;
    evgen_model_slot *slots;
    size_t n_slots;
    unsigned fixed_size; /* payload size if it has no variable-length field (8-byte pointers) */
    bool variable_size;
    bool pointer_dependent;
} evgen_model_version;

/* One EVENT_VERSION_ATTRIBUTES line: a version's own level and keywords. */
typedef struct evgen_model_version_attributes {
    unsigned version;
    uint64_t level;
    uint64_t keywords;
    evgen_model_loc loc, version_loc, level_loc, keywords_loc;
} evgen_model_version_attributes;

typedef struct evgen_model_event {
    char *name;
    uint64_t id;
    char *provider_symbol;
    int provider_index; /* after checks */
    uint64_t level;
    uint64_t keywords;
    evgen_model_loc loc, name_loc, id_loc, provider_loc, level_loc, keywords_loc;
    evgen_model_field *fields; /* EVENT_FIELD and EVENT_ARRAY lines, in declaration order */
    size_t n_fields;
    evgen_model_field *legacy_fields; /* EVENT_LEGACY_FIELD lines, in declaration order */
    size_t n_legacy_fields;
    unsigned *explicit_versions; /* EVENT_VERSION lines */
    evgen_model_loc *explicit_version_locs;
    size_t n_explicit_versions;
    evgen_model_version_attributes *attributes; /* EVENT_VERSION_ATTRIBUTES lines */
    size_t n_attributes;
    /* Lowered by evgen_model_check(): versions first_version..latest_version, one each. */
    evgen_model_version *versions;
    /* Lowered too: every field the event ever had, which the reader side gives an accessor: the
     * EVENT_FIELD and EVENT_ARRAY lines in order, then each legacy-only field (a legacy line naming
     * no EVENT_FIELD: a field of old legacy versions only), at its first legacy line. */
    const evgen_model_field **all_fields;
    size_t n_all_fields;
    size_t n_versions;
    unsigned first_version;
    unsigned latest_version;
} evgen_model_event;

typedef struct evgen_model_provider {
    char *symbol;
    char *name;
    evgen_model_loc loc, symbol_loc, name_loc;
} evgen_model_provider;

typedef struct evgen_model {
    char *manifest_path;  /* as given on the command line */
    char **included_files; /* every file the manifest pulled in, for depfiles */
    size_t n_included_files;
    evgen_model_provider *providers;
    size_t n_providers;
    evgen_model_event *events;
    size_t n_events;
    evgen_model_enum *enums;
    size_t n_enums;
    evgen_model_struct *structs;
    size_t n_structs;
    size_t n_enabled; /* the runtime's enabled bytes: one per event, then the versions' own */
    char **file_pool; /* interned file names that evgen_model_loc.file points to */
    size_t n_file_pool;
    bool lowered;
} evgen_model;

void evgen_model_init(evgen_model *model);
void evgen_model_free(evgen_model *model);

/* Interns a file name; the returned pointer lives as long as the model. */
const char *evgen_model_intern_file(evgen_model *model, const char *file);

const evgen_model_event *evgen_model_find_event(const evgen_model *model, const char *name);
int evgen_model_event_find_field(const evgen_model_event *event, const char *name);
const evgen_model_version *evgen_model_event_version(const evgen_model_event *event, unsigned version);
/* The index of the field named `name` among a version's slots (its place in the payload), or -1. */
int evgen_model_version_find_slot(const evgen_model_version *version, const char *name);

/* Wire size of a type in bytes (8 for evgen_ptr), 0 if variable-length (strings). */
unsigned evgen_model_type_size(const evgen_model *model, const evgen_model_type *type);

/* Canonical one-line signature of a field's wire type, as the lock file records it, e.g.
 * "uint32", "utf16z", "array<uint8>[DataSize]",
 * "array<struct{TimePlan:uint32@0,...,ZeroRefs:ptr@24}/32>[Count]". Caller frees. */
char *evgen_model_field_signature(const evgen_model *model, const evgen_model_field *field);

#endif /* EVGEN_GEN_MODEL_H */
