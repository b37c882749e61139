/* test_docs.c — the documentation keeps up with the code: every diagnostic code of
 * gen/model/diag_codes.h has its section in docs/diagnostics.md, and every evgen command and option
 * of the usage text appears in the docs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/diag.h"
#include "test_support.h"

static void test_every_diagnostic_code_is_documented(void **state)
{
    (void)state;
    char *doc = evgen_test_read(EVGEN_SOURCE_DIR "/docs/diagnostics.md");
    assert_non_null(doc);
    size_t missing = 0;
    for (int code = 0; code < EVGEN_D_COUNT; code++) {
        char heading[128];
        snprintf(heading, sizeof heading, "\n## %s\n", evgen_diag_code_name((evgen_diag_code)code));
        if (!strstr(doc, heading)) {
            fprintf(stderr, "docs/diagnostics.md has no section '## %s'\n", evgen_diag_code_name((evgen_diag_code)code));
            missing++;
        }
    }
    free(doc);
    assert_int_equal(missing, 0);
}

static void test_every_command_and_option_is_documented(void **state)
{
    (void)state;
    const char *argv[] = {EVGEN_EXE, "--help", NULL};
    char *usage = NULL;
    assert_int_equal(evgen_test_run(argv, NULL, &usage, NULL), 0);
    static const char *const docs[] = {"/docs/manifest.md", "/docs/lockfile.md", "/docs/describe-json.md",
                                       "/docs/diagnostics.md", "/docs/codegen.md", "/docs/dump.md", "/docs/export.md",
                                       "/README.md"};
    size_t all_len = 0;
    char *all = calloc(1, 1);
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s%s", EVGEN_SOURCE_DIR, docs[i]);
        char *text = evgen_test_read(path);
        if (!text)
            fail_msg("missing %s", path);
        size_t n = strlen(text);
        all = realloc(all, all_len + n + 1);
        memcpy(all + all_len, text, n + 1);
        all_len += n;
        free(text);
    }
    /* Every word of the usage text that starts with '-' or follows two spaces (a command). */
    size_t missing = 0;
    for (char *line = strtok(usage, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "  ", 2) != 0)
            continue;
        char word[64];
        if (sscanf(line, " %63s", word) != 1)
            continue;
        char *comma = strchr(word, ',');
        if (comma)
            *comma = '\0';
        if (!strstr(all, word)) {
            fprintf(stderr, "the docs never mention '%s'\n", word);
            missing++;
        }
    }
    free(all);
    free(usage);
    assert_int_equal(missing, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_diagnostic_code_is_documented),
        cmocka_unit_test(test_every_command_and_option_is_documented),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
