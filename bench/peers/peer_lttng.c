/* peer_lttng.c — LTTng-UST 2.13 in the peers' comparison: the evgen_peer:GCHeapStats tracepoint
 * (peer_lttng_tp.h), its call site guarded as FIRE_EVENT is (`if (tracepoint_enabled) do_tracepoint`),
 * recording into the session SESSION that run.sh created and started before this program. Then the
 * session is stopped, the trace flushed: with `cli`, by running `lttng stop SESSION`, which returns
 * once the consumer daemon has written everything (it checks every 200 ms); with `poll`, through
 * liblttng-ctl, lttng_stop_tracing_no_wait and lttng_data_pending every millisecond, to time the
 * flush itself. Prints `lttng-loop` (cli only), the emitting loop alone with this process's CPU, and
 * `lttng` (cli) or `lttng-flushed` (poll), from the first event until the trace is flushed, with
 * the CPU that the lttng-consumerd processes CONSUMERD_PID... spent meanwhile (/proc/PID/stat)
 * added to this process's. `--disabled` times the call site with no session enabling the event.
 * Usage: peer_lttng EVENTS SESSION cli|poll [CONSUMERD_PID...] | peer_lttng --disabled EVENTS */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <lttng/lttng.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "peer_lttng_tp.h"
#include "peer_timing.h"

extern char **environ;

static const char usage[] = "peer_lttng EVENTS SESSION cli|poll [CONSUMERD_PID...] | peer_lttng --disabled EVENTS";

/* The event's values, filled only when the tracepoint is enabled, as FIRE_EVENT evaluates its
 * arguments only then. */
static void fill(struct peer_gc_heap_stats *s, uint64_t g0, uint64_t p0, uint64_t g1, uint64_t p1, uint64_t g2,
                 uint64_t p2, uint64_t g3, uint64_t p3, uint64_t fin_size, uint64_t fin_count, uint32_t pinned,
                 uint32_t sink, uint32_t handles, uint16_t clr, uint64_t g4, uint64_t p4)
{
    s->GenerationSize0 = g0, s->TotalPromotedSize0 = p0, s->GenerationSize1 = g1, s->TotalPromotedSize1 = p1;
    s->GenerationSize2 = g2, s->TotalPromotedSize2 = p2, s->GenerationSize3 = g3, s->TotalPromotedSize3 = p3;
    s->FinalizationPromotedSize = fin_size, s->FinalizationPromotedCount = fin_count;
    s->PinnedObjectCount = pinned, s->SinkBlockCount = sink, s->GCHandleCount = handles;
    s->ClrInstanceID = clr, s->GenerationSize4 = g4, s->TotalPromotedSize4 = p4;
}

#define FIRE_LTTNG(i)                                                      \
    do {                                                                   \
        if (lttng_ust_tracepoint_enabled(evgen_peer, GCHeapStats)) {       \
            struct peer_gc_heap_stats s_;                                  \
            fill(&s_, BENCH_GC_HEAP_STATS_VALUES(i));                      \
            lttng_ust_do_tracepoint(evgen_peer, GCHeapStats, &s_);         \
        }                                                                  \
    } while (0)

/* CPU time (user + system, all threads) of process `pid` so far, in ns; exits if unreadable. */
static uint64_t process_cpu_ns(const char *pid)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    const char *fields = strrchr(text, ')'); /* the command name may hold spaces */
    unsigned long long utime, stime;
    if (!fields || sscanf(fields + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2) {
        fprintf(stderr, "peer_lttng: cannot read the CPU time of process %s (%s)\n", pid, path);
        exit(1);
    }
    return (utime + stime) * (1000000000u / (uint64_t)sysconf(_SC_CLK_TCK));
}

static uint64_t daemons_cpu_ns(char **pids, int n)
{
    uint64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += process_cpu_ns(pids[i]);
    return sum;
}

/* Runs `lttng stop SESSION` (which returns once the trace is flushed and consumed); 0 on success. */
static int lttng_stop(const char *session)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"lttng", "stop", (char *)session, NULL};
    pid_t pid;
    int status = -1;
    int failed = posix_spawnp(&pid, "lttng", &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (failed || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "peer_lttng: lttng stop %s failed\n", session);
        return 1;
    }
    return 0;
}

/* Stops SESSION through liblttng-ctl and waits, checking every millisecond, until its trace is
 * flushed; 0 on success. */
static int lttng_stop_and_poll(const char *session)
{
    int ret = lttng_stop_tracing_no_wait(session);
    if (ret != 0) {
        fprintf(stderr, "peer_lttng: lttng_stop_tracing_no_wait(%s): %s (%d)\n", session, lttng_strerror(ret), ret);
        return 1;
    }
    while ((ret = lttng_data_pending(session)) == 1) {
        struct timespec millisecond = {0, 1000000};
        nanosleep(&millisecond, NULL);
    }
    if (ret != 0) {
        fprintf(stderr, "peer_lttng: lttng_data_pending(%s): %s (%d)\n", session, lttng_strerror(ret), ret);
        return 1;
    }
    return 0;
}

static int run_enabled(long events, const char *session, int poll, char **consumerd_pids, int n_pids)
{
    if (!lttng_ust_tracepoint_enabled(evgen_peer, GCHeapStats)) {
        fprintf(stderr, "peer_lttng: evgen_peer:GCHeapStats is not enabled: is session %s started, and did "
                        "this process register with lttng-sessiond?\n", session);
        return 1;
    }
    uint64_t daemons_before = daemons_cpu_ns(consumerd_pids, n_pids);
    peer_mark start = peer_mark_now();
    for (long i = 0; i < events; i++)
        FIRE_LTTNG(i);
    peer_mark loop_end = peer_mark_now();
    if (poll ? lttng_stop_and_poll(session) : lttng_stop(session))
        return 1;
    peer_mark stopped = peer_mark_now();
    uint64_t daemons = daemons_cpu_ns(consumerd_pids, n_pids) - daemons_before;
    if (!poll)
        peer_report("lttng-loop", events, start, loop_end, 0);
    peer_report(poll ? "lttng-flushed" : "lttng", events, start, stopped, daemons);
    return 0;
}

static int run_disabled(long events)
{
    if (lttng_ust_tracepoint_enabled(evgen_peer, GCHeapStats)) {
        fprintf(stderr, "peer_lttng: --disabled, but a session enables evgen_peer:GCHeapStats\n");
        return 1;
    }
    peer_mark start = peer_mark_now();
    for (long i = 0; i < events; i++)
        FIRE_LTTNG(i);
    peer_report("lttng-disabled", events, start, peer_mark_now(), 0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--disabled") == 0)
        return run_disabled(peer_events_arg(argv[2], usage));
    if (argc >= 4 && (strcmp(argv[3], "cli") == 0 || strcmp(argv[3], "poll") == 0))
        return run_enabled(peer_events_arg(argv[1], usage), argv[2], strcmp(argv[3], "poll") == 0, argv + 4,
                           argc - 4);
    fprintf(stderr, "usage: %s\n", usage);
    return 2;
}
