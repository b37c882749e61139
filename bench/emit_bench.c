/* emit_bench.c — what emitting costs, beside a floor measured in the same round.
 *
 * The floor is what any tracer must at least do: take a timestamp from the same clock and store
 * it with the payload (memcpy) into a 64 KiB buffer that is fwritten to a file when full, on one
 * thread. evgen emits through the generated FireEtw functions into a file session and is timed
 * until evgen_session_close returns (the file is complete). Three payloads: GCSuspendEEBegin v1
 * (10 bytes), GCHeapStats v2 (110 bytes) and GCBulkNode with 32 values (1034 bytes); one emitting
 * thread, and two for GCHeapStats; full buffers written as the default chooses
 * (EVGEN_BLOCK_WRITER_AUTO: for these file sessions the adaptive writer, O_DIRECT until the emitters
 * outrun the disk, then each emitter through the page cache), by the emitting thread itself from the
 * start (EVGEN_BLOCK_WRITER_EMITTER), by the session's writer thread (EVGEN_BLOCK_WRITER_THREAD), or
 * with O_DIRECT throughout (EVGEN_BLOCK_WRITER_DIRECT_IO). evgen reads
 * CLOCK_MONOTONIC from the time-stamp counter between clock_gettime anchors (the default clock,
 * EVGEN_CLOCK_MONOTONIC_TSC; clock_gettime itself where the kernel's clocksource is not the TSC),
 * and, in rows marked so, with clock_gettime on every event (EVGEN_CLOCK_MONOTONIC). On ext4 the
 * page-cache writers allocate the file ahead of their blocks (runtime-side/src/prealloc.c); the row
 * "no space ahead" runs EVGEN_BLOCK_WRITER_EMITTER with EVGEN_NO_PREALLOCATE, for comparison.
 *
 * Each round runs every case once, in the same order, so that other load on the machine falls on
 * all of them alike; the table shows medians over the rounds of: wall ns per event, process CPU ns
 * per event (getrusage: user + system time of every thread, the writer's included), events/s,
 * bytes of trace per event, and the per-round ratio to the floor with the same payload. Both of
 * evgen's clocks give the trace CLOCK_MONOTONIC nanoseconds, the floor's clock_gettime values; a
 * second floor that reads rdtsc instead (raw ticks) shows what the counter alone saves a tracer.
 * Last, for each writer, issue 15's three emitting goals from the same medians (GCHeapStats v2:
 * CPU <= 0.6x and wall <= 1.0x the floor, two threads >= 1.6x one thread's events/s).
 * Usage: emit_bench [EVENTS] [ROUNDS] [DIR] */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "bench_floor.h"
#include "evgen/runtime.h"
#include "gc_heap_values.h"
#include "gcevents_runtime.h"

enum { PAYLOAD_SMALL, PAYLOAD_MEDIUM, PAYLOAD_LARGE, N_PAYLOADS };
static const size_t payload_bytes[N_PAYLOADS] = {10, 110, 10 + 32 * sizeof(GCBulkNodeValue)};
static const char *const payload_name[N_PAYLOADS] = {"GCSuspendEEBegin v1", "GCHeapStats v2", "GCBulkNode x32"};

/* One measurement: wall and process CPU seconds per event, trace bytes per event. */
typedef struct figure {
    double wall_ns, cpu_ns, bytes;
} figure;

/* The kernel's clocksource (EVGEN_CLOCK_MONOTONIC_TSC reads the counter only where it is "tsc"). */
static void read_clocksource(char *out, size_t size)
{
    snprintf(out, size, "unknown");
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (!f)
        return;
    if (fgets(out, (int)size, f))
        out[strcspn(out, "\n")] = 0;
    fclose(f);
}

static double file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_size : 0;
}

/* ---- the floor ------------------------------------------------------------------------- */

static figure floor_run(const char *path, long events, size_t payload_size, int use_tsc)
{
    static unsigned char payload[2048];
    static bench_floor fl;
    memset(payload, 0x5a, payload_size);
    if (!(fl.file = fopen(path, "wb")))
        bench_die(path);
    fl.used = 0;
    double t0 = bench_now_seconds(), c0 = bench_process_cpu_seconds();
    for (long i = 0; i < events; i++)
        bench_floor_event(&fl, use_tsc ? __builtin_ia32_rdtsc() : bench_floor_clock(), payload, payload_size);
    bench_floor_close(&fl);
    figure fig = {(bench_now_seconds() - t0) * 1e9 / (double)events,
                  (bench_process_cpu_seconds() - c0) * 1e9 / (double)events, file_bytes(path) / (double)events};
    unlink(path);
    return fig;
}

/* ---- evgen ----------------------------------------------------------------------------- */

typedef struct emit_job {
    long events;
    int payload;
} emit_job;

static void *emit_thread(void *arg)
{
    const emit_job *job = arg;
    static GCBulkNodeValue values[32];
    for (long i = 0; i < job->events; i++)
        switch (job->payload) {
        case PAYLOAD_SMALL:
            FIRE_EVENT(GCSuspendEEBegin, bench_gc_heap.suspend_reason, (uint32_t)i, bench_gc_heap.clr_instance_id);
            break;
        case PAYLOAD_MEDIUM:
            FIRE_EVENT(GCHeapStats, BENCH_GC_HEAP_STATS_VALUES(i));
            break;
        default:
            values[i & 31].Size = (uint64_t)i;
            FIRE_EVENT(GCBulkNode, (uint32_t)i, 32, 7, values);
            break;
        }
    return NULL;
}

/* Every thread emits `events` / `threads` events; the figure is per event of all of them. */
static figure evgen_run(const char *path, long events, int payload, int threads, evgen_clock_kind clock,
                        evgen_block_writer block_writer)
{
    evgen_session_options options;
    evgen_session_options_init(&options);
    options.clock = clock;
    options.block_writer = block_writer;
    evgen_session *s = evgen_session_open_file(path, &options);
    if (!s) {
        perror("evgen_session_open_file");
        exit(1);
    }
    evgen_session_enable(s, NULL, 5, ~0ull);
    pthread_t tid[8];
    emit_job job = {events / threads, payload};
    double t0 = bench_now_seconds(), c0 = bench_process_cpu_seconds();
    for (int i = 0; i < threads; i++)
        pthread_create(&tid[i], NULL, emit_thread, &job);
    for (int i = 0; i < threads; i++)
        pthread_join(tid[i], NULL);
    evgen_session_totals totals;
    if (evgen_session_close(s, &totals, NULL, NULL) != 0) {
        perror("evgen_session_close");
        exit(1);
    }
    long all = job.events * threads;
    figure fig = {(bench_now_seconds() - t0) * 1e9 / (double)all,
                  (bench_process_cpu_seconds() - c0) * 1e9 / (double)all, file_bytes(path) / (double)all};
    if (totals.written != (uint64_t)all || totals.dropped || totals.lost) {
        fprintf(stderr, "written %llu of %ld, dropped %llu, lost %llu\n", (unsigned long long)totals.written, all,
                (unsigned long long)totals.dropped, (unsigned long long)totals.lost);
        exit(1);
    }
    evgen_session_totals_free(&totals);
    unlink(path);
    return fig;
}

static double disabled_run(long events)
{
    double t0 = bench_now_seconds();
    for (long i = 0; i < events; i++)
        FIRE_EVENT(GCHeapStats, (uint64_t)i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, (uint64_t)i, 15);
    return (bench_now_seconds() - t0) * 1e9 / (double)events;
}

/* ---- the rounds ------------------------------------------------------------------------ */

enum { MAX_ROUNDS = 64 };

/* Whether DIR is on ext4, the one file system where the runtime allocates space ahead. */
static int on_ext4(const char *dir)
{
    struct statfs fs;
    return statfs(dir, &fs) == 0 && fs.f_type == 0xEF53;
}

/* A row of the table: a case's figures over the rounds, and the index of its floor's row. */
typedef struct row {
    char name[96];
    int floor_row; /* -1: this is a floor */
    int scaling_of; /* >= 0: also print events/s against that row's */
    figure f[MAX_ROUNDS];
} row;

static row rows[32];

/* The rows of the writers other than the default, under the default's row of each case. */
#define EMITTER_NAME "  same, emitter writes (page cache)"
#define THREAD_NAME "  same, writer thread writes"
#define DIO_NAME "  same, O_DIRECT throughout"
static int n_rows;

static int add_row(const char *name, int floor_row, int scaling_of)
{
    row *r = &rows[n_rows];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->floor_row = floor_row;
    r->scaling_of = scaling_of;
    return n_rows++;
}

static double median_of(int n, const double *v)
{
    double copy[MAX_ROUNDS];
    memcpy(copy, v, (size_t)n * sizeof *v);
    return bench_median(copy, n);
}

/* R's per-round wall and CPU ratios to FLOOR's figures of the same round. */
static void floor_ratios(const row *r, const row *floor, int rounds, double *rw, double *rc)
{
    for (int k = 0; k < rounds; k++) {
        rw[k] = r->f[k].wall_ns / floor->f[k].wall_ns;
        rc[k] = r->f[k].cpu_ns / floor->f[k].cpu_ns;
    }
}

/* The medians of R's per-round ratios: wall and CPU to its floor's (a row with a floor), or its
 * events/s to the row it scales (a row with scaling_of). */
static void row_ratios(const row *r, int rounds, double *wall_ratio, double *cpu_ratio, double *scaling)
{
    double rw[MAX_ROUNDS], rc[MAX_ROUNDS];
    if (r->floor_row >= 0) {
        floor_ratios(r, &rows[r->floor_row], rounds, rw, rc);
        *wall_ratio = median_of(rounds, rw);
        *cpu_ratio = median_of(rounds, rc);
    } else if (r->scaling_of >= 0) {
        for (int k = 0; k < rounds; k++)
            rw[k] = rows[r->scaling_of].f[k].wall_ns / r->f[k].wall_ns;
        *scaling = median_of(rounds, rw);
    }
}

static void print_row(const row *r, int rounds)
{
    double wall[MAX_ROUNDS], cpu[MAX_ROUNDS], bytes[MAX_ROUNDS];
    for (int k = 0; k < rounds; k++) {
        wall[k] = r->f[k].wall_ns;
        cpu[k] = r->f[k].cpu_ns;
        bytes[k] = r->f[k].bytes;
    }
    double w = median_of(rounds, wall), wall_ratio = 0, cpu_ratio = 0, scaling = 0;
    row_ratios(r, rounds, &wall_ratio, &cpu_ratio, &scaling);
    printf("%-46s %8.1f %8.1f %7.2f %8.1f", r->name, w, median_of(rounds, cpu), 1e3 / w, median_of(rounds, bytes));
    if (r->floor_row >= 0)
        printf("   %5.2fx   %5.2fx", wall_ratio, cpu_ratio);
    else if (r->scaling_of >= 0)
        printf("   throughput %.2fx one thread's", scaling);
    printf("\n");
}

/* Issue 15's three emitting goals for one writer, from its one-thread row (against the floor) and
 * its two-thread row (against the one thread), the same medians as the table's. */
static void print_goals(const char *writer, int one_thread, int two_threads, int rounds)
{
    double wall_ratio = 0, cpu_ratio = 0, scaling = 0, unused = 0;
    row_ratios(&rows[one_thread], rounds, &wall_ratio, &cpu_ratio, &unused);
    row_ratios(&rows[two_threads], rounds, &unused, &unused, &scaling);
    int cpu_ok = cpu_ratio <= 0.6, wall_ok = wall_ratio <= 1.0, scaling_ok = scaling >= 1.6;
    printf("  %-26s CPU %5.2fx  wall %5.2fx  2 threads %5.2fx   %s%s%s%s\n", writer, cpu_ratio, wall_ratio, scaling,
           cpu_ok && wall_ok && scaling_ok ? "all three" : "missed:", cpu_ok ? "" : " CPU", wall_ok ? "" : " wall",
           scaling_ok ? "" : " 2 threads");
}

/* R's per-round ratios to another floor than its own: evgen's rows against the floor that reads
 * rdtsc, as a floor with the counter's cost would be (issue 15 names the clock_gettime floor). */
static void print_against(const row *r, const row *floor, int rounds)
{
    double rw[MAX_ROUNDS], rc[MAX_ROUNDS];
    floor_ratios(r, floor, rounds, rw, rc);
    printf("  %-44s %5.2fx wall, %5.2fx CPU\n", r->name, median_of(rounds, rw), median_of(rounds, rc));
}

int main(int argc, char **argv)
{
    long events;
    int rounds;
    const char *dir;
    int usage = bench_trace_args(argc, argv, 2000000, &events, &rounds, &dir);
    if (usage)
        return usage;
    char machine[512];
    bench_describe_machine(machine, sizeof machine);
    char path[4096];
    snprintf(path, sizeof path, "%s/evgen-emit-bench-%ld.evtrace", dir, (long)getpid());

    int floor_row[N_PAYLOADS], default_row[N_PAYLOADS], emitter_row[N_PAYLOADS], thread_row[N_PAYLOADS];
    int dio_row[N_PAYLOADS];
    char name[96];
    for (int p = 0; p < N_PAYLOADS; p++) {
        snprintf(name, sizeof name, "floor, %zu-byte payload", payload_bytes[p]);
        floor_row[p] = add_row(name, -1, -1);
        snprintf(name, sizeof name, "evgen %s, 1 thread", payload_name[p]);
        default_row[p] = add_row(name, floor_row[p], -1);
        emitter_row[p] = add_row(EMITTER_NAME, floor_row[p], -1);
        thread_row[p] = add_row(THREAD_NAME, floor_row[p], -1);
        dio_row[p] = add_row(DIO_NAME, floor_row[p], -1);
    }
    int medium_floor = floor_row[PAYLOAD_MEDIUM];
    char clocksource[64];
    read_clocksource(clocksource, sizeof clocksource);
    int two_default = add_row("evgen GCHeapStats v2, 2 threads", -1, default_row[PAYLOAD_MEDIUM]);
    int two_emitter = add_row(EMITTER_NAME, -1, emitter_row[PAYLOAD_MEDIUM]);
    int two_thread = add_row(THREAD_NAME, -1, thread_row[PAYLOAD_MEDIUM]);
    int two_dio = add_row(DIO_NAME, -1, dio_row[PAYLOAD_MEDIUM]);
    int cg_row = add_row("evgen GCHeapStats v2, 1 thread, clock_gettime", medium_floor, -1);
    int cg_emitter_row = add_row(EMITTER_NAME, medium_floor, -1);
    int cg_dio_row = add_row(DIO_NAME, medium_floor, -1);
    int two_cg = add_row("evgen GCHeapStats v2, 2 threads, clock_gettime", -1, cg_row);
    int two_cg_emitter = add_row(EMITTER_NAME, -1, cg_emitter_row);
    int no_prealloc_row = add_row("GCHeapStats v2, emitter writes, no space ahead", medium_floor, -1);
    int floor_tsc = add_row("floor with rdtsc, 110-byte payload", -1, -1);
    double off[MAX_ROUNDS];
    const evgen_clock_kind tsc = EVGEN_CLOCK_MONOTONIC_TSC, cg = EVGEN_CLOCK_MONOTONIC;

    for (int k = 0; k < rounds; k++) {
        for (int p = 0; p < N_PAYLOADS; p++) {
            long n = p == PAYLOAD_LARGE ? events / 8 : events;
            rows[floor_row[p]].f[k] = floor_run(path, n, payload_bytes[p], 0);
            rows[default_row[p]].f[k] = evgen_run(path, n, p, 1, tsc, EVGEN_BLOCK_WRITER_AUTO);
            /* Emitters that write, and beside them (the one difference; which goes first alternates
             * by round) the same without space allocated ahead: EVGEN_NO_PREALLOCATE, read at open. */
            for (int twice = 0; twice < (p == PAYLOAD_MEDIUM ? 2 : 1); twice++) {
                int without = p == PAYLOAD_MEDIUM && (twice ^ (k & 1));
                if (without)
                    setenv("EVGEN_NO_PREALLOCATE", "1", 1);
                rows[without ? no_prealloc_row : emitter_row[p]].f[k] =
                    evgen_run(path, n, p, 1, tsc, EVGEN_BLOCK_WRITER_EMITTER);
                unsetenv("EVGEN_NO_PREALLOCATE");
            }
            rows[thread_row[p]].f[k] = evgen_run(path, n, p, 1, tsc, EVGEN_BLOCK_WRITER_THREAD);
            rows[dio_row[p]].f[k] = evgen_run(path, n, p, 1, tsc, EVGEN_BLOCK_WRITER_DIRECT_IO);
        }
        rows[two_default].f[k] = evgen_run(path, events, PAYLOAD_MEDIUM, 2, tsc, EVGEN_BLOCK_WRITER_AUTO);
        rows[two_emitter].f[k] = evgen_run(path, events, PAYLOAD_MEDIUM, 2, tsc, EVGEN_BLOCK_WRITER_EMITTER);
        rows[two_thread].f[k] = evgen_run(path, events, PAYLOAD_MEDIUM, 2, tsc, EVGEN_BLOCK_WRITER_THREAD);
        rows[two_dio].f[k] = evgen_run(path, events, PAYLOAD_MEDIUM, 2, tsc, EVGEN_BLOCK_WRITER_DIRECT_IO);
        rows[cg_row].f[k] = evgen_run(path, events, PAYLOAD_MEDIUM, 1, cg, EVGEN_BLOCK_WRITER_AUTO);
        rows[cg_emitter_row].f[k] = evgen_run(path, events, PAYLOAD_MEDIUM, 1, cg, EVGEN_BLOCK_WRITER_EMITTER);
        rows[cg_dio_row].f[k] = evgen_run(path, events, PAYLOAD_MEDIUM, 1, cg, EVGEN_BLOCK_WRITER_DIRECT_IO);
        rows[two_cg].f[k] = evgen_run(path, events, PAYLOAD_MEDIUM, 2, cg, EVGEN_BLOCK_WRITER_AUTO);
        rows[two_cg_emitter].f[k] = evgen_run(path, events, PAYLOAD_MEDIUM, 2, cg, EVGEN_BLOCK_WRITER_EMITTER);
        rows[floor_tsc].f[k] = floor_run(path, events, payload_bytes[PAYLOAD_MEDIUM], 1);
        off[k] = disabled_run(events * 10);
    }

    printf("emit_bench: %ld events per run (%ld for the 1034-byte payload), median of %d rounds; the floor:\n"
           "a clock_gettime(CLOCK_MONOTONIC) timestamp and the payload memcpy'd into a 64 KiB buffer, fwritten\n"
           "when full. evgen's timestamps: CLOCK_MONOTONIC read from the TSC between clock_gettime anchors (the\n"
           "default clock; clock_gettime itself unless the kernel's clocksource is tsc: here %s), or clock_gettime\n"
           "on every event where a row says so. Each case's first row is the default writer (EVGEN_BLOCK_WRITER_AUTO:\n"
           "the adaptive one for these sessions). %s: %s\n%s\n\n",
           events, events / 8, rounds, clocksource, dir,
           on_ext4(dir) ? "on ext4, where the page-cache writers allocate space ahead of their blocks (fallocate;\n"
                          "the row 'no space ahead' with EVGEN_NO_PREALLOCATE)"
                        : "not on ext4: no space allocated ahead (the row 'no space ahead' is the same code)",
           machine);
    printf("%-46s %8s %8s %7s %8s   %6s   %6s\n", "", "wall", "CPU", "M ev/s", "bytes", "wall", "CPU");
    printf("%-46s %8s %8s %7s %8s   %6s   %6s\n", "", "ns/ev", "ns/ev", "", "/event", "/floor", "/floor");
    for (int i = 0; i < n_rows; i++)
        print_row(&rows[i], rounds);
    printf("%-46s %8.2f ns/event (one load and a branch)\n", "EventEnabled + FIRE_EVENT, event disabled",
           median_of(rounds, off));
    printf("\nGCHeapStats v2 (the counter's CLOCK_MONOTONIC) against the floor with rdtsc:\n");
    print_against(&rows[default_row[PAYLOAD_MEDIUM]], &rows[floor_tsc], rounds);
    print_against(&rows[emitter_row[PAYLOAD_MEDIUM]], &rows[floor_tsc], rounds);
    print_against(&rows[dio_row[PAYLOAD_MEDIUM]], &rows[floor_tsc], rounds);
    printf("\nIssue 15's emitting goals, GCHeapStats v2 (CPU <= 0.60x and wall <= 1.00x the floor, 2 threads >= 1.60x\n"
           "one thread's events/s), by writer:\n");
    print_goals("default (adaptive)", default_row[PAYLOAD_MEDIUM], two_default, rounds);
    print_goals("emitter writes", emitter_row[PAYLOAD_MEDIUM], two_emitter, rounds);
    print_goals("writer thread writes", thread_row[PAYLOAD_MEDIUM], two_thread, rounds);
    print_goals("O_DIRECT", dio_row[PAYLOAD_MEDIUM], two_dio, rounds);
    printf("\nCPU counts every thread of the process (getrusage), the writer thread's too; the floor has one.\n");
    return 0;
}
