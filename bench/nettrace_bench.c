/* nettrace_bench.c — what reading a real .NET trace costs: the .NET Core 3.0 EventPipe trace of
 * ../shared/reference/traces/ (4.8 MB, 105,540 events; or any .nettrace file given), held in
 * memory and decoded LOOPS times per run — open (one pass: headers, metadata bound to
 * manifest/gcevents.h, the index), then every event in time order with the GC events' fields read
 * through the generated accessors — and `evgen dump --json` of the file to /dev/null. Median of
 * RUNS runs. Usage: nettrace_bench [TRACE] [LOOPS] [RUNS] */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_common.h"
#include "evgen/reader.h"
#include "gcevents_reader.h"

extern char **environ;

#define REFERENCE_ZIP EVGEN_SOURCE_DIR "/../shared/reference/traces/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip"

static int spawn_wait(const char *const argv[], const char *cwd, int quiet)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (quiet)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    char *old = NULL;
    if (cwd) {
        old = getcwd(NULL, 0);
        if (chdir(cwd) != 0)
            return -1;
    }
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &actions, NULL, (char *const *)argv, environ);
    if (old) {
        if (chdir(old) != 0)
            rc = -1;
        free(old);
    }
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return -1;
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static uint8_t *load(const char *path, size_t *size)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        perror(path);
        exit(1);
    }
    fseek(in, 0, SEEK_END);
    *size = (size_t)ftell(in);
    fseek(in, 0, SEEK_SET);
    uint8_t *data = malloc(*size ? *size : 1);
    if (!data || fread(data, 1, *size, in) != *size) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(in);
    return data;
}

/* Decodes the trace `loops` times; returns seconds, with the events and a checksum of the fields. */
static double decode_run(const uint8_t *data, size_t size, int loops, uint64_t *events, uint64_t *checksum)
{
    const evgen_reader_manifest *manifests[] = {&gcevents_reader_manifest};
    evgen_reader_options options = {manifests, 1};
    uint64_t n = 0, sum = 0;
    double t0 = bench_now_seconds();
    for (int l = 0; l < loops; l++) {
        char *error = NULL;
        evgen_reader *rd = evgen_reader_open_memory_with(data, size, &options, &error);
        if (!rd) {
            fprintf(stderr, "cannot open the trace: %s\n", error);
            exit(1);
        }
        evgen_event ev;
        evgen_reader_rewind(rd, EVGEN_ORDER_TIME);
        while (evgen_reader_next(rd, &ev)) {
            n++;
            if (GCAllocationTick_is(&ev))
                sum += GCAllocationTick_AllocationAmount64(&ev) + GCAllocationTick_TypeID(&ev) +
                       GCAllocationTick_TypeName(&ev).units + GCAllocationTick_HeapIndex(&ev);
            else if (GCHeapStats_is(&ev))
                sum += GCHeapStats_GenerationSize0(&ev) + GCHeapStats_GenerationSize1(&ev) +
                       GCHeapStats_GenerationSize2(&ev) + GCHeapStats_GenerationSize3(&ev) +
                       GCHeapStats_TotalPromotedSize0(&ev);
            else if (GCStart_is(&ev))
                sum += GCStart_Count(&ev) + GCStart_Depth(&ev) + GCStart_Reason(&ev);
            else if (GCGenerationRange_is(&ev))
                sum += GCGenerationRange_RangeStart(&ev) + GCGenerationRange_RangeUsedLength(&ev);
            else
                sum += ev.size; /* the rest: the event located, its payload not read */
        }
        evgen_reader_close(rd);
    }
    double t = bench_now_seconds() - t0;
    *events = n;
    *checksum = sum;
    return t;
}

int main(int argc, char **argv)
{
    const char *trace = argc > 1 && argv[1][0] ? argv[1] : NULL;
    int loops = argc > 2 ? atoi(argv[2]) : 20, runs = argc > 3 ? atoi(argv[3]) : 5;
    if (loops < 1 || runs < 1 || runs > 64) {
        fprintf(stderr, "usage: nettrace_bench [TRACE] [LOOPS] [RUNS<=64]\n");
        return 2;
    }
    char dir[] = "/tmp/evgen-nettrace-bench-XXXXXX";
    char path[4096];
    int unzipped = 0;
    if (!trace) {
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            return 1;
        }
        const char *unzip[] = {CMAKE_EXE, "-E", "tar", "xf", REFERENCE_ZIP, NULL};
        if (spawn_wait(unzip, dir, 0) != 0) {
            fprintf(stderr, "cannot unzip %s: give a .nettrace file\n", REFERENCE_ZIP);
            return 1;
        }
        snprintf(path, sizeof path, "%s/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace", dir);
        trace = path;
        unzipped = 1;
    }
    size_t size;
    uint8_t *data = load(trace, &size);
    double decode[64], dump[64];
    uint64_t events = 0, checksum = 0;
    for (int r = 0; r < runs; r++)
        decode[r] = decode_run(data, size, loops, &events, &checksum);
    const char *dump_argv[] = {EVGEN_EXE, "dump", "--json", trace, NULL};
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now_seconds();
        if (spawn_wait(dump_argv, NULL, 1) != 0) {
            fprintf(stderr, "evgen dump failed\n");
            return 1;
        }
        dump[r] = bench_now_seconds() - t0;
    }
    double m = bench_median(decode, runs), md = bench_median(dump, runs);
    uint64_t per_file = events / (uint64_t)loops;
    printf("nettrace_bench: %s\n  %.1f MB, %llu events, decoded %d times per run, median of %d runs\n", trace,
           (double)size / 1e6, (unsigned long long)per_file, loops, runs);
    printf("%-52s %7.2f M events/s  %7.1f MB/s  %6.1f ns/event  (checksum %llx)\n",
           "open + time order + GC fields by generated accessors", (double)events / m / 1e6,
           (double)size * loops / m / 1e6, m * 1e9 / (double)events, (unsigned long long)checksum);
    printf("%-52s %7.2f M events/s  %7.1f MB/s  %6.1f ms per file\n", "evgen dump --json > /dev/null",
           (double)per_file / md / 1e6, (double)size / md / 1e6, md * 1e3);
    free(data);
    if (unzipped) {
        unlink(path);
        rmdir(dir);
    }
    return 0;
}
