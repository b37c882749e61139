/* manifest_speed.c — how fast the generator reads a large manifest: writes a synthetic manifest
 * of N events x M fields (default 300 x 12, mixed types, a few versions each), locks it, then
 * times `evgen describe` and `evgen check` as whole processes and prints the median of R runs.
 * Usage: manifest_speed [EVGEN] [EVENTS] [FIELDS] [RUNS] */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *const field_types[] = {"uint64_t", "uint32_t", "uint16_t", "uint8_t", "int32_t",
                                          "double",   "evgen_ptr", "SynthKind", "bool",   "evgen_utf16z"};

static void write_manifest(const char *path, int events, int fields)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fprintf(f, "/* Synthetic manifest: %d events x %d fields, written by bench/manifest_speed. */\n"
               "#include <evgen/manifest.h>\n"
               "#ifndef SYNTH_TYPES\n#define SYNTH_TYPES\n"
               "typedef enum SynthKind { SynthKind_A, SynthKind_B, SynthKind_C } SynthKind;\n"
               "#endif\n"
               "EVENT_PROVIDER(Synth, \"Synthetic-Provider\")\n",
            events, fields);
    for (int e = 0; e < events; e++) {
        fprintf(f, "KNOWN_EVENT(Event%d, %d, Synth, 4, 0x%x)\n", e, e + 1, 1u << (e % 16));
        for (int k = 0; k < fields; k++) {
            int since = k * 3 / fields; /* three versions per event */
            fprintf(f, "EVENT_FIELD(Event%d, %d, %s, Field%d)\n", e, since,
                    field_types[(e + k) % (sizeof field_types / sizeof field_types[0])], k);
        }
    }
    fputs("#include <evgen/manifest_end.h>\n", f);
    fclose(f);
}

static double run_seconds(const char *const argv[])
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid;
    if (posix_spawn(&pid, argv[0], &actions, NULL, (char *const *)argv, environ) != 0) {
        perror(argv[0]);
        exit(1);
    }
    int status;
    waitpid(pid, &status, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    posix_spawn_file_actions_destroy(&actions);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "%s %s failed\n", argv[0], argv[1]);
        exit(1);
    }
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_seconds(const char *const argv[], int runs, double *min, double *max)
{
    double *t = calloc((size_t)runs, sizeof *t);
    for (int i = 0; i < runs; i++)
        t[i] = run_seconds(argv);
    qsort(t, (size_t)runs, sizeof *t, compare_double);
    double m = t[runs / 2];
    *min = t[0];
    *max = t[runs - 1];
    free(t);
    return m;
}

int main(int argc, char **argv)
{
    const char *evgen = argc > 1 ? argv[1] : EVGEN_EXE;
    int events = argc > 2 ? atoi(argv[2]) : 300;
    int fields = argc > 3 ? atoi(argv[3]) : 12;
    int runs = argc > 4 ? atoi(argv[4]) : 5;
    if (events < 1 || fields < 1 || runs < 1) {
        fprintf(stderr, "usage: %s [EVGEN] [EVENTS] [FIELDS] [RUNS]\n", argv[0]);
        return 2;
    }
    char dir[] = "/tmp/evgen-bench-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char manifest[64], lock[64];
    snprintf(manifest, sizeof manifest, "%s/synthetic.h", dir);
    snprintf(lock, sizeof lock, "%s/synthetic.lock", dir);
    write_manifest(manifest, events, fields);

    const char *lock_argv[] = {evgen, "lock", manifest, NULL};
    run_seconds(lock_argv);
    const char *describe_argv[] = {evgen, "describe", manifest, NULL};
    const char *json_argv[] = {evgen, "describe", manifest, "--json", NULL};
    const char *check_argv[] = {evgen, "check", manifest, NULL};

    printf("manifest: %d events x %d fields (%d field lines), median of %d runs, whole process\n", events, fields,
           events * fields, runs);
    struct {
        const char *name;
        const char *const *argv;
    } cases[] = {{"evgen describe", describe_argv}, {"evgen describe --json", json_argv}, {"evgen check", check_argv}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double lo, hi;
        double m = median_seconds(cases[i].argv, runs, &lo, &hi);
        printf("%-24s median %8.1f ms  (min %.1f, max %.1f)  %8.2f us/field line\n", cases[i].name, m * 1e3,
               lo * 1e3, hi * 1e3, m * 1e6 / (events * fields));
    }
    unlink(manifest);
    unlink(lock);
    rmdir(dir);
    return 0;
}
