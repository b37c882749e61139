/* test_dump_manifest.c — `evgen dump --manifest FILE` and the manifest evgen ships, run as a
 * program: a bad manifest is reported as `evgen describe` reports it (the diagnostics corpus) and
 * fails the command; a good one leaves an .evtrace dump unchanged; usage and help name --manifest;
 * a .nettrace file without --manifest is read with DATADIR/evgen/manifest/gcevents.h found beside
 * the executable (an evgen copied into a scratch prefix), else with the source tree's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "test_support.h"

#define MANIFEST_DIR EVGEN_SOURCE_DIR "/tests/manifests"
#define GCEVENTS EVGEN_SOURCE_DIR "/manifest/gcevents.h"
#define GOLDEN EVGEN_SOURCE_DIR "/tests/traces/gcevents/gcevents-0001.evtrace"

typedef struct run_result {
    int status;
    char *out;
    char *err;
} run_result;

static run_result run(const char *const argv[], const char *cwd)
{
    run_result r;
    r.status = evgen_test_run(argv, cwd, &r.out, &r.err);
    assert_non_null(r.out);
    assert_non_null(r.err);
    return r;
}

static void free_result(run_result *r)
{
    free(r->out);
    free(r->err);
}

static void test_bad_manifest_is_reported_and_fails(void **state)
{
    (void)state;
    /* Reported exactly as `evgen describe` reports it, before the trace is looked at. */
    static const char *const cases[] = {"bad/dup-event-id.h", "bad/type-int.h"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[] = {EVGEN_EXE, "dump", "--manifest", cases[i], GOLDEN, NULL};
        run_result r = run(argv, MANIFEST_DIR);
        char *expected_path = evgen_test_format("%s/%.*s.expected", MANIFEST_DIR, (int)(strlen(cases[i]) - 2), cases[i]);
        char *expected = evgen_test_read(expected_path);
        assert_non_null(expected);
        assert_int_equal(r.status, 1);
        assert_string_equal(r.out, "");
        assert_string_equal(r.err, expected);
        free(expected);
        free(expected_path);
        free_result(&r);
    }
    /* --manifest=FILE too, with a trace that does not exist: the manifest is the error. */
    const char *argv[] = {EVGEN_EXE, "dump", "somefile", "--manifest=bad/dup-event-id.h", NULL};
    run_result r = run(argv, MANIFEST_DIR);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "bad/dup-event-id.h:8:20: error: "));
    assert_null(strstr(r.err, "somefile"));
    free_result(&r);
    /* A manifest that does not exist. */
    const char *missing[] = {EVGEN_EXE, "dump", "--manifest", "no-such-manifest.h", GOLDEN, NULL};
    r = run(missing, MANIFEST_DIR);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "no-such-manifest.h"));
    free_result(&r);
}

static void test_good_manifest_leaves_an_evtrace_dump_unchanged(void **state)
{
    (void)state;
    const char *plain[] = {EVGEN_EXE, "dump", GOLDEN, "--order", "file", NULL};
    run_result expected = run(plain, NULL);
    assert_int_equal(expected.status, 0);
    assert_true(strlen(expected.out) > 0);
    /* With the compiler options, attached and not, anywhere on the line. */
    const char *with[] = {EVGEN_EXE, "dump", "-I", EVGEN_SOURCE_DIR "/manifest", "--manifest", GCEVENTS, GOLDEN,
                          "-DEVGEN_TEST_UNUSED=1", "--order", "file", "-D", "EVGEN_TEST_OTHER", NULL};
    run_result r = run(with, NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_string_equal(r.out, expected.out);
    free_result(&r);
    free_result(&expected);
}

static void test_usage_and_help_name_manifest(void **state)
{
    (void)state;
    const char *no_value[] = {EVGEN_EXE, "dump", GOLDEN, "--manifest", NULL};
    run_result r = run(no_value, NULL);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "evgen dump: option '--manifest' needs a value\nTry 'evgen dump --help'.\n");
    free_result(&r);

    const char *empty[] = {EVGEN_EXE, "dump", GOLDEN, "--manifest=", NULL};
    r = run(empty, NULL);
    assert_int_equal(r.status, 2);
    free_result(&r);

    /* A usage error names the option and points at the help, which has the manifest lines. */
    const char *unknown[] = {EVGEN_EXE, "dump", GOLDEN, "--no-such-option", NULL};
    r = run(unknown, NULL);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "evgen dump: unknown option '--no-such-option'\nTry 'evgen dump --help'.\n");
    free_result(&r);

    /* Help parses no manifest, even a bad one. */
    const char *help[] = {EVGEN_EXE, "dump", "--manifest", "bad/dup-event-id.h", "--help", NULL};
    r = run(help, MANIFEST_DIR);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "usage: evgen dump TRACE"));
    assert_non_null(strstr(r.out, "--manifest FILE"));
    assert_non_null(strstr(r.out, "-I DIR, -D NAME[=VALUE], -U NAME"));
    free_result(&r);

    const char *main_help[] = {EVGEN_EXE, "--help", NULL};
    r = run(main_help, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "[--manifest FILE]"));
    free_result(&r);
}

/* A scratch prefix holding a copy of evgen in bin/, and a file that starts as .nettrace files do. */
typedef struct prefix {
    char *dir, *evgen, *nettrace, *share;
} prefix;

static void prefix_make(prefix *p)
{
    p->dir = evgen_test_tempdir();
    char *bin = evgen_test_format("%s/bin", p->dir);
    assert_int_equal(mkdir(bin, 0777), 0);
    p->evgen = evgen_test_format("%s/evgen", bin);
    const char *copy[] = {"/bin/cp", EVGEN_EXE, p->evgen, NULL};
    free(evgen_test_must_run(copy, NULL));
    free(bin);
    p->nettrace = evgen_test_format("%s/trace.nettrace", p->dir);
    evgen_test_write(p->nettrace, "Nettrace\024!FastSerialization.1");
    p->share = evgen_test_format("%s/share/evgen/manifest", p->dir);
}

static void prefix_free(prefix *p)
{
    evgen_test_rmtree(p->dir);
    free(p->dir);
    free(p->evgen);
    free(p->nettrace);
    free(p->share);
}

static void test_nettrace_uses_the_installed_manifest(void **state)
{
    (void)state;
    prefix p;
    prefix_make(&p);
    /* DATADIR/evgen/manifest/gcevents.h beside the executable, here a bad one: it is read. */
    const char *mk[] = {"/bin/mkdir", "-p", p.share, NULL};
    free(evgen_test_must_run(mk, NULL));
    char *installed = evgen_test_format("%s/gcevents.h", p.share);
    char *bad = evgen_test_read(MANIFEST_DIR "/bad/dup-event-id.h");
    assert_non_null(bad);
    evgen_test_write(installed, bad);
    const char *argv[] = {p.evgen, "dump", p.nettrace, NULL};
    run_result r = run(argv, NULL);
    char *where = evgen_test_format("%s:8:20: error: ", installed);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    if (!strstr(r.err, where))
        fail_msg("expected '%s' in:\n%s", where, r.err);
    free(where);
    free_result(&r);

    /* An .evtrace needs no manifest: the installed one is not read. */
    const char *evtrace[] = {p.evgen, "dump", GOLDEN, NULL};
    r = run(evtrace, NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    free_result(&r);

    /* --manifest replaces it. */
    const char *given[] = {p.evgen, "dump", "--manifest", GCEVENTS, p.nettrace, NULL};
    r = run(given, NULL);
    assert_null(strstr(r.err, installed));
    free_result(&r);
    free(bad);
    free(installed);
    prefix_free(&p);
}

static void test_nettrace_falls_back_to_the_source_manifest(void **state)
{
    (void)state;
    prefix p;
    prefix_make(&p);
    /* Nothing installed beside this evgen: the source tree's manifest/gcevents.h, which is good, so
     * whatever the reader makes of this stub trace, no manifest is reported. */
    const char *argv[] = {p.evgen, "dump", p.nettrace, NULL};
    run_result r = run(argv, NULL);
    assert_null(strstr(r.err, "gcevents.h"));
    assert_null(strstr(r.err, "warning:"));
    assert_true(r.status == 0 || r.status == 1);
    free_result(&r);
    prefix_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_manifest_is_reported_and_fails),
        cmocka_unit_test(test_good_manifest_leaves_an_evtrace_dump_unchanged),
        cmocka_unit_test(test_usage_and_help_name_manifest),
        cmocka_unit_test(test_nettrace_uses_the_installed_manifest),
        cmocka_unit_test(test_nettrace_falls_back_to_the_source_manifest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
