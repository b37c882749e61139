/* fuzz_export.c — libFuzzer target: a trace (any bytes; .evtrace, or .nettrace with the gcevents
 * manifest bound as `evgen export` binds it) exported by every exporter of evgen export's table
 * (evgen/export.h) into a scratch directory, checking what the driver promises: status 0 or 1, and
 * the output exists exactly when the trace could be opened and the exporter succeeded, never half
 * written. Seeds: fuzz/corpus/fuzz_export, and the corpora of fuzz_evtrace and fuzz_nettrace. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evgen/export.h"
#include "fuzz.h"
#include "gcevents_reader.h"

static char scratch[] = "/tmp/evgen-fuzz-export-XXXXXX";
static int scratch_made;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* The scratch directory goes when the process ends normally (libFuzzer's -runs, the replay
 * runner): it was left behind, one a run, in /tmp. */
static void remove_scratch(void)
{
    nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    FUZZ_CHECK(mkdtemp(scratch) != NULL);
    scratch_made = 1;
    atexit(remove_scratch);
    return 0;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A flag, not the template's last X: mkdtemp may end the name it makes with an X (1 in 62),
     * and making it again from that name failed (EINVAL): a fresh-root test run hit it. */
    if (!scratch_made) /* the replay runner calls LLVMFuzzerInitialize too */
        LLVMFuzzerInitialize(NULL, NULL);
    char trace[sizeof scratch + 16], out[sizeof scratch + 16];
    snprintf(trace, sizeof trace, "%s/trace", scratch);
    snprintf(out, sizeof out, "%s/out", scratch);
    FILE *f = fopen(trace, "wb");
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(fwrite(data, 1, size, f) == size || size == 0);
    FUZZ_CHECK(fclose(f) == 0);

    static const evgen_reader_manifest *const manifests[] = {&gcevents_reader_manifest};
    evgen_reader_options reader = {manifests, 1};
    evgen_reader *rd = evgen_reader_open_with(trace, &reader, NULL);
    int opens = rd != NULL;
    evgen_reader_close(rd);

    FILE *err = fopen("/dev/null", "w");
    FUZZ_CHECK(err != NULL);
    for (const evgen_exporter *const *e = evgen_exporters; *e; e++) {
        evgen_export_options options;
        evgen_export_options_init(&options);
        options.progress = 0;
        options.reader = &reader;
        const char *traces[] = {trace};
        int rc = evgen_export(*e, out, traces, 1, &options, err);
        FUZZ_CHECK(rc == 0 || rc == 1);
        FUZZ_CHECK(rc == 1 || opens);     /* a trace that does not open fails the export */
        FUZZ_CHECK(!exists(out) || opens); /* ... and writes nothing */
        FUZZ_CHECK(rc == 1 || exists(out));
        nftw(out, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    fclose(err);
    return 0;
}
