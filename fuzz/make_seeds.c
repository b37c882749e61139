/* make_seeds.c — writes the generated seeds of fuzz/corpus (docs/fuzzing.md says which files come
 * from where): a .evtrace of several threads in many small blocks with dropped and too-big events,
 * and .nettrace files of every format version holding every event version of a gcevents golden
 * trace as the .NET runtime writes its events (no field descriptions), with stacks, two threads,
 * sequence points, V6 thread and label-list blocks, and one self-described EventSource event.
 * A second .evtrace, the same threads written by the O_DIRECT writer (padded block headers).
 * Usage: fuzz_make_seeds GOLDEN.evtrace CORPUS_DIR (CORPUS_DIR/fuzz_evtrace and fuzz_nettrace
 * must exist). Built with EVGEN_BUILD_FUZZ; run by hand when the seeds are to be made again. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evgen/reader.h"
#include "evgen/runtime.h"
#include "gcevents_runtime.h"
#include "nettrace_writer.h"

static const evgen_char16 type_name[] = {'S', 'y', 's', 't', 'e', 'm', '.', 'S', 't', 'r', 'i', 'n', 'g', 0};
static const evgen_char16 long_name[] = {'S', 'y', 's', 't', 'e', 'm', '.', 'C', 'o', 'l', 'l', 'e', 'c', 't', 'i',
                                         'o', 'n', 's', '.', 'G', 'e', 'n', 'e', 'r', 'i', 'c', '.', 'L', 'i', 's',
                                         't', '`', '1', '[', 'S', 'y', 's', 't', 'e', 'm', '.', 'B', 'y', 't',
                                         'e', ']', 0};

static void *fire(void *arg)
{
    uint32_t k = (uint32_t)(uintptr_t)arg;
    for (uint32_t i = 0; i < 60; i++) {
        FireEtwGCAllocationTick_V4(100000 + i, i % 3, 1, 100000 + i, (const void *)(uintptr_t)(0x1000 + k),
                                   i % 10 == 9 ? long_name : type_name, k, (const void *)(uintptr_t)(0x7f000000 + i),
                                   24 + i);
        if (i % 20 == 0)
            FireEtwGCStart_V2(i / 20 + 1, k % 3, 0, 0, 1, i);
    }
    return NULL;
}

/* Three threads in 4 KiB buffers, BUFFERS of them shared: many blocks per thread, interleaved in
 * time. */
static int write_threads(const char *path, uint32_t buffers, uint32_t max_payload, evgen_when_full when_full,
                         evgen_block_writer writer)
{
    evgen_session_options opt;
    evgen_session_options_init(&opt);
    opt.buffer_size = 4096;
    opt.buffer_count = buffers;
    opt.max_payload = max_payload;
    opt.when_full = when_full;
    opt.block_writer = writer;
    evgen_session *s = evgen_session_open_file(path, &opt);
    if (!s)
        return -1;
    evgen_session_enable(s, NULL, 255, ~0ull);
    pthread_t t[3];
    for (uintptr_t k = 0; k < 3; k++)
        pthread_create(&t[k], NULL, fire, (void *)k);
    for (int k = 0; k < 3; k++)
        pthread_join(t[k], NULL);
    return evgen_session_close(s, NULL, NULL, NULL);
}

/* The golden trace's event versions, each as a runtime event of its own metadata id. */
typedef struct golden_event {
    const char *provider;
    uint32_t id, version;
    const uint8_t *payload;
    uint32_t size;
} golden_event;

static int write_nettrace(const char *path, int version, int compressed, const golden_event *evs, size_t n)
{
    enum { T1 = 0x1111, T2 = 0x2222 };
    nt_writer *w = nt_writer_new(version, compressed, 8, 1000, 10000000, 4242, 4);
    uint64_t t1 = T1, t2 = T2;
    if (version >= 6) {
        nt_thread(w, 1, T1, 4242);
        nt_thread(w, 2, T2, 4242);
        t1 = 1;
        t2 = 2;
    }
    for (size_t i = 0; i < n; i++)
        nt_metadata(w, (uint32_t)i + 1, evs[i].provider, evs[i].id, "", 1, evs[i].version, 4, NULL, 0);
    /* An EventSource event describes its own fields (arrays from V5 on). */
    nt_field fields[] = {{"Count", 9 /* Int32 */, 0}, {"Name", 18 /* String */, 0}, {"Values", 19, 8 /* UInt16 */}};
    nt_metadata(w, (uint32_t)n + 1, "My-EventSource", 7, "MyEvent", 0, 0, 4, fields, version >= 5 ? 3 : 2);
    uint64_t ips[3] = {0x7ff600001000, 0x7ff600002000, 0x7ff600003000};
    nt_stack(w, 1, ips, 3);
    nt_stack(w, 2, ips, 1);
    static const uint8_t activity[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    if (version >= 6)
        nt_label_list(w, 1, activity, NULL);
    uint32_t seq[2] = {0, 0};
    for (size_t i = 0; i <= n; i++) {
        int t = (int)(i % 2);
        static const uint8_t own[] = {5, 0, 0, 0, 'a', 0, 'b', 0, 0, 0, 2, 0, 7, 0, 9, 0};
        nt_event e;
        memset(&e, 0, sizeof e);
        e.metadata_id = (uint32_t)i + 1;
        e.sequence = ++seq[t];
        e.thread_id = e.capture_thread_id = t ? t2 : t1;
        e.processor = (uint32_t)t;
        e.stack_id = (uint32_t)(i % 3);
        e.timestamp = 2000 + 10 * i + (t ? 5 : 0);
        e.sorted = t;
        e.payload = i < n ? evs[i].payload : own;
        e.payload_size = i < n ? evs[i].size : (uint32_t)(version >= 5 ? sizeof own : sizeof own - 6);
        if (version < 6 && i % 4 == 1)
            e.activity_id = activity;
        if (version >= 6 && i % 4 == 1)
            e.label_list_id = 1;
        nt_write_event(w, &e);
        if (i == n / 2) {
            uint64_t threads[2] = {t1, t2};
            nt_sequence_point(w, e.timestamp + 1, threads, seq, 2);
            seq[0]++; /* a lost event on the first thread */
        }
    }
    nt_flush(w);
    size_t size = 0;
    uint8_t *bytes = nt_writer_finish(w, &size);
    int rc = nt_write_file(path, bytes, size);
    free(bytes);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s GOLDEN.evtrace CORPUS_DIR\n", argv[0]);
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/fuzz_evtrace/threads-blocks-drops.evtrace", argv[2]);
    /* Four buffers, events dropped rather than waited for, payloads over 96 bytes refused: every
     * count of the end block. */
    if (write_threads(path, 4, 96, EVGEN_WHEN_FULL_DROP, EVGEN_BLOCK_WRITER_AUTO) != 0) {
        perror(path);
        return 1;
    }
    snprintf(path, sizeof path, "%s/fuzz_evtrace/direct-io-padded.evtrace", argv[2]);
    /* The O_DIRECT writer (on a file system that has it): block headers padded past 48 bytes so
     * that payloads start aligned in the file. */
    if (write_threads(path, 8, 1024, EVGEN_WHEN_FULL_WAIT, EVGEN_BLOCK_WRITER_DIRECT_IO) != 0) {
        perror(path);
        return 1;
    }

    char *error = NULL;
    evgen_reader *rd = evgen_reader_open(argv[1], &error);
    if (!rd) {
        fprintf(stderr, "%s: %s\n", argv[1], error);
        return 1;
    }
    golden_event evs[256];
    size_t n = 0;
    evgen_event ev;
    while (n < 256 && evgen_reader_next(rd, &ev)) {
        golden_event g = {ev.info->provider, ev.info->id, ev.version, ev.payload, ev.size};
        evs[n++] = g;
    }
    static const struct {
        const char *name;
        int version, compressed;
    } formats[] = {{"golden-v4-compressed", 4, 1}, {"golden-v5", 5, 0}, {"golden-v6-compressed", 6, 1}};
    int status = 0;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        snprintf(path, sizeof path, "%s/fuzz_nettrace/%s.nettrace", argv[2], formats[i].name);
        if (write_nettrace(path, formats[i].version, formats[i].compressed, evs, n) != 0) {
            perror(path);
            status = 1;
        }
    }
    evgen_reader_close(rd);
    return status;
}
