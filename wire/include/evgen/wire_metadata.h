/* evgen/wire_metadata.h — the payload of a metadata block (docs/format.md, "Metadata block"): a
 * manifest's providers, enums, structs, events, versions and fields. One encoder and one decoder,
 * element by element, side by side in wire/src/metadata.c: the runtime encodes from its
 * descriptors, `evgen convert` from a reader's tables, the reader decodes, each walking its own
 * structures and handing each element to these functions in the order the format has them:
 *
 *   head (first_type, name), count n_providers, n x string;
 *   count n_enums,   n x (enum head, n_consts x enum const);
 *   count n_structs, n x (struct head, n_members x member);
 *   count n_events,  n x (event head, n_versions x (version head, n_fields x field)).
 *
 * References to enums, structs and count fields are indexes, -1 for none (the wire's "+1"
 * encoding is this file's business). */
#ifndef EVGEN_WIRE_METADATA_H
#define EVGEN_WIRE_METADATA_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/wire_bytes.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EVGEN_WIRE_FIELD_IS_ARRAY 0x1u  /* a field's flags: an array of its kind */
#define EVGEN_WIRE_VERSION_LEGACY 0x1u  /* a version's flags: laid out by legacy lines */
#define EVGEN_WIRE_VERSION_ATTRIBUTES 0x2u /* a version's flags: its own level and keywords follow */
/* Every version flag this format defines; a decoder refuses others (a newer writer's). */
#define EVGEN_WIRE_VERSION_FLAGS (EVGEN_WIRE_VERSION_LEGACY | EVGEN_WIRE_VERSION_ATTRIBUTES)

/* A struct's stride on the wire for a variable struct: one whose members may be strings, each
 * element its members' values back to back, packed (docs/format.md). A reader of evgen before
 * variable structs refuses a stride of 0, so it refuses such a metadata block whole. */
#define EVGEN_WIRE_STRIDE_VARIABLE 0u

typedef struct evgen_wire_member {
    const char *name;
    uint32_t kind;      /* a fixed-size scalar kind, or in a variable struct a string kind too
                           (decoded: as stored, UINT32_MAX if larger) */
    uint32_t offset;    /* in the struct's stride; in a variable struct, bytes after the end of the
                           last string member before it (or the element start), by the trace's
                           pointer size: the payload layout rule (evgen/wire_layout.h) */
    int32_t enum_index; /* -1: none */
} evgen_wire_member;

typedef struct evgen_wire_event_head {
    const char *name;
    uint32_t provider; /* index into the block's providers */
    uint32_t id;
    uint8_t level;
    uint64_t keywords;
    uint32_t n_versions;
} evgen_wire_event_head;

typedef struct evgen_wire_version_head {
    uint32_t version;
    uint32_t flags; /* EVGEN_WIRE_VERSION_LEGACY, EVGEN_WIRE_VERSION_ATTRIBUTES */
    uint32_t n_fields;
    /* With EVGEN_WIRE_VERSION_ATTRIBUTES: the version's own level and keywords (else unused; the
     * decoder sets them to 0). */
    uint8_t level;
    uint64_t keywords;
} evgen_wire_version_head;

typedef struct evgen_wire_field {
    const char *name;
    uint32_t kind;        /* an array's element kind (decoded: as stored, UINT32_MAX if larger) */
    uint8_t flags;        /* EVGEN_WIRE_FIELD_IS_ARRAY */
    int32_t enum_index;   /* -1: none */
    int32_t struct_index; /* kind STRUCT: the struct; else -1 */
    int32_t count_field;  /* arrays: the count field's index in this version; else -1 */
} evgen_wire_field;

/* ---- encoding ---------------------------------------------------------------------------- */

void evgen_wire_meta_put_head(evgen_wire_buf *b, uint64_t first_type, const char *manifest_name);
void evgen_wire_meta_put_count(evgen_wire_buf *b, uint64_t n); /* n_providers, n_enums, n_structs, n_events */
void evgen_wire_meta_put_provider(evgen_wire_buf *b, const char *name);
void evgen_wire_meta_put_enum_head(evgen_wire_buf *b, const char *name, uint32_t n_consts);
void evgen_wire_meta_put_enum_const(evgen_wire_buf *b, const char *name, int64_t value);
void evgen_wire_meta_put_struct_head(evgen_wire_buf *b, const char *name, uint32_t stride, uint32_t n_members);
void evgen_wire_meta_put_member(evgen_wire_buf *b, const evgen_wire_member *m);
void evgen_wire_meta_put_event_head(evgen_wire_buf *b, const evgen_wire_event_head *e);
void evgen_wire_meta_put_version_head(evgen_wire_buf *b, const evgen_wire_version_head *v);
void evgen_wire_meta_put_field(evgen_wire_buf *b, const evgen_wire_field *f);

/* ---- decoding ---------------------------------------------------------------------------- */

/* A decoder over one payload. Strings are copied, NUL-terminated, into memory from `alloc`
 * (e.g. the reader's arena), which returns NULL when memory runs out. After the first error every
 * call returns zeros and "" and `failed` stays: 1 for a bad encoding or an out-of-range value,
 * described in `why`; 2 for out of memory. Each check names the payload byte it failed at. */
typedef struct evgen_wire_meta_decoder {
    const uint8_t *p, *end, *start;
    void *(*alloc)(void *ctx, size_t size);
    void *alloc_ctx;
    int failed;
    char *why;
    size_t why_size;
} evgen_wire_meta_decoder;

void evgen_wire_meta_decoder_init(evgen_wire_meta_decoder *d, const uint8_t *payload, size_t size,
                                  void *(*alloc)(void *ctx, size_t size), void *alloc_ctx, char *why,
                                  size_t why_size);
/* Sets `failed` (if not yet) with a message, for checks the caller makes of what it decoded. */
void evgen_wire_meta_fail(evgen_wire_meta_decoder *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void evgen_wire_meta_get_head(evgen_wire_meta_decoder *d, uint64_t *first_type, const char **manifest_name);
/* A count of items that each take at least one byte of what is left; `what` names it in errors. */
uint32_t evgen_wire_meta_get_count(evgen_wire_meta_decoder *d, const char *what);
const char *evgen_wire_meta_get_provider(evgen_wire_meta_decoder *d);
void evgen_wire_meta_get_enum_head(evgen_wire_meta_decoder *d, const char **name, uint32_t *n_consts);
void evgen_wire_meta_get_enum_const(evgen_wire_meta_decoder *d, const char **name, int64_t *value);
/* A stride of 0 is a variable struct (EVGEN_WIRE_STRIDE_VARIABLE). */
void evgen_wire_meta_get_struct_head(evgen_wire_meta_decoder *d, const char **name, uint32_t *stride,
                                     uint32_t *n_members);
/* Checks the enum reference against `n_enums`; the caller checks kind and offset (a struct's
 * layout depends on the trace's pointer size). The kind is returned as stored (up to 255). */
void evgen_wire_meta_get_member(evgen_wire_meta_decoder *d, uint32_t n_enums, evgen_wire_member *m);
/* Checks the provider against `n_providers`, id and level against their ranges. */
void evgen_wire_meta_get_event_head(evgen_wire_meta_decoder *d, uint32_t n_providers, evgen_wire_event_head *e);
/* Checks that versions ascend (`previous` is the event's version before it, -1 for the first), that
 * the flags are ones this format defines, and an own level against its range. */
void evgen_wire_meta_get_version_head(evgen_wire_meta_decoder *d, const char *event, int64_t previous,
                                      evgen_wire_version_head *v);
/* Field `index` of its version: checks the references (enum < n_enums, struct < n_structs, count
 * field < index) and the format's rules for a field (evgen_wire_field_problem) given the fields
 * decoded before it; `event` names the event in errors. */
void evgen_wire_meta_get_field(evgen_wire_meta_decoder *d, uint32_t n_enums, uint32_t n_structs,
                               const evgen_wire_field *before, uint32_t index, const char *event,
                               evgen_wire_field *f);
/* Checks that the payload ends here. */
void evgen_wire_meta_get_end(evgen_wire_meta_decoder *d);

/* What breaks the format's rules in field `f` whose count field (arrays) is `count`, or NULL: an
 * unknown kind, a struct kind without a struct (or a struct for another kind), a struct that is
 * not an array element, an array of strings, an array without a count field, a count field that
 * is not a scalar integer. */
const char *evgen_wire_field_problem(const evgen_wire_field *f, const evgen_wire_field *count);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_WIRE_METADATA_H */
