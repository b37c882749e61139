/* test_gcevents_reference.c — manifest/gcevents.h mirrors CoreCLR exactly: every row of
 * ../shared/reference/gc-templates.tsv (CoreCLR's ClrEtwAll.man templates) is compared with the
 * model evgen builds from the manifest — event, provider, id, version, level, keywords, field
 * order, names, sizes and offsets — and so is every row of extra_rows below, the GC events a real
 * .NET Core 3.0 EventPipe trace holds (../shared/reference/traces) that the TSV lacks. The whole set,
 * every GC event-version of both providers, is tests/unit/gc-templates-full.tsv: each of its rows
 * matches the model (wire kind, struct members and stride included), each version of the model is
 * in it, and the versions the manifest language cannot express are listed below, exactly. */
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
#define FULL_TSV_PATH EVGEN_SOURCE_DIR "/tests/unit/gc-templates-full.tsv"
#define MANIFEST_PATH EVGEN_SOURCE_DIR "/manifest/gcevents.h"

enum {
    COL_EVENT, COL_PROVIDER, COL_ID, COL_VERSION, COL_TEMPLATE, COL_LEVEL, COL_KEYWORDS, COL_TASK, COL_OPCODE,
    COL_PAYLOAD_SIZE, COL_FIELD_INDEX, COL_FIELD_NAME, COL_IN_TYPE, COL_BYTE_SIZE, COL_OFFSET, N_COLS
};

typedef struct row {
    char *cols[N_COLS];
    unsigned line;
} row;

/* Columns of gc-templates-full.tsv (its header comment describes them). */
enum {
    F_EVGEN_EVENT, F_PROVIDER, F_ID, F_VERSION, F_SYMBOL, F_TEMPLATE, F_LEVEL, F_KEYWORDS, F_PAYLOAD_SIZE,
    F_FIELD_INDEX, F_FIELD_NAME, F_IN_TYPE, F_BYTE_SIZE, F_OFFSET, N_FULL_COLS
};

typedef struct full_row {
    char *cols[N_FULL_COLS];
    unsigned line;
} full_row;

typedef struct fixture {
    evgen_model model;
    row *rows;
    size_t n_rows;
    char *tsv;
    full_row *full;
    size_t n_full;
    char *full_tsv;
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
    fx->full_tsv = evgen_test_read(FULL_TSV_PATH);
    if (!fx->full_tsv) {
        fprintf(stderr, "cannot read %s\n", FULL_TSV_PATH);
        return -1;
    }
    line_no = 0;
    for (char *line = fx->full_tsv; line && *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        line_no++;
        if (line[0] != '#' && strncmp(line, "evgen_event\t", 12) != 0 && line[0] != '\0') {
            full_row *r = EVGEN_PUSH(fx->full, fx->n_full);
            r->line = line_no;
            size_t n = split_tabs(line, r->cols, N_FULL_COLS);
            for (size_t i = n; i < N_FULL_COLS; i++)
                r->cols[i] = "";
        }
        line = end ? end + 1 : NULL;
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
    free(fx->full);
    free(fx->full_tsv);
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
        /* Each version's own level and keywords (EVENT_VERSION_ATTRIBUTES), else the event's. */
        assert_int_equal(ver->level, level_value(r->cols[COL_LEVEL]));
        assert_int_equal(ver->keywords, strtoull(r->cols[COL_KEYWORDS], NULL, 16));
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
            if (rows == 0 && ver->n_slots > 0)
                continue; /* beyond the shared TSV: gc-templates-full.tsv holds it */
            if (rows != ver->n_slots)
                fail_msg("%s v%u: %zu fields in the model, %zu in the reference", e->name, ver->version,
                         ver->n_slots, rows);
            versions++;
        }
    }
    assert_true(versions >= 61); /* 58 in the TSV, 3 in extra_rows, and the empty versions */
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

static bool full_row_is(const full_row *r, const char *provider, uint64_t id, unsigned version)
{
    return strcmp(r->cols[F_PROVIDER], provider) == 0 && strtoull(r->cols[F_ID], NULL, 10) == id &&
           (unsigned)atoi(r->cols[F_VERSION]) == version;
}

static uint64_t level_number(const char *name)
{
    static const char *const names[] = {"LogAlways", "Critical", "Error", "Warning", "Informational", "Verbose"};
    for (uint64_t i = 0; i < 6; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    fail_msg("unknown level %s", name);
    return 0;
}

/* The wire kind of a scalar win:* type (without the "win:" prefix). */
static evgen_wire_kind win_kind(const char *type, unsigned line)
{
    static const struct {
        const char *name;
        evgen_wire_kind kind;
    } kinds[] = {{"UInt8", EVGEN_WIRE_U8},   {"UInt16", EVGEN_WIRE_U16},     {"UInt32", EVGEN_WIRE_U32},
                 {"Int32", EVGEN_WIRE_I32},  {"UInt64", EVGEN_WIRE_U64},     {"Pointer", EVGEN_WIRE_PTR},
                 {"Boolean", EVGEN_WIRE_BOOL32}, {"UnicodeString", EVGEN_WIRE_UTF16Z},
                 {"AnsiString", EVGEN_WIRE_UTF8Z}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(type, kinds[i].name) == 0)
            return kinds[i].kind;
    fail_msg("line %u: unknown type %s", line, type);
    return EVGEN_WIRE_U8;
}

/* A struct array's in_type, struct[Count]{Member:win:Type@offset,...}/stride[ packed], against the
 * model's struct: member names, kinds and offsets, and the stride; a variable struct's is /var (no
 * stride), and its string members have no @offset in the table (they end where their terminator does). */
static void check_struct(const evgen_model *m, const evgen_model_field *f, const char *in_type, unsigned line)
{
    assert_int_equal(f->type.kind, EVGEN_WIRE_STRUCT);
    assert_true(f->is_array);
    const evgen_model_struct *st = &m->structs[f->type.struct_index];
    char count[64];
    int used = 0;
    if (sscanf(in_type, "struct[%63[^]]]{%n", count, &used) != 1 || used == 0)
        fail_msg("line %u: bad struct type %s", line, in_type);
    assert_string_equal(f->count_name, count);
    const char *p = in_type + used;
    size_t member = 0;
    while (*p && *p != '}') {
        char name[64], type[64];
        unsigned offset = 0;
        int n = 0;
        if (sscanf(p, "%63[^:]:win:%63[^@,}]%n", name, type, &n) != 2 || n == 0)
            fail_msg("line %u: bad struct member at %s", line, p);
        bool has_offset = p[n] == '@';
        if (has_offset) {
            int k = 0;
            if (sscanf(p + n, "@%u%n", &offset, &k) != 1 || k == 0)
                fail_msg("line %u: bad struct member offset at %s", line, p);
            n += k;
        }
        if (member >= st->n_members)
            fail_msg("line %u: %s has %zu members, the table more", line, st->name, st->n_members);
        const evgen_model_struct_member *sm = &st->members[member];
        if (!has_offset && evgen_kind_size(sm->kind) != 0)
            fail_msg("line %u: %s member %s: only a string member has no offset in the table", line, st->name, name);
        if (!has_offset)
            offset = sm->offset;
        if (strcmp(sm->name, name) != 0 || sm->kind != win_kind(type, line) || sm->offset != offset)
            fail_msg("line %u: %s member %zu is %s kind %d @%u, the table says %s %s @%u", line, st->name, member,
                     sm->name, (int)sm->kind, sm->offset, name, type, offset);
        member++;
        p += n;
        if (*p == ',')
            p++;
    }
    assert_int_equal(member, st->n_members);
    if (strncmp(p, "}/var", 5) == 0) {
        assert_true(st->variable);
        assert_int_equal(st->size, 0);
        return;
    }
    assert_false(st->variable);
    unsigned stride = 0;
    if (sscanf(p, "}/%u", &stride) != 1)
        fail_msg("line %u: no stride in %s", line, in_type);
    assert_int_equal(st->size, stride);
}

/* Every row of gc-templates-full.tsv: the model has the event (name, and the level and keywords of
 * that version) and the field at that index with that name, wire kind, size and offset, struct members
 * and stride (every version of the table is declared). */
static void test_every_full_table_row_matches_the_model(void **state)
{
    fixture *fx = *state;
    size_t compared = 0;
    for (size_t i = 0; i < fx->n_full; i++) {
        const full_row *r = &fx->full[i];
        const char *provider = provider_name(r->cols[F_PROVIDER]);
        uint64_t id = strtoull(r->cols[F_ID], NULL, 10);
        unsigned version = (unsigned)atoi(r->cols[F_VERSION]);
        const evgen_model_event *e = find_event(&fx->model, provider, id);
        if (!e)
            fail_msg("line %u: no event %s id %" PRIu64 " in the manifest", r->line, r->cols[F_SYMBOL], id);
        if (strcmp(e->name, r->cols[F_EVGEN_EVENT]) != 0)
            fail_msg("line %u: id %" PRIu64 " is %s in the manifest, %s in the table", r->line, id, e->name,
                     r->cols[F_EVGEN_EVENT]);
        const evgen_model_version *ver = evgen_model_event_version(e, version);
        if (!ver)
            fail_msg("line %u: %s has no version %u", r->line, e->name, version);
        /* The version's level and keywords, exact: its own where ClrEtwAll.man gives an old version
         * other ones (EVENT_VERSION_ATTRIBUTES), else the event's. */
        if (ver->level != level_number(r->cols[F_LEVEL]))
            fail_msg("line %u: %s v%u: level %s, model %" PRIu64, r->line, e->name, version, r->cols[F_LEVEL],
                     ver->level);
        uint64_t keywords = strtoull(r->cols[F_KEYWORDS], NULL, 16);
        if (ver->keywords != keywords)
            fail_msg("line %u: %s v%u: keywords 0x%" PRIx64 ", model 0x%" PRIx64, r->line, e->name, version, keywords,
                     ver->keywords);
        if (strcmp(r->cols[F_PAYLOAD_SIZE], "var") == 0)
            assert_true(ver->variable_size);
        else {
            assert_false(ver->variable_size);
            assert_int_equal(ver->fixed_size, atoi(r->cols[F_PAYLOAD_SIZE]));
        }
        if (strcmp(r->cols[F_FIELD_INDEX], "-") == 0) {
            assert_int_equal(ver->n_slots, 0);
            continue;
        }
        size_t index = (size_t)atoi(r->cols[F_FIELD_INDEX]);
        if (index >= ver->n_slots)
            fail_msg("line %u: %s v%u has %zu fields, the table has index %zu", r->line, e->name, version, ver->n_slots,
                     index);
        const evgen_model_slot *s = &ver->slots[index];
        const evgen_model_field *f = s->field;
        if (strcmp(f->name, r->cols[F_FIELD_NAME]) != 0)
            fail_msg("line %u: %s v%u field %zu is %s, the table says %s", r->line, e->name, version, index, f->name,
                     r->cols[F_FIELD_NAME]);
        const char *in_type = r->cols[F_IN_TYPE];
        char count[64];
        if (strncmp(in_type, "struct[", 7) == 0)
            check_struct(&fx->model, f, in_type, r->line);
        else if (sscanf(in_type, "win:Binary[%63[^]]]", count) == 1) {
            assert_true(f->is_array);
            assert_int_equal(f->type.kind, EVGEN_WIRE_U8);
            assert_string_equal(f->count_name, count);
        } else if (strncmp(in_type, "win:", 4) == 0) {
            assert_false(f->is_array);
            if (f->type.kind != win_kind(in_type + 4, r->line))
                fail_msg("line %u: %s.%s is kind %d, the table says %s", r->line, e->name, f->name, (int)f->type.kind,
                         in_type);
        } else
            fail_msg("line %u: unknown in_type %s", r->line, in_type);
        if (strcmp(r->cols[F_BYTE_SIZE], "var") == 0)
            assert_int_equal(s->size, 0);
        else
            assert_int_equal(s->size, atoi(r->cols[F_BYTE_SIZE]));
        if (strcmp(r->cols[F_OFFSET], "dyn") == 0)
            assert_true(s->after >= 0);
        else {
            assert_int_equal(s->after, -1);
            assert_int_equal(s->offset, atoi(r->cols[F_OFFSET]));
        }
        compared++;
    }
    printf("%zu fields of gc-templates-full.tsv compared\n", compared);
    assert_true(compared >= 380);
}

/* Every version of the model is in gc-templates-full.tsv with as many fields, and the totals are
 * the whole set: all 67 of the runtime provider's, all 44 of the private's
 * (PrvGCPerHeapHistory v2 too, since v1 became a legacy layout with a legacy-only ClrInstanceID). */
static void test_every_model_version_is_in_the_full_table(void **state)
{
    fixture *fx = *state;
    size_t per_provider[2] = {0, 0};
    for (size_t i = 0; i < fx->model.n_events; i++) {
        const evgen_model_event *e = &fx->model.events[i];
        const char *provider = fx->model.providers[e->provider_index].name;
        bool private_provider = strcmp(provider, "Microsoft-Windows-DotNETRuntimePrivate") == 0;
        const char *short_name = private_provider ? "DotNETRuntimePrivate" : "DotNETRuntime";
        for (size_t v = 0; v < e->n_versions; v++) {
            const evgen_model_version *ver = &e->versions[v];
            size_t fields = 0, empty = 0;
            for (size_t r = 0; r < fx->n_full; r++) {
                const full_row *rw = &fx->full[r];
                if (!full_row_is(rw, short_name, e->id, ver->version))
                    continue;
                if (strcmp(rw->cols[F_FIELD_INDEX], "-") == 0)
                    empty++;
                else
                    fields++;
            }
            if (fields + empty == 0)
                fail_msg("%s v%u is not in gc-templates-full.tsv", e->name, ver->version);
            if (fields != ver->n_slots)
                fail_msg("%s v%u: %zu fields in the model, %zu in the table", e->name, ver->version, ver->n_slots,
                         fields);
            per_provider[private_provider]++;
        }
    }
    size_t table[2] = {0, 0};
    for (size_t r = 0; r < fx->n_full; r++) {
        const full_row *rw = &fx->full[r];
        if (strcmp(rw->cols[F_FIELD_INDEX], "0") == 0 || strcmp(rw->cols[F_FIELD_INDEX], "-") == 0)
            table[strcmp(rw->cols[F_PROVIDER], "DotNETRuntimePrivate") == 0]++;
    }
    printf("event-versions: runtime %zu of %zu, private %zu of %zu\n", per_provider[0], table[0], per_provider[1],
           table[1]);
    assert_int_equal(table[0], 67);
    assert_int_equal(table[1], 44);
    assert_int_equal(per_provider[0], 67);
    assert_int_equal(per_provider[1], 44);
}

/* The packed heap-dump structs: CoreCLR copies them from #pragma pack(1) declarations. */
static void test_packed_heap_dump_strides(void **state)
{
    fixture *fx = *state;
    static const struct {
        const char *name;
        unsigned size;
    } expected[] = {{"GCBulkRootEdgeValue", 21}, {"GCBulkRootConditionalWeakTableElementEdgeValue", 24},
                    {"GCBulkNodeValue", 32},     {"GCBulkEdgeValue", 12},
                    {"GCBulkSurvivingObjectRangesValue", 16}, {"GCBulkRootCCWValue", 44},
                    {"GCBulkRCWValue", 40}};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        bool found = false;
        for (size_t s = 0; s < fx->model.n_structs; s++) {
            if (strcmp(fx->model.structs[s].name, expected[i].name) == 0) {
                assert_int_equal(fx->model.structs[s].size, expected[i].size);
                found = true;
            }
        }
        if (!found)
            fail_msg("no struct %s", expected[i].name);
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
        cmocka_unit_test(test_every_full_table_row_matches_the_model),
        cmocka_unit_test(test_every_model_version_is_in_the_full_table),
        cmocka_unit_test(test_packed_heap_dump_strides),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
