/* test_support.h — helpers shared by the tests: run a command and capture its output, temporary
 * directories, whole-file reads and writes. */
#ifndef EVGEN_TEST_SUPPORT_H
#define EVGEN_TEST_SUPPORT_H

#include <stddef.h>

/* Runs argv[0] with argv (NULL-terminated), in `cwd` (NULL: current directory), capturing
 * stdout and stderr into newly allocated strings (the caller frees). Returns the exit status,
 * or -1 if the program could not be run or did not exit normally. */
int evgen_test_run(const char *const argv[], const char *cwd, char **out, char **err);
/* evgen_test_run's status and outputs, kept apart (evgen_test_output_free frees them). */
typedef struct evgen_test_output {
    int status;
    char *out, *err;
} evgen_test_output;
evgen_test_output evgen_test_capture(const char *const argv[], const char *cwd);
void evgen_test_output_free(evgen_test_output *o);

/* evgen_test_run with one output (if `output` is not NULL; the caller frees): stdout, then stderr,
 * on a line of its own when stdout does not end a line. */
int evgen_test_run_merged(const char *const argv[], const char *cwd, char **output);

/* For cmocka tests (tests/support/test_commands.c): runs a command that must succeed and returns
 * its merged output (caller frees); otherwise fails the test, printing the command, its directory,
 * its exit status and its output. */
char *evgen_test_must_run(const char *const argv[], const char *cwd);

/* For cmocka tests: fails with a message that may be longer than cmocka's own buffer (build
 * outputs, depfiles). */
#define EVGEN_FAIL_LONG(...)          \
    do {                              \
        fprintf(stderr, "ERROR: ");   \
        fprintf(stderr, __VA_ARGS__); \
        fprintf(stderr, "\n");        \
        fail();                       \
    } while (0)

/* printf into a newly allocated string (caller frees). Aborts if out of memory. */
char *evgen_test_format(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* Whether `path` exists. */
int evgen_test_exists(const char *path);

/* Creates a fresh temporary directory; returns its path (caller frees). Aborts on failure. */
char *evgen_test_tempdir(void);
/* Removes a directory tree (best effort). */
void evgen_test_rmtree(const char *path);

/* Reads a whole file (NULL if it cannot); writes one (aborts on failure). */
char *evgen_test_read(const char *path);
void evgen_test_write(const char *path, const char *text);

/* Returns a newly allocated copy of `text` with the first occurrence of `from` replaced by `to`,
 * or NULL if `from` does not occur. */
char *evgen_test_replace(const char *text, const char *from, const char *to);

#endif /* EVGEN_TEST_SUPPORT_H */
