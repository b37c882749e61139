/* test_commands.c — the test helpers that fail a cmocka test; kept apart from test_support.c so
 * that programs without cmocka can link the support library. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "test_support.h"

char *evgen_test_must_run(const char *const argv[], const char *cwd)
{
    char *output = NULL;
    int rc = evgen_test_run_merged(argv, cwd, &output);
    if (rc != 0) {
        fprintf(stderr, "command failed (exit status %d), in %s:", rc, cwd ? cwd : ".");
        for (size_t i = 0; argv[i]; i++)
            fprintf(stderr, " '%s'", argv[i]);
        fprintf(stderr, "\n%s\n", output);
        free(output);
        fail();
    }
    return output;
}
