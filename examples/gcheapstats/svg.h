/* svg.h — gcheapstats_report --svg: a self-contained SVG line chart of the sizes after each GC
 * (gen0, gen1, gen2, LOH, POH) against the GC number, with axes, labels and a legend. */
#ifndef GCHEAPSTATS_SVG_H
#define GCHEAPSTATS_SVG_H

#include <stddef.h>

#include "gclog.h"

/* Writes the chart of `n` GCs (in GC number order) to `path`: one <polyline> per size that some
 * GC reports (the POH only from GCHeapStats version 2). Returns 0, or -1 with errno set. */
int svg_write(const char *path, const char *title, const gclog_entry *gcs, size_t n);

#endif /* GCHEAPSTATS_SVG_H */
