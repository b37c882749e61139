/* test_reader_clock.c — an event's timestamp_ns is floor((ticks - start_ticks) * 1e9 / frequency),
 * 0 for ticks at or before the start and UINT64_MAX past it, for any clock frequency: a trace's
 * file header rewritten with frequencies that are nanoseconds, a whole number of them per tick
 * (QueryPerformanceCounter's 10 MHz), a TSC's, primes, 1 and near 2^64, and start ticks that make
 * the tick counts small and huge, every event checked against 128-bit arithmetic. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evgen/reader.h"
#include "evgen/wire_format.h"
#include "reader_helpers.h"

static uint64_t expected_ns(uint64_t ticks, uint64_t start, uint64_t frequency)
{
    if (ticks <= start)
        return 0;
    unsigned __int128 ns = (unsigned __int128)(ticks - start) * 1000000000u / frequency;
    return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

/* Reads `data` with its header's clock set to `frequency` and `start`: how many events it checked. */
static size_t check_clock(uint8_t *data, size_t size, uint64_t frequency, uint64_t start)
{
    evgen_wire_file_header fh;
    evgen_wire_get_file_header(data, &fh);
    fh.clock_kind = frequency == 1000000000u ? EVGEN_WIRE_CLOCK_MONOTONIC : EVGEN_WIRE_CLOCK_TSC;
    fh.clock_frequency = frequency;
    fh.start_ticks = start;
    evgen_wire_put_file_header(data, &fh);
    evgen_reader *rd = evgen_reader_open_memory(data, size, NULL);
    assert_non_null(rd);
    evgen_event ev;
    size_t n = 0;
    while (evgen_reader_next(rd, &ev)) {
        uint64_t want = expected_ns(ev.ticks, start, frequency);
        if (ev.timestamp_ns != want)
            fail_msg("frequency %llu, start %llu, ticks %llu: %llu ns, not %llu", (unsigned long long)frequency,
                     (unsigned long long)start, (unsigned long long)ev.ticks, (unsigned long long)ev.timestamp_ns,
                     (unsigned long long)want);
        n++;
    }
    evgen_reader_close(rd);
    return n;
}

static void test_timestamps_for_any_clock(void **state)
{
    (void)state;
    rh_trace t;
    rh_record_mixed(2, 40, 4096, &t);
    evgen_reader *rd = evgen_reader_open_memory(t.data, t.size, NULL);
    assert_non_null(rd);
    evgen_event ev;
    uint64_t first = UINT64_MAX, last = 0;
    while (evgen_reader_next(rd, &ev)) {
        first = ev.ticks < first ? ev.ticks : first;
        last = ev.ticks > last ? ev.ticks : last;
    }
    evgen_reader_close(rd);
    assert_true(first < last);
    static const uint64_t frequencies[] = {
        1000000000u,          /* nanoseconds */
        10000000u,            /* QueryPerformanceCounter: 100 ns per tick */
        1000u,                /* a million ns per tick: huge products */
        2994373000u,          /* a TSC */
        3600000001u,          /* a TSC with no common factor with 1e9 */
        999999937u,           /* a prime */
        4000000000u,          /* 4 ticks per ns */
        1u,                   /* a second per tick */
        3u,
        (1ull << 63) + 5,     /* beyond any real clock */
        UINT64_MAX,
    };
    /* start ticks: 0 (tick counts in the tens of trillions), just before the first event (small
     * counts), the middle (half the events at or before it: 0 ns) */
    const uint64_t starts[] = {0, first - 1000, first + (last - first) / 2};
    for (size_t f = 0; f < sizeof frequencies / sizeof *frequencies; f++)
        for (size_t s = 0; s < sizeof starts / sizeof *starts; s++)
            assert_true(check_clock(t.data, t.size, frequencies[f], starts[s]) > 0);
    free(t.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timestamps_for_any_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
