/* clock.c — the session clocks: CLOCK_MONOTONIC in nanoseconds, and the x86-64 time-stamp
 * counter, used only when it is invariant and calibrated against CLOCK_MONOTONIC. */
#include <errno.h>
#include <time.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "internal.h"

uint64_t evgen_clock_monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t evgen_rt_realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Only an invariant TSC (CPUID 0x80000007 EDX bit 8) ticks at one rate on every core whatever
 * the power state, so only then do per-thread deltas and one frequency mean anything. Other
 * CPUs are refused rather than silently given another clock: the caller asked for the TSC. */
int evgen_rt_tsc_frequency(uint64_t *frequency)
{
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if ((unsigned)__get_cpuid_max(0x80000000u, NULL) < 0x80000007u || !__get_cpuid(0x80000007u, &a, &b, &c, &d) ||
        !(d & (1u << 8)))
        return -1;
    /* ~20 ms against CLOCK_MONOTONIC: an error of a few ppm, paid once per session. */
    uint64_t m0 = evgen_clock_monotonic(), c0 = __builtin_ia32_rdtsc();
    struct timespec nap = {0, 20 * 1000 * 1000};
    while (nanosleep(&nap, &nap) != 0 && errno == EINTR) {
    }
    uint64_t m1 = evgen_clock_monotonic(), c1 = __builtin_ia32_rdtsc();
    if (m1 <= m0 || c1 <= c0 || (c1 - c0) > UINT64_MAX / 1000000000u)
        return -1;
    *frequency = (c1 - c0) * 1000000000u / (m1 - m0);
    return *frequency ? 0 : -1;
#else
    (void)frequency;
    return -1;
#endif
}

uint64_t evgen_rt_now(const evgen_session *s)
{
#if defined(__x86_64__)
    if (s->clock_is_tsc)
        return __builtin_ia32_rdtsc();
#else
    (void)s;
#endif
    return evgen_clock_monotonic();
}

/* docs/format.md: (ticks - start_ticks) * 1e9 / clock_frequency, without overflowing 64 bits
 * for any frequency below 18 GHz. */
uint64_t evgen_rt_ticks_to_ns(const evgen_session *s, uint64_t ticks)
{
    if (ticks <= s->start_ticks)
        return 0;
    uint64_t d = ticks - s->start_ticks, f = s->frequency;
    if (f == 1000000000u)
        return d;
    return d / f * 1000000000u + d % f * 1000000000u / f;
}
