/* perfetto.h — what the files of the perfetto exporter share (docs/export-perfetto.md): the output
 * (dump's buffer and JSON writer over the run's file), the head every trace event starts with,
 * JSON numbers that a JavaScript consumer reads exactly, an event's fields as args
 * (perfetto_args.c), and the GC slices, pauses and counters (perfetto_gc.c). Not installed. */
#ifndef EVGEN_EXPORT_PERFETTO_H
#define EVGEN_EXPORT_PERFETTO_H

#include <stddef.h>
#include <stdint.h>

#include "dump_json.h"
#include "dump_out.h"
#include "evgen/reader.h"

/* The largest integer a JSON number holds exactly in JavaScript (and in every parser that reads
 * numbers as doubles): 2^53 - 1. An integer beyond ±PF_EXACT_MAX is written as a string of its
 * decimal digits. */
#define PF_EXACT_MAX 9007199254740991ull

/* The category of what the exporter derives from GC events (slices, counters). */
#define PF_CAT_GC "gc"

typedef struct pf_out {
    dump_buffer o;
    json_writer jw;  /* inside "traceEvents": every event is an item of that array */
    uint64_t pid;    /* the trace's process */
    unsigned pointer_size;
} pf_out;

/* An unsigned or signed integer: a JSON number, or beyond ±PF_EXACT_MAX its decimal string. */
void pf_u64(pf_out *out, uint64_t v);
void pf_i64(pf_out *out, int64_t v);

/* Opens one trace event on a line of its own and writes its head,
 *   {"name":NAME,"cat":CAT,"ph":PH,"ts":µs.ns,"pid":PID,"tid":TID
 * (no "cat" when `cat` is NULL; ts first among the numbers, as Perfetto's tokenizer looks for it
 * before args). The caller adds members ("s", "args") and closes it with jw_end. */
void pf_event_open(pf_out *out, const char *name, const char *cat, const char *ph, uint64_t ts_ns, uint64_t tid);

/* The member "args" of an event's trace event: its fields by name, decoded from the trace's
 * metadata (perfetto_args.c; the rules in docs/export-perfetto.md, "Args"). */
void pf_event_args(pf_out *out, const evgen_event *ev);

/* ---- GC slices, pauses and counters (perfetto_gc.c) -------------------------------------------- */

typedef struct pf_gc pf_gc;

/* The GC state of one export: which of the trace's versions are CoreCLR's GC events and where
 * their fields are, the open slices of each track. `gc_tid` is the synthetic thread of the GC
 * track; `tids` the JSON tid of each of the reader's threads (by index). NULL if out of memory. */
pf_gc *pf_gc_new(const evgen_reader *rd, uint64_t gc_tid, const uint64_t *tids);
void pf_gc_free(pf_gc *gc);
/* Whether the trace's metadata defines GCStart: the GC track is named only then. */
int pf_gc_defines_gcs(const pf_gc *gc);

/* Called for every event in time order around its instant (`thread`: its index in the reader's
 * threads): _before writes the slices it begins (after closing those it must), so the instant
 * lies inside them; _after the slices it ends and the counters it updates. */
void pf_gc_before(pf_gc *gc, pf_out *out, const evgen_event *ev, size_t thread);
void pf_gc_after(pf_gc *gc, pf_out *out, const evgen_event *ev, size_t thread);
/* The trace has ended at `end_ns`: every slice still open is closed there (documented as such). */
void pf_gc_finish(pf_gc *gc, pf_out *out, uint64_t end_ns);

#endif /* EVGEN_EXPORT_PERFETTO_H */
