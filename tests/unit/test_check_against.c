/* test_check_against.c — `evgen check MANIFEST --against REV` on a scratch git repository: an edit of
 * a shipped field made in both the manifest and the lock passes plain `check` and fails against the
 * earlier revision (or the earlier lock file) at the manifest line; a manifest new since REV
 * passes; a REV that is neither a file nor a revision is a clear error. Skipped without git. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_support.h"

static const char manifest_v0[] = "#include <evgen/manifest.h>\n"
                                  "EVENT_PROVIDER(P, \"P\")\n"
                                  "KNOWN_EVENT(Tick, 1, P, 4, 1)\n"
                                  "EVENT_FIELD(Tick, 0, uint32_t, Count)\n"
                                  "EVENT_FIELD(Tick, 0, uint64_t, Size)\n"
                                  "#include <evgen/manifest_end.h>\n";

typedef struct repo {
    char *dir, *sub, *manifest, *lock;
} repo;


static void git(const repo *g, const char *a1, const char *a2, const char *a3, const char *a4)
{
    const char *argv[] = {"git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false",
                          a1, a2, a3, a4, NULL};
    free(evgen_test_must_run(argv, g->dir));
}

static evgen_test_output check(const repo *g, const char *against)
{
    const char *argv[] = {EVGEN_EXE, "check", "m/events.h", against ? "--against" : NULL, against, NULL};
    return evgen_test_capture(argv, g->dir);
}

static int git_available(void)
{
    const char *argv[] = {"git", "--version", NULL};
    char *out = NULL, *err = NULL;
    int status = evgen_test_run(argv, "/", &out, &err); /* with a directory: through sh, which searches PATH */
    free(out);
    free(err);
    return status == 0;
}

/* A repository with m/events.h and its lock, committed; the lock as it was, saved beside. */
static int setup(void **state)
{
    if (!git_available())
        return 0; /* the tests skip */
    repo *g = calloc(1, sizeof *g);
    g->dir = evgen_test_tempdir();
    g->sub = evgen_test_format("%s/m", g->dir);
    g->manifest = evgen_test_format("%s/events.h", g->sub);
    g->lock = evgen_test_format("%s/events.lock", g->sub);
    git(g, "init", "-q", NULL, NULL);
    char *mkdir_cmd = evgen_test_format("mkdir '%s'", g->sub);
    if (system(mkdir_cmd) != 0)
        return -1;
    free(mkdir_cmd);
    evgen_test_write(g->manifest, manifest_v0);
    *state = g;
    return 0;
}

static int teardown(void **state)
{
    repo *g = *state;
    if (!g)
        return 0;
    evgen_test_rmtree(g->dir);
    free(g->dir);
    free(g->sub);
    free(g->manifest);
    free(g->lock);
    free(g);
    return 0;
}

static void lock_and_commit(const repo *g, const char *message)
{
    const char *argv[] = {EVGEN_EXE, "lock", "m/events.h", NULL};
    free(evgen_test_must_run(argv, g->dir));
    git(g, "add", "-A", NULL, NULL);
    git(g, "commit", "-qm", message, NULL);
}

/* Size retyped in the manifest (line 5) and in the lock: what a careless pull request does. */
static void retype_in_both(const repo *g)
{
    char *m = evgen_test_replace(manifest_v0, "uint64_t, Size", "uint32_t, Size");
    evgen_test_write(g->manifest, m);
    char *lock = evgen_test_read(g->lock);
    char *edited = evgen_test_replace(lock, "field Size uint64", "field Size uint32");
    assert_non_null(edited);
    evgen_test_write(g->lock, edited);
    free(edited);
    free(lock);
    free(m);
}

static void test_against_a_revision(void **state)
{
    repo *g = *state;
    if (!g)
        skip();
    /* No lock at REV (nor now): the manifest is new, which passes. */
    git(g, "commit", "-qm", "empty", "--allow-empty");
    evgen_test_output r = check(g, "HEAD");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "does not exist at HEAD"));
    evgen_test_output_free(&r);

    lock_and_commit(g, "events v0");
    retype_in_both(g);
    r = check(g, NULL);
    assert_int_equal(r.status, 0); /* the edited lock agrees with the edited manifest */
    evgen_test_output_free(&r);
    r = check(g, "HEAD"); /* the working tree against the last commit */
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "m/events.h:5:"));
    assert_non_null(strstr(r.err, "error: field 'Size' of locked version 0 of 'Tick' is retyped"));
    assert_non_null(strstr(r.err, "HEAD:m/events.lock:"));
    evgen_test_output_free(&r);

    git(g, "commit", "-qam", "retype Size", NULL);
    r = check(g, "HEAD~1");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "m/events.h:5:"));
    evgen_test_output_free(&r);
    r = check(g, "HEAD"); /* the commit itself holds the edited lock */
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "keeps every version HEAD:m/events.lock locked"));
    evgen_test_output_free(&r);

    /* From the manifest's directory: the lock's path is found relative to the repository's top. */
    const char *argv[] = {EVGEN_EXE, "check", "events.h", "--against", "HEAD~1", NULL};
    r = evgen_test_capture(argv, g->sub);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "events.h:5:"));
    assert_non_null(strstr(r.err, "HEAD~1:m/events.lock:"));
    evgen_test_output_free(&r);
}

static void test_against_a_lock_file(void **state)
{
    repo *g = *state;
    if (!g)
        skip();
    lock_and_commit(g, "events v0");
    char *old = evgen_test_format("%s/old.lock", g->dir);
    char *text = evgen_test_read(g->lock);
    evgen_test_write(old, text);
    retype_in_both(g);
    evgen_test_output r = check(g, "old.lock");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "m/events.h:5:"));
    assert_non_null(strstr(r.err, "old.lock:"));
    evgen_test_output_free(&r);
    evgen_test_write(g->manifest, manifest_v0);
    evgen_test_write(g->lock, text);
    r = check(g, "old.lock");
    assert_int_equal(r.status, 0);
    evgen_test_output_free(&r);
    free(text);
    free(old);
}

static void test_against_nothing_known(void **state)
{
    repo *g = *state;
    if (!g)
        skip();
    lock_and_commit(g, "events v0");
    evgen_test_output r = check(g, "nosuchrev");
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "--against 'nosuchrev' is neither a lock file nor a git revision"));
    evgen_test_output_free(&r);

    /* Outside any repository. */
    char *dir = evgen_test_tempdir();
    char *manifest = evgen_test_format("%s/events.h", dir);
    evgen_test_write(manifest, manifest_v0);
    const char *argv[] = {EVGEN_EXE, "check", "events.h", "--against", "HEAD", NULL};
    r = evgen_test_capture(argv, dir);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "--against 'HEAD': no such lock file, and '.' is not in a git repository"));
    evgen_test_output_free(&r);
    evgen_test_rmtree(dir);
    free(manifest);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_against_a_revision, setup, teardown),
        cmocka_unit_test_setup_teardown(test_against_a_lock_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_against_nothing_known, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
