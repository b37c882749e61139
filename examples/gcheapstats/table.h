/* table.h — gcheapstats_report's text output: a per-GC table in the manner of PerfView's GCStats
 * (with its derived figures, gcstats.h), then totals (GCs per generation, max and mean pause, % time
 * paused, allocation, peak sizes) and notes on how the pauses were measured; with the private
 * provider's BGC events, a row of phase timings per background GC (gclog.h). */
#ifndef GCHEAPSTATS_TABLE_H
#define GCHEAPSTATS_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "gclog.h"

/* Prints the table of `n` GCs (in GC number order), the totals and, for the background GCs with
 * BGC phase events, their phases. */
void table_print(FILE *out, const gclog_entry *gcs, size_t n);

#endif /* GCHEAPSTATS_TABLE_H */
