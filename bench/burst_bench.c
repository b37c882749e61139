/* burst_bench.c — a burst, then a calm stretch, in one file session: what each writer costs after
 * a burst made the emitters outrun the disk.
 *
 * A runtime's events come in bursts (a session's start, a rundown, a storm of collections) between
 * long stretches at a rate any disk keeps up with. The adaptive writer (the default for a file
 * session that waits when full) hands the writing to the emitters through the page cache when a
 * burst outruns the disk, and takes it back with O_DIRECT once the burst is over
 * (runtime-side/src/writer_dio.c). Each round runs, one after the other: the floor (a
 * clock_gettime timestamp and the payload memcpy'd into a 64 KiB buffer, fwritten when full),
 * evgen's default writer, the emitter writing through the page cache throughout
 * (EVGEN_BLOCK_WRITER_EMITTER) and O_DIRECT throughout (EVGEN_BLOCK_WRITER_DIRECT_IO). Each of them
 * emits BURST GCHeapStats v2 events as fast as it can, then CALM_BATCHES batches of CALM_BATCH
 * events with a CALM_SLEEP_MS sleep after each (about a million events a second, 110 MB/s), and
 * closes. Printed: medians over the rounds of the burst's wall and CPU per event, the calm
 * stretch's process CPU per event (getrusage: every thread, the writer's included; the sleeps cost
 * nothing), and the calm stretch's CPU against the floor's, per round.
 * Usage: burst_bench [BURST_EVENTS] [ROUNDS] [DIR] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "bench_floor.h"
#include "evgen/runtime.h"
#include "gc_heap_values.h"
#include "gcevents_runtime.h"

enum { CALM_BATCHES = 200, CALM_BATCH = 5000, CALM_SLEEP_MS = 5, MAX_ROUNDS = 64, PAYLOAD = 110 };

/* One case's figures in one round: the burst's wall and CPU, the calm stretch's CPU, per event. */
typedef struct phases {
    double burst_wall_ns, burst_cpu_ns, calm_cpu_ns;
} phases;

static void calm_pause(void)
{
    nanosleep(&(struct timespec){0, CALM_SLEEP_MS * 1000000L}, NULL);
}

static unsigned char floor_payload[PAYLOAD];

static void floor_event(bench_floor *fl)
{
    bench_floor_event(fl, bench_floor_clock(), floor_payload, PAYLOAD);
}

static phases floor_run(const char *path, long burst)
{
    static bench_floor ff;
    memset(floor_payload, 0x5a, PAYLOAD);
    ff.used = 0;
    if (!(ff.file = fopen(path, "wb")))
        bench_die(path);
    phases p;
    double t0 = bench_now_seconds(), c0 = bench_process_cpu_seconds();
    for (long i = 0; i < burst; i++)
        floor_event(&ff);
    double t1 = bench_now_seconds(), c1 = bench_process_cpu_seconds();
    for (int b = 0; b < CALM_BATCHES; b++) {
        for (int k = 0; k < CALM_BATCH; k++)
            floor_event(&ff);
        calm_pause();
    }
    bench_floor_close(&ff);
    double c2 = bench_process_cpu_seconds();
    p.burst_wall_ns = (t1 - t0) * 1e9 / (double)burst;
    p.burst_cpu_ns = (c1 - c0) * 1e9 / (double)burst;
    p.calm_cpu_ns = (c2 - c1) * 1e9 / (double)(CALM_BATCHES * CALM_BATCH);
    unlink(path);
    return p;
}

static phases evgen_run(const char *path, long burst, evgen_block_writer writer)
{
    evgen_session_options options;
    evgen_session_options_init(&options);
    options.block_writer = writer;
    evgen_session *s = evgen_session_open_file(path, &options);
    if (!s)
        bench_die("evgen_session_open_file");
    evgen_session_enable(s, NULL, 5, ~0ull);
    phases p;
    long i = 0;
    double t0 = bench_now_seconds(), c0 = bench_process_cpu_seconds();
    for (; i < burst; i++)
        FIRE_EVENT(GCHeapStats, BENCH_GC_HEAP_STATS_VALUES(i));
    double t1 = bench_now_seconds(), c1 = bench_process_cpu_seconds();
    for (int b = 0; b < CALM_BATCHES; b++) {
        for (int k = 0; k < CALM_BATCH; k++, i++)
            FIRE_EVENT(GCHeapStats, BENCH_GC_HEAP_STATS_VALUES(i));
        calm_pause();
    }
    evgen_session_totals totals;
    if (evgen_session_close(s, &totals, NULL, NULL) != 0)
        bench_die("evgen_session_close");
    double c2 = bench_process_cpu_seconds();
    if (totals.written != (uint64_t)i || totals.dropped || totals.lost) {
        fprintf(stderr, "written %llu of %ld, dropped %llu, lost %llu\n", (unsigned long long)totals.written, i,
                (unsigned long long)totals.dropped, (unsigned long long)totals.lost);
        exit(1);
    }
    evgen_session_totals_free(&totals);
    p.burst_wall_ns = (t1 - t0) * 1e9 / (double)burst;
    p.burst_cpu_ns = (c1 - c0) * 1e9 / (double)burst;
    p.calm_cpu_ns = (c2 - c1) * 1e9 / (double)(CALM_BATCHES * CALM_BATCH);
    unlink(path);
    return p;
}

enum { FLOOR, DEFAULT, EMITTER, DIRECT_IO, N_CASES };
static const char *const case_name[N_CASES] = {
    "floor: memcpy + clock_gettime + fwrite", "evgen, default writer (adaptive)",
    "  same, emitter writes (page cache)", "  same, O_DIRECT throughout"};
static const evgen_block_writer case_writer[N_CASES] = {0, EVGEN_BLOCK_WRITER_AUTO, EVGEN_BLOCK_WRITER_EMITTER,
                                                        EVGEN_BLOCK_WRITER_DIRECT_IO};

int main(int argc, char **argv)
{
    long burst;
    int rounds;
    const char *dir;
    int usage = bench_trace_args(argc, argv, 2000000, &burst, &rounds, &dir);
    if (usage)
        return usage;
    char machine[512];
    bench_describe_machine(machine, sizeof machine);
    char path[4096];
    snprintf(path, sizeof path, "%s/evgen-burst-bench-%ld.evtrace", dir, (long)getpid());

    static phases f[N_CASES][MAX_ROUNDS];
    for (int k = 0; k < rounds; k++)
        for (int c = 0; c < N_CASES; c++)
            f[c][k] = c == FLOOR ? floor_run(path, burst) : evgen_run(path, burst, case_writer[c]);

    printf("burst_bench: %ld GCHeapStats v2 events as fast as they go, then %d batches of %d with a %d ms sleep\n"
           "after each (%d events), in one file session; median of %d rounds. %s\n%s\n\n",
           burst, CALM_BATCHES, CALM_BATCH, CALM_SLEEP_MS, CALM_BATCHES * CALM_BATCH, rounds, dir, machine);
    printf("%-42s %10s %10s %10s %10s\n", "", "burst wall", "burst CPU", "calm CPU", "calm CPU");
    printf("%-42s %10s %10s %10s %10s\n", "", "ns/event", "ns/event", "ns/event", "/ floor");
    for (int c = 0; c < N_CASES; c++) {
        double wall[MAX_ROUNDS], cpu[MAX_ROUNDS], calm[MAX_ROUNDS], ratio[MAX_ROUNDS];
        for (int k = 0; k < rounds; k++) {
            wall[k] = f[c][k].burst_wall_ns;
            cpu[k] = f[c][k].burst_cpu_ns;
            calm[k] = f[c][k].calm_cpu_ns;
            ratio[k] = f[c][k].calm_cpu_ns / f[FLOOR][k].calm_cpu_ns;
        }
        printf("%-42s %10.1f %10.1f %10.1f", case_name[c], bench_median(wall, rounds), bench_median(cpu, rounds),
               bench_median(calm, rounds));
        if (c == FLOOR)
            printf("\n");
        else
            printf(" %9.2fx\n", bench_median(ratio, rounds));
    }
    printf("\nCPU counts every thread of the process (getrusage), the writer thread's too; the floor has one.\n"
           "The calm stretch's CPU includes each batch's wake-up from its sleep, alike for all.\n");
    return 0;
}
