/* dump_stats.h — `evgen dump --stats`: the counts dump.c gathered while it read the events,
 * printed as text or as one JSON object (dump_stats.c). Not installed. */
#ifndef EVGEN_READER_DUMP_STATS_H
#define EVGEN_READER_DUMP_STATS_H

#include <stdint.h>

#include "core.h"
#include "dump_out.h"

/* Events and payload bytes, per version serial or per thread of the reader. */
typedef struct stat_entry {
    uint64_t count, bytes;
} stat_entry;

void dump_stats_text(dump_buffer *o, const evgen_reader *rd, const char *path, const stat_entry *by_version,
                     const stat_entry *by_thread);
void dump_stats_json(dump_buffer *o, const evgen_reader *rd, const char *path, const stat_entry *by_version,
                     const stat_entry *by_thread);

#endif
