/* convert_internal.h — what convert.c (the passes over the events, the blocks, the file) and
 * convert_metadata.c (the type numbering and the metadata blocks) share: the plan of output types.
 * The bytes are encoded with libevgen-wire (evgen/wire_*.h). Not installed. */
#ifndef EVGEN_READER_CONVERT_INTERNAL_H
#define EVGEN_READER_CONVERT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "evgen/wire_bytes.h"

/* ---- the plan: which output type each event is written with ------------------------------------ */

#define CV_NO_TYPE UINT32_MAX

/* The metadata block of the events no manifest binds and of the raw types (docs/convert.md). */
#define CV_NETTRACE_MANIFEST "nettrace"
/* A raw type's fields: the size of the original payload, then the payload as a byte array. */
extern const evgen_trace_field evgen_cv_raw_fields[2];
/* Is `v` a raw type `evgen convert` wrote (a version of the "nettrace" manifest with exactly the
 * raw fields)? dump prints its payload as a .nettrace dump prints an undecoded one. */
int evgen_cv_is_raw_type(const evgen_trace_version *v, const evgen_trace_event_info *info);

/* evgen convert writes a bound event whose payload does not fit the fixed size of the version
 * it was read with (a newer runtime's version with more fields) as a raw type under the provider
 * "<provider> (raw)". The version it was read with is the bound event of the same name and id under
 * <provider>, the newest version at or below the raw one's whose fields all have a fixed size: the
 * tools that show events (dump, export) decode the payload with it and show only the tail as raw,
 * as they do for the .nettrace input. Its serial + 1, or 0 when there is none (an unbound event's
 * raw type). */
uint32_t evgen_cv_raw_bound(const evgen_reader *rd, const rd_version *raw);

/* A raw variant: the version of serial `serial` at the trace's version number `version`, for the
 * events of it whose payload does not fit its fixed-size layout. */
typedef struct cv_raw {
    uint32_t serial, version;
    uint32_t type;  /* the output type, once planned */
    size_t next;    /* the next raw variant of the same serial + 1, or 0 */
    evgen_trace_version layout; /* {RawSize, Raw}, numbered `version` */
} cv_raw;

typedef struct cv_plan {
    uint32_t *own_type; /* by serial: the output type of the version's own layout */
    size_t *raw_head;   /* by serial: its first raw variant + 1, or 0 */
    size_t n_serials;
    cv_raw *raws;
    size_t n_raws, cap_raws;
    evgen_wire_buf *blocks; /* the metadata block payloads, in file order */
    size_t n_blocks;
    uint32_t n_types;
} cv_plan;

/* Sizes the plan for the reader's versions: 0, or -1 if out of memory. */
int evgen_cv_plan_init(cv_plan *plan, const evgen_reader *rd);
void evgen_cv_plan_free(cv_plan *plan);

/* The raw variant of (serial, version), added if new: its index, or -1 if out of memory. */
long evgen_cv_raw_need(cv_plan *plan, uint32_t serial, uint32_t version);
/* The raw variant of (serial, version): its output type, or CV_NO_TYPE if none was needed. */
uint32_t evgen_cv_raw_type(const cv_plan *plan, uint32_t serial, uint32_t version);

/* Numbers every output type and encodes the metadata blocks (convert_metadata.c): one per manifest
 * the reader holds, in order — a .nettrace file's given in `options` as their original bytes with
 * first_type replaced, an .evtrace file's encoded from the decoded tables — then one, "nettrace",
 * for the unbound versions and the raw variants. Returns 0, or -1 if out of memory. */
int evgen_cv_plan_metadata(cv_plan *plan, const evgen_reader *rd, const evgen_reader_options *options);

#endif /* EVGEN_READER_CONVERT_INTERNAL_H */
