/* reader_mixed.c — rh_record_mixed (reader_helpers.h): several threads emitting a mix of
 * manifest/gcevents.h events, apart from the other helpers so that tests of other manifests do not
 * link gcevents. */
#include <pthread.h>
#include <string.h>

#include "evgen/runtime.h"
#include "gcevents_runtime.h"
#include "reader_helpers.h"

typedef struct mix_arg {
    int thread, rounds;
} mix_arg;

static void *mix_thread(void *p)
{
    const mix_arg *a = p;
    evgen_char16 name[40];
    uint8_t data[200];
    GCLOHCompactInfo compact[3];
    memset(compact, 0, sizeof compact);
    for (int i = 0; i < a->rounds; i++) {
        uint32_t k = (uint32_t)(a->thread * 100000 + i);
        size_t len = (size_t)(i % 37);
        for (size_t j = 0; j < len; j++)
            name[j] = (evgen_char16)(j % 5 == 4 ? 0x4e2d + j : 'A' + (k + j) % 26);
        name[len] = 0;
        for (size_t j = 0; j < sizeof data; j++)
            data[j] = (uint8_t)(k + j);
        for (int j = 0; j < 3; j++) {
            compact[j].TimePlan = k + (uint32_t)j;
            compact[j].TotalRefs = (evgen_ptr)(uintptr_t)(0x1000u + k);
        }
        FireEtwGCStart_V2(k, 2, (uint32_t)(i % 3), 0, 1, (uint64_t)k * 7);
        FireEtwGCHeapStats_V2(k, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, (uint64_t)k << 20, 15);
        FireEtwGCAllocationTick_V4(k, (uint32_t)(i & 1), 1, k, (const void *)(uintptr_t)0x7ff812340000ull, name, 0,
                                   (const void *)(uintptr_t)(0x1c000000u + k), 2000u + k);
        FireEtwGCDynamicEvent_V0(name, (uint32_t)(i % 150), data, 7);
        FireEtwGCLOHCompact_V0(3, (uint16_t)(i % 4), compact);
        FireEtwGCRestartEEEnd_V0();
        FireEtwGCEnd_V1(k, 2, 1);
    }
    return NULL;
}

static void run_mix(int threads, int rounds)
{
    pthread_t tids[64];
    mix_arg args[64];
    if (threads < 1 || threads > 64)
        rh_die("1 to 64 threads");
    for (int t = 0; t < threads; t++) {
        args[t] = (mix_arg){t + 1, rounds};
        if (pthread_create(&tids[t], NULL, mix_thread, &args[t]) != 0)
            rh_die("pthread_create");
    }
    for (int t = 0; t < threads; t++)
        pthread_join(tids[t], NULL);
}

void rh_record_mixed(int threads, int rounds, uint32_t buffer_size, rh_trace *out)
{
    evgen_session *s = rh_open_session(buffer_size);
    run_mix(threads, rounds);
    rh_close_session(s, out);
}

void rh_record_mixed_file(int threads, int rounds, uint32_t buffer_size, int block_writer, const char *path)
{
    evgen_session_options opt;
    evgen_session_options_init(&opt);
    opt.buffer_size = buffer_size;
    opt.max_payload = buffer_size - EVGEN_MAX_RECORD_HEADER;
    opt.block_writer = (evgen_block_writer)block_writer;
    evgen_session *s = evgen_session_open_file(path, &opt);
    if (!s || evgen_session_enable(s, NULL, 255, ~0ull) != 0)
        rh_die("cannot open a file session");
    run_mix(threads, rounds);
    evgen_session_totals totals;
    if (evgen_session_close(s, &totals, NULL, NULL) != 0 || totals.written != (uint64_t)threads * (uint64_t)rounds * 7)
        rh_die("the file session did not write every event");
    evgen_session_totals_free(&totals);
}
