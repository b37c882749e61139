/* test_diagnostics.c — the diagnostics corpus: `evgen describe` on tests/manifests/{bad,good} (--update rewrites). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "test_support.h"

#define MANIFEST_DIR EVGEN_SOURCE_DIR "/tests/manifests"

static bool update_mode;

/* A sorted list of file names, relative to MANIFEST_DIR ("bad/type-int.h"). */
typedef struct name_list {
    char **names;
    size_t count;
} name_list;

/* The outcome of one `evgen describe` run. */
typedef struct run_result {
    int status;
    char *out;
    char *err;
} run_result;

/* ---- small helpers ------------------------------------------------------------------------ */

static char *xstrdup(const char *s)
{
    char *r = strdup(s);
    if (!r)
        abort();
    return r;
}

/* Returns the concatenation of a and b (caller frees). */
static char *concat(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *r = malloc(na + nb + 1);
    if (!r)
        abort();
    memcpy(r, a, na);
    memcpy(r + na, b, nb + 1);
    return r;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}

/* Returns `path` with its `suffix` replaced by `by` (caller frees). */
static char *replace_suffix(const char *path, const char *suffix, const char *by)
{
    char *stem = xstrdup(path);
    stem[strlen(stem) - strlen(suffix)] = '\0';
    char *r = concat(stem, by);
    free(stem);
    return r;
}

static bool is_regular_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* Prints `text` with every line prefixed by `prefix`, marking a missing final newline. */
static void print_block(const char *prefix, const char *text)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        printf("%s%.*s%s\n", prefix, (int)len, p, nl ? "" : "\\ (no newline at end)");
        p += len + (nl ? 1 : 0);
    }
    if (!*text)
        printf("%s(empty)\n", prefix);
}

/* ---- the corpus --------------------------------------------------------------------------- */

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists the regular files of MANIFEST_DIR/sub whose name ends with `suffix`, sorted by name,
 * as "sub/NAME". Returns false if the directory cannot be read. */
static bool list_files(const char *sub, const char *suffix, name_list *list)
{
    char *dir_rel = concat(sub, "/");
    char *dir_path = concat(MANIFEST_DIR "/", dir_rel);
    DIR *dir = opendir(dir_path);
    list->names = NULL;
    list->count = 0;
    for (struct dirent *ent; dir && (ent = readdir(dir)) != NULL;) {
        char *rel = concat(dir_rel, ent->d_name);
        char *path = concat(MANIFEST_DIR "/", rel);
        if (ent->d_name[0] != '.' && ends_with(ent->d_name, suffix) && is_regular_file(path)) {
            char **grown = realloc(list->names, (list->count + 1) * sizeof *grown);
            if (!grown)
                abort();
            list->names = grown;
            list->names[list->count++] = rel;
            rel = NULL;
        }
        free(rel);
        free(path);
    }
    bool ok = dir != NULL;
    if (dir)
        closedir(dir);
    free(dir_rel);
    free(dir_path);
    if (list->count)
        qsort(list->names, list->count, sizeof *list->names, compare_names);
    return ok;
}

static void free_list(name_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->names[i]);
    free(list->names);
    list->names = NULL;
    list->count = 0;
}

/* Runs `evgen describe REL` in MANIFEST_DIR, so that diagnostics print the path as REL. */
static run_result run_describe(const char *rel)
{
    const char *argv[] = {EVGEN_EXE, "describe", rel, NULL};
    run_result r = {0, NULL, NULL};
    r.status = evgen_test_run(argv, MANIFEST_DIR, &r.out, &r.err);
    if (!r.out)
        r.out = xstrdup("");
    if (!r.err)
        r.err = xstrdup("");
    return r;
}

static void free_result(run_result *r)
{
    free(r->out);
    free(r->err);
}

/* ---- checks ------------------------------------------------------------------------------- */

/* Checks that evgen exited with `want`; otherwise prints what it wrote. */
static bool check_status(const char *rel, const run_result *r, int want)
{
    if (r->status == want)
        return true;
    printf("%s: evgen exited with %d, expected %d\n", rel, r->status, want);
    print_block("  stderr| ", r->err);
    print_block("  stdout| ", r->out);
    return false;
}

/* Checks that evgen wrote nothing to `stream`; otherwise prints what it wrote. */
static bool check_empty(const char *rel, const char *stream, const char *text)
{
    if (!*text)
        return true;
    printf("%s: evgen wrote to %s, expected nothing:\n", rel, stream);
    print_block("  | ", text);
    return false;
}

/* Prints the first line where `expected` and `actual` differ, with both lines. */
static void print_first_difference(const char *expected, const char *actual)
{
    size_t line = 1, col = 1;
    const char *e = expected, *a = actual;
    for (; *e && *e == *a; e++, a++) {
        col = *e == '\n' ? 1 : col + 1;
        line += *e == '\n';
    }
    const char *e_start = e - (col - 1), *a_start = a - (col - 1);
    size_t e_len = strcspn(e_start, "\n"), a_len = strcspn(a_start, "\n");
    printf("  first difference at line %zu, column %zu:\n", line, col);
    printf("  - %.*s%s\n", (int)e_len, e_start, *e ? "" : "(end of file)");
    printf("  + %.*s%s\n", (int)a_len, a_start, *a ? "" : "(end of output)");
}

/* Checks that `actual` is byte-identical to the contents of `expected_path`; otherwise prints both. */
static bool check_same_as_file(const char *rel, const char *expected_path, const char *actual)
{
    char *expected = evgen_test_read(expected_path);
    bool same = expected && strcmp(expected, actual) == 0;
    if (!same && expected) {
        printf("%s: stderr differs from %s\n", rel, expected_path);
        print_block("  expected| ", expected);
        print_block("  actual  | ", actual);
        print_first_difference(expected, actual);
    } else if (!same) {
        printf("%s: cannot read %s; run `test_diagnostics --update` to create it\n", rel, expected_path);
        print_block("  actual  | ", actual);
    }
    free(expected);
    return same;
}

/* MANIFEST_DIR/bad/NAME.expected for "bad/NAME.h" (caller frees). */
static char *expected_path_for(const char *rel)
{
    char *rel_expected = replace_suffix(rel, ".h", ".expected");
    char *path = concat(MANIFEST_DIR "/", rel_expected);
    free(rel_expected);
    return path;
}

/* A bad manifest: exit status 1, nothing on stdout, stderr as in its .expected file. */
static void test_bad_manifest(void **state)
{
    const char *rel = *state;
    char *expected_path = expected_path_for(rel);
    run_result r = run_describe(rel);
    if (update_mode && r.status == 1) {
        evgen_test_write(expected_path, r.err);
        printf("%s: updated %s\n", rel, expected_path);
    }
    bool ok = check_status(rel, &r, 1);
    ok = ok && check_empty(rel, "stdout", r.out);
    ok = ok && (update_mode || check_same_as_file(rel, expected_path, r.err));
    free_result(&r);
    free(expected_path);
    if (!ok)
        fail_msg("%s: evgen's diagnostics are not the expected ones", rel);
}

/* A good manifest: exit status 0 and nothing on stderr. */
static void test_good_manifest(void **state)
{
    const char *rel = *state;
    run_result r = run_describe(rel);
    bool ok = check_status(rel, &r, 0) && check_empty(rel, "stderr", r.err);
    free_result(&r);
    if (!ok)
        fail_msg("%s: evgen did not accept a good manifest silently", rel);
}

/* Every .expected file belongs to a manifest: a stale one is an error, not a silent leftover.
 * (A bad manifest without a .expected file fails its own test.) */
static void test_no_orphan_expected(void **state)
{
    (void)state;
    name_list expected;
    assert_true(list_files("bad", ".expected", &expected));
    size_t orphans = 0;
    for (size_t i = 0; i < expected.count; i++) {
        char *rel_h = replace_suffix(expected.names[i], ".expected", ".h");
        char *path = concat(MANIFEST_DIR "/", rel_h);
        if (!is_regular_file(path)) {
            printf("%s has no manifest %s\n", expected.names[i], rel_h);
            orphans++;
        }
        free(rel_h);
        free(path);
    }
    free_list(&expected);
    if (orphans)
        fail_msg("%zu .expected file(s) without a manifest: delete them or restore their manifests", orphans);
}

/* ---- main --------------------------------------------------------------------------------- */

/* Appends one test per name of `list`, each getting its name as its state. */
static void add_tests(struct CMUnitTest *tests, size_t *n, const name_list *list, CMUnitTestFunction fn)
{
    for (size_t i = 0; i < list->count; i++) {
        struct CMUnitTest t = {list->names[i], fn, NULL, NULL, list->names[i]};
        tests[(*n)++] = t;
    }
}

static int usage(const char *argv0)
{
    fprintf(stderr, "usage: %s [--update]\n  --update  rewrite tests/manifests/bad/*.expected from evgen's output\n",
            argv0);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && strcmp(argv[1], "--update") != 0))
        return usage(argv[0]);
    update_mode = argc == 2;
    /* cmocka reports failures on stderr: keep our explanations (stdout) in order with them. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    name_list bad, good;
    if (!list_files("bad", ".h", &bad) || !list_files("good", ".h", &good) || bad.count == 0 || good.count == 0) {
        fprintf(stderr, "test_diagnostics: no manifests found in %s/bad and %s/good\n", MANIFEST_DIR, MANIFEST_DIR);
        return 1;
    }
    if (update_mode)
        printf("test_diagnostics: --update: rewriting the .expected files of %s/bad\n", MANIFEST_DIR);
    struct CMUnitTest *tests = calloc(bad.count + good.count + 1, sizeof *tests);
    if (!tests)
        abort();
    size_t n = 0;
    add_tests(tests, &n, &bad, test_bad_manifest);
    add_tests(tests, &n, &good, test_good_manifest);
    struct CMUnitTest orphan_test = cmocka_unit_test(test_no_orphan_expected);
    tests[n++] = orphan_test;
    int failed = _cmocka_run_group_tests("diagnostics", tests, n, NULL, NULL);
    free(tests);
    free_list(&bad);
    free_list(&good);
    return failed ? 1 : 0;
}
