/* test_user_compat.c — the compatibility test in a user's own build. `cmake --install` of this
 * build into a temporary prefix; then tests/install/compat_project, a project of its own using
 * evgen_add_manifest(... GOLDEN golden), configured and built with each generator (Ninja, Unix
 * Makefiles at -j2, Ninja Multi-Config) and taken through a runtime team's life: its first
 * build generates each manifest exactly once; its shop_compat test fails while no golden trace
 * holds its versions, naming the `evgen lock --traces` command, and passes once that command has
 * run; a new version fails it again until recorded; a shipped version edited stops the build at
 * the manifest line; a shipped version edited together with its lock (which `evgen check` alone
 * cannot see) builds, and shop_compat fails on the golden trace's values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "install_config.h"
#include "installed_prefix.h"
#include "test_support.h"

static struct {
    installed_prefix in;
    char *evgen; /* the installed evgen */
} fx;

typedef struct project {
    const char *generator;
    int multi_config;
    char *src, *build, *manifest;
} project;

static int group_setup(void **state)
{
    (void)state;
    int rc = installed_prefix_setup(&fx.in);
    fx.evgen = evgen_test_format("%s/%s/evgen", fx.in.prefix, EVGEN_TEST_INSTALL_BINDIR);
    return rc;
}

static int group_teardown(void **state)
{
    (void)state;
    installed_prefix_teardown(&fx.in);
    free(fx.evgen);
    return 0;
}

/* A fresh copy of compat_project for one generator, configured against the install with this
 * build's compiler and flags (sanitized when this build is). */
static void project_open(project *p, const char *generator, const char *make_program, int multi_config)
{
    char *slug = evgen_test_format("%s", generator);
    for (char *c = slug; *c; c++)
        if (*c == ' ')
            *c = '-';
    p->generator = generator;
    p->multi_config = multi_config;
    p->src = evgen_test_format("%s/src-%s", fx.in.tmp, slug);
    p->build = evgen_test_format("%s/build-%s", fx.in.tmp, slug);
    p->manifest = evgen_test_format("%s/events.h", p->src);
    const char *copy[] = {"/bin/cp", "-R", EVGEN_SOURCE_DIR "/tests/install/compat_project", p->src, NULL};
    free(evgen_test_must_run(copy, NULL));
    /* The project ships a lock of its first two versions, and no golden trace yet. */
    const char *lock[] = {fx.evgen, "lock", "events.h", NULL};
    free(evgen_test_must_run(lock, p->src));

    char *prefix_arg = evgen_test_format("-DCMAKE_PREFIX_PATH=%s", fx.in.prefix);
    char *make_arg = evgen_test_format("-DCMAKE_MAKE_PROGRAM=%s", make_program);
    char *cc_arg = evgen_test_format("-DCMAKE_C_COMPILER=%s", EVGEN_TEST_C_COMPILER);
    char *cflags_arg = evgen_test_format("-DCMAKE_C_FLAGS=-Wall -Wextra -Werror %s", EVGEN_TEST_C_FLAGS);
    char *ldflags_arg = evgen_test_format("-DCMAKE_EXE_LINKER_FLAGS=%s", EVGEN_TEST_LINKER_FLAGS);
    const char *configure[] = {EVGEN_TEST_CMAKE_EXE, "-S", p->src, "-B", p->build, "-G", generator, make_arg,
                               prefix_arg, cc_arg, cflags_arg, ldflags_arg,
                               "-DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON", NULL};
    free(evgen_test_must_run(configure, NULL));
    free(ldflags_arg);
    free(cflags_arg);
    free(cc_arg);
    free(make_arg);
    free(prefix_arg);
    free(slug);
}

static void project_close(project *p)
{
    free(p->src);
    free(p->build);
    free(p->manifest);
}

/* `cmake --build` at -j2; returns its exit status and output (caller frees). */
static int project_build(const project *p, char **out)
{
    const char *argv[] = {EVGEN_TEST_CMAKE_EXE, "--build", p->build, "--parallel", "2",
                          p->multi_config ? "--config" : NULL, "Debug", NULL};
    return evgen_test_run_merged(argv, NULL, out);
}

/* ctest; returns its exit status and output (caller frees). */
static int project_ctest(const project *p, char **out)
{
    const char *argv[] = {EVGEN_TEST_CTEST_EXE, "--test-dir", p->build, "--output-on-failure",
                          p->multi_config ? "-C" : NULL, "Debug", NULL};
    return evgen_test_run_merged(argv, NULL, out);
}

static size_t count(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *s = strstr(text, what); s; s = strstr(s + 1, what))
        n++;
    return n;
}

static void must_build(const project *p, const char *why)
{
    char *out = NULL;
    if (project_build(p, &out) != 0)
        EVGEN_FAIL_LONG("%s (%s): the build fails:\n%s", why, p->generator, out);
    free(out);
}

/* ctest passes, or fails with `expected` in its output. */
static void expect_ctest(const project *p, int pass, const char *expected, const char *why)
{
    char *out = NULL;
    int rc = project_ctest(p, &out);
    if ((rc == 0) != pass || (expected && !strstr(out, expected)))
        EVGEN_FAIL_LONG("%s (%s): ctest %s, expected it to %s%s%s:\n%s", why, p->generator,
                        rc == 0 ? "passes" : "fails", pass ? "pass" : "fail", expected ? " saying " : "",
                        expected ? expected : "", out);
    free(out);
}

static void record_golden_traces(const project *p)
{
    const char *argv[] = {fx.evgen, "lock", "events.h", "--traces", "golden", NULL};
    free(evgen_test_must_run(argv, p->src));
}

/* Replaces `from` by `to` in the manifest (the test fails if `from` is not there). */
static void edit_manifest(const project *p, const char *from, const char *to)
{
    char *text = evgen_test_read(p->manifest);
    assert_non_null(text);
    char *edited = evgen_test_replace(text, from, to);
    if (!edited)
        fail_msg("events.h has no '%s'", from);
    evgen_test_write(p->manifest, edited);
    free(edited);
    free(text);
}

/* The 1-based line of `what` in the manifest. */
static int manifest_line(const project *p, const char *what)
{
    char *text = evgen_test_read(p->manifest);
    assert_non_null(text);
    const char *at = strstr(text, what);
    assert_non_null(at);
    int line = 1;
    for (const char *c = text; c < at; c++)
        line += *c == '\n';
    free(text);
    return line;
}

static void life_of_a_manifest(const char *generator, const char *make_program, int multi_config)
{
    project p;
    project_open(&p, generator, make_program, multi_config);

    /* The first build generates the manifest once, for the two targets that use it. */
    char *out = NULL;
    if (project_build(&p, &out) != 0 || count(out, "evgen: generating shop from events.h") != 1)
        EVGEN_FAIL_LONG("first build (%s): expected one generation:\n%s", generator, out);
    free(out);

    /* No golden trace yet: the test names the command that records them. */
    expect_ctest(&p, 0, "evgen lock events.h --lock", "no golden trace");
    record_golden_traces(&p);
    must_build(&p, "after recording golden traces");
    expect_ctest(&p, 1, NULL, "golden traces recorded");

    /* A new version: the test fails until it is locked and recorded, then passes, forward
     * compatibility included (the reader of the first lock snapshot reads today's trace). */
    const char *bytes = "EVENT_FIELD(Order, 1, uint64_t, Bytes)\n";
    char *appended = evgen_test_format("%sEVENT_FIELD(Order, 2, uint32_t, LatencyMs)\n", bytes);
    edit_manifest(&p, bytes, appended);
    must_build(&p, "a version appended");
    expect_ctest(&p, 0, "Order v2: in today's manifest, not yet locked", "a version appended");
    record_golden_traces(&p);
    must_build(&p, "the new version recorded");
    char *compat_bin = evgen_test_format("%s/%sshop_compat", p.build, multi_config ? "Debug/" : "");
    char *golden = evgen_test_format("%s/golden", p.src);
    char *lock = evgen_test_format("%s/events.lock", p.src);
    const char *compat[] = {compat_bin, golden, lock, "events.h", NULL};
    out = evgen_test_must_run(compat, p.src);
    if (!strstr(out, "by the oldest lock's reader events-0001.lock") || !strstr(out, "events-0002.evtrace") ||
        !strstr(out, " 0 failed"))
        EVGEN_FAIL_LONG("the new version recorded (%s): shop_compat says\n%s", generator, out);
    free(out);

    /* A shipped version edited: the build stops at the manifest line. */
    const char *bytes_v2 = "EVENT_FIELD(Order, 1, uint64_t, Bytes)";
    int line = manifest_line(&p, bytes_v2);
    edit_manifest(&p, bytes_v2, "EVENT_FIELD(Order, 1, uint32_t, Bytes)");
    char *at = evgen_test_format("events.h:%d:", line);
    if (project_build(&p, &out) == 0 || !strstr(out, at) || !strstr(out, "error:") || !strstr(out, "retyped"))
        EVGEN_FAIL_LONG("a shipped field retyped (%s): expected the build to stop at %s:\n%s", generator, at, out);
    free(out);

    /* The same edit with the lock made again to match (what `evgen check` alone cannot refuse):
     * the build passes, the golden traces do not read back. */
    assert_int_equal(remove(lock), 0);
    const char *relock[] = {fx.evgen, "lock", "events.h", NULL};
    free(evgen_test_must_run(relock, p.src));
    must_build(&p, "a shipped field retyped, lock rewritten");
    expect_ctest(&p, 0, "read other values than were written", "a shipped field retyped, lock rewritten");

    free(at);
    free(lock);
    free(golden);
    free(compat_bin);
    free(appended);
    project_close(&p);
}

static void test_ninja(void **state)
{
    (void)state;
    if (!EVGEN_TEST_NINJA_EXE[0])
        skip(); /* scripts/deps.sh installs ninja-build */
    life_of_a_manifest("Ninja", EVGEN_TEST_NINJA_EXE, 0);
}

static void test_makefiles(void **state)
{
    (void)state;
    if (!EVGEN_TEST_MAKE_EXE[0])
        fail_msg("make not found: scripts/deps.sh installs it");
    life_of_a_manifest("Unix Makefiles", EVGEN_TEST_MAKE_EXE, 0);
}

static void test_ninja_multi_config(void **state)
{
    (void)state;
    if (!EVGEN_TEST_NINJA_EXE[0])
        skip();
    life_of_a_manifest("Ninja Multi-Config", EVGEN_TEST_NINJA_EXE, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ninja),
        cmocka_unit_test(test_makefiles),
        cmocka_unit_test(test_ninja_multi_config),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
