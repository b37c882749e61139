/* units.h — the fixed-point figures the examples print: megabytes and milliseconds with three
 * decimals, rounded to nearest with integer arithmetic so that tests can compute them exactly. */
#ifndef EXAMPLE_UNITS_H
#define EXAMPLE_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Bytes as MB (10^6 bytes, as PerfView's GCStats), e.g. 1234567 -> "1.235". Returns `buf`. */
const char *units_mb(uint64_t bytes, char *buf, size_t size);
/* Nanoseconds as milliseconds, e.g. 1250000 -> "1.250". Returns `buf`. */
const char *units_ms(uint64_t ns, char *buf, size_t size);

#endif /* EXAMPLE_UNITS_H */
