/* bare_read.h — reader_bench's lowest floor: the least any reader of an .evtrace file can do. */
#ifndef EVGEN_BENCH_BARE_READ_H
#define EVGEN_BENCH_BARE_READ_H

#include <stdint.h>

/* Maps `path`, walks its blocks, frames every record of every events block, sums the fields of
 * each (gc_heap_stats_sum) and unmaps it, checking nothing: no checksum, no index, no library
 * call per event. Every record must be of one type, of `version` and `size` bytes (reader_bench's
 * trace). Returns the seconds it took with the sum in *sum and the records in *n, or -1 if the
 * file cannot be mapped or holds another record. */
double bare_read(const char *path, uint32_t version, uint32_t size, uint64_t *sum, long *n);

/* The kernel's share of any read through a mapping: maps `path`, reads one byte of each page,
 * unmaps it. Returns the seconds it took (the bytes' sum in *touched, so that no load is left out),
 * or -1. */
double map_alone(const char *path, uint64_t *touched);

#endif /* EVGEN_BENCH_BARE_READ_H */
