/* test_install.c — the installed evgen, used as a project would. `cmake --install` of this build
 * into a temporary prefix; then tests/install/project (copied to a directory whose path has a
 * space) configured with find_package(evgen), built and run with Ninja; evgen_add_manifest()'s
 * regeneration on it: touching any header the manifest includes, the manifest, its lock or the
 * evgen executable regenerates, and a build with nothing changed does nothing (Ninja and Make);
 * evgen's depfile, escaped and written only when it changes, here and in evgen's own tree; and a
 * one-file program compiled and linked with nothing but
 * `pkg-config --cflags --libs evgen-runtime evgen-reader`. The temporary directory is removed at
 * the end, unless EVGEN_TEST_KEEP is set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "install_config.h"
#include "installed_prefix.h"
#include "test_support.h"

static struct {
    installed_prefix in; /* tmp: everything below lives here; prefix: the install */
    char *project;      /* tmp/src dir/project: a copy of tests/install/project */
    char *ninja_build;  /* tmp/build-ninja */
    int ninja_built;
} fx;

/* Sets a file's times to now, as `touch` does. */
static void touch(const char *path)
{
    if (utimensat(AT_FDCWD, path, NULL, 0) != 0)
        fail_msg("cannot touch %s", path);
}

/* Configures tests/install/project against the install with `generator` into `build`. */
static void configure_project(const char *generator, const char *make_program, const char *build)
{
    char *prefix_arg = evgen_test_format("-DCMAKE_PREFIX_PATH=%s", fx.in.prefix);
    char *make_arg = evgen_test_format("-DCMAKE_MAKE_PROGRAM=%s", make_program);
    char *cc_arg = evgen_test_format("-DCMAKE_C_COMPILER=%s", EVGEN_TEST_C_COMPILER);
    char *cflags_arg = evgen_test_format("-DCMAKE_C_FLAGS=-Wall -Wextra -Werror %s", EVGEN_TEST_C_FLAGS);
    char *ldflags_arg = evgen_test_format("-DCMAKE_EXE_LINKER_FLAGS=%s", EVGEN_TEST_LINKER_FLAGS);
    const char *argv[] = {EVGEN_TEST_CMAKE_EXE, "-S", fx.project, "-B", build, "-G", generator, make_arg, prefix_arg,
                          cc_arg, cflags_arg, ldflags_arg, "-DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON", NULL};
    free(evgen_test_must_run(argv, NULL));
    /* find_package found this install, not another evgen of the machine. */
    char *cache_path = evgen_test_format("%s/CMakeCache.txt", build);
    char *cache = evgen_test_read(cache_path);
    char *expected = evgen_test_format("evgen_DIR:PATH=%s/%s/cmake/evgen\n", fx.in.prefix, EVGEN_TEST_INSTALL_LIBDIR);
    assert_non_null(cache);
    if (!strstr(cache, expected))
        fail_msg("%s does not hold %s", cache_path, expected);
    free(expected);
    free(cache);
    free(cache_path);
    free(ldflags_arg);
    free(cflags_arg);
    free(cc_arg);
    free(make_arg);
    free(prefix_arg);
}

/* Builds with `build_tool` (ninja or make) in `build`; returns the output (caller frees). */
static char *build_project(const char *build_tool, const char *build, int dry_run)
{
    const char *argv[] = {build_tool, "-C", build, dry_run ? "-n" : NULL, NULL};
    return evgen_test_must_run(argv, NULL);
}

static void run_app(const char *build)
{
    char *app = evgen_test_format("%s/app", build);
    const char *argv[] = {app, NULL};
    char *out = evgen_test_must_run(argv, NULL);
    assert_non_null(strstr(out, "ok: 2 Request events read back"));
    free(out);
    free(app);
}

static void need_ninja(void)
{
    if (!EVGEN_TEST_NINJA_EXE[0])
        skip(); /* no ninja on this machine: scripts/deps.sh installs ninja-build */
    if (!fx.ninja_built) {
        configure_project("Ninja", EVGEN_TEST_NINJA_EXE, fx.ninja_build);
        free(build_project(EVGEN_TEST_NINJA_EXE, fx.ninja_build, 0));
        fx.ninja_built = 1;
    }
}

static int group_setup(void **state)
{
    (void)state;
    if (installed_prefix_setup(&fx.in) != 0)
        return -1;
    fx.ninja_build = evgen_test_format("%s/build-ninja", fx.in.tmp);
    char *src = evgen_test_format("%s/src dir", fx.in.tmp);
    fx.project = evgen_test_format("%s/project", src);
    if (mkdir(src, 0777) != 0)
        return -1;
    const char *copy[] = {"/bin/cp", "-R", EVGEN_SOURCE_DIR "/tests/install/project", src, NULL};
    int rc = 0;
    if (evgen_test_run_merged(copy, NULL, NULL) != 0) {
        fprintf(stderr, "cannot copy the project to %s\n", src);
        rc = -1;
    }
    free(src);
    return rc == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    installed_prefix_teardown(&fx.in);
    free(fx.project);
    free(fx.ninja_build);
    return 0;
}

/* ---- the install ------------------------------------------------------------------------------ */

static void test_installed_files(void **state)
{
    (void)state;
    static const char *const files[] = {
        EVGEN_TEST_INSTALL_BINDIR "/evgen",
        EVGEN_TEST_INSTALL_LIBDIR "/libevgen_runtime.a",
        EVGEN_TEST_INSTALL_LIBDIR "/libevgen_reader.a",
        EVGEN_TEST_INSTALL_LIBDIR "/libevgen_wire.a",
        EVGEN_TEST_INSTALL_LIBDIR "/libevgen_compat.a",
        EVGEN_TEST_INSTALL_LIBDIR "/libevgen_golden.a",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/compat_test.h",
        EVGEN_TEST_INSTALL_DATADIR "/evgen/compat/compat_main.c",
        EVGEN_TEST_INSTALL_MANDIR "/man1/evgen.1",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/runtime.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/runtime_desc.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/runtime_emit.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/crc32c.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/wire_kinds.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/wire_bytes.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/wire_format.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/wire_layout.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/wire_metadata.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/reader.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/reader_access.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/dump.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/manifest.h",
        EVGEN_TEST_INSTALL_INCLUDEDIR "/evgen/manifest_end.h",
        EVGEN_TEST_INSTALL_LIBDIR "/cmake/evgen/evgenConfig.cmake",
        EVGEN_TEST_INSTALL_LIBDIR "/cmake/evgen/evgenConfigVersion.cmake",
        EVGEN_TEST_INSTALL_LIBDIR "/cmake/evgen/evgenTargets.cmake",
        EVGEN_TEST_INSTALL_LIBDIR "/cmake/evgen/EvgenAddManifest.cmake",
        EVGEN_TEST_INSTALL_LIBDIR "/pkgconfig/evgen-runtime.pc",
        EVGEN_TEST_INSTALL_LIBDIR "/pkgconfig/evgen-reader.pc",
    };
    size_t missing = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *path = evgen_test_format("%s/%s", fx.in.prefix, files[i]);
        if (!evgen_test_exists(path)) {
            fprintf(stderr, "not installed: %s\n", path);
            missing++;
        }
        free(path);
    }
    assert_int_equal(missing, 0);

    /* The installed evgen runs, and is this version. */
    char *evgen = evgen_test_format("%s/%s/evgen", fx.in.prefix, EVGEN_TEST_INSTALL_BINDIR);
    const char *version[] = {evgen, "--version", NULL};
    char *out = evgen_test_must_run(version, NULL);
    char *expected = evgen_test_format("evgen %s\n", EVGEN_TEST_PROJECT_VERSION);
    assert_string_equal(out, expected);
    free(expected);
    free(out);
    free(evgen);

    /* Relocatable: neither the package nor the .pc files name the build or source tree. */
    static const char *const relocatable[] = {
        EVGEN_TEST_INSTALL_LIBDIR "/cmake/evgen/evgenConfig.cmake",
        EVGEN_TEST_INSTALL_LIBDIR "/cmake/evgen/evgenTargets.cmake",
        EVGEN_TEST_INSTALL_LIBDIR "/pkgconfig/evgen-runtime.pc",
        EVGEN_TEST_INSTALL_LIBDIR "/pkgconfig/evgen-reader.pc",
    };
    for (size_t i = 0; i < sizeof relocatable / sizeof relocatable[0]; i++) {
        char *path = evgen_test_format("%s/%s", fx.in.prefix, relocatable[i]);
        char *text = evgen_test_read(path);
        assert_non_null(text);
        if (strstr(text, EVGEN_BINARY_DIR) || strstr(text, EVGEN_SOURCE_DIR "/"))
            fail_msg("%s names evgen's build or source tree", path);
        free(text);
        free(path);
    }
}

/* ---- a project of its own: find_package(evgen) and evgen_add_manifest() ----------------------- */

static void test_project_builds_and_runs(void **state)
{
    (void)state;
    need_ninja();
    run_app(fx.ninja_build);
    /* The generation ran the installed evgen. */
    char *ninja_file = evgen_test_format("%s/build.ninja", fx.ninja_build);
    char *text = evgen_test_read(ninja_file);
    char *evgen = evgen_test_format("%s/%s/evgen gen app_events.h", fx.in.prefix, EVGEN_TEST_INSTALL_BINDIR);
    assert_non_null(text);
    if (!strstr(text, evgen))
        fail_msg("%s does not run %s", ninja_file, evgen);
    free(evgen);
    free(text);
    free(ninja_file);
}

/* `ninja -n` says that there is nothing to do. */
static void assert_up_to_date(const char *why)
{
    char *out = build_project(EVGEN_TEST_NINJA_EXE, fx.ninja_build, 1);
    if (!strstr(out, "no work to do"))
        EVGEN_FAIL_LONG("%s: ninja -n has work to do:\n%s", why, out);
    free(out);
}

/* Touching `path` regenerates: `ninja -n` lists the generation, `ninja` runs it, and then there
 * is nothing left to do. */
static void assert_touch_regenerates(const char *path)
{
    touch(path);
    char *dry = build_project(EVGEN_TEST_NINJA_EXE, fx.ninja_build, 1);
    if (!strstr(dry, "evgen: generating app from app_events.h"))
        EVGEN_FAIL_LONG("touching %s does not regenerate: ninja -n says\n%s", path, dry);
    free(dry);
    char *out = build_project(EVGEN_TEST_NINJA_EXE, fx.ninja_build, 0);
    assert_non_null(strstr(out, "evgen: generating app from app_events.h"));
    free(out);
    assert_up_to_date(path);
}

static void test_regeneration_ninja(void **state)
{
    (void)state;
    need_ninja();
    assert_up_to_date("a build with nothing changed");

    /* The depfile: the first output, then the manifest, the header it includes and the lock,
     * absolute, the space of "src dir" escaped; not evgen's embedded headers. */
    char *depfile = evgen_test_format("%s/evgen/app/app.d", fx.ninja_build);
    char *text = evgen_test_read(depfile);
    assert_non_null(text);
    char *target = evgen_test_format("%s/evgen/app/app_runtime.h: \\\n", fx.ninja_build);
    char *manifest = evgen_test_format("%s/src\\ dir/project/app_events.h \\\n", fx.in.tmp);
    char *header = evgen_test_format("%s/src\\ dir/project/app_types.h", fx.in.tmp);
    char *lock = evgen_test_format("%s/src\\ dir/project/app_events.lock\n", fx.in.tmp);
    if (strncmp(text, target, strlen(target)) != 0 || !strstr(text, manifest) || !strstr(text, header) ||
        !strstr(text, lock) || strstr(text, "evgen-builtin") || strstr(text, "manifest_end.h"))
        EVGEN_FAIL_LONG("unexpected depfile %s:\n%s", depfile, text);
    free(lock);
    free(header);
    free(manifest);
    free(target);
    free(text);
    free(depfile);

    char *types = evgen_test_format("%s/app_types.h", fx.project);
    char *events = evgen_test_format("%s/app_events.h", fx.project);
    char *lockfile = evgen_test_format("%s/app_events.lock", fx.project);
    char *evgen = evgen_test_format("%s/%s/evgen", fx.in.prefix, EVGEN_TEST_INSTALL_BINDIR);
    assert_touch_regenerates(types);    /* a header the manifest includes: from the depfile */
    assert_touch_regenerates(events);   /* the manifest */
    assert_touch_regenerates(lockfile); /* its lock */
    assert_touch_regenerates(evgen);    /* the generator */
    run_app(fx.ninja_build);
    free(evgen);
    free(lockfile);
    free(events);
    free(types);
}

/* The same rules with Make, which has no restat: evgen_add_manifest touches the outputs there. */
static void test_regeneration_make(void **state)
{
    (void)state;
    if (!EVGEN_TEST_MAKE_EXE[0])
        skip(); /* no make on this machine */
    char *build = evgen_test_format("%s/build-make", fx.in.tmp);
    configure_project("Unix Makefiles", EVGEN_TEST_MAKE_EXE, build);
    char *out = build_project(EVGEN_TEST_MAKE_EXE, build, 0);
    assert_non_null(strstr(out, "evgen: generating app from app_events.h"));
    free(out);
    run_app(build);
    out = build_project(EVGEN_TEST_MAKE_EXE, build, 0);
    if (strstr(out, "evgen: generating"))
        EVGEN_FAIL_LONG("make with nothing changed regenerates:\n%s", out);
    free(out);

    char *types = evgen_test_format("%s/app_types.h", fx.project);
    touch(types);
    out = build_project(EVGEN_TEST_MAKE_EXE, build, 0);
    if (!strstr(out, "evgen: generating app from app_events.h"))
        EVGEN_FAIL_LONG("touching %s does not regenerate with make:\n%s", types, out);
    free(out);
    out = build_project(EVGEN_TEST_MAKE_EXE, build, 0);
    if (strstr(out, "evgen: generating"))
        EVGEN_FAIL_LONG("make after a regeneration regenerates again:\n%s", out);
    free(out);
    free(types);
    free(build);
}

/* `evgen gen --depfile`: Make's escapes for ' ', '#' and '$'; rewritten only when it changes. */
static void test_depfile_escaping(void **state)
{
    (void)state;
    char *dir = evgen_test_format("%s/odd #$ dir", fx.in.tmp);
    char *out_dir = evgen_test_format("%s/out", fx.in.tmp);
    assert_int_equal(mkdir(dir, 0777), 0);
    assert_int_equal(mkdir(out_dir, 0777), 0);
    static const char *const files[] = {"app_events.h", "app_types.h"};
    for (size_t i = 0; i < 2; i++) {
        char *from = evgen_test_format("%s/%s", fx.project, files[i]);
        char *to = evgen_test_format("%s/%s", dir, files[i]);
        char *text = evgen_test_read(from);
        assert_non_null(text);
        evgen_test_write(to, text);
        free(text);
        free(to);
        free(from);
    }
    char *evgen = evgen_test_format("%s/%s/evgen", fx.in.prefix, EVGEN_TEST_INSTALL_BINDIR);
    char *depfile = evgen_test_format("%s/app.d", out_dir);
    const char *argv[] = {evgen, "gen", "app_events.h", "-o", out_dir, "--name", "app", "--depfile", depfile, NULL};
    free(evgen_test_must_run(argv, dir));
    char *text = evgen_test_read(depfile);
    assert_non_null(text);
    char *target = evgen_test_format("%s/app_runtime.h: \\\n", out_dir);
    char *manifest = evgen_test_format("  %s/odd\\ \\#$$\\ dir/app_events.h \\\n", fx.in.tmp);
    char *header = evgen_test_format("  %s/odd\\ \\#$$\\ dir/app_types.h", fx.in.tmp);
    if (strncmp(text, target, strlen(target)) != 0 || !strstr(text, manifest) || !strstr(text, header))
        EVGEN_FAIL_LONG("unexpected depfile:\n%s", text);
    /* Without --lock, the lock is no prerequisite. */
    assert_null(strstr(text, ".lock"));

    struct stat before, after;
    assert_int_equal(stat(depfile, &before), 0);
    sleep(1); /* a rewrite would show in the modification time, whatever its granularity */
    char *again = evgen_test_must_run(argv, dir);
    assert_non_null(strstr(again, "unchanged"));
    assert_int_equal(stat(depfile, &after), 0);
    assert_true(before.st_mtim.tv_sec == after.st_mtim.tv_sec && before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
    free(again);
    free(header);
    free(manifest);
    free(target);
    free(text);
    free(depfile);
    free(evgen);
    free(out_dir);
    free(dir);
}

/* evgen's own tree uses the same function: manifest/gcevents.h's depfile, from this build. */
static void test_in_tree_depfile(void **state)
{
    (void)state;
    if (!strstr(EVGEN_TEST_GENERATOR, "Ninja") && !strstr(EVGEN_TEST_GENERATOR, "Makefiles"))
        skip(); /* this generator takes no depfile: evgen_add_manifest falls back */
    if (strpbrk(EVGEN_SOURCE_DIR EVGEN_BINARY_DIR, " #$"))
        skip(); /* the paths below would be escaped: test_depfile_escaping checks that */
    const char *depfile = EVGEN_BINARY_DIR "/manifest/evgen/gcevents/gcevents.d";
    char *text = evgen_test_read(depfile);
    if (!text)
        fail_msg("%s was not written", depfile);
    const char *target = EVGEN_BINARY_DIR "/manifest/evgen/gcevents/gcevents_runtime.h: \\\n";
    if (strncmp(text, target, strlen(target)) != 0 ||
        !strstr(text, "  " EVGEN_SOURCE_DIR "/manifest/gcevents.h \\\n") ||
        !strstr(text, "  " EVGEN_SOURCE_DIR "/manifest/gcevents.lock\n") || strstr(text, "evgen-builtin"))
        EVGEN_FAIL_LONG("unexpected depfile %s:\n%s", depfile, text);
    free(text);
}

/* ---- pkg-config -------------------------------------------------------------------------------- */

static void test_pkg_config(void **state)
{
    (void)state;
    if (!EVGEN_TEST_PKG_CONFIG_EXE[0])
        fail_msg("pkg-config not found: install it (scripts/deps.sh installs pkg-config)");
    char *pc_path = evgen_test_format("%s/%s/pkgconfig", fx.in.prefix, EVGEN_TEST_INSTALL_LIBDIR);
    setenv("PKG_CONFIG_PATH", pc_path, 1);

    const char *modversion[] = {EVGEN_TEST_PKG_CONFIG_EXE, "--modversion", "evgen-runtime", "evgen-reader", NULL};
    char *out = evgen_test_must_run(modversion, NULL);
    char *expected = evgen_test_format("%s\n%s\n", EVGEN_TEST_PROJECT_VERSION, EVGEN_TEST_PROJECT_VERSION);
    assert_string_equal(out, expected);
    free(expected);
    free(out);

    const char *flags[] = {EVGEN_TEST_PKG_CONFIG_EXE, "--cflags", "--libs", "evgen-runtime", "evgen-reader", NULL};
    out = evgen_test_must_run(flags, NULL);
    if (!strstr(out, "-I") || !strstr(out, "-levgen_runtime") || !strstr(out, "-levgen_reader") ||
        !strstr(out, "-levgen_wire") || !strstr(out, "-lpthread"))
        fail_msg("pkg-config --cflags --libs evgen-runtime evgen-reader: %s", out);
    free(out);

    /* The include directory it names is the install's. */
    const char *includedir[] = {EVGEN_TEST_PKG_CONFIG_EXE, "--variable=includedir", "evgen-runtime", NULL};
    out = evgen_test_must_run(includedir, NULL);
    out[strcspn(out, "\n")] = '\0';
    char *header = evgen_test_format("%s/evgen/runtime.h", out);
    if (!evgen_test_exists(header))
        fail_msg("pkg-config's includedir %s has no evgen/runtime.h", out);
    free(header);
    free(out);

    /* One file, compiled and linked with the flags pkg-config gives, then run. */
    char *program = evgen_test_format("%s/pkgconfig_main", fx.in.tmp);
    const char *compile[] = {"/bin/sh", "-c",
                             "\"$1\" $2 \"$3\" -o \"$4\" $5 $(\"$6\" --cflags --libs evgen-runtime evgen-reader)",
                             "sh", EVGEN_TEST_C_COMPILER, EVGEN_TEST_C_FLAGS,
                             EVGEN_SOURCE_DIR "/tests/install/pkgconfig_main.c", program,
                             EVGEN_TEST_LINKER_FLAGS, EVGEN_TEST_PKG_CONFIG_EXE, NULL};
    free(evgen_test_must_run(compile, NULL));
    const char *prog[] = {program, NULL};
    out = evgen_test_must_run(prog, NULL);
    assert_non_null(strstr(out, "ok: "));
    free(out);
    free(program);
    unsetenv("PKG_CONFIG_PATH");
    free(pc_path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_installed_files),
        cmocka_unit_test(test_project_builds_and_runs),
        cmocka_unit_test(test_regeneration_ninja),
        cmocka_unit_test(test_regeneration_make),
        cmocka_unit_test(test_depfile_escaping),
        cmocka_unit_test(test_in_tree_depfile),
        cmocka_unit_test(test_pkg_config),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
