/* test_lockfile.c — the lock file format: what evgen lock renders parses back to the same
 * layouts (provider names with spaces, quotes and '#'), and malformed lock files are reported at
 * the right line and column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/pipeline.h"
#include "backends/manifest_desc.h"
#include "lock/lock_model.h"
#include "model/util.h"

static void load_model(const char *text, evgen_model *model)
{
    evgen_frontend_options opts = {"/virtual/lock_test.h", NULL, 0, text, NULL};
    evgen_diags diags;
    evgen_diags_init(&diags);
    evgen_model_init(model);
    int rc = evgen_load_manifest(&opts, model, &diags);
    evgen_diags_print(&diags, stderr);
    evgen_diags_free(&diags);
    assert_int_equal(rc, 0);
}

static void test_render_parses_back(void **state)
{
    (void)state;
    const char *text = "#include <evgen/manifest.h>\n"
                       "#ifndef T\n#define T\ntypedef struct Item { uint16_t A; uint64_t B; } Item;\n#endif\n"
                       "EVENT_PROVIDER(P, \"My \\\"odd\\\" provider #1\")\n"
                       "KNOWN_EVENT(E, 7, P, 4, 1)\n"
                       "EVENT_LEGACY_FIELD(E, 0, uint16_t, N)\n"
                       "EVENT_FIELD(E, 0, uint32_t, N)\n"
                       "EVENT_FIELD(E, 1, evgen_utf16z, Name)\n"
                       "EVENT_ARRAY(E, 1, Item, Items, N)\n";
    evgen_model model;
    load_model(text, &model);
    char *rendered = evgen_lock_render(&model);
    evgen_lock lock;
    evgen_diags diags;
    evgen_diags_init(&diags);
    assert_int_equal(evgen_lock_parse("x.lock", rendered, &lock, &diags), 0);
    assert_int_equal(lock.n_events, 1);
    const evgen_lock_event *e = &lock.events[0];
    assert_string_equal(e->name, "E");
    assert_int_equal(e->id, 7);
    assert_string_equal(e->provider, "My \"odd\" provider #1");
    assert_int_equal(e->n_versions, 2);
    assert_true(e->versions[0].legacy);
    assert_string_equal(e->versions[0].fields[0].signature, "uint16");
    assert_false(e->versions[1].legacy);
    assert_int_equal(e->versions[1].n_fields, 3);
    assert_string_equal(e->versions[1].fields[1].signature, "utf16z");
    assert_string_equal(e->versions[1].fields[2].signature, "array<struct{A:uint16@0,B:uint64@8}/16>[N]");
    /* And the model matches what it just locked. */
    assert_int_equal(evgen_compat_check(&model, &lock, EVGEN_COMPAT_CHECK, &diags), 0);
    evgen_lock_free(&lock);
    evgen_diags_free(&diags);
    free(rendered);
    evgen_model_free(&model);
}

static void expect_lock_error(const char *text, unsigned line, unsigned col, const char *message)
{
    evgen_lock lock;
    evgen_diags diags;
    evgen_diags_init(&diags);
    assert_int_equal(evgen_lock_parse("bad.lock", text, &lock, &diags), -1);
    assert_true(diags.n_errors >= 1);
    const evgen_diagnostic *d = &diags.items[0];
    if (d->line != line || d->col != col || !strstr(d->message, message))
        fail_msg("expected bad.lock:%u:%u: ...%s..., got %s:%u:%u: %s", line, col, message, d->file, d->line,
                 d->col, d->message);
    assert_int_equal(d->code, EVGEN_D_LOCK_SYNTAX);
    evgen_diags_free(&diags);
}

static void test_malformed_lock_files(void **state)
{
    (void)state;
    expect_lock_error("", 1, 1, "empty lock file");
    expect_lock_error("# only a comment\nevgen-lock 99\n", 2, 1, "lock format 99 is not supported");
    expect_lock_error("not-a-lock\n", 1, 1, "expected 'evgen-lock 1'");
    expect_lock_error("evgen-lock 1\n  version 0\n", 2, 3, "inside an event");
    expect_lock_error("evgen-lock 1\nevent E id 1 provider \"unterminated\n", 2, 1, "unterminated quoted string");
    expect_lock_error("evgen-lock 1\nevent E id x provider P\n", 2, 1, "expected 'event NAME id N provider");
    expect_lock_error("evgen-lock 1\nevent E id 1 provider P\n  field A uint32 @0\n", 3, 3, "inside a version");
    expect_lock_error("evgen-lock 1\nevent E id 1 provider P\n  version 256\n", 3, 3, "version N");
    expect_lock_error("evgen-lock 1\nbogus line\n", 2, 1, "unexpected 'bogus'");
}

/* A lock with one event whose second field has the signature `sig`: its model, rebuilt as
 * `evgen gen --from-lock` does; 0 if the lock is taken. A lock taken must give metadata that a
 * reader decodes (the trace metadata of that manifest), so every back end can print it. */
static int model_from_signature(const char *sig, char **first_error)
{
    char *text = evgen_xasprintf("evgen-lock 1\n\nevent Ev id 1 provider \"P\"\n  version 0\n"
                                 "    field Count uint32 @0\n    field Items %s @4\n",
                                 sig);
    evgen_diags diags;
    evgen_diags_init(&diags);
    evgen_lock lock;
    assert_int_equal(evgen_lock_parse("t.lock", text, &lock, &diags), 0);
    evgen_model model;
    evgen_model_init(&model);
    int rc = evgen_model_from_lock(&lock, &model, &diags);
    *first_error = diags.count ? evgen_diag_format(&diags.items[0]) : NULL;
    if (rc == 0 && evgen_model_metadata_check(&model, &diags) != 0) {
        char *why = evgen_diag_format(&diags.items[diags.count - 1]);
        fail_msg("the lock of '%s' was taken, but its metadata does not decode: %s", sig, why);
    }
    evgen_model_free(&model);
    evgen_lock_free(&lock);
    evgen_diags_free(&diags);
    free(text);
    return rc;
}

/* The model rebuilt from a lock takes only what a trace's metadata can hold, and reads numbers
 * whole: what it takes, every back end prints and the reader decodes (fuzz_lockfile's findings). */
static void test_lock_model_takes_only_what_traces_hold(void **state)
{
    (void)state;
    static const char *const taken[] = {
        "array<uint32>[Count]",
        "array<guid>[Count]",
        "array<struct{A:uint16@0,B:uint64@8}/16>[Count]",
        "array<struct{Name:utf8z@0,N:uint32@0}/var>[Count]",
        "array<struct{Name:utf16z@0,P:ptr@0}/var>[Count]",
    };
    static const char *const refused[] = {
        "array<utf8z>[Count]",                                    /* an array of strings */
        "array<utf16z>[Count]",
        "array<struct{Name:utf8z@0,Inner:struct@0}/var>[Count]", /* a struct member of a struct */
        "array<struct{A:struct@0}/8>[Count]",
        "array<struct{A:uint32@0}/8x>[Count]",                    /* numbers read whole */
        "array<struct{A:uint32@0}/4294967300>[Count]",
        "array<struct{A:uint32@0x}/8>[Count]",
        "array<struct{A:uint32@}/8>[Count]",
        "array<struct{A:uint32@0}/varx>[Count]",
        "array<uint32>[Count]x",
        "array<struct{A:utf8z@0}/8>[Count]",                      /* a string in a fixed struct */
    };
    for (size_t i = 0; i < sizeof taken / sizeof *taken; i++) {
        char *error;
        if (model_from_signature(taken[i], &error) != 0)
            fail_msg("'%s' refused: %s", taken[i], error ? error : "?");
        free(error);
    }
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char *error;
        if (model_from_signature(refused[i], &error) == 0)
            fail_msg("'%s' taken", refused[i]);
        /* at the field's line, naming the signature */
        if (!error || !strstr(error, "t.lock:6:") || !strstr(error, refused[i]))
            fail_msg("'%s': %s", refused[i], error ? error : "no error");
        free(error);
    }
}

/* A legacy version holds scalars and strings only, in a lock as in a manifest: an array there
 * (whose count no other version's field may give it) is refused at its line. */
static void test_lock_legacy_array_refused(void **state)
{
    (void)state;
    static const char *const locks[] = {
        "evgen-lock 1\nevent E id 1 provider P\n  version 0 legacy\n    field A array<uint32>[N] @0\n"
        "  version 1\n    field N uint16 @0\n",
        "evgen-lock 1\nevent E id 1 provider P\n  version 0 legacy\n    field N uint16 @0\n"
        "    field A array<uint32>[N] @2\n  version 1\n    field N uint16 @0\n",
    };
    static const unsigned lines[] = {4, 5};
    for (size_t i = 0; i < sizeof locks / sizeof *locks; i++) {
        evgen_diags diags;
        evgen_diags_init(&diags);
        evgen_lock lock;
        assert_int_equal(evgen_lock_parse("l.lock", locks[i], &lock, &diags), 0);
        evgen_model model;
        evgen_model_init(&model);
        assert_int_equal(evgen_model_from_lock(&lock, &model, &diags), -1);
        const evgen_diagnostic *d = &diags.items[0];
        if (d->line != lines[i] || !strstr(d->message, "legacy field 'A' of 'E' is an array"))
            fail_msg("lock %zu: %s:%u: %s", i, d->file, d->line, d->message);
        evgen_model_free(&model);
        evgen_lock_free(&lock);
        evgen_diags_free(&diags);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_parses_back),
        cmocka_unit_test(test_malformed_lock_files),
        cmocka_unit_test(test_lock_model_takes_only_what_traces_hold),
        cmocka_unit_test(test_lock_legacy_array_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
