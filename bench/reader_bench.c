/* reader_bench.c — what reading costs: a file of EVENTS GCHeapStats v2 events (written with the
 * generated runtime side), opened (a validating scan: every block's checksum and record) and read
 * back with libevgen-reader and the generated accessors, summing every field (events/s and GB/s
 * of trace, whole and for the loop alone), and `evgen dump --json` of the same kind of file to
 * /dev/null. Median of RUNS runs. Usage: reader_bench [EVENTS] [RUNS] [DIR] */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "evgen/reader.h"
#include "evgen/runtime.h"
#include "gcevents_reader.h"
#include "gcevents_runtime.h"

extern char **environ;

static void write_trace(const char *path, long events)
{
    evgen_session *s = evgen_session_open_file(path, NULL);
    if (!s) {
        perror(path);
        exit(1);
    }
    evgen_session_enable(s, NULL, 5, ~0ull);
    for (long i = 0; i < events; i++)
        FireEtwGCHeapStats_V2((uint64_t)i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, (uint64_t)i * 3, 15);
    if (evgen_session_close(s, NULL, NULL, NULL) != 0) {
        perror("evgen_session_close");
        exit(1);
    }
}

/* Reads every event and sums every field of GCHeapStats through the generated accessors. */
static double read_run(const char *path, long events, uint64_t *checksum, double *loop_seconds)
{
    double t0 = bench_now_seconds();
    evgen_reader *r = evgen_reader_open(path, NULL);
    if (!r) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    double t_open = bench_now_seconds();
    evgen_event ev;
    uint64_t sum = 0;
    long n = 0;
    while (evgen_reader_next(r, &ev)) {
        sum += GCHeapStats_GenerationSize0(&ev) + GCHeapStats_TotalPromotedSize0(&ev) +
               GCHeapStats_GenerationSize1(&ev) + GCHeapStats_TotalPromotedSize1(&ev) +
               GCHeapStats_GenerationSize2(&ev) + GCHeapStats_TotalPromotedSize2(&ev) +
               GCHeapStats_GenerationSize3(&ev) + GCHeapStats_TotalPromotedSize3(&ev) +
               GCHeapStats_FinalizationPromotedSize(&ev) + GCHeapStats_FinalizationPromotedCount(&ev) +
               GCHeapStats_PinnedObjectCount(&ev) + GCHeapStats_SinkBlockCount(&ev) + GCHeapStats_GCHandleCount(&ev) +
               GCHeapStats_ClrInstanceID(&ev) + GCHeapStats_GenerationSize4(&ev) + GCHeapStats_TotalPromotedSize4(&ev);
        n++;
    }
    *loop_seconds = bench_now_seconds() - t_open;
    evgen_reader_close(r);
    double t = bench_now_seconds() - t0;
    if (n != events) {
        fprintf(stderr, "read %ld events of %ld\n", n, events);
        exit(1);
    }
    *checksum = sum;
    return t;
}

static double dump_run(const char *evgen, const char *path)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    const char *argv[] = {evgen, "dump", "--json", "--order", "file", path, NULL};
    double t0 = bench_now_seconds();
    pid_t pid;
    if (posix_spawn(&pid, evgen, &actions, NULL, (char *const *)argv, environ) != 0) {
        perror(evgen);
        exit(1);
    }
    int status;
    waitpid(pid, &status, 0);
    posix_spawn_file_actions_destroy(&actions);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "evgen dump failed\n");
        exit(1);
    }
    return bench_now_seconds() - t0;
}

int main(int argc, char **argv)
{
    long events;
    int runs;
    const char *dir;
    int usage = bench_trace_args(argc, argv, 10000000, &events, &runs, &dir);
    if (usage)
        return usage;
    char path[4096];
    snprintf(path, sizeof path, "%s/evgen-reader-bench-%ld.evtrace", dir, (long)getpid());
    write_trace(path, events);
    struct stat st;
    stat(path, &st);
    double reads[64], loops[64], dumps[64];
    uint64_t checksum = 0;
    for (int r = 0; r < runs; r++)
        reads[r] = read_run(path, events, &checksum, &loops[r]);
    long dump_events = events < 2000000 ? events : 2000000;
    char dump_path[4200];
    snprintf(dump_path, sizeof dump_path, "%s.dump", path);
    write_trace(dump_path, dump_events);
    for (int r = 0; r < runs; r++)
        dumps[r] = dump_run(EVGEN_EXE, dump_path);
    double m_read = bench_median(reads, runs), m_loop = bench_median(loops, runs), m_dump = bench_median(dumps, runs);
    printf("reader_bench: %ld GCHeapStats v2 events (%.1f MB, %.1f bytes/event), median of %d runs\n", events,
           (double)st.st_size / 1e6, (double)st.st_size / (double)events, runs);
    printf("%-48s %8.1f M events/s  %6.2f GB/s  %6.2f ns/event  (checksum %llx)\n",
           "open + iterate + 16 accessors per event", (double)events / m_read / 1e6, (double)st.st_size / m_read / 1e9,
           m_read * 1e9 / (double)events, (unsigned long long)checksum);
    printf("%-48s %8.1f M events/s  %6.2f GB/s  %6.2f ns/event\n", "  of which the loop: iterate + 16 accessors",
           (double)events / m_loop / 1e6, (double)st.st_size / m_loop / 1e9, m_loop * 1e9 / (double)events);
    printf("%-48s %8.2f M events/s  (%ld events)\n", "evgen dump --json > /dev/null", (double)dump_events / m_dump / 1e6,
           dump_events);
    unlink(path);
    unlink(dump_path);
    return 0;
}
