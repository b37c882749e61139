/* test_gen_compile.c — the generated code compiles warning-free (-Wall -Wextra -Wshadow -Werror
 * -pedantic) as C99 and as C++11, with gcc and with clang, with events on and compiled out
 * (EVGEN_DISABLE), with the emit's inlining left to the compiler (EVGEN_EMIT_NO_FORCED_INLINE), and
 * calling the out-of-line FireEtw functions (EVGEN_FIRE_OUT_OF_LINE): NAME_runtime.c (which defines
 * those), NAME_reader.c, NAME_fire_all.c and a file using FIRE_EVENT. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>

#include <cmocka.h>

#include "test_support.h"

typedef struct compiler {
    const char *exe;
    const char *std; /* -std=... */
    const char *lang; /* -x ... */
} compiler;

static const compiler compilers[] = {
    {"gcc", "-std=c99", "c"},
    {"clang", "-std=c99", "c"},
    {"g++", "-std=c++11", "c++"},
    {"clang++", "-std=c++11", "c++"},
};

static const char *const sources[] = {
    EVGEN_GENERATED_DIR "/gcevents_runtime.c",
    EVGEN_GENERATED_DIR "/gcevents_fire_all.c",
    EVGEN_GENERATED_DIR "/gcevents_reader.c",
    EVGEN_GENERATED_DIR "/gcevents_read_all.c",
    EVGEN_SOURCE_DIR "/tests/gen/use_fire_event.c",
};

/* `pedantic` is off only for a manifest that is not ISO C itself (an enum wider than int). */
/* How a compilation defines the build: events on (FireEtw inlined where called), compiled out, on
 * with the compiler choosing what to inline, or on calling the out-of-line FireEtw functions. */
static const char *const build_defines[] = {"-DEVGEN_ENABLED_BUILD", "-DEVGEN_DISABLE", "-DEVGEN_EMIT_NO_FORCED_INLINE",
                                            "-DEVGEN_FIRE_OUT_OF_LINE"};
#define N_BUILDS (sizeof build_defines / sizeof build_defines[0])

static int compile_flags(const compiler *c, const char *source, int build, const char *generated_dir,
                         const char *manifest_dir, int pedantic, char **err)
{
    char gen_include[4200], manifest_include[4200];
    snprintf(gen_include, sizeof gen_include, "-I%s", generated_dir);
    snprintf(manifest_include, sizeof manifest_include, "-I%s", manifest_dir);
    const char *argv[] = {"/usr/bin/env", c->exe, c->std, "-x", c->lang, "-Wall", "-Wextra", "-Wshadow", "-Werror",
                          pedantic ? "-pedantic" : "-Wno-pedantic", "-fsyntax-only",
                          build_defines[build], gen_include, manifest_include,
                          "-I" EVGEN_SOURCE_DIR "/manifest", "-I" EVGEN_SOURCE_DIR "/wire/include",
                          "-I" EVGEN_SOURCE_DIR "/runtime-side/include",
                          "-I" EVGEN_SOURCE_DIR "/reader-side/include", source, NULL};
    char *out = NULL;
    int status = evgen_test_run(argv, NULL, &out, err);
    free(out);
    return status;
}

static int compile(const compiler *c, const char *source, int build, char **err)
{
    return compile_flags(c, source, build, EVGEN_GENERATED_DIR, EVGEN_SOURCE_DIR "/manifest", 1, err);
}

/* Whether the manifest a generated header includes is pedantic-clean on its own. */
static int manifest_is_pedantic_clean(const compiler *c, const char *dir, const char *name)
{
    char header[8400], stub[8400];
    snprintf(header, sizeof header, "%s/%s_runtime.h", dir, name);
    char *text = evgen_test_read(header);
    const char *inc = text ? strstr(text, "#include \"") : NULL;
    if (!inc) {
        free(text);
        return 1;
    }
    const char *start = inc + 10, *end = strchr(start, '"');
    snprintf(stub, sizeof stub, "%s/manifest_alone.c", dir);
    char *line = malloc((size_t)(end - start) + 32);
    sprintf(line, "#include \"%.*s\"\n", (int)(end - start), start);
    evgen_test_write(stub, line);
    char *err = NULL;
    int status = compile_flags(c, stub, 0, dir, EVGEN_SOURCE_DIR "/tests/manifests/good", 1, &err);
    free(err);
    free(line);
    free(text);
    return status == 0;
}

static void test_generated_code_compiles_everywhere(void **state)
{
    (void)state;
    size_t failures = 0, runs = 0;
    for (size_t c = 0; c < sizeof compilers / sizeof compilers[0]; c++) {
        for (size_t s = 0; s < sizeof sources / sizeof sources[0]; s++) {
            for (int build = 0; build < (int)N_BUILDS; build++) {
                char *err = NULL;
                int status = compile(&compilers[c], sources[s], build, &err);
                runs++;
                if (status != 0 || (err && err[0])) {
                    fprintf(stderr, "%s %s %s %s: exit %d\n%s\n", compilers[c].exe, compilers[c].std,
                            build_defines[build], sources[s], status, err ? err : "");
                    failures++;
                }
                free(err);
            }
        }
    }
    printf("%zu compilations, %zu failed\n", runs, failures);
    assert_int_equal(runs, 80);
    assert_int_equal(failures, 0);
}

/* The banner names the manifest by its relative path and the generator's version, and nothing
 * varies between runs (no timestamp, no absolute path). */
static void test_banner_and_determinism(void **state)
{
    (void)state;
    char *header = evgen_test_read(EVGEN_GENERATED_DIR "/gcevents_runtime.h");
    assert_non_null(header);
    assert_true(strncmp(header, "/* Generated by" " evgen ", 22) == 0); /* split: hooks grep for it */
    assert_non_null(strstr(header, " from manifest/gcevents.h. DO NOT EDIT."));
    assert_null(strstr(header, EVGEN_SOURCE_DIR));
    char *dir = evgen_test_tempdir();
    const char *argv[] = {EVGEN_EXE, "gen", "manifest/gcevents.h", "-o", dir, "--quiet", NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(evgen_test_run(argv, EVGEN_SOURCE_DIR, &out, &err), 0);
    char path[4096];
    snprintf(path, sizeof path, "%s/gcevents_runtime.h", dir);
    char *again = evgen_test_read(path);
    assert_non_null(again);
    assert_string_equal(again, header);
    evgen_test_rmtree(dir);
    free(again);
    free(out);
    free(err);
    free(dir);
    free(header);
}

static int run_gen(const char *manifest, const char *out_dir, const char *lock, char **err)
{
    const char *argv[] = {EVGEN_EXE, "gen", manifest, "-o", out_dir, "--quiet", lock ? "--lock" : NULL, lock, NULL};
    char *out = NULL;
    int status = evgen_test_run(argv, EVGEN_SOURCE_DIR, &out, err);
    free(out);
    return status;
}

/* A file whose content did not change is not rewritten (its modification time stays), and with
 * --lock a breaking change writes nothing at all. */
static void test_unchanged_files_are_not_rewritten_and_breaks_write_nothing(void **state)
{
    (void)state;
    char *dir = evgen_test_tempdir();
    char *err = NULL;
    assert_int_equal(run_gen("manifest/gcevents.h", dir, NULL, &err), 0);
    free(err);
    char path[8192];
    snprintf(path, sizeof path, "%s/gcevents_runtime.c", dir);
    struct stat before, after;
    assert_int_equal(stat(path, &before), 0);
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    assert_int_equal(run_gen("manifest/gcevents.h", dir, "manifest/gcevents.lock", &err), 0);
    free(err);
    assert_int_equal(stat(path, &after), 0);
    assert_true(before.st_mtim.tv_sec == after.st_mtim.tv_sec && before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);

    /* A retyped GenerationSize4: gen --lock stops at the manifest line, no file is touched. */
    char *text = evgen_test_read(EVGEN_SOURCE_DIR "/manifest/gcevents.h");
    char *broken = evgen_test_replace(text, "EVENT_FIELD(GCHeapStats, 2, uint64_t, GenerationSize4)",
                                      "EVENT_FIELD(GCHeapStats, 2, uint32_t, GenerationSize4)");
    assert_non_null(broken);
    char manifest[4096], out_dir[4096];
    snprintf(manifest, sizeof manifest, "%s/gcevents.h", dir);
    snprintf(out_dir, sizeof out_dir, "%s/out", dir);
    evgen_test_write(manifest, broken);
    assert_int_equal(mkdir(out_dir, 0755), 0);
    assert_int_equal(run_gen(manifest, out_dir, "manifest/gcevents.lock", &err), 1);
    assert_non_null(strstr(err, "gcevents.h:"));
    assert_non_null(strstr(err, "is retyped"));
    free(err);
    snprintf(path, sizeof path, "%s/gcevents_runtime.h", out_dir);
    assert_null(evgen_test_read(path));
    evgen_test_rmtree(dir);
    free(broken);
    free(text);
    free(dir);
}

/* Without --name, the manifest's file name, made a C identifier, prefixes files and symbols. */
static void test_default_name_is_a_c_identifier(void **state)
{
    (void)state;
    char *dir = evgen_test_tempdir();
    char *err = NULL;
    assert_int_equal(run_gen("tests/manifests/good/all-types.h", dir, NULL, &err), 0);
    free(err);
    char path[8192];
    snprintf(path, sizeof path, "%s/all_types_runtime.h", dir);
    char *header = evgen_test_read(path);
    assert_non_null(header);
    assert_non_null(strstr(header, "extern evgen_manifest_desc all_types_manifest;"));
    free(header);
    const char *argv[] = {EVGEN_EXE, "gen", "manifest/gcevents.h", "-o", dir, "--name", "gc-events", NULL};
    char *out = NULL;
    assert_int_equal(evgen_test_run(argv, EVGEN_SOURCE_DIR, &out, &err), 2);
    assert_non_null(strstr(err, "--name 'gc-events' is not a C identifier"));
    free(out);
    free(err);
    evgen_test_rmtree(dir);
    free(dir);
}

/* The same for the code generated from every good manifest of the corpus (tests/gen builds them
 * into EVGEN_GOOD_GENERATED_DIR/good_<name>/): C99 and C++11, gcc and clang. */
static void test_every_good_manifest_compiles_everywhere(void **state)
{
    (void)state;
    DIR *d = opendir(EVGEN_GOOD_GENERATED_DIR);
    assert_non_null(d);
    size_t runs = 0, failures = 0, manifests = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (strncmp(entry->d_name, "good_", 5) != 0)
            continue;
        manifests++;
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", EVGEN_GOOD_GENERATED_DIR, entry->d_name);
        static const char *const suffixes[] = {"_runtime.c", "_fire_all.c", "_reader.c", "_read_all.c"};
        for (size_t k = 0; k < 4; k++) {
            char source[8400];
            snprintf(source, sizeof source, "%s/%s%s", dir, entry->d_name, suffixes[k]);
            for (size_t c = 0; c < sizeof compilers / sizeof compilers[0]; c++) {
                char *err = NULL;
                int pedantic = manifest_is_pedantic_clean(&compilers[c], dir, entry->d_name);
                int status = compile_flags(&compilers[c], source, 0, dir, EVGEN_SOURCE_DIR "/tests/manifests/good",
                                           pedantic, &err);
                runs++;
                if (status != 0 || (err && err[0])) {
                    fprintf(stderr, "%s %s %s: exit %d\n%s\n", compilers[c].exe, compilers[c].std, source, status,
                            err ? err : "");
                    failures++;
                }
                free(err);
            }
        }
    }
    closedir(d);
    printf("%zu manifests, %zu compilations, %zu failed\n", manifests, runs, failures);
    assert_true(manifests >= 8);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_code_compiles_everywhere),
        cmocka_unit_test(test_every_good_manifest_compiles_everywhere),
        cmocka_unit_test(test_banner_and_determinism),
        cmocka_unit_test(test_unchanged_files_are_not_rewritten_and_breaks_write_nothing),
        cmocka_unit_test(test_default_name_is_a_c_identifier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
