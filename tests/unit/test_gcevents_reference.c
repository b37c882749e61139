/* test_gcevents_reference.c — manifest/gcevents.h mirrors CoreCLR exactly: every row of
 * ../shared/reference/gc-templates.tsv (CoreCLR's ClrEtwAll.man templates) is compared with the
 * model evgen builds from the manifest — event, provider, id, version, level, keywords, field
 * order, names, sizes and offsets — and so is every row of extra_rows below, the GC events a real
 * .NET Core 3.0 EventPipe trace holds (../shared/reference/traces) that the TSV lacks; every version
 * of the model is in one of the two. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/pipeline.h"
#include "model/util.h"
#include "test_support.h"

#define TSV_PATH EVGEN_SOURCE_DIR "/../shared/reference/gc-templates.tsv"
#define MANIFEST_PATH EVGEN_SOURCE_DIR "/manifest/gcevents.h"

enum {
    COL_EVENT, COL_PROVIDER, COL_ID, COL_VERSION, COL_TEMPLATE, COL_LEVEL, COL_KEYWORDS, COL_TASK, COL_OPCODE,
    COL_PAYLOAD_SIZE, COL_FIELD_INDEX, COL_FIELD_NAME, COL_IN_TYPE, COL_BYTE_SIZE, COL_OFFSET, N_COLS
};

typedef struct row {
    char *cols[N_COLS];
    unsigned line;
} row;

typedef struct fixture {
    evgen_model model;
    row *rows;
    size_t n_rows;
    char *tsv;
} fixture;

static size_t split_tabs(char *line, char **cols, size_t max)
{
    size_t n = 0;
    char *p = line;
    while (n < max) {
        cols[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab)
            break;
        *tab = '\0';
        p = tab + 1;
    }
    return n;
}

static int setup(void **state)
{
    fixture *fx = evgen_xcalloc(1, sizeof *fx);
    fx->tsv = evgen_test_read(TSV_PATH);
    if (!fx->tsv) {
        fprintf(stderr, "cannot read %s (../shared beside the checkout)\n", TSV_PATH);
        free(fx);
        *state = NULL;
        return -1;
    }
    unsigned line_no = 0;
    for (char *line = strtok(fx->tsv, "\n"); line; line = strtok(NULL, "\n")) {
        line_no++;
        if (line_no == 1)
            continue; /* header */
        row *r = EVGEN_PUSH(fx->rows, fx->n_rows);
        r->line = line_no;
        size_t n = split_tabs(line, r->cols, N_COLS);
        for (size_t i = n; i < N_COLS; i++)
            r->cols[i] = "";
    }
    evgen_frontend_options opts = {MANIFEST_PATH, NULL, 0, NULL, NULL};
    evgen_diags diags;
    evgen_diags_init(&diags);
    evgen_model_init(&fx->model);
    int rc = evgen_load_manifest(&opts, &fx->model, &diags);
    evgen_diags_print(&diags, stderr);
    evgen_diags_free(&diags);
    *state = fx;
    return rc;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    if (!fx) /* setup failed before the fixture existed */
        return 0;
    evgen_model_free(&fx->model);
    free(fx->rows);
    free(fx->tsv);
    free(fx);
    return 0;
}

static const char *provider_name(const char *tsv_provider)
{
    return strcmp(tsv_provider, "DotNETRuntimePrivate") == 0 ? "Microsoft-Windows-DotNETRuntimePrivate"
                                                             : "Microsoft-Windows-DotNETRuntime";
}

static const evgen_model_event *find_event(const evgen_model *m, const char *provider, uint64_t id)
{
    for (size_t i = 0; i < m->n_events; i++) {
        const evgen_model_event *e = &m->events[i];
        if (e->id == id && strcmp(m->providers[e->provider_index].name, provider) == 0)
            return e;
    }
    return NULL;
}

static uint64_t level_value(const char *name)
{
    return strcmp(name, "LogAlways") == 0 ? 0 : strcmp(name, "Verbose") == 0 ? 5 : 4;
}

/* The GC events of ../shared/reference/traces/ (a .NET Core 3.0 trace, PerfView's baseline) missing
 * from the TSV, as ClrEtwAll.man declares them, one row per field in the TSV's terms: payload_size
 * -1 is "var", size 0 is variable-length. GCBulkMovedObjectRanges (the baseline's first: Index=0
 * Count=142 ClrInstanceID=3) has 10 fixed bytes, then Values, CoreCLR's struct of two pointers and a
 * UInt64; the memory-pressure events (templates IncreaseMemoryPressure and DecreaseMemoryPressure,
 * level Verbose) have 10 bytes. */
typedef struct extra_row {
    const char *event;
    const char *provider;
    uint64_t id;
    unsigned version;
    uint64_t level;
    uint64_t keywords;
    int payload_size;
    size_t field_index;
    const char *field_name;
    evgen_wire_kind kind;
    unsigned byte_size;
    unsigned offset;
} extra_row;

#define RUNTIME "Microsoft-Windows-DotNETRuntime"

static const extra_row extra_rows[] = {
    {"GCBulkMovedObjectRanges", RUNTIME, 22, 0, 4, 0x400000, -1, 0, "Index", EVGEN_WIRE_U32, 4, 0},
    {"GCBulkMovedObjectRanges", RUNTIME, 22, 0, 4, 0x400000, -1, 1, "Count", EVGEN_WIRE_U32, 4, 4},
    {"GCBulkMovedObjectRanges", RUNTIME, 22, 0, 4, 0x400000, -1, 2, "ClrInstanceID", EVGEN_WIRE_U16, 2, 8},
    {"GCBulkMovedObjectRanges", RUNTIME, 22, 0, 4, 0x400000, -1, 3, "Values", EVGEN_WIRE_STRUCT, 0, 10},
    {"IncreaseMemoryPressure", RUNTIME, 200, 0, 5, 0x1, 10, 0, "BytesAllocated", EVGEN_WIRE_U64, 8, 0},
    {"IncreaseMemoryPressure", RUNTIME, 200, 0, 5, 0x1, 10, 1, "ClrInstanceID", EVGEN_WIRE_U16, 2, 8},
    {"DecreaseMemoryPressure", RUNTIME, 201, 0, 5, 0x1, 10, 0, "BytesFreed", EVGEN_WIRE_U64, 8, 0},
    {"DecreaseMemoryPressure", RUNTIME, 201, 0, 5, 0x1, 10, 1, "ClrInstanceID", EVGEN_WIRE_U16, 2, 8},
};
#define N_EXTRA_ROWS (sizeof extra_rows / sizeof extra_rows[0])

/* Every reference row: the model has the field at that index, name, size and offset. */
static void test_every_reference_field_is_in_the_model(void **state)
{
    fixture *fx = *state;
    size_t compared = 0;
    for (size_t i = 0; i < fx->n_rows; i++) {
        const row *r = &fx->rows[i];
        const evgen_model_event *e = find_event(&fx->model, provider_name(r->cols[COL_PROVIDER]),
                                                strtoull(r->cols[COL_ID], NULL, 10));
        if (!e)
            fail_msg("line %u: no event %s id %s in the manifest", r->line, r->cols[COL_EVENT], r->cols[COL_ID]);
        const evgen_model_version *ver = evgen_model_event_version(e, (unsigned)atoi(r->cols[COL_VERSION]));
        if (!ver)
            fail_msg("line %u: %s has no version %s", r->line, e->name, r->cols[COL_VERSION]);
        assert_int_equal(e->level, level_value(r->cols[COL_LEVEL]));
        /* Per-version keywords differ only for two events, whose manifest uses the latest. */
        uint64_t keywords = strtoull(r->cols[COL_KEYWORDS], NULL, 16);
        assert_true(e->keywords == keywords || (e->keywords & keywords) == keywords);
        if (strcmp(r->cols[COL_PAYLOAD_SIZE], "var") == 0)
            assert_true(ver->variable_size);
        else
            assert_int_equal(ver->fixed_size, atoi(r->cols[COL_PAYLOAD_SIZE]));
        if (strcmp(r->cols[COL_FIELD_INDEX], "-") == 0) {
            assert_int_equal(ver->n_slots, 0); /* "(no payload)" */
            continue;
        }
        size_t index = (size_t)atoi(r->cols[COL_FIELD_INDEX]);
        if (index >= ver->n_slots)
            fail_msg("line %u: %s v%u has %zu fields, reference has index %zu", r->line, e->name, ver->version,
                     ver->n_slots, index);
        const evgen_model_slot *s = &ver->slots[index];
        if (strcmp(s->field->name, r->cols[COL_FIELD_NAME]) != 0)
            fail_msg("line %u: %s v%u field %zu is %s, reference says %s", r->line, e->name, ver->version, index,
                     s->field->name, r->cols[COL_FIELD_NAME]);
        const char *size = r->cols[COL_BYTE_SIZE];
        if (strcmp(size, "ptr") == 0)
            assert_int_equal(s->field->type.kind, EVGEN_WIRE_PTR);
        else if (strncmp(size, "var", 3) == 0)
            assert_int_equal(s->size, 0);
        else
            assert_int_equal(s->size, atoi(size));
        const char *offset = r->cols[COL_OFFSET];
        if (strcmp(offset, "dyn") == 0)
            assert_true(s->after >= 0);
        else {
            assert_int_equal(s->after, -1);
            assert_int_equal(s->offset, atoi(offset));
        }
        compared++;
    }
    printf("%zu reference fields compared\n", compared);
    assert_true(compared >= 240);
}

/* Every extra row: the model has the event (name, provider, id, level, keywords, exact) and the
 * field at that index, with that name, kind, size and offset; and the TSV lacks the event. */
static void test_every_extra_field_is_in_the_model(void **state)
{
    fixture *fx = *state;
    for (size_t i = 0; i < N_EXTRA_ROWS; i++) {
        const extra_row *x = &extra_rows[i];
        for (size_t r = 0; r < fx->n_rows; r++) {
            const row *rw = &fx->rows[r];
            if (strtoull(rw->cols[COL_ID], NULL, 10) == x->id &&
                strcmp(provider_name(rw->cols[COL_PROVIDER]), x->provider) == 0)
                fail_msg("line %u: %s id %" PRIu64 " is in the TSV now: drop its extra rows", rw->line, x->event,
                         x->id);
        }
        const evgen_model_event *e = find_event(&fx->model, x->provider, x->id);
        if (!e)
            fail_msg("no event %s id %" PRIu64 " in the manifest", x->event, x->id);
        assert_string_equal(e->name, x->event);
        assert_int_equal(e->level, x->level);
        assert_int_equal(e->keywords, x->keywords);
        const evgen_model_version *ver = evgen_model_event_version(e, x->version);
        if (!ver)
            fail_msg("%s has no version %u", e->name, x->version);
        if (x->payload_size < 0)
            assert_true(ver->variable_size);
        else {
            assert_false(ver->variable_size);
            assert_int_equal(ver->fixed_size, x->payload_size);
        }
        if (x->field_index >= ver->n_slots)
            fail_msg("%s v%u has %zu fields, expected index %zu", e->name, ver->version, ver->n_slots,
                     x->field_index);
        const evgen_model_slot *s = &ver->slots[x->field_index];
        assert_string_equal(s->field->name, x->field_name);
        assert_int_equal(s->field->type.kind, x->kind);
        assert_int_equal(s->size, x->byte_size);
        assert_int_equal(s->after, -1); /* every extra field is at a fixed offset */
        assert_int_equal(s->offset, x->offset);
    }
    printf("%zu extra fields compared\n", N_EXTRA_ROWS);
}

/* GCBulkMovedObjectRanges.Values: Count elements of CoreCLR's { OldRangeBase, NewRangeBase: Pointer;
 * RangeLength: UInt64 }, 24 bytes apart on x64. */
static void test_gcbulkmovedobjectranges_values(void **state)
{
    fixture *fx = *state;
    const evgen_model_event *e = evgen_model_find_event(&fx->model, "GCBulkMovedObjectRanges");
    assert_non_null(e);
    const evgen_model_version *v0 = evgen_model_event_version(e, 0);
    assert_non_null(v0);
    const evgen_model_field *values = v0->slots[3].field;
    assert_true(values->is_array);
    assert_string_equal(values->count_name, "Count");
    assert_int_equal(values->type.kind, EVGEN_WIRE_STRUCT);
    const evgen_model_struct *st = &fx->model.structs[values->type.struct_index];
    assert_string_equal(st->name, "GCBulkMovedObjectRangesValue");
    assert_int_equal(st->size, 24);
    assert_int_equal(st->n_members, 3);
    static const struct {
        const char *name;
        evgen_wire_kind kind;
        unsigned offset;
    } members[] = {{"OldRangeBase", EVGEN_WIRE_PTR, 0}, {"NewRangeBase", EVGEN_WIRE_PTR, 8},
                   {"RangeLength", EVGEN_WIRE_U64, 16}};
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(st->members[i].name, members[i].name);
        assert_int_equal(st->members[i].kind, members[i].kind);
        assert_int_equal(st->members[i].offset, members[i].offset);
    }
}

/* Every version of every model event appears in the reference or in extra_rows, with as many
 * fields. */
static void test_every_model_version_is_in_the_reference(void **state)
{
    fixture *fx = *state;
    size_t versions = 0;
    for (size_t i = 0; i < fx->model.n_events; i++) {
        const evgen_model_event *e = &fx->model.events[i];
        for (size_t v = 0; v < e->n_versions; v++) {
            const evgen_model_version *ver = &e->versions[v];
            size_t rows = 0;
            for (size_t r = 0; r < fx->n_rows; r++) {
                const row *rw = &fx->rows[r];
                if (strtoull(rw->cols[COL_ID], NULL, 10) == e->id &&
                    strcmp(provider_name(rw->cols[COL_PROVIDER]), fx->model.providers[e->provider_index].name) == 0 &&
                    (unsigned)atoi(rw->cols[COL_VERSION]) == ver->version && strcmp(rw->cols[COL_FIELD_INDEX], "-") != 0)
                    rows++;
            }
            for (size_t x = 0; x < N_EXTRA_ROWS; x++) {
                if (extra_rows[x].id == e->id &&
                    strcmp(extra_rows[x].provider, fx->model.providers[e->provider_index].name) == 0 &&
                    extra_rows[x].version == ver->version)
                    rows++;
            }
            if (rows != ver->n_slots)
                fail_msg("%s v%u: %zu fields in the model, %zu in the reference", e->name, ver->version,
                         ver->n_slots, rows);
            versions++;
        }
    }
    assert_int_equal(versions, 61); /* 58 in the TSV, 3 in extra_rows */
}

/* Struct arrays are laid out as the runtime's C structs, padding included. */
static void test_struct_strides_match_the_runtime(void **state)
{
    fixture *fx = *state;
    static const struct {
        const char *name;
        unsigned size;
    } expected[] = {{"GCLOHCompactInfo", 32}, {"GCFitBucketInfoValue", 16}, {"GCPerHeapHistoryGenData", 80},
                    {"GCGlobalHeapHistoryTime", 4},
                    {"GCBulkMovedObjectRangesValue", 24}};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        bool found = false;
        for (size_t s = 0; s < fx->model.n_structs; s++) {
            if (strcmp(fx->model.structs[s].name, expected[i].name) == 0) {
                assert_int_equal(fx->model.structs[s].size, expected[i].size);
                found = true;
            }
        }
        assert_true(found);
    }
}

/* The wire offsets DESIGN.md promises: GenerationSize4 at 94, TotalPromotedSize4 at 102. */
static void test_gcheapstats_v2_offsets(void **state)
{
    fixture *fx = *state;
    const evgen_model_event *e = evgen_model_find_event(&fx->model, "GCHeapStats");
    assert_non_null(e);
    const evgen_model_version *v2 = evgen_model_event_version(e, 2);
    assert_non_null(v2);
    assert_int_equal(v2->n_slots, 16);
    assert_string_equal(v2->slots[14].field->name, "GenerationSize4");
    assert_int_equal(v2->slots[14].offset, 94);
    assert_string_equal(v2->slots[15].field->name, "TotalPromotedSize4");
    assert_int_equal(v2->slots[15].offset, 102);
    assert_int_equal(v2->fixed_size, 110);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_reference_field_is_in_the_model),
        cmocka_unit_test(test_every_extra_field_is_in_the_model),
        cmocka_unit_test(test_gcbulkmovedobjectranges_values),
        cmocka_unit_test(test_every_model_version_is_in_the_reference),
        cmocka_unit_test(test_struct_strides_match_the_runtime),
        cmocka_unit_test(test_gcheapstats_v2_offsets),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
