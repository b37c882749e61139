/* emit_bench.c — what emitting costs: FireEtwGCHeapStats_V2 into a file session (1 and 2
 * threads, CLOCK_MONOTONIC and TSC), EventEnabled with the event disabled, and beside them the
 * floor measured in the same run: the same 110-byte payload and a timestamp from the same clock
 * stored with memcpy into a 64 KiB buffer that is fwritten to a file when full, on one thread.
 * Prints the median of RUNS runs of EVENTS events each. Usage: emit_bench [EVENTS] [RUNS] [DIR] */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "evgen/runtime.h"
#include "gcevents_runtime.h"

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- the floor ------------------------------------------------------------------------- */

static double floor_run(const char *path, long events, int use_tsc)
{
    static unsigned char buffer[65536];
    unsigned char payload[110];
    memset(payload, 0x5a, sizeof payload);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    size_t used = 0;
    double t0 = bench_now_seconds();
    for (long i = 0; i < events; i++) {
        uint64_t ts = use_tsc ? __builtin_ia32_rdtsc() : monotonic_ns();
        if (used + sizeof ts + sizeof payload > sizeof buffer) {
            fwrite(buffer, 1, used, f);
            used = 0;
        }
        memcpy(buffer + used, &ts, sizeof ts);
        memcpy(buffer + used + sizeof ts, payload, sizeof payload);
        used += sizeof ts + sizeof payload;
    }
    fwrite(buffer, 1, used, f);
    fclose(f);
    double t = bench_now_seconds() - t0;
    unlink(path);
    return t * 1e9 / (double)events;
}

/* ---- evgen ----------------------------------------------------------------------------- */

typedef struct emit_job {
    long events;
} emit_job;

static void *emit_thread(void *arg)
{
    const emit_job *job = arg;
    for (long i = 0; i < job->events; i++)
        FIRE_EVENT(GCHeapStats, (uint64_t)i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, (uint64_t)i, 15);
    return NULL;
}

/* ns per event of one thread (wall time of the whole run / events per thread), and the file's
 * bytes per event. */
static double evgen_run(const char *path, long events, int threads, evgen_clock_kind clock, double *bytes_per_event)
{
    evgen_session_options options;
    evgen_session_options_init(&options);
    options.clock = clock;
    evgen_session *s = evgen_session_open_file(path, &options);
    if (!s) {
        perror("evgen_session_open_file");
        exit(1);
    }
    evgen_session_enable(s, NULL, 5, ~0ull);
    pthread_t tid[8];
    emit_job job = {events / threads};
    double t0 = bench_now_seconds();
    for (int i = 0; i < threads; i++)
        pthread_create(&tid[i], NULL, emit_thread, &job);
    for (int i = 0; i < threads; i++)
        pthread_join(tid[i], NULL);
    evgen_session_totals totals;
    if (evgen_session_close(s, &totals, NULL, NULL) != 0) {
        perror("evgen_session_close");
        exit(1);
    }
    double t = bench_now_seconds() - t0;
    struct stat st;
    stat(path, &st);
    *bytes_per_event = (double)st.st_size / (double)totals.written;
    if (totals.written != (uint64_t)(job.events * threads) || totals.dropped) {
        fprintf(stderr, "written %llu of %ld, dropped %llu\n", (unsigned long long)totals.written,
                job.events * threads, (unsigned long long)totals.dropped);
        exit(1);
    }
    evgen_session_totals_free(&totals);
    unlink(path);
    return t * 1e9 / (double)events;
}

static double disabled_run(long events)
{
    double t0 = bench_now_seconds();
    for (long i = 0; i < events; i++)
        FIRE_EVENT(GCHeapStats, (uint64_t)i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, (uint64_t)i, 15);
    return (bench_now_seconds() - t0) * 1e9 / (double)events;
}

int main(int argc, char **argv)
{
    long events;
    int runs;
    const char *dir;
    int usage = bench_trace_args(argc, argv, 2000000, &events, &runs, &dir);
    if (usage)
        return usage;
    char path[4096];
    snprintf(path, sizeof path, "%s/evgen-emit-bench-%ld.evtrace", dir, (long)getpid());

    double floor_mono[64], floor_tsc[64], one[64], two[64], tsc[64], off[64], bytes = 0, bytes_tsc = 0, b2 = 0;
    for (int r = 0; r < runs; r++) {
        floor_mono[r] = floor_run(path, events, 0);
        floor_tsc[r] = floor_run(path, events, 1);
        one[r] = evgen_run(path, events, 1, EVGEN_CLOCK_MONOTONIC, &bytes);
        two[r] = evgen_run(path, events, 2, EVGEN_CLOCK_MONOTONIC, &b2);
        tsc[r] = evgen_run(path, events, 1, EVGEN_CLOCK_TSC, &bytes_tsc);
        off[r] = disabled_run(events * 10);
    }
    double m_floor = bench_median(floor_mono, runs), m_floor_tsc = bench_median(floor_tsc, runs);
    double m_one = bench_median(one, runs), m_two = bench_median(two, runs), m_tsc = bench_median(tsc, runs), m_off = bench_median(off, runs);
    printf("emit_bench: %ld events per run, median of %d runs, GCHeapStats v2 (110-byte payload)\n", events, runs);
    printf("%-52s %8.2f ns/event\n", "EventEnabled + FIRE_EVENT, event disabled", m_off);
    printf("%-52s %8.1f ns/event  %6.1f M events/s\n", "floor: memcpy + clock_gettime + fwrite, 1 thread", m_floor,
           1e3 / m_floor);
    printf("%-52s %8.1f ns/event  %6.1f M events/s  %.2fx floor  %.1f bytes/event\n",
           "evgen FireEtwGCHeapStats_V2, file, 1 thread", m_one, 1e3 / m_one, m_one / m_floor, bytes);
    printf("%-52s %8.1f ns/event  %6.1f M events/s  %.2fx one thread  %.1f bytes/event\n",
           "evgen FireEtwGCHeapStats_V2, file, 2 threads (total)", m_two, 1e3 / m_two, m_one / m_two, b2);
    printf("%-52s %8.1f ns/event  %6.1f M events/s\n", "floor with rdtsc", m_floor_tsc, 1e3 / m_floor_tsc);
    printf("%-52s %8.1f ns/event  %6.1f M events/s  %.2fx floor  %.1f bytes/event\n",
           "evgen FireEtwGCHeapStats_V2, file, 1 thread, TSC", m_tsc, 1e3 / m_tsc, m_tsc / m_floor_tsc, bytes_tsc);
    printf("bytes per event beyond the 110-byte payload: %.2f (monotonic), %.2f (TSC)\n", bytes - 110,
           bytes_tsc - 110);
    return 0;
}
