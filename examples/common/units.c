/* units.c — megabytes and milliseconds with three decimals, rounded with integer arithmetic. */
#include "units.h"

#include <stdio.h>

static const char *thousandths(uint64_t value, uint64_t unit, char *buf, size_t size)
{
    uint64_t t = value / unit + (value % unit >= (unit + 1) / 2); /* rounded to nearest */
    snprintf(buf, size, "%llu.%03llu", (unsigned long long)(t / 1000), (unsigned long long)(t % 1000));
    return buf;
}

const char *units_mb(uint64_t bytes, char *buf, size_t size)
{
    return thousandths(bytes, 1000, buf, size);
}

const char *units_ms(uint64_t ns, char *buf, size_t size)
{
    return thousandths(ns, 1000, buf, size);
}
