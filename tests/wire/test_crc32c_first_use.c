/* test_crc32c_first_use.c — the CRC-32C's tables and constants are built at first use, by whichever
 * thread needs them first, without a lock (wire/src/crc32c_x86.h, evgen_crc32c_built). In each of
 * ROUNDS fresh processes (fork(2) children of a parent that never checksums, so that nothing is built
 * yet), eight threads released at once checksum the same buffers with both entry points and every
 * path, in the same order, so that several ask for each table while another builds it: every
 * checksum must still be the table's, and under ThreadSanitizer (scripts/test.sh runs this test in
 * its TSan build, where a report ends the child with a failure) no two threads may write the same
 * bytes, as racing threads did when each built the tables itself. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "evgen/crc32c.h"

enum { ROUNDS = 24, THREADS = 8, LENGTH = 70000, MAX_FNS = EVGEN_CRC32C_N_PATHS + 2, N_LENGTHS = 3 };

static uint8_t buffer[LENGTH];
static const size_t lengths[N_LENGTHS] = {LENGTH, 4096, 200};
static evgen_crc32c_fn fns[MAX_FNS];
static size_t n_fns;
static pthread_barrier_t start;
static uint32_t got[THREADS][MAX_FNS][N_LENGTHS];

static void *checksum_all(void *arg)
{
    uint32_t(*mine)[N_LENGTHS] = got[(intptr_t)arg];
    pthread_barrier_wait(&start);
    for (size_t f = 0; f < n_fns; f++)
        for (size_t l = 0; l < N_LENGTHS; l++)
            mine[f][l] = fns[f](0, buffer, lengths[l]);
    return NULL;
}

/* One child's race; its exit status says whether every checksum was the table's. */
static int race(void)
{
    if (pthread_barrier_init(&start, NULL, THREADS) != 0)
        return 2;
    pthread_t threads[THREADS];
    for (intptr_t t = 0; t < THREADS; t++)
        if (pthread_create(&threads[t], NULL, checksum_all, (void *)t) != 0)
            return 2;
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    for (size_t l = 0; l < N_LENGTHS; l++) {
        uint32_t want = evgen_crc32c_bytewise(0, buffer, lengths[l]);
        for (int t = 0; t < THREADS; t++)
            for (size_t f = 0; f < n_fns; f++)
                if (got[t][f][l] != want) {
                    fprintf(stderr, "thread %d, function %zu, %zu bytes: %08x, the table says %08x\n", t, f,
                            lengths[l], got[t][f][l], want);
                    return 1;
                }
    }
    return 0;
}

static void test_crc32c_first_use_by_racing_threads(void **state)
{
    (void)state;
    for (size_t i = 0; i < LENGTH; i++)
        buffer[i] = (uint8_t)(i * 2654435761u >> 11);
    fns[n_fns++] = evgen_crc32c_cached;
    fns[n_fns++] = evgen_crc32c;
    for (int k = EVGEN_CRC32C_N_PATHS - 1; k >= 0; k--) { /* the widest first, the table last */
        evgen_crc32c_fn fn = evgen_crc32c_path_fn((evgen_crc32c_path)k);
        if (fn)
            fns[n_fns++] = fn;
    }
    fflush(NULL);
    for (int round = 0; round < ROUNDS; round++) {
        pid_t child = fork();
        assert_true(child >= 0);
        if (child == 0)
            _exit(race());
        int status;
        assert_int_equal(waitpid(child, &status, 0), child);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("round %d: the child %s %d", round, WIFEXITED(status) ? "exited with" : "died of signal",
                     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32c_first_use_by_racing_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
