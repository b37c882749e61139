/* reader_bench.c — what reading costs: a file of EVENTS GCHeapStats v2 events (written with the
 * generated runtime side), opened (a walk of the block headers; each block's checksum and records
 * verified when the loop first enters it, or ahead of it by the reader's verifier thread) and read
 * back with libevgen-reader and the generated accessors, summing every field: the whole read (its
 * wall time and the process's CPU, every thread's), the open alone, the loop alone, the loop over
 * a trace already validated (evgen_reader_status first: every block verified before the clock
 * starts; the floor), the same while a thread spins on another core (the floor of an iterator
 * with the verifier beside it, where cores slow each other down), a bare loop over the same file
 * that checks nothing (bare_read.c: the least a reader through a mapping does), the kernel's
 * share of it (map_alone: map, a load per page, unmap), and the whole read in time order.
 * Then, on a cut of at most 2 M events, `evgen dump --json` to /dev/null, and the same events
 * exported as CTF (`evgen export --ctf`) and read by babeltrace2 when it is installed: its decode
 * alone (`-o dummy`) and its text output to /dev/null, compared per event. RUNS rounds, each doing
 * every read once, evgen's then babeltrace2's; the figures are medians over the rounds, the
 * ratios medians of each round's ratio. Usage: reader_bench [EVENTS] [RUNS] [DIR] */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bare_read.h"
#include "bench_common.h"
#include "gc_heap_stats_sum.h"
#include "evgen/reader.h"
#include "evgen/runtime.h"
#include "gcevents_runtime.h"

extern char **environ;

/* The trace is written by the emitting thread through the page cache (EVGEN_BLOCK_WRITER_EMITTER),
 * in the 256 KiB folios its padded blocks make, so that every round reads it from memory, as
 * babeltrace2 reads its CTF: the default writer's O_DIRECT would leave the first round to read it
 * from the disk. */
static void write_trace(const char *path, long events)
{
    evgen_session_options options;
    evgen_session_options_init(&options);
    options.block_writer = EVGEN_BLOCK_WRITER_EMITTER;
    evgen_session *s = evgen_session_open_file(path, &options);
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

/* The read: every event, every field of GCHeapStats summed through the generated accessors. */
static uint64_t read_loop(evgen_reader *r, long *n_read)
{
    evgen_event ev;
    uint64_t sum = 0;
    long n = 0;
    while (evgen_reader_next(r, &ev)) {
        sum += gc_heap_stats_sum(&ev);
        n++;
    }
    *n_read = n;
    return sum;
}

typedef struct read_times {
    double whole, open, loop; /* open + loop (+ close), as a program reading a trace does */
    double whole_cpu;         /* the process's CPU during the whole read, the verifier thread's too */
    double whole_time_order;  /* the same in time order (every block verified at the rewind) */
    double validated_loop;    /* the loop over a reader whose validation finished before it */
    double validated_beside;  /* the same while a thread spins on another core (no memory traffic) */
    double bare;              /* bare_read: map, frame, 16 loads, unmap, nothing checked */
    double map;               /* map_alone: map, a load per page, unmap */
} read_times;

static evgen_reader *open_or_die(const char *path)
{
    evgen_reader *r = evgen_reader_open(path, NULL);
    if (!r) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    return r;
}

static void check_count(long n, long events)
{
    if (n != events) {
        fprintf(stderr, "read %ld events of %ld\n", n, events);
        exit(1);
    }
}

/* The version and payload size of the trace's records (all GCHeapStats v2), for bare_read. */
static void record_shape(const char *path, uint32_t *version, uint32_t *size)
{
    evgen_reader *r = open_or_die(path);
    evgen_event ev;
    if (!evgen_reader_next(r, &ev)) {
        fprintf(stderr, "%s: no event\n", path);
        exit(1);
    }
    *version = ev.version;
    *size = ev.size;
    evgen_reader_close(r);
}

/* A thread that only spins (registers, no memory) until told to stop. */
static void *spin(void *arg)
{
    int *stop = arg;
    while (!__atomic_load_n(stop, __ATOMIC_RELAXED))
        ;
    return NULL;
}

/* The loop over R again (rewound) while a spinner keeps another core busy: the most the whole
 * read's iterator can do while the verifier works beside it, on a machine where a busy core slows
 * the other (a virtual CPU may share its core or its host's power with the other). Seconds. */
static double loop_beside_spinner(evgen_reader *r, long events)
{
    int stop = 0;
    pthread_t t;
    if (pthread_create(&t, NULL, spin, &stop) != 0) {
        fprintf(stderr, "reader_bench: cannot start a thread\n");
        exit(1);
    }
    struct timespec settle = {0, 10 * 1000 * 1000}; /* time for the scheduler to give it a core */
    nanosleep(&settle, NULL);
    evgen_reader_rewind(r, EVGEN_ORDER_FILE);
    long n;
    double t0 = bench_now_seconds();
    read_loop(r, &n);
    double s = bench_now_seconds() - t0;
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    pthread_join(t, NULL);
    check_count(n, events);
    return s;
}

static read_times read_run(const char *path, long events, uint64_t *checksum)
{
    read_times t;
    long n;
    uint32_t version, size;
    record_shape(path, &version, &size);
    uint64_t bare_sum;
    t.bare = bare_read(path, version, size, &bare_sum, &n);
    if (t.bare < 0) {
        fprintf(stderr, "%s: the bare loop cannot read it\n", path);
        exit(1);
    }
    check_count(n, events);
    uint64_t touched;
    t.map = map_alone(path, &touched);
    if (t.map < 0) {
        fprintf(stderr, "%s: cannot map it\n", path);
        exit(1);
    }
    double t0 = bench_now_seconds(), c0 = bench_process_cpu_seconds();
    evgen_reader *r = open_or_die(path);
    double t_open = bench_now_seconds();
    *checksum = read_loop(r, &n);
    double t_loop = bench_now_seconds();
    evgen_reader_close(r);
    t.whole = bench_now_seconds() - t0;
    t.whole_cpu = bench_process_cpu_seconds() - c0;
    t.open = t_open - t0;
    t.loop = t_loop - t_open;
    check_count(n, events);
    if (evgen_reader_status(r = open_or_die(path), NULL) != EVGEN_READ_OK) {
        fprintf(stderr, "%s: not read whole\n", path);
        exit(1);
    }
    t0 = bench_now_seconds();
    read_loop(r, &n);
    t.validated_loop = bench_now_seconds() - t0;
    check_count(n, events);
    t.validated_beside = loop_beside_spinner(r, events);
    evgen_reader_close(r);
    t0 = bench_now_seconds();
    r = open_or_die(path);
    evgen_reader_rewind(r, EVGEN_ORDER_TIME);
    uint64_t timed = read_loop(r, &n);
    evgen_reader_close(r);
    t.whole_time_order = bench_now_seconds() - t0;
    check_count(n, events);
    if (bare_sum != *checksum) {
        fprintf(stderr, "bare loop: checksum %llx, not %llx\n", (unsigned long long)bare_sum,
                (unsigned long long)*checksum);
        exit(1);
    }
    if (timed != *checksum) {
        fprintf(stderr, "time order: checksum %llx, not %llx\n", (unsigned long long)timed,
                (unsigned long long)*checksum);
        exit(1);
    }
    return t;
}

/* Runs argv (its output to /dev/null): the seconds it took, or -1 if it cannot be run or fails. */
static double run_timed(const char *const argv[], int search_path)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    double t0 = bench_now_seconds();
    pid_t pid;
    int rc = search_path ? posix_spawnp(&pid, argv[0], &actions, NULL, (char *const *)argv, environ)
                         : posix_spawn(&pid, argv[0], &actions, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return -1;
    int status;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return bench_now_seconds() - t0;
}

static double must_run(const char *const argv[])
{
    double t = run_timed(argv, 0);
    if (t < 0) {
        fprintf(stderr, "%s %s failed\n", argv[0], argv[1]);
        exit(1);
    }
    return t;
}

/* babeltrace2 on PATH? */
static int have_babeltrace2(void)
{
    const char *argv[] = {"babeltrace2", "--version", NULL};
    return run_timed(argv, 1) >= 0;
}

static void remove_ctf(const char *dir)
{
    const char *argv[] = {"/bin/rm", "-rf", dir, NULL};
    run_timed(argv, 0);
}

/* Per-round ratio of two rates, A events in TA seconds against B events in TB. */
static double rate_ratio(double a, double ta, double b, double tb)
{
    return (a / ta) / (b / tb);
}

int main(int argc, char **argv)
{
    long events;
    int runs;
    const char *dir;
    int usage = bench_trace_args(argc, argv, 9500000, &events, &runs, &dir);
    if (usage)
        return usage;
    char machine[512];
    bench_describe_machine(machine, sizeof machine);
    char path[4096];
    snprintf(path, sizeof path, "%s/evgen-reader-bench-%ld.evtrace", dir, (long)getpid());
    write_trace(path, events);
    struct stat st;
    stat(path, &st);

    /* The cut dump --json and babeltrace2 read (babeltrace2 is slow): the same events for both. */
    long cut = events < 2000000 ? events : 2000000;
    char cut_path[4200], ctf_dir[4200];
    snprintf(cut_path, sizeof cut_path, "%s.cut.evtrace", path);
    snprintf(ctf_dir, sizeof ctf_dir, "%s.ctf", path);
    write_trace(cut_path, cut);
    const char *dump_argv[] = {EVGEN_EXE, "dump", "--json", "--order", "file", cut_path, NULL};
    const char *decode_argv[] = {"babeltrace2", "-o", "dummy", ctf_dir, NULL};
    const char *text_argv[] = {"babeltrace2", ctf_dir, NULL};
    int bt = have_babeltrace2();
    if (bt) {
        const char *export_argv[] = {EVGEN_EXE, "export", "--ctf", ctf_dir, cut_path, "--no-progress", NULL};
        must_run(export_argv);
    }

    /* Every round reads with evgen and then with babeltrace2, and the ratios are taken per round:
     * this machine's host changes speed within minutes, and a ratio of two medians taken minutes
     * apart would carry that change (docs/performance.md). */
    double wholes[64], whole_cpus[64], opens[64], loops[64], validated[64], besides[64], bares[64], maps[64], timed[64],
        dumps[64], bt_decodes[64], bt_texts[64], whole_x[64], valid_x[64], beside_x[64], bare_x[64], dump_x[64];
    uint64_t checksum = 0;
    double ev = (double)events, n_cut = (double)cut;
    for (int r = 0; r < runs; r++) {
        read_times t = read_run(path, events, &checksum);
        wholes[r] = t.whole, opens[r] = t.open, loops[r] = t.loop, validated[r] = t.validated_loop, bares[r] = t.bare;
        maps[r] = t.map, whole_cpus[r] = t.whole_cpu, besides[r] = t.validated_beside;
        timed[r] = t.whole_time_order;
        dumps[r] = must_run(dump_argv);
        if (!bt)
            continue;
        bt_decodes[r] = run_timed(decode_argv, 1);
        bt_texts[r] = run_timed(text_argv, 1);
        bt = bt_decodes[r] >= 0 && bt_texts[r] >= 0;
        whole_x[r] = rate_ratio(ev, wholes[r], n_cut, bt_decodes[r]);
        valid_x[r] = rate_ratio(ev, validated[r], n_cut, bt_decodes[r]);
        beside_x[r] = rate_ratio(ev, besides[r], n_cut, bt_decodes[r]);
        bare_x[r] = rate_ratio(ev, bares[r], n_cut, bt_decodes[r]);
        dump_x[r] = rate_ratio(n_cut, dumps[r], n_cut, bt_texts[r]);
    }
    unlink(path);
    unlink(cut_path);
    remove_ctf(ctf_dir);

    double m_whole = bench_median(wholes, runs), m_open = bench_median(opens, runs), m_loop = bench_median(loops, runs),
           m_valid = bench_median(validated, runs), m_beside = bench_median(besides, runs),
           m_bare = bench_median(bares, runs), m_timed = bench_median(timed, runs), m_dump = bench_median(dumps, runs),
           m_map = bench_median(maps, runs), m_whole_cpu = bench_median(whole_cpus, runs);
    double size = (double)st.st_size;
    printf("reader_bench: %ld GCHeapStats v2 events (%.1f MB, %.1f bytes/event), median of %d rounds\n%s\n", events,
           size / 1e6, size / ev, runs, machine);
    printf("%-52s %8.1f M events/s  %6.2f GB/s  %6.2f ns/event  (checksum %llx)\n",
           "whole read: open + iterate + 16 accessors per event", ev / m_whole / 1e6, size / m_whole / 1e9,
           m_whole * 1e9 / ev, (unsigned long long)checksum);
    printf("%-52s %8.2f ns/event of CPU (every thread: the verifier's too)\n", "  its process CPU",
           m_whole_cpu * 1e9 / ev);
    printf("%-52s %8.1f ms       %6.2f GB/s  %6.2f ns/event\n", "  the open alone (a walk of the block headers)",
           m_open * 1e3, size / m_open / 1e9, m_open * 1e9 / ev);
    printf("%-52s %8.1f M events/s  %6.2f GB/s  %6.2f ns/event\n", "  the loop alone (blocks verified as entered)",
           ev / m_loop / 1e6, size / m_loop / 1e9, m_loop * 1e9 / ev);
    printf("%-52s %8.1f M events/s  %6.2f GB/s  %6.2f ns/event\n", "  floor: the loop over a trace already validated",
           ev / m_valid / 1e6, size / m_valid / 1e9, m_valid * 1e9 / ev);
    printf("%-52s %8.1f M events/s  %6.2f GB/s  %6.2f ns/event\n", "  the same, a thread spinning on another core",
           ev / m_beside / 1e6, size / m_beside / 1e9, m_beside * 1e9 / ev);
    printf("%-52s %8.1f M events/s  %6.2f GB/s  %6.2f ns/event\n", "floor: a bare loop (map, frame, 16 loads, unmap)",
           ev / m_bare / 1e6, size / m_bare / 1e9, m_bare * 1e9 / ev);
    printf("%-52s %8.1f ms       %6.2f GB/s  %6.2f ns/event\n", "  of which the kernel's: map, a load per page, unmap",
           m_map * 1e3, size / m_map / 1e9, m_map * 1e9 / ev);
    printf("%-52s %8.1f M events/s  %6.2f GB/s  %6.2f ns/event\n", "whole read in time order (open included)",
           ev / m_timed / 1e6, size / m_timed / 1e9, m_timed * 1e9 / ev);
    printf("%-52s %8.2f M events/s  (%ld events)\n", "evgen dump --json --order file > /dev/null", n_cut / m_dump / 1e6,
           cut);
    if (!bt) {
        printf("babeltrace2: not installed (or it failed): its rows are skipped\n");
        return 0;
    }
    double m_decode = bench_median(bt_decodes, runs), m_text = bench_median(bt_texts, runs);
    printf("%-52s %8.2f M events/s  (the %ld-event cut as CTF)\n", "babeltrace2 -o dummy CTF (decode)",
           n_cut / m_decode / 1e6, cut);
    printf("%-52s %8.2f M events/s  (the same cut)\n", "babeltrace2 CTF > /dev/null (text)", n_cut / m_text / 1e6);
    /* (bench_median sorts: after it, [0] and [runs - 1] are the lowest and highest.) */
    double x_whole = bench_median(whole_x, runs), x_valid = bench_median(valid_x, runs),
           x_beside = bench_median(beside_x, runs), x_bare = bench_median(bare_x, runs),
           x_dump = bench_median(dump_x, runs);
    printf("per event, the median of each round's ratio (in brackets the lowest and highest round's):\n");
    printf("%-52s %8.1fx  (%.1f-%.1fx; goal 60x)\n", "whole read / babeltrace2 decode", x_whole, whole_x[0],
           whole_x[runs - 1]);
    printf("%-52s %8.1fx  (%.1f-%.1fx)\n", "floor loop / babeltrace2 decode", x_valid, valid_x[0], valid_x[runs - 1]);
    printf("%-52s %8.1fx  (%.1f-%.1fx)\n", "  the same, a thread spinning on another core", x_beside, beside_x[0],
           beside_x[runs - 1]);
    printf("%-52s %8.1fx  (%.1f-%.1fx; what a read through a mapping does at least)\n",
           "bare loop / babeltrace2 decode", x_bare, bare_x[0], bare_x[runs - 1]);
    printf("%-52s %8.1fx  (%.1f-%.1fx; goal 20x)\n", "dump --json / babeltrace2 text", x_dump, dump_x[0],
           dump_x[runs - 1]);
    return 0;
}
