/* clock.c — the session clocks: CLOCK_MONOTONIC in nanoseconds, read with clock_gettime or from
 * the x86-64 time-stamp counter between anchors (EVGEN_CLOCK_MONOTONIC_TSC), and the counter's own
 * ticks, used only when it is invariant and calibrated against CLOCK_MONOTONIC (EVGEN_CLOCK_TSC). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* CPUID 0x80000007 EDX bit 8: the counter ticks at one rate on every core whatever the power state. */
static int tsc_invariant(void)
{
#if defined(__x86_64__)
    unsigned a, b, c, d;
    return (unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000007u && __get_cpuid(0x80000007u, &a, &b, &c, &d) &&
           (d & (1u << 8));
#else
    return 0;
#endif
}

/* Only with an invariant TSC do per-thread deltas and one frequency mean anything. Other CPUs are
 * refused rather than silently given another clock: the caller asked for the TSC. */
int evgen_rt_tsc_frequency(uint64_t *frequency)
{
#if defined(__x86_64__)
    if (!tsc_invariant())
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
    if (s->stream_clock == EVGEN_STREAM_CLOCK_TSC)
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

/* ---- CLOCK_MONOTONIC from the time-stamp counter ------------------------------------------
 *
 * Why. clock_gettime costs ~30 ns here, most of a 110-byte emit's CPU: the vDSO reads the counter
 * with rdtscp, which waits for the instructions before it, and converts with the kernel's
 * parameters under a sequence lock. rdtsc and a multiply cost a third of that
 * (docs/performance.md). The trace still holds CLOCK_MONOTONIC nanoseconds (clock_kind 1): no
 * reader needs to know.
 *
 * How. Each thread, at each nesting level, keeps an anchor: a (counter, clock_gettime) pair and
 * the nanoseconds per tick, and extrapolates from it for at most ANCHOR_MAX_NS. The rate is
 * measured from the process's *origin*, an older pair, so its error is the pairs' jitter (a few
 * tens of ns) over the time since the origin; an anchor spans at most 1/ANCHOR_SPAN_DIVISOR of
 * that time, so what it adds stays below a few ns; the pairs' own jitter (the counter read halfway
 * through clock_gettime's call) puts a timestamp within a few tens of ns of what clock_gettime would
 * have said (tests/runtime/test_runtime_clock.c: 36-43 ns at most outside its before and after). Until the origin is MIN_BASELINE_NS old, and
 * whenever a pair is disturbed (an interrupt between its reads), the emit takes clock_gettime's
 * value itself. The origin is renewed every ORIGIN_MAX_NS, so the rate follows NTP's slewing of
 * CLOCK_MONOTONIC; and at once when an anchor's prediction misses by JUMP_NS or its rate is off by
 * a 1/RATE_SLACK from the reference, a rate measured over a longer time: a suspend, a migrated VM, a
 * counter that jumped.
 *
 * Where. Only where the kernel itself keeps time with the TSC (its clocksource is "tsc", so the
 * counters of all CPUs agree) and the TSC is invariant; elsewhere the session reads clock_gettime.
 *
 * Signal safety. The origin is a sequence-numbered pair: a writer claims an even sequence with a
 * compare-and-swap, writes, and publishes the next even one; a reader that finds it odd or changed
 * takes clock_gettime's value. Nothing waits, so an emit in a signal handler that interrupted a
 * writer goes on. */

enum {
    MIN_BASELINE_NS = 64 * 1000,       /* the origin's age before anchors are used */
    ANCHOR_MAX_NS = 1000 * 1000,       /* an anchor's longest span */
    ANCHOR_SPAN_DIVISOR = 16,          /* an anchor spans at most the origin's age over this */
    ORIGIN_MAX_NS = 2000 * 1000 * 1000, /* the origin's age at which it is renewed */
    JUMP_NS = 2000,                    /* a prediction missing by this much renews the origin */
    RATE_SLACK = 64,                   /* a rate off the reference by 1/this renews the origin */
    REFERENCE_MIN_NS = 16 * 1000 * 1000 /* the origin's age whose rate becomes the reference */
};

static struct {
    uint32_t seq; /* even: tsc and ns are a pair (0: none yet); odd: being written */
    uint64_t tsc, ns;
    uint64_t pair_max; /* ticks a (rdtsc, clock_gettime, rdtsc) read may take and count */
    uint64_t reference; /* a rate measured over REFERENCE_MIN_NS or more (an anchor's mult); 0: none */
} origin;
static int tsc_usable = -1; /* -1 not known yet, 0 no, 1 yes */

/* A (counter, CLOCK_MONOTONIC) pair: the counter's reading halfway through clock_gettime's. Returns
 * the ticks the three reads took. */
static uint64_t read_pair(uint64_t *tsc, uint64_t *ns)
{
    uint64_t t0 = __builtin_ia32_rdtsc();
    *ns = evgen_clock_monotonic();
    uint64_t t1 = __builtin_ia32_rdtsc();
    *tsc = t0 + (t1 - t0) / 2;
    return t1 - t0;
}

static int origin_load(uint64_t *tsc, uint64_t *ns)
{
    uint32_t seq = __atomic_load_n(&origin.seq, __ATOMIC_ACQUIRE);
    if (seq == 0 || (seq & 1))
        return 0;
    *tsc = __atomic_load_n(&origin.tsc, __ATOMIC_RELAXED);
    *ns = __atomic_load_n(&origin.ns, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(&origin.seq, __ATOMIC_RELAXED) == seq;
}

/* Makes (TSC, NS) the origin, unless another thread is doing so. */
static void origin_store(uint64_t tsc, uint64_t ns)
{
    uint32_t seq = __atomic_load_n(&origin.seq, __ATOMIC_RELAXED);
    if ((seq & 1) || !__atomic_compare_exchange_n(&origin.seq, &seq, seq + 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return;
    __atomic_thread_fence(__ATOMIC_RELEASE); /* readers that see the new values see the odd seq */
    __atomic_store_n(&origin.tsc, tsc, __ATOMIC_RELAXED);
    __atomic_store_n(&origin.ns, ns, __ATOMIC_RELAXED);
    __atomic_store_n(&origin.seq, seq + 2, __ATOMIC_RELEASE);
}

/* Whether the kernel keeps time with the TSC: the counters of all CPUs then agree. */
static int kernel_clocksource_is_tsc(void)
{
    int fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char name[16] = {0};
    ssize_t n = read(fd, name, sizeof name - 1);
    close(fd);
    return n >= 3 && memcmp(name, "tsc", 3) == 0 && (n == 3 || name[3] == '\n');
}

int evgen_rt_monotonic_tsc_usable(void)
{
    int usable = __atomic_load_n(&tsc_usable, __ATOMIC_ACQUIRE);
    if (usable >= 0)
        return usable;
    usable = 0;
#if defined(__x86_64__)
    const char *off = getenv("EVGEN_NO_TSC"); /* tests, and users who want clock_gettime's every read */
    if (!(off && *off && strcmp(off, "0") != 0) && tsc_invariant() && kernel_clocksource_is_tsc()) {
        /* The tightest of a few pairs: the origin, and what a pair may take (an interrupt in
         * between makes it several times longer). */
        uint64_t best = UINT64_MAX, tsc = 0, ns = 0;
        for (int i = 0; i < 8; i++) {
            uint64_t t, n, took = read_pair(&t, &n);
            if (took < best)
                best = took, tsc = t, ns = n;
        }
        __atomic_store_n(&origin.pair_max, 4 * best + 64, __ATOMIC_RELAXED);
        origin_store(tsc, ns);
        usable = 1;
    }
#endif
    __atomic_store_n(&tsc_usable, usable, __ATOMIC_RELEASE);
    return usable;
}

/* The counter and CLOCK_MONOTONIC no longer agree with the origin: start again from (TSC, NS). */
static uint64_t restart(uint64_t tsc, uint64_t ns)
{
    __atomic_store_n(&origin.reference, 0, __ATOMIC_RELAXED);
    origin_store(tsc, ns);
    return ns;
}

void evgen_rt_monotonic_tsc_forget(void)
{
    __atomic_store_n(&tsc_usable, -1, __ATOMIC_RELEASE);
}

uint64_t evgen_clock_reanchor(evgen_clock_anchor *a)
{
#if defined(__x86_64__)
    /* Never re-entered for one anchor (an emit that interrupts this one has its own level), so A
     * needs no care; the origin is shared. */
    uint64_t tsc, ns, o_tsc, o_ns;
    uint64_t took = read_pair(&tsc, &ns), pair_max = __atomic_load_n(&origin.pair_max, __ATOMIC_RELAXED);
    uint64_t old_span = a->span;
    a->span = 0;
    if (took > pair_max || !origin_load(&o_tsc, &o_ns) || ns < o_ns)
        return ns; /* disturbed, or the origin is being renewed, or was after this pair */
    if (tsc <= o_tsc) /* the counter went back (a suspend), or another thread's pair is the origin */
        return o_tsc - tsc > pair_max ? restart(tsc, ns) : ns;
    uint64_t age = ns - o_ns;
    if (age < MIN_BASELINE_NS)
        return ns;
    double ns_per_tick = (double)age / (double)(tsc - o_tsc);
    uint64_t mult = (uint64_t)(ns_per_tick * 4294967296.0);
    uint64_t reference = __atomic_load_n(&origin.reference, __ATOMIC_RELAXED);
    if (reference && (mult > reference ? mult - reference : reference - mult) > reference / RATE_SLACK)
        return restart(tsc, ns);
    if (old_span && tsc - a->tsc < 4 * old_span) { /* the old anchor still predicts: does it agree? */
        uint64_t predicted = a->ns + (((tsc - a->tsc) * a->mult) >> 32);
        if ((predicted > ns ? predicted - ns : ns - predicted) > JUMP_NS)
            return restart(tsc, ns);
    }
    if (age >= REFERENCE_MIN_NS)
        __atomic_store_n(&origin.reference, mult, __ATOMIC_RELAXED);
    if (age > ORIGIN_MAX_NS)
        origin_store(tsc, ns); /* this anchor keeps the old origin's rate; the next ones measure anew */
    uint64_t span_ns = age / ANCHOR_SPAN_DIVISOR < ANCHOR_MAX_NS ? age / ANCHOR_SPAN_DIVISOR : ANCHOR_MAX_NS;
    a->tsc = tsc;
    a->ns = ns;
    a->mult = mult;
    a->span = (uint64_t)((double)span_ns / ns_per_tick);
    return ns;
#else
    (void)a;
    return evgen_clock_monotonic();
#endif
}
