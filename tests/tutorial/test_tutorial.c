/* test_tutorial.c — docs/tutorial.md ("Add a field to an event"), replayed in a temporary copy.
 *
 * Each copy holds manifest/, tests/traces/gcevents/ and the files of tests/tutorial/project (a
 * CMake project that uses evgen_add_manifest() from cmake/EvgenAddManifest.cmake with this build's
 * evgen and libraries), so the manifest is `manifest/gcevents.h` relative to the project, as in
 * evgen's tree, and every message reads as the tutorial prints it.
 *
 * - Appending `EVENT_FIELD(GCHeapStats, 3, uint64_t, GenerationSize5)`: the build regenerates
 *   (FireEtwGCHeapStats_V3, the GenerationSize5 accessors), `evgen check` names GCHeapStats v3 not
 *   yet locked, `evgen lock --traces` records the next golden trace holding GCHeapStats v3 alone and
 *   leaves every earlier one byte-identical, and the regenerated reader reads every golden trace,
 *   each accessor agreeing with the trace's own description of the event.
 * - From a fresh copy, a field inserted into version 1 and a field of version 0 retyped stop the
 *   build with exactly the file:line:col error and the note docs/tutorial.md shows: both are read
 *   from the document, so the document and this test cannot drift apart.
 *
 * The source tree is only read. The temporary directory is removed at the end, unless
 * EVGEN_TEST_KEEP is set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_support.h"
#include "tutorial_config.h"

#define TUTORIAL_MD EVGEN_SOURCE_DIR "/docs/tutorial.md"
#define MANIFEST_REL "manifest/gcevents.h"
#define GOLDEN_REL "tests/traces/gcevents"
#define GENERATING "evgen: generating gcevents from manifest/gcevents.h"

/* The edits of the tutorial: the line after which the new field goes, and the two mistakes. */
#define LAST_V2_FIELD "EVENT_FIELD(GCHeapStats, 2, uint64_t, TotalPromotedSize4)"
#define NEW_FIELD "EVENT_FIELD(GCHeapStats, 3, uint64_t, GenerationSize5)"
#define CLR_INSTANCE_ID "EVENT_FIELD(GCHeapStats, 1, uint16_t, ClrInstanceID)"
#define INSERTED_FIELD "EVENT_FIELD(GCHeapStats, 1, uint64_t, GenerationSize5)"
#define PINNED_V0 "EVENT_FIELD(GCHeapStats, 0, uint32_t, PinnedObjectCount)"
#define PINNED_RETYPED "EVENT_FIELD(GCHeapStats, 0, uint64_t, PinnedObjectCount)"

static struct {
    char *tmp;            /* every copy lives here; removed at the end */
    char *doc;            /* docs/tutorial.md */
    char *manifest;       /* manifest/gcevents.h of the source tree, as the test started */
    char *mistakes;       /* the fresh copy of the two mistakes, configured once */
    size_t source_traces; /* files in the source tree's tests/traces/gcevents */
} fx;

static void must_contain(const char *text, const char *needle, const char *what)
{
    if (!strstr(text, needle))
        EVGEN_FAIL_LONG("%s does not hold\n  %s\nit is:\n%s", what, needle, text);
}

/* A whole file with its size (binary), or NULL. */
static unsigned char *read_bytes(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0, n;
    unsigned char *buf = malloc(cap);
    while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *size = len;
    return buf;
}

/* ---- the document -------------------------------------------------------------------------- */

/* The first line of the tutorial that starts with `prefix` and holds `needle`, from `from` on
 * (NULL: the whole line), as a new string; the test fails if the tutorial has none. */
static char *doc_line(const char *prefix, const char *needle, const char *from)
{
    for (const char *line = fx.doc; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *copy = evgen_test_format("%.*s", (int)len, line);
        const char *at = from ? strstr(copy, from) : copy;
        if (strncmp(copy, prefix, strlen(prefix)) == 0 && strstr(copy, needle) && at) {
            char *result = strdup(at);
            free(copy);
            return result;
        }
        free(copy);
        line = end ? end + 1 : NULL;
    }
    EVGEN_FAIL_LONG("docs/tutorial.md has no line starting with '%s' that holds '%s'", prefix, needle);
    return NULL;
}

/* The value the tutorial's dump shows for GCHeapStats v3's GenerationSize5 in the golden trace. */
static char *doc_golden_generation_size5(void)
{
    char *line = doc_line("", "GCHeapStats_V3 ", "GenerationSize5=");
    size_t digits = strspn(line + strlen("GenerationSize5="), "0123456789");
    assert_true(digits > 0);
    char *value = evgen_test_format("%.*s", (int)digits, line + strlen("GenerationSize5="));
    free(line);
    return value;
}

/* ---- copies of the project ----------------------------------------------------------------- */

/* A fresh copy in tmp/NAME: manifest/, tests/traces/gcevents/ and tests/tutorial/project's files. */
static char *copy_project(const char *name)
{
    char *root = evgen_test_format("%s/%s", fx.tmp, name);
    char *traces = evgen_test_format("%s/tests/traces", root);
    const char *mkdir_argv[] = {"/bin/mkdir", "-p", traces, NULL};
    free(evgen_test_must_run(mkdir_argv, NULL));
    const char *manifest_argv[] = {"/bin/cp", "-R", EVGEN_SOURCE_DIR "/manifest", root, NULL};
    free(evgen_test_must_run(manifest_argv, NULL));
    const char *traces_argv[] = {"/bin/cp", "-R", EVGEN_SOURCE_DIR "/" GOLDEN_REL, traces, NULL};
    free(evgen_test_must_run(traces_argv, NULL));
    const char *project_argv[] = {"/bin/cp",
                                  EVGEN_SOURCE_DIR "/tests/tutorial/project/CMakeLists.txt",
                                  EVGEN_SOURCE_DIR "/tests/tutorial/project/read_golden.c",
                                  EVGEN_SOURCE_DIR "/tests/tutorial/project/fire_v3.c",
                                  root,
                                  NULL};
    free(evgen_test_must_run(project_argv, NULL));
    free(traces);
    return root;
}

static void configure(const char *root)
{
    char *build = evgen_test_format("%s/build", root);
    char *make_arg = evgen_test_format("-DCMAKE_MAKE_PROGRAM=%s", EVGEN_TUTORIAL_MAKE_PROGRAM);
    char *cc_arg = evgen_test_format("-DCMAKE_C_COMPILER=%s", EVGEN_TUTORIAL_C_COMPILER);
    char *cflags_arg = evgen_test_format("-DCMAKE_C_FLAGS=-Wall -Wextra -Werror %s", EVGEN_TUTORIAL_C_FLAGS);
    char *ldflags_arg = evgen_test_format("-DCMAKE_EXE_LINKER_FLAGS=%s", EVGEN_TUTORIAL_LINKER_FLAGS);
    const char *argv[] = {EVGEN_TUTORIAL_CMAKE_EXE,
                          "-S",
                          root,
                          "-B",
                          build,
                          "-G",
                          EVGEN_TUTORIAL_GENERATOR,
                          make_arg,
                          cc_arg,
                          cflags_arg,
                          ldflags_arg,
                          "-DEVGEN_SOURCE_DIR=" EVGEN_SOURCE_DIR,
                          "-DEVGEN_EXECUTABLE=" EVGEN_EXE,
                          "-DEVGEN_RUNTIME_LIBRARY=" EVGEN_TUTORIAL_RUNTIME_LIBRARY,
                          "-DEVGEN_WIRE_LIBRARY=" EVGEN_TUTORIAL_WIRE_LIBRARY,
                          "-DEVGEN_READER_LIBRARY=" EVGEN_TUTORIAL_READER_LIBRARY,
                          NULL};
    free(evgen_test_must_run(argv, NULL));
    free(ldflags_arg);
    free(cflags_arg);
    free(cc_arg);
    free(make_arg);
    free(build);
}

/* `cmake --build ROOT/build [--target TARGET]`: its exit status and output. */
static int build(const char *root, const char *target, char **output)
{
    char *dir = evgen_test_format("%s/build", root);
    const char *argv[] = {EVGEN_TUTORIAL_CMAKE_EXE, "--build", dir, target ? "--target" : NULL, target, NULL};
    int rc = evgen_test_run_merged(argv, NULL, output);
    free(dir);
    return rc;
}

static char *must_build(const char *root, const char *target)
{
    char *output = NULL;
    if (build(root, target, &output) != 0)
        EVGEN_FAIL_LONG("the build of %s failed:\n%s", root, output);
    return output;
}

/* Replaces the first `from` of ROOT/manifest/gcevents.h by `to`. */
static void edit_manifest(const char *root, const char *from, const char *to)
{
    char *path = evgen_test_format("%s/" MANIFEST_REL, root);
    char *text = evgen_test_read(path);
    assert_non_null(text);
    char *edited = evgen_test_replace(text, from, to);
    if (!edited)
        EVGEN_FAIL_LONG("%s has no line %s", path, from);
    evgen_test_write(path, edited);
    free(edited);
    free(text);
    free(path);
}

static char *evgen(const char *root, const char *command, const char *arg, int expect_rc)
{
    const char *argv[] = {EVGEN_EXE, command, MANIFEST_REL, arg ? "--traces" : NULL, arg, NULL};
    char *output = NULL;
    int rc = evgen_test_run_merged(argv, root, &output);
    if (rc != expect_rc)
        EVGEN_FAIL_LONG("evgen %s exited with %d, not %d:\n%s", command, rc, expect_rc, output);
    return output;
}

/* ---- golden traces ------------------------------------------------------------------------- */

typedef struct golden_file {
    char *name;
    unsigned char *bytes;
    size_t size;
} golden_file;

/* Every file of DIR (golden traces and their lock snapshots), with its bytes; returns the count
 * and the largest NNNN of a gcevents-NNNN.evtrace in *last. */
static size_t read_golden_dir(const char *dir, golden_file **files, unsigned *last)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    *files = NULL;
    *last = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        *files = realloc(*files, (n + 1) * sizeof **files);
        golden_file *f = &(*files)[n++];
        f->name = strdup(e->d_name);
        char *path = evgen_test_format("%s/%s", dir, e->d_name);
        f->bytes = read_bytes(path, &f->size);
        assert_non_null(f->bytes);
        free(path);
        unsigned number;
        char tail[16];
        if (sscanf(e->d_name, "gcevents-%4u.%15s", &number, tail) == 2 && strcmp(tail, "evtrace") == 0 &&
            number > *last)
            *last = number;
    }
    closedir(d);
    return n;
}

static void free_golden(golden_file *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(files[i].name);
        free(files[i].bytes);
    }
    free(files);
}

/* ---- setup --------------------------------------------------------------------------------- */

static int group_setup(void **state)
{
    (void)state;
    fx.doc = evgen_test_read(TUTORIAL_MD);
    fx.manifest = evgen_test_read(EVGEN_SOURCE_DIR "/" MANIFEST_REL);
    if (!fx.doc || !fx.manifest) {
        fprintf(stderr, "cannot read %s or %s\n", TUTORIAL_MD, EVGEN_SOURCE_DIR "/" MANIFEST_REL);
        return -1;
    }
    golden_file *files;
    unsigned last;
    fx.source_traces = read_golden_dir(EVGEN_SOURCE_DIR "/" GOLDEN_REL, &files, &last);
    free_golden(files, fx.source_traces);
    fx.tmp = evgen_test_tempdir();
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    if (fx.tmp) {
        if (getenv("EVGEN_TEST_KEEP"))
            fprintf(stderr, "kept %s\n", fx.tmp);
        else
            evgen_test_rmtree(fx.tmp);
    }
    free(fx.tmp);
    free(fx.doc);
    free(fx.manifest);
    free(fx.mistakes);
    return 0;
}

/* ---- add a field ----------------------------------------------------------------------------- */

static void test_add_a_field(void **state)
{
    (void)state;
    char *root = copy_project("add-a-field");
    char *runtime_h = evgen_test_format("%s/build/evgen/gcevents/gcevents_runtime.h", root);
    char *reader_h = evgen_test_format("%s/build/evgen/gcevents/gcevents_reader.h", root);
    char *golden = evgen_test_format("%s/" GOLDEN_REL, root);
    configure(root);

    /* The manifest as shipped: GCHeapStats versions 0 to 2 (read_golden and fire_v3 use the new
     * field, so only the library is built). */
    char *out = must_build(root, "gcevents_reader");
    must_contain(out, GENERATING, "the first build");
    free(out);
    char *header = evgen_test_read(runtime_h);
    assert_non_null(header);
    assert_null(strstr(header, "FireEtwGCHeapStats_V3"));
    free(header);

    /* (a) Append the field, as the tutorial does. */
    char *doc_edit = doc_line("+" NEW_FIELD, "", NULL);
    free(doc_edit);
    edit_manifest(root, LAST_V2_FIELD "\n", LAST_V2_FIELD "\n" NEW_FIELD "\n");

    /* (b) The build regenerates both halves. */
    out = must_build(root, NULL);
    must_contain(out, GENERATING, "the build after the edit");
    free(out);
    header = evgen_test_read(runtime_h);
    must_contain(header, "uint32_t FireEtwGCHeapStats_V3(", "gcevents_runtime.h");
    must_contain(header, "#define FireEtwGCHeapStats FireEtwGCHeapStats_V3", "gcevents_runtime.h");
    free(header);
    header = evgen_test_read(reader_h);
    must_contain(header, "EVGEN_READER_FIXED(GCHeapStats, GenerationSize5, uint64_t,", "gcevents_reader.h");
    free(header);
    char *fire = evgen_test_format("%s/build/fire_v3", root);
    const char *fire_argv[] = {fire, NULL};
    out = evgen_test_must_run(fire_argv, root);
    must_contain(out, "fired GCHeapStats v3: GenerationSize5 = 5555, GenerationSize4 = 4444", "fire_v3");
    free(out);
    free(fire);

    /* `evgen check`: version 3 is not locked yet. */
    char *doc_check = doc_line("evgen check: manifest/gcevents.h matches", "not yet locked: GCHeapStats v3",
                               "not yet locked");
    out = evgen(root, "check", NULL, 0);
    must_contain(out, doc_check, "evgen check");
    free(out);
    free(doc_check);

    /* (c) `evgen lock --traces` records the next golden trace; the earlier files do not change. */
    golden_file *before;
    unsigned last;
    size_t n_before = read_golden_dir(golden, &before, &last);
    assert_true(n_before > 0 && last > 0);
    out = evgen(root, "lock", GOLDEN_REL, 0);
    must_contain(out, "newly locked: GCHeapStats v3", "evgen lock");
    char *recorded =
        evgen_test_format("evgen lock: golden trace " GOLDEN_REL "/gcevents-%04u.evtrace: 1 event versions\n",
                          last + 1);
    must_contain(out, recorded, "evgen lock");
    free(recorded);
    free(out);

    golden_file *after;
    unsigned last_after;
    size_t n_after = read_golden_dir(golden, &after, &last_after);
    assert_int_equal(last_after, last + 1);
    for (size_t i = 0; i < n_before; i++) {
        size_t j = 0;
        while (j < n_after && strcmp(after[j].name, before[i].name) != 0)
            j++;
        if (j == n_after)
            EVGEN_FAIL_LONG("evgen lock removed %s", before[i].name);
        if (after[j].size != before[i].size || memcmp(after[j].bytes, before[i].bytes, before[i].size) != 0)
            EVGEN_FAIL_LONG("evgen lock rewrote %s", before[i].name);
    }
    char *new_trace = evgen_test_format("%s/gcevents-%04u.evtrace", golden, last + 1);
    char *new_snapshot = evgen_test_format("%s/gcevents-%04u.lock", golden, last + 1);
    assert_true(evgen_test_exists(new_trace));
    assert_true(evgen_test_exists(new_snapshot)); /* the lock as it was when the trace was recorded */
    assert_int_equal(n_after, n_before + 2);
    free_golden(before, n_before);
    free_golden(after, n_after);

    /* The new golden trace holds GCHeapStats v3 alone, with the value the tutorial's dump shows. */
    char *value = doc_golden_generation_size5();
    const char *dump_argv[] = {EVGEN_EXE, "dump", new_trace, NULL};
    out = evgen_test_must_run(dump_argv, root);
    char *line = strchr(out, '\n');
    assert_non_null(line);
    assert_true(line[1] == '\n' || line[1] == '\0'); /* one event */
    must_contain(out, " GCHeapStats_V3 ", "evgen dump of the new golden trace");
    char *field = evgen_test_format(" GenerationSize5=%s\n", value);
    must_contain(out, field, "evgen dump of the new golden trace");
    free(field);
    free(out);

    out = evgen(root, "check", NULL, 0);
    assert_null(strstr(out, "not yet locked"));
    free(out);

    /* (d) The lock changed: the build runs evgen again; then every golden trace reads with the
     * regenerated reader, every accessor agreeing with the trace. */
    out = must_build(root, NULL);
    must_contain(out, GENERATING, "the build after evgen lock");
    free(out);
    char *reader = evgen_test_format("%s/build/read_golden", root);
    size_t argc = 1;
    const char **read_argv = calloc(last + 3, sizeof *read_argv);
    read_argv[0] = reader;
    for (unsigned k = 1; k <= last + 1; k++)
        read_argv[argc++] = evgen_test_format("%s/gcevents-%04u.evtrace", golden, k);
    out = evgen_test_must_run(read_argv, root);
    must_contain(out, "GCHeapStats v2: 16 fields, every accessor agrees with the trace; GenerationSize5 absent\n",
                 "read_golden");
    char *v3 = evgen_test_format(
        "GCHeapStats v3: 17 fields, every accessor agrees with the trace; GenerationSize5 = %s\n", value);
    must_contain(out, v3, "read_golden");
    assert_null(strstr(out, "NOT agree"));
    free(v3);
    free(out);
    for (size_t k = 1; k < argc; k++)
        free((char *)read_argv[k]);
    free(read_argv);
    free(reader);
    free(value);
    free(new_snapshot);
    free(new_trace);
    free(golden);
    free(reader_h);
    free(runtime_h);
    free(root);
}

/* ---- the two mistakes ---------------------------------------------------------------------- */

/* The fresh copy of the mistakes, configured once; its manifest is reset to the shipped one. */
static const char *mistakes_copy(void)
{
    if (!fx.mistakes) {
        fx.mistakes = copy_project("mistakes");
        configure(fx.mistakes);
    }
    char *path = evgen_test_format("%s/" MANIFEST_REL, fx.mistakes);
    evgen_test_write(path, fx.manifest);
    free(path);
    return fx.mistakes;
}

/* Applies a mistake to the fresh copy and checks that the build stops at evgen with the error and
 * the note the tutorial shows (its line holding `error_text`, its note holding `note_text`), that
 * nothing was generated, and that `evgen check` says the same. */
static void check_mistake(const char *from, const char *to, const char *doc_edit, const char *error_text,
                          const char *note_text)
{
    const char *root = mistakes_copy();
    char *edit = doc_line(doc_edit, "", NULL);
    free(edit);
    edit_manifest(root, from, to);
    char *error = doc_line(MANIFEST_REL ":", error_text, NULL);
    char *note = doc_line("", note_text, "manifest/gcevents.lock:");

    char *out = NULL;
    if (build(root, NULL, &out) == 0)
        EVGEN_FAIL_LONG("the build succeeded after the edit:\n%s", out);
    must_contain(out, GENERATING, "the build");
    char *error_line = evgen_test_format("\n%s\n", error);
    must_contain(out, error_line, "the build");
    char *note_line = evgen_test_format("/%s\n", note); /* the build passes evgen the lock's absolute path */
    must_contain(out, note_line, "the build");
    free(note_line);
    free(out);
    char *generated = evgen_test_format("%s/build/evgen/gcevents/gcevents_runtime.h", root);
    assert_false(evgen_test_exists(generated)); /* nothing is written */
    free(generated);

    out = evgen(root, "check", NULL, 1);
    char *check = evgen_test_format("%s\n%s\n", error, note);
    must_contain(out, check, "evgen check");
    free(check);
    free(out);
    free(error_line);
    free(note);
    free(error);
}

static void test_insert_a_field_into_version_1(void **state)
{
    (void)state;
    check_mistake(CLR_INSTANCE_ID "\n", INSERTED_FIELD "\n" CLR_INSTANCE_ID "\n", "+" INSERTED_FIELD,
                  ": error: field 'GenerationSize5' is inserted before 'ClrInstanceID' in locked version 1 of "
                  "'GCHeapStats' [compat-field]",
                  ": note: fields are only appended: move 'GenerationSize5' to the end");
}

static void test_retype_a_shipped_field(void **state)
{
    (void)state;
    check_mistake(PINNED_V0 "\n", PINNED_RETYPED "\n", "+" PINNED_RETYPED,
                  ": error: field 'PinnedObjectCount' of locked version 0 of 'GCHeapStats' is retyped: uint64, "
                  "locked as uint32 [compat-field]",
                  ": note: a shipped field keeps its type and size; add a new field");
}

/* The source tree was only read. */
static void test_source_tree_is_unchanged(void **state)
{
    (void)state;
    char *manifest = evgen_test_read(EVGEN_SOURCE_DIR "/" MANIFEST_REL);
    assert_non_null(manifest);
    assert_string_equal(manifest, fx.manifest);
    free(manifest);
    golden_file *files;
    unsigned last;
    size_t n = read_golden_dir(EVGEN_SOURCE_DIR "/" GOLDEN_REL, &files, &last);
    assert_int_equal(n, fx.source_traces);
    free_golden(files, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_a_field),
        cmocka_unit_test(test_insert_a_field_into_version_1),
        cmocka_unit_test(test_retype_a_shipped_field),
        cmocka_unit_test(test_source_tree_is_unchanged),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
