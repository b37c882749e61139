/* test_compat_mutations.c — mutation test of `evgen check`: breaking edits generated from
 * manifest/gcevents.h by loops over its lines must each be caught at the right place, and
 * compatible edits must pass. Runs the generator library in-process on the edited text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pipeline.h"
#include "test_support.h"
#include "util.h"

#define MANIFEST_PATH EVGEN_SOURCE_DIR "/manifest/gcevents.h"
#define LOCK_PATH EVGEN_SOURCE_DIR "/manifest/gcevents.lock"

/* ---- the manifest as lines ------------------------------------------------------------- */

typedef struct lines {
    char **items;
    size_t count;
} lines;

static lines split_lines(const char *text)
{
    lines l = {NULL, 0};
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        *EVGEN_PUSH(l.items, l.count) = evgen_xstrndup(p, n);
        p += n + (nl ? 1 : 0);
    }
    return l;
}

static lines copy_lines(const lines *src)
{
    lines l = {evgen_xcalloc(src->count, sizeof(char *)), src->count};
    for (size_t i = 0; i < src->count; i++)
        l.items[i] = evgen_xstrdup(src->items[i]);
    return l;
}

static void free_lines(lines *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i]);
    free(l->items);
}

static char *join_lines(const lines *l)
{
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    for (size_t i = 0; i < l->count; i++) {
        evgen_sb_puts(&sb, l->items[i]);
        evgen_sb_putc(&sb, '\n');
    }
    return evgen_sb_take(&sb);
}

static void set_line(lines *l, size_t index, char *text)
{
    free(l->items[index]);
    l->items[index] = text;
}

/* ---- parsing one manifest line ---------------------------------------------------------- */

#define MAX_ARGS 5

typedef struct macro_line {
    size_t index;   /* 0-based line index */
    char macro[32]; /* EVENT_FIELD, KNOWN_EVENT, ... */
    char *args[MAX_ARGS];
    unsigned cols[MAX_ARGS]; /* 1-based column of each argument */
    unsigned n_args;
} macro_line;

static bool parse_macro_line(const char *line, size_t index, macro_line *m)
{
    memset(m, 0, sizeof *m);
    const char *paren = strchr(line, '(');
    if (!paren || (size_t)(paren - line) >= sizeof m->macro || line[0] < 'A' || line[0] > 'Z')
        return false;
    memcpy(m->macro, line, (size_t)(paren - line));
    m->index = index;
    const char *p = paren + 1;
    while (*p && *p != ')' && m->n_args < MAX_ARGS) {
        while (*p == ' ')
            p++;
        const char *start = p;
        while (*p && *p != ',' && *p != ')')
            p++;
        const char *end = p;
        while (end > start && end[-1] == ' ')
            end--;
        m->cols[m->n_args] = (unsigned)(start - line) + 1;
        m->args[m->n_args++] = evgen_xstrndup(start, (size_t)(end - start));
        if (*p == ',')
            p++;
    }
    return true;
}

static void free_macro_line(macro_line *m)
{
    for (unsigned i = 0; i < m->n_args; i++)
        free(m->args[i]);
}

/* The 1-based column of argument `arg` (1-based) of the first macro on `line`. */
static unsigned arg_col(const char *line, unsigned arg)
{
    macro_line m;
    unsigned col = parse_macro_line(line, 0, &m) && arg <= m.n_args ? m.cols[arg - 1] : 0;
    free_macro_line(&m);
    return col;
}

/* ---- running the check ------------------------------------------------------------------ */

typedef struct fixture {
    char *text;
    lines base;
    evgen_lock lock;
    macro_line *macros;
    size_t n_macros;
} fixture;

typedef struct outcome {
    size_t n_errors;
    char *file;
    unsigned line, col;
    char *message;
    char *all; /* every diagnostic, for failure messages */
} outcome;

static outcome run_check(fixture *fx, const char *text, evgen_compat_mode mode)
{
    evgen_frontend_options opts = {MANIFEST_PATH, NULL, 0, text};
    evgen_model model;
    evgen_diags diags;
    evgen_model_init(&model);
    evgen_diags_init(&diags);
    if (evgen_load_manifest(&opts, &model, &diags) == 0)
        evgen_compat_check(&model, &fx->lock, mode, &diags);
    outcome o;
    memset(&o, 0, sizeof o);
    o.n_errors = diags.n_errors;
    evgen_strbuf all;
    evgen_sb_init(&all);
    for (size_t i = 0; i < diags.count; i++) {
        char *line = evgen_diag_format(&diags.items[i]);
        evgen_sb_printf(&all, "%s\n", line);
        free(line);
        if (diags.items[i].severity == EVGEN_SEV_ERROR && !o.message) {
            o.file = diags.items[i].file ? evgen_xstrdup(diags.items[i].file) : NULL;
            o.line = diags.items[i].line;
            o.col = diags.items[i].col;
            o.message = evgen_xstrdup(diags.items[i].message);
        }
    }
    o.all = evgen_sb_take(&all);
    evgen_diags_free(&diags);
    evgen_model_free(&model);
    return o;
}

static void free_outcome(outcome *o)
{
    free(o->file);
    free(o->message);
    free(o->all);
}

/* A breaking edit and where its error must be reported. */
typedef struct mutation {
    char *what;
    lines edited;
    const char *expect_file; /* NULL: the manifest */
    unsigned expect_line;    /* 1-based */
    unsigned line_slack;     /* accepted distance from expect_line */
    unsigned expect_col;     /* 0: any column */
    char *expect_text;       /* a substring of the first error's message */
} mutation;

typedef struct mutation_list {
    mutation *items;
    size_t count;
} mutation_list;

static mutation *add_mutation(mutation_list *ml, const fixture *fx, char *what)
{
    mutation *m = EVGEN_PUSH(ml->items, ml->count);
    m->what = what;
    m->edited = copy_lines(&fx->base);
    return m;
}

/* ---- generating the mutations ----------------------------------------------------------- */

static bool is_count_field(const fixture *fx, const char *event, const char *name)
{
    for (size_t i = 0; i < fx->n_macros; i++) {
        const macro_line *m = &fx->macros[i];
        if (strcmp(m->macro, "EVENT_ARRAY") == 0 && strcmp(m->args[0], event) == 0 && strcmp(m->args[4], name) == 0)
            return true;
    }
    return false;
}

static bool is_legacy_field(const fixture *fx, const char *event, const char *name)
{
    for (size_t i = 0; i < fx->n_macros; i++) {
        const macro_line *m = &fx->macros[i];
        if (strcmp(m->macro, "EVENT_LEGACY_FIELD") == 0 && strcmp(m->args[0], event) == 0 &&
            strcmp(m->args[3], name) == 0)
            return true;
    }
    return false;
}

/* The last version of `event` with a legacy layout, or -1. */
static int last_legacy_version(const fixture *fx, const char *event)
{
    int last = -1;
    for (size_t i = 0; i < fx->n_macros; i++) {
        const macro_line *m = &fx->macros[i];
        if (strcmp(m->macro, "EVENT_LEGACY_FIELD") == 0 && strcmp(m->args[0], event) == 0 && atoi(m->args[1]) > last)
            last = atoi(m->args[1]);
    }
    return last;
}

/* The number of fields of `event` introduced by version `since`. */
static unsigned count_fields_since(const fixture *fx, const char *event, const char *since)
{
    unsigned n = 0;
    for (size_t i = 0; i < fx->n_macros; i++) {
        const macro_line *m = &fx->macros[i];
        if ((strcmp(m->macro, "EVENT_FIELD") != 0 && strcmp(m->macro, "EVENT_ARRAY") != 0) ||
            strcmp(m->args[0], event) != 0)
            continue;
        if (strcmp(m->args[1], since) == 0)
            n++;
    }
    return n;
}

/* A type of another wire kind (so that the lock sees a change) that keeps counts integers. */
static const char *other_type(const char *type)
{
    if (strcmp(type, "uint64_t") == 0)
        return "uint32_t";
    if (strcmp(type, "uint16_t") == 0 || strcmp(type, "uint8_t") == 0)
        return "uint32_t";
    if (strcmp(type, "int32_t") == 0)
        return "int64_t";
    if (strcmp(type, "evgen_ptr") == 0)
        return "uint32_t";
    if (strcmp(type, "evgen_utf16z") == 0)
        return "evgen_utf8z";
    return "uint64_t"; /* uint32_t and the 4-byte enums */
}

static char *field_line(const char *event, const char *since, const char *type, const char *name)
{
    return evgen_xasprintf("EVENT_FIELD(%s, %s, %s, %s)", event, since, type, name);
}

static void field_mutations(const fixture *fx, mutation_list *ml)
{
    unsigned k = 0;
    for (size_t i = 0; i < fx->n_macros; i++) {
        const macro_line *f = &fx->macros[i];
        if (strcmp(f->macro, "EVENT_FIELD") != 0)
            continue;
        const char *event = f->args[0], *since = f->args[1], *type = f->args[2], *name = f->args[3];
        bool is_count = is_count_field(fx, event, name);
        unsigned line = (unsigned)f->index + 1;
        switch (k++ % 4) {
        case 0: { /* retype */
            mutation *m = add_mutation(ml, fx, evgen_xasprintf("retype %s.%s", event, name));
            set_line(&m->edited, f->index, field_line(event, since, other_type(type), name));
            m->expect_line = line;
            m->expect_col = arg_col(m->edited.items[f->index], 3);
            m->expect_text = evgen_xstrdup("retyped");
            break;
        }
        case 1: { /* rename (a count field's rename is an array error instead: skip those) */
            if (is_count)
                break;
            mutation *m = add_mutation(ml, fx, evgen_xasprintf("rename %s.%s", event, name));
            char *renamed = evgen_xasprintf("%sRenamed", name);
            set_line(&m->edited, f->index, field_line(event, since, type, renamed));
            free(renamed);
            m->expect_line = line;
            m->expect_col = arg_col(m->edited.items[f->index], 4);
            m->expect_text = evgen_xstrdup("renamed");
            break;
        }
        case 2: { /* remove (not a count or legacy field, nor the only field of its version: removing
                   * those is reported as the array, legacy layout or version they break) */
            if (is_count || is_legacy_field(fx, event, name) || count_fields_since(fx, event, since) == 1)
                break;
            mutation *m = add_mutation(ml, fx, evgen_xasprintf("remove %s.%s", event, name));
            set_line(&m->edited, f->index, evgen_xstrdup("/* removed */"));
            m->expect_line = line;
            m->line_slack = 1;
            m->expect_text = evgen_xasprintf("'%s'", name);
            break;
        }
        case 3: { /* insert a field before this one, with the same since */
            mutation *m = add_mutation(ml, fx, evgen_xasprintf("insert before %s.%s", event, name));
            char *inserted = field_line(event, since, "uint32_t", "InsertedField");
            char *both = evgen_xasprintf("%s %s", inserted, fx->base.items[f->index]);
            set_line(&m->edited, f->index, both);
            m->expect_line = line;
            m->expect_col = arg_col(m->edited.items[f->index], 2); /* the inserted field's since */
            /* Inserted among a legacy version's fields, it is missing from that legacy layout. */
            bool in_legacy = atoi(since) <= last_legacy_version(fx, event);
            m->expect_text = evgen_xstrdup(in_legacy ? "missing from the legacy layout" : "inserted");
            free(inserted);
            break;
        }
        }
    }
    /* Swap each pair of adjacent fields of one event with the same since (every third pair). */
    unsigned pairs = 0;
    for (size_t i = 0; i + 1 < fx->n_macros; i++) {
        const macro_line *a = &fx->macros[i], *b = &fx->macros[i + 1];
        if (strcmp(a->macro, "EVENT_FIELD") != 0 || strcmp(b->macro, "EVENT_FIELD") != 0 ||
            b->index != a->index + 1 || strcmp(a->args[0], b->args[0]) != 0 || strcmp(a->args[1], b->args[1]) != 0 ||
            pairs++ % 3 != 0)
            continue;
        mutation *m = add_mutation(ml, fx, evgen_xasprintf("swap %s.%s and %s", a->args[0], a->args[3], b->args[3]));
        set_line(&m->edited, a->index, evgen_xstrdup(fx->base.items[b->index]));
        set_line(&m->edited, b->index, evgen_xstrdup(fx->base.items[a->index]));
        m->expect_line = (unsigned)a->index + 1;
        m->expect_col = b->cols[3];
        m->expect_text = evgen_xstrdup("moved");
    }
}

static const macro_line *find_event_line(const fixture *fx, const char *event)
{
    for (size_t i = 0; i < fx->n_macros; i++)
        if (strcmp(fx->macros[i].macro, "KNOWN_EVENT") == 0 && strcmp(fx->macros[i].args[0], event) == 0)
            return &fx->macros[i];
    return NULL;
}

static unsigned lock_line_of_event(const fixture *fx, const char *event)
{
    for (size_t i = 0; i < fx->lock.n_events; i++)
        if (strcmp(fx->lock.events[i].name, event) == 0)
            return fx->lock.events[i].loc.line;
    return 0;
}

/* Replaces `from` by `to` in every line that mentions the event as a macro's first argument. */
static void edit_event_lines(lines *l, const fixture *fx, const char *event, const char *from, const char *to)
{
    for (size_t i = 0; i < fx->n_macros; i++) {
        const macro_line *m = &fx->macros[i];
        if (strcmp(m->args[0], event) != 0 || strcmp(m->macro, "EVENT_PROVIDER") == 0)
            continue;
        char *edited = to ? evgen_test_replace(l->items[m->index], from, to) : evgen_xstrdup("/* removed */");
        if (edited)
            set_line(l, m->index, edited);
    }
}

static void event_mutations(const fixture *fx, mutation_list *ml)
{
    static const char *const events[] = {"GCStart", "GCHeapStats", "GCAllocationTick", "GCGlobalHeapHistory",
                                         "GCPerHeapHistory", "PinPlugAtGCTime", "GCLOHCompact"};
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
        const macro_line *k = find_event_line(fx, events[i]);
        assert_non_null(k);
        unsigned line = (unsigned)k->index + 1;

        mutation *m = add_mutation(ml, fx, evgen_xasprintf("change the id of %s", events[i]));
        char *from = evgen_xasprintf("%s, %s,", events[i], k->args[1]);
        char *to = evgen_xasprintf("%s, %d,", events[i], atoi(k->args[1]) + 1000);
        set_line(&m->edited, k->index, evgen_test_replace(fx->base.items[k->index], from, to));
        m->expect_line = line;
        m->expect_col = k->cols[1];
        m->expect_text = evgen_xstrdup("id of locked event");
        free(from);
        free(to);

        m = add_mutation(ml, fx, evgen_xasprintf("rename event %s", events[i]));
        from = evgen_xasprintf("(%s,", events[i]);
        to = evgen_xasprintf("(%sRenamed,", events[i]);
        edit_event_lines(&m->edited, fx, events[i], from, to);
        m->expect_line = line;
        m->expect_col = k->cols[0];
        m->expect_text = evgen_xstrdup("renamed");
        free(from);
        free(to);

        m = add_mutation(ml, fx, evgen_xasprintf("remove event %s", events[i]));
        edit_event_lines(&m->edited, fx, events[i], NULL, NULL);
        m->expect_file = LOCK_PATH;
        m->expect_line = lock_line_of_event(fx, events[i]);
        m->expect_text = evgen_xstrdup("missing from the manifest");
    }
}

/* Hand-picked breaks the loops above do not reach: legacy layouts, structs, versions. */
typedef struct targeted {
    const char *what;
    const char *find; /* text of the line to edit (first occurrence) */
    const char *replace;
    const char *expect_text;
    unsigned col_arg; /* 1-based argument of the edited line the error points at; 0 = any */
} targeted;

static const targeted targeted_edits[] = {
    {"retype a legacy field", "EVENT_LEGACY_FIELD(GCEnd, 0, uint16_t, Depth)",
     "EVENT_LEGACY_FIELD(GCEnd, 0, uint32_t, Depth)", "retyped", 3},
    {"drop the legacy layout of GCSuspendEEBegin v0", "EVENT_LEGACY_FIELD(GCSuspendEEBegin, 0, uint16_t,          Reason)",
     "/* removed */", "retyped", 0},
    {"remove the empty version 0 of GCRestartEEEnd", "EVENT_VERSION(GCRestartEEEnd, 0)", "/* removed */",
     "locked version 0 of 'GCRestartEEEnd' is missing", 0},
    {"retype a member of the struct of GCLOHCompact", "    uint32_t TimePlan;", "    uint64_t TimePlan;",
     "given another element struct layout", 0},
    {"grow the struct of GCLOHCompact", "    evgen_ptr ZeroRefs;", "    evgen_ptr ZeroRefs; evgen_ptr MoreRefs;",
     "resized", 0},
    {"count an array by another field", "EVENT_ARRAY(GCFitBucketInfo, 0, GCFitBucketInfoValue, Values, Count)",
     "EVENT_ARRAY(GCFitBucketInfo, 0, GCFitBucketInfoValue, Values, BucketKind)", "counted by another field", 0},
    {"move a provider", "KNOWN_EVENT(GCMarkWithType, 202, GCEventProvider_Default,",
     "KNOWN_EVENT(GCMarkWithType, 202, GCEventProvider_Private,", "provider of locked event", 3},
    {"add a field to a locked version", "EVENT_FIELD(GCHeapStats, 2, uint64_t, TotalPromotedSize4)",
     "EVENT_FIELD(GCHeapStats, 2, uint64_t, TotalPromotedSize4) EVENT_FIELD(GCHeapStats, 2, uint64_t, Extra)",
     "is added to version 2", 0},
    {"move a field to a newer version", "EVENT_FIELD(GCHeapStats, 2, uint64_t, TotalPromotedSize4)",
     "EVENT_FIELD(GCHeapStats, 3, uint64_t, TotalPromotedSize4)", "TotalPromotedSize4", 0},
    {"change an array's count field", "EVENT_ARRAY(GCDynamicEvent, 0, uint8_t,      Data, DataSize)",
     "EVENT_ARRAY(GCDynamicEvent, 0, uint16_t,     Data, DataSize)", "retyped", 3},
};

static void targeted_mutations(const fixture *fx, mutation_list *ml)
{
    for (size_t t = 0; t < sizeof targeted_edits / sizeof targeted_edits[0]; t++) {
        const targeted *te = &targeted_edits[t];
        size_t index = fx->base.count;
        for (size_t i = 0; i < fx->base.count && index == fx->base.count; i++)
            if (strstr(fx->base.items[i], te->find))
                index = i;
        assert_true(index < fx->base.count);
        mutation *m = add_mutation(ml, fx, evgen_xstrdup(te->what));
        set_line(&m->edited, index, evgen_test_replace(fx->base.items[index], te->find, te->replace));
        m->expect_text = evgen_xstrdup(te->expect_text);
        m->expect_line = (unsigned)index + 1;
        m->line_slack = 1000000; /* checked below for the cases that name an argument */
        if (te->col_arg) {
            m->line_slack = 0;
            m->expect_col = arg_col(m->edited.items[index], te->col_arg);
        }
    }
}

/* ---- fixture and tests ------------------------------------------------------------------ */

static int setup(void **state)
{
    fixture *fx = evgen_xcalloc(1, sizeof *fx);
    fx->text = evgen_test_read(MANIFEST_PATH);
    if (!fx->text)
        return -1;
    fx->base = split_lines(fx->text);
    evgen_diags diags;
    evgen_diags_init(&diags);
    int rc = evgen_load_lock(LOCK_PATH, &fx->lock, &diags);
    evgen_diags_free(&diags);
    if (rc != 0)
        return -1;
    for (size_t i = 0; i < fx->base.count; i++) {
        macro_line m;
        if (parse_macro_line(fx->base.items[i], i, &m) && m.n_args >= 2)
            *EVGEN_PUSH(fx->macros, fx->n_macros) = m;
        else if (m.n_args)
            free_macro_line(&m);
    }
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    for (size_t i = 0; i < fx->n_macros; i++)
        free_macro_line(&fx->macros[i]);
    free(fx->macros);
    free_lines(&fx->base);
    evgen_lock_free(&fx->lock);
    free(fx->text);
    free(fx);
    return 0;
}

static void test_unmodified_manifest_matches_lock(void **state)
{
    fixture *fx = *state;
    outcome o = run_check(fx, fx->text, EVGEN_COMPAT_CHECK);
    if (o.n_errors)
        fprintf(stderr, "%s", o.all);
    assert_int_equal(o.n_errors, 0);
    free_outcome(&o);
}

static bool mutation_caught(fixture *fx, const mutation *m)
{
    char *text = join_lines(&m->edited);
    outcome o = run_check(fx, text, EVGEN_COMPAT_CHECK);
    const char *want_file = m->expect_file ? m->expect_file : MANIFEST_PATH;
    bool ok = o.n_errors > 0 && o.file && strcmp(o.file, want_file) == 0 &&
              (o.line + m->line_slack >= m->expect_line && o.line <= m->expect_line + m->line_slack) &&
              (m->expect_col == 0 || o.col == m->expect_col) && strstr(o.message, m->expect_text) != NULL;
    if (!ok)
        fprintf(stderr, "NOT CAUGHT RIGHT: %s\n  expected %s:%u:%u (+-%u) containing \"%s\"\n  got:\n%s\n", m->what,
                want_file, m->expect_line, m->expect_col, m->line_slack, m->expect_text, o.all);
    free_outcome(&o);
    free(text);
    return ok;
}

static void test_breaking_edits_are_caught(void **state)
{
    fixture *fx = *state;
    mutation_list ml = {NULL, 0};
    field_mutations(fx, &ml);
    event_mutations(fx, &ml);
    targeted_mutations(fx, &ml);
    /* The loops must produce a real corpus, not a handful. */
    assert_true(ml.count >= 30);
    size_t failed = 0;
    for (size_t i = 0; i < ml.count; i++) {
        if (!mutation_caught(fx, &ml.items[i]))
            failed++;
        free(ml.items[i].what);
        free(ml.items[i].expect_text);
        free_lines(&ml.items[i].edited);
    }
    free(ml.items);
    printf("%zu breaking edits checked, %zu not caught at the right place\n", ml.count, failed);
    assert_int_equal(failed, 0);
}

/* Compatible edits: appending a version, a new event, changed level/keywords, a bumped version,
 * a renamed enum constant. `find` is the line after which `add` goes, or which it replaces. */
typedef struct compatible {
    const char *what;
    const char *find;
    const char *replace;
} compatible;

static const compatible compatible_edits[] = {
    {"append GenerationSize5 to GCHeapStats as version 3", "EVENT_FIELD(GCHeapStats, 2, uint64_t, TotalPromotedSize4)",
     "EVENT_FIELD(GCHeapStats, 2, uint64_t, TotalPromotedSize4) EVENT_FIELD(GCHeapStats, 3, uint64_t, GenerationSize5)"},
    {"append two fields to GCStart as version 3", "EVENT_FIELD(GCStart,        2, uint64_t, ClientSequenceNumber)",
     "EVENT_FIELD(GCStart, 2, uint64_t, ClientSequenceNumber) EVENT_FIELD(GCStart, 3, uint32_t, Heaps) "
     "EVENT_FIELD(GCStart, 3, evgen_utf16z, Note)"},
    {"add a new event", "#include <evgen/manifest_end.h>",
     "KNOWN_EVENT(GCBrandNew, 250, GCEventProvider_Default, GCEventLevel_Verbose, GCEventKeyword_GC) "
     "EVENT_FIELD(GCBrandNew, 0, uint64_t, Bytes) #include <evgen/manifest_end.h>"},
    {"change a level", "KNOWN_EVENT(GCHeapStats, 4, GCEventProvider_Default, GCEventLevel_Information,",
     "KNOWN_EVENT(GCHeapStats, 4, GCEventProvider_Default, GCEventLevel_Verbose,"},
    {"change keywords", "KNOWN_EVENT(GCTriggered, 35, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)",
     "KNOWN_EVENT(GCTriggered, 35, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC | 0x8)"},
    {"bump a version without a new field", "EVENT_FIELD(GCFinalizersEnd, 1, uint16_t, ClrInstanceID)",
     "EVENT_FIELD(GCFinalizersEnd, 1, uint16_t, ClrInstanceID) EVENT_VERSION(GCFinalizersEnd, 2)"},
    {"rename an enum constant", "GCReason_Empty = 3,", "GCReason_Unused = 3,"},
};

static void test_compatible_edits_pass(void **state)
{
    fixture *fx = *state;
    for (size_t t = 0; t < sizeof compatible_edits / sizeof compatible_edits[0]; t++) {
        const compatible *c = &compatible_edits[t];
        char *text = evgen_test_replace(fx->text, c->find, c->replace);
        if (!text)
            fail_msg("compatible edit '%s': text not found", c->what);
        /* The preprocessor needs #include on a line of its own. */
        char *fixed = evgen_test_replace(text, " #include <evgen/manifest_end.h>", "\n#include <evgen/manifest_end.h>");
        if (fixed) {
            free(text);
            text = fixed;
        }
        for (int mode = EVGEN_COMPAT_CHECK; mode <= EVGEN_COMPAT_LOCK; mode++) {
            outcome o = run_check(fx, text, (evgen_compat_mode)mode);
            if (o.n_errors)
                fail_msg("compatible edit '%s' was refused:\n%s", c->what, o.all);
            free_outcome(&o);
        }
        free(text);
    }
}

/* A legacy layout may describe only history: refused by check for a version that is not locked,
 * accepted by lock for an event new to the lock, refused by lock for a locked event. */
static void test_legacy_layout_must_be_locked(void **state)
{
    fixture *fx = *state;
    const char *new_event = "KNOWN_EVENT(GCOld, 251, GCEventProvider_Default, GCEventLevel_Verbose, GCEventKeyword_GC)\n"
                            "EVENT_LEGACY_FIELD(GCOld, 0, uint16_t, Size)\n"
                            "EVENT_FIELD(GCOld, 0, uint32_t, Size)\n"
                            "EVENT_FIELD(GCOld, 1, uint32_t, More)\n"
                            "#include <evgen/manifest_end.h>";
    char *text = evgen_test_replace(fx->text, "#include <evgen/manifest_end.h>", new_event);
    assert_non_null(text);
    outcome o = run_check(fx, text, EVGEN_COMPAT_CHECK);
    assert_int_equal(o.n_errors, 1);
    assert_non_null(strstr(o.message, "legacy layout for version 0 of 'GCOld', which is not locked"));
    free_outcome(&o);
    o = run_check(fx, text, EVGEN_COMPAT_LOCK);
    assert_int_equal(o.n_errors, 0);
    free_outcome(&o);
    free(text);

    /* Declaring the last locked version legacy must not let a new break through. */
    text = evgen_test_replace(fx->text, "EVENT_FIELD(GCTriggered, 0, GCReason, Reason)",
                              "EVENT_LEGACY_FIELD(GCTriggered, 0, GCReason, Reason) "
                              "EVENT_LEGACY_FIELD(GCTriggered, 0, uint16_t, ClrInstanceID) "
                              "EVENT_FIELD(GCTriggered, 1, uint32_t, Depth) "
                              "EVENT_FIELD(GCTriggered, 0, GCReason, Reason)");
    assert_non_null(text);
    for (int mode = EVGEN_COMPAT_CHECK; mode <= EVGEN_COMPAT_LOCK; mode++) {
        o = run_check(fx, text, (evgen_compat_mode)mode);
        if (o.n_errors != 1 || !strstr(o.message, "follows a legacy layout but is not locked"))
            fail_msg("legacy hole not closed:\n%s", o.all);
        free_outcome(&o);
    }
    free(text);

    /* A new legacy layout for a locked event, even when lock runs, is a new break. */
    text = evgen_test_replace(fx->text, "EVENT_FIELD(GCFreeSegment, 0, uint64_t, Address)",
                              "EVENT_LEGACY_FIELD(GCFreeSegment, 0, uint32_t, Address) "
                              "EVENT_FIELD(GCFreeSegment, 0, uint64_t, Address)");
    assert_non_null(text);
    o = run_check(fx, text, EVGEN_COMPAT_LOCK);
    assert_true(o.n_errors >= 1);
    assert_non_null(strstr(o.message, "GCFreeSegment"));
    free_outcome(&o);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unmodified_manifest_matches_lock),
        cmocka_unit_test(test_breaking_edits_are_caught),
        cmocka_unit_test(test_compatible_edits_pass),
        cmocka_unit_test(test_legacy_layout_must_be_locked),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
