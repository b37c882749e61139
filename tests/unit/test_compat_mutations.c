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

#include "cli/pipeline.h"
#include "model/util.h"
#include "test_support.h"

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
    evgen_frontend_options opts = {MANIFEST_PATH, NULL, 0, text, NULL};
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

/* The kinds of breaking edit, counted separately in the summary. */
#define MUTATION_CLASSES(X)                                                     \
    X(RETYPE, "retype a field")                                                 \
    X(RENAME, "rename a field")                                                 \
    X(RENAME_LEGACY, "rename a field that a legacy layout names")               \
    X(SINCE_UP, "move a field to the next version")                             \
    X(SINCE_DOWN, "move a field to the previous version")                       \
    X(COUNT_UP, "move an array's count field to the next version")              \
    X(REMOVE, "remove a field")                                                 \
    X(INSERT, "insert a field")                                                 \
    X(SWAP, "swap two fields")                                                  \
    X(EVENT_ID, "change an event's id")                                         \
    X(EVENT_RENAME, "rename an event")                                          \
    X(EVENT_REMOVE, "remove an event")                                          \
    X(TARGETED, "hand-picked edits")

typedef enum mutation_class {
#define MUTATION_ENUM(suffix, what) MUT_##suffix,
    MUTATION_CLASSES(MUTATION_ENUM)
#undef MUTATION_ENUM
    MUT_COUNT
} mutation_class;

static const char *const mutation_class_names[] = {
#define MUTATION_NAME(suffix, what) what,
    MUTATION_CLASSES(MUTATION_NAME)
#undef MUTATION_NAME
};

/* A breaking edit and where its error must be reported. */
typedef struct mutation {
    mutation_class cls;
    char *what;
    lines edited;
    const char *expect_file; /* NULL: the manifest */
    unsigned expect_line;    /* 1-based: the edited line, unless the edit removed it */
    unsigned line_slack;     /* accepted distance from expect_line: 1 for a removed line only */
    unsigned expect_col;     /* 0: any column */
    char *expect_text;       /* substrings of the first error's message: what changed, old and new */
    char *expect_text2;      /* NULL or a second one */
} mutation;

typedef struct mutation_list {
    mutation *items;
    size_t count;
} mutation_list;

static mutation *add_mutation(mutation_list *ml, const fixture *fx, mutation_class cls, char *what)
{
    mutation *m = EVGEN_PUSH(ml->items, ml->count);
    memset(m, 0, sizeof *m);
    m->cls = cls;
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

/* The wire type name that the lock records for the C types other_type() returns. */
static const char *wire_name(const char *c_type)
{
    static const char *const map[][2] = {{"uint32_t", "uint32"}, {"uint64_t", "uint64"}, {"int64_t", "int64"},
                                         {"evgen_utf8z", "utf8z"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i][0], c_type) == 0)
            return map[i][1];
    return c_type;
}

static const evgen_lock_event *locked_event(const fixture *fx, const char *event)
{
    for (size_t i = 0; i < fx->lock.n_events; i++)
        if (strcmp(fx->lock.events[i].name, event) == 0)
            return &fx->lock.events[i];
    return NULL;
}

static bool is_locked_version(const fixture *fx, const char *event, unsigned version)
{
    const evgen_lock_event *le = locked_event(fx, event);
    for (size_t v = 0; le && v < le->n_versions; v++)
        if (le->versions[v].version == version)
            return true;
    return false;
}

/* The signature the lock records for a field in the latest locked version holding it (a legacy
 * version may record an older type). */
static const char *locked_signature(const fixture *fx, const char *event, const char *name)
{
    const evgen_lock_event *le = locked_event(fx, event);
    const char *sig = NULL;
    for (size_t v = 0; le && v < le->n_versions; v++)
        for (size_t i = 0; i < le->versions[v].n_fields; i++)
            if (strcmp(le->versions[v].fields[i].name, name) == 0)
                sig = le->versions[v].fields[i].signature;
    return sig;
}

static bool is_field_macro(const macro_line *m)
{
    return strcmp(m->macro, "EVENT_FIELD") == 0 || strcmp(m->macro, "EVENT_ARRAY") == 0;
}

/* `line` with its since argument (the second) replaced by `since`. */
static char *with_since(const macro_line *f, const char *line, unsigned since)
{
    char *r = evgen_xasprintf("%.*s%u%s", (int)(f->cols[1] - 1), line, since, line + f->cols[1] - 1 + strlen(f->args[1]));
    return r;
}

/* Moves the field on line `f` from its version to `to`: reported at its since, naming both. */
static void add_since_mutation(const fixture *fx, mutation_list *ml, mutation_class cls, const macro_line *f,
                               unsigned to)
{
    unsigned from = (unsigned)atoi(f->args[1]);
    mutation *m = add_mutation(ml, fx, cls,
                               evgen_xasprintf("since of %s.%s from %u to %u", f->args[0], f->args[3], from, to));
    set_line(&m->edited, f->index, with_since(f, fx->base.items[f->index], to));
    m->expect_line = (unsigned)f->index + 1;
    m->expect_col = f->cols[1];
    m->expect_text = evgen_xasprintf("'%s' of '%s' is moved from version %u to version %u", f->args[3], f->args[0],
                                     from, to);
}

/* (a) For every event and every version its fields introduce, the first and the last field of
 * that version move up one version and down one version (down only into a locked version: a
 * move below an event's first locked version changes no shipped layout). */
static void since_mutations(const fixture *fx, mutation_list *ml)
{
    for (size_t i = 0; i < fx->n_macros; i++) {
        const macro_line *f = &fx->macros[i];
        if (!is_field_macro(f))
            continue;
        const macro_line *prev = NULL, *next = NULL;
        for (size_t j = i; j-- > 0 && !prev;)
            if (is_field_macro(&fx->macros[j]) && strcmp(fx->macros[j].args[0], f->args[0]) == 0)
                prev = &fx->macros[j];
        for (size_t j = i + 1; j < fx->n_macros && !next; j++)
            if (is_field_macro(&fx->macros[j]) && strcmp(fx->macros[j].args[0], f->args[0]) == 0)
                next = &fx->macros[j];
        bool first = !prev || strcmp(prev->args[1], f->args[1]) != 0;
        bool last = !next || strcmp(next->args[1], f->args[1]) != 0;
        if (!first && !last)
            continue;
        unsigned since = (unsigned)atoi(f->args[1]);
        add_since_mutation(fx, ml, MUT_SINCE_UP, f, since + 1);
        if (since > 0 && is_locked_version(fx, f->args[0], since - 1))
            add_since_mutation(fx, ml, MUT_SINCE_DOWN, f, since - 1);
    }
}

/* (c) The count field of every array moves to the next version: reported at the count field,
 * not at the array. */
static void count_mutations(const fixture *fx, mutation_list *ml)
{
    for (size_t i = 0; i < fx->n_macros; i++) {
        const macro_line *a = &fx->macros[i];
        if (strcmp(a->macro, "EVENT_ARRAY") != 0)
            continue;
        for (size_t j = 0; j < fx->n_macros; j++) {
            const macro_line *c = &fx->macros[j];
            if (strcmp(c->macro, "EVENT_FIELD") == 0 && strcmp(c->args[0], a->args[0]) == 0 &&
                strcmp(c->args[3], a->args[4]) == 0)
                add_since_mutation(fx, ml, MUT_COUNT_UP, c, (unsigned)atoi(c->args[1]) + 1);
        }
    }
}

/* (b), (d), (e) Every field is retyped and renamed, each edit on its own. */
static void retype_rename_mutations(const fixture *fx, mutation_list *ml)
{
    for (size_t i = 0; i < fx->n_macros; i++) {
        const macro_line *f = &fx->macros[i];
        if (strcmp(f->macro, "EVENT_FIELD") != 0)
            continue;
        const char *event = f->args[0], *since = f->args[1], *type = f->args[2], *name = f->args[3];
        unsigned line = (unsigned)f->index + 1;
        const char *locked = locked_signature(fx, event, name);
        assert_non_null(locked);

        mutation *m = add_mutation(ml, fx, MUT_RETYPE, evgen_xasprintf("retype %s.%s", event, name));
        set_line(&m->edited, f->index, field_line(event, since, other_type(type), name));
        m->expect_line = line;
        m->expect_col = arg_col(m->edited.items[f->index], 3);
        m->expect_text = evgen_xasprintf("'%s' of locked version", name);
        m->expect_text2 = evgen_xasprintf("is retyped: %s, locked as %s", wire_name(other_type(type)), locked);

        bool legacy = is_legacy_field(fx, event, name);
        m = add_mutation(ml, fx, legacy ? MUT_RENAME_LEGACY : MUT_RENAME, evgen_xasprintf("rename %s.%s", event, name));
        set_line(&m->edited, f->index, field_line(event, since, type, "RenamedField"));
        m->expect_line = line;
        m->expect_col = arg_col(m->edited.items[f->index], 4);
        m->expect_text = evgen_xasprintf("'%s' of locked version", name);
        m->expect_text2 = evgen_xstrdup("is renamed to 'RenamedField'");
    }
}

static void field_mutations(const fixture *fx, mutation_list *ml)
{
    since_mutations(fx, ml);
    count_mutations(fx, ml);
    retype_rename_mutations(fx, ml);
    for (size_t i = 0; i < fx->n_macros; i++) {
        const macro_line *f = &fx->macros[i];
        if (strcmp(f->macro, "EVENT_FIELD") != 0)
            continue;
        const char *event = f->args[0], *since = f->args[1], *name = f->args[3];
        bool is_count = is_count_field(fx, event, name);
        unsigned line = (unsigned)f->index + 1;
        /* Remove (not a count or legacy field, nor the only field of its version: removing those
         * is reported as the array, legacy layout or version they break). The line is gone: the
         * error is at the field that followed it, or at the one before it for a version's last. */
        if (!is_count && !is_legacy_field(fx, event, name) && count_fields_since(fx, event, since) > 1) {
            mutation *m = add_mutation(ml, fx, MUT_REMOVE, evgen_xasprintf("remove %s.%s", event, name));
            set_line(&m->edited, f->index, evgen_xstrdup("/* removed */"));
            m->expect_line = line;
            m->line_slack = 1;
            m->expect_text = evgen_xasprintf("field '%s' of locked version", name);
            m->expect_text2 = evgen_xstrdup("was removed");
        }
        /* Insert a field before this one, with the same since. */
        mutation *m = add_mutation(ml, fx, MUT_INSERT, evgen_xasprintf("insert before %s.%s", event, name));
        char *inserted = field_line(event, since, "uint32_t", "InsertedField");
        set_line(&m->edited, f->index, evgen_xasprintf("%s %s", inserted, fx->base.items[f->index]));
        m->expect_line = line;
        m->expect_col = arg_col(m->edited.items[f->index], 2); /* the inserted field's since */
        m->expect_text = evgen_xasprintf("field 'InsertedField' is inserted before '%s'", name);
        free(inserted);
    }
    /* Swap each pair of adjacent fields of one event with the same since. */
    for (size_t i = 0; i + 1 < fx->n_macros; i++) {
        const macro_line *a = &fx->macros[i], *b = &fx->macros[i + 1];
        if (strcmp(a->macro, "EVENT_FIELD") != 0 || strcmp(b->macro, "EVENT_FIELD") != 0 ||
            b->index != a->index + 1 || strcmp(a->args[0], b->args[0]) != 0 || strcmp(a->args[1], b->args[1]) != 0)
            continue;
        mutation *m = add_mutation(ml, fx, MUT_SWAP,
                                   evgen_xasprintf("swap %s.%s and %s", a->args[0], a->args[3], b->args[3]));
        set_line(&m->edited, a->index, evgen_xstrdup(fx->base.items[b->index]));
        set_line(&m->edited, b->index, evgen_xstrdup(fx->base.items[a->index]));
        m->expect_line = (unsigned)a->index + 1;
        m->expect_col = b->cols[3];
        m->expect_text = evgen_xasprintf("field '%s' is moved in locked version", b->args[3]);
        m->expect_text2 = evgen_xasprintf("the lock has '%s' here", a->args[3]);
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

        mutation *m = add_mutation(ml, fx, MUT_EVENT_ID, evgen_xasprintf("change the id of %s", events[i]));
        char *from = evgen_xasprintf("%s, %s,", events[i], k->args[1]);
        char *to = evgen_xasprintf("%s, %d,", events[i], atoi(k->args[1]) + 1000);
        set_line(&m->edited, k->index, evgen_test_replace(fx->base.items[k->index], from, to));
        m->expect_line = line;
        m->expect_col = k->cols[1];
        m->expect_text = evgen_xasprintf("id of locked event '%s' changed from %s to %d", events[i], k->args[1],
                                         atoi(k->args[1]) + 1000);
        free(from);
        free(to);

        m = add_mutation(ml, fx, MUT_EVENT_RENAME, evgen_xasprintf("rename event %s", events[i]));
        from = evgen_xasprintf("(%s,", events[i]);
        to = evgen_xasprintf("(%sRenamed,", events[i]);
        edit_event_lines(&m->edited, fx, events[i], from, to);
        m->expect_line = line;
        m->expect_col = k->cols[0];
        m->expect_text = evgen_xasprintf("locked event '%s' (id %s) is renamed to '%sRenamed'", events[i], k->args[1],
                                         events[i]);
        free(from);
        free(to);

        m = add_mutation(ml, fx, MUT_EVENT_REMOVE, evgen_xasprintf("remove event %s", events[i]));
        edit_event_lines(&m->edited, fx, events[i], NULL, NULL);
        m->expect_file = LOCK_PATH;
        m->expect_line = lock_line_of_event(fx, events[i]);
        m->expect_text = evgen_xasprintf("locked event '%s'", events[i]);
        m->expect_text2 = evgen_xstrdup("is missing from the manifest");
    }
}

/* Hand-picked breaks the loops above do not reach: legacy layouts, structs, versions. */
typedef struct targeted {
    const char *what;
    const char *find; /* text of the line to edit (first occurrence) */
    const char *replace;
    const char *expect_text;
    unsigned col_arg; /* 1-based argument of the edited line the error points at; 0 = any */
    /* NULL: the error is at the edited line. Else the text of the line it must be at, for an
     * edit that removes its line or changes a struct that an array line uses. */
    const char *expect_at;
} targeted;

static const targeted targeted_edits[] = {
    {"retype a legacy field", "EVENT_LEGACY_FIELD(GCEnd, 0, uint16_t, Depth)",
     "EVENT_LEGACY_FIELD(GCEnd, 0, uint32_t, Depth)", "'Depth' of locked version 0 of 'GCEnd' is retyped: uint32, locked as uint16", 3, NULL},
    {"drop the legacy layout of GCSuspendEEBegin v0", "EVENT_LEGACY_FIELD(GCSuspendEEBegin, 0, uint16_t,          Reason)",
     "/* removed */", "'Reason' of locked version 0 of 'GCSuspendEEBegin' is retyped: uint32, locked as uint16", 0,
     "EVENT_FIELD(GCSuspendEEBegin,        0, GCSuspendEEReason, Reason)"},
    {"remove the empty version 0 of GCRestartEEEnd", "EVENT_VERSION(GCRestartEEEnd, 0)", "/* removed */",
     "locked version 0 of 'GCRestartEEEnd' is missing", 0, "KNOWN_EVENT(GCRestartEEEnd,"},
    {"retype a member of the struct of GCLOHCompact", "    uint32_t TimePlan;", "    uint64_t TimePlan;",
     "'Values' of locked version 0 of 'GCLOHCompact' is given another element struct layout", 0,
     "EVENT_ARRAY(GCLOHCompact,"},
    {"grow the struct of GCLOHCompact", "    evgen_ptr ZeroRefs;", "    evgen_ptr ZeroRefs; evgen_ptr MoreRefs;",
     "'Values' of locked version 0 of 'GCLOHCompact' is resized", 0, "EVENT_ARRAY(GCLOHCompact,"},
    {"count an array by another field", "EVENT_ARRAY(GCFitBucketInfo, 0, GCFitBucketInfoValue, Values, Count)",
     "EVENT_ARRAY(GCFitBucketInfo, 0, GCFitBucketInfoValue, Values, BucketKind)",
     "'Values' of locked version 0 of 'GCFitBucketInfo' is counted by another field", 5, NULL},
    {"move a provider", "KNOWN_EVENT(GCMarkWithType, 202, GCEventProvider_Default,",
     "KNOWN_EVENT(GCMarkWithType, 202, GCEventProvider_Private,",
     "provider of locked event 'GCMarkWithType' changed from Microsoft-Windows-DotNETRuntime to "
     "Microsoft-Windows-DotNETRuntimePrivate", 3, NULL},
    {"add a field to a locked version", "EVENT_FIELD(GCHeapStats, 2, uint64_t, TotalPromotedSize4)",
     "EVENT_FIELD(GCHeapStats, 2, uint64_t, TotalPromotedSize4) EVENT_FIELD(GCHeapStats, 2, uint64_t, Extra)",
     "field 'Extra' is added to version 2", 0, NULL},
    {"move a field to a newer version", "EVENT_FIELD(GCHeapStats, 2, uint64_t, TotalPromotedSize4)",
     "EVENT_FIELD(GCHeapStats, 3, uint64_t, TotalPromotedSize4)",
     "'TotalPromotedSize4' of 'GCHeapStats' is moved from version 2 to version 3", 2, NULL},
    {"change an array's element type", "EVENT_ARRAY(GCDynamicEvent, 0, uint8_t,      Data, DataSize)",
     "EVENT_ARRAY(GCDynamicEvent, 0, uint16_t,     Data, DataSize)",
     "'Data' of locked version 0 of 'GCDynamicEvent' is retyped: array<uint16>[DataSize], locked as "
     "array<uint8>[DataSize]", 3, NULL},
};

static size_t line_containing(const fixture *fx, const char *text)
{
    for (size_t i = 0; i < fx->base.count; i++)
        if (strstr(fx->base.items[i], text))
            return i;
    fail_msg("no line contains '%s'", text);
    return 0;
}

static void targeted_mutations(const fixture *fx, mutation_list *ml)
{
    for (size_t t = 0; t < sizeof targeted_edits / sizeof targeted_edits[0]; t++) {
        const targeted *te = &targeted_edits[t];
        size_t index = line_containing(fx, te->find);
        mutation *m = add_mutation(ml, fx, MUT_TARGETED, evgen_xstrdup(te->what));
        set_line(&m->edited, index, evgen_test_replace(fx->base.items[index], te->find, te->replace));
        m->expect_text = evgen_xstrdup(te->expect_text);
        m->expect_line = (unsigned)(te->expect_at ? line_containing(fx, te->expect_at) : index) + 1;
        if (te->col_arg)
            m->expect_col = arg_col(m->edited.items[index], te->col_arg);
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
              (m->expect_col == 0 || o.col == m->expect_col) && strstr(o.message, m->expect_text) != NULL &&
              (!m->expect_text2 || strstr(o.message, m->expect_text2) != NULL);
    if (!ok)
        fprintf(stderr, "NOT CAUGHT RIGHT: %s\n  expected %s:%u:%u (+-%u) containing \"%s\" and \"%s\"\n  got:\n%s\n",
                m->what, want_file, m->expect_line, m->expect_col, m->line_slack, m->expect_text,
                m->expect_text2 ? m->expect_text2 : "", o.all);
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
    size_t failed = 0, per_class[MUT_COUNT] = {0}, failed_per_class[MUT_COUNT] = {0};
    for (size_t i = 0; i < ml.count; i++) {
        mutation *m = &ml.items[i];
        per_class[m->cls]++;
        if (!mutation_caught(fx, m)) {
            failed++;
            failed_per_class[m->cls]++;
        }
        free(m->what);
        free(m->expect_text);
        free(m->expect_text2);
        free_lines(&m->edited);
    }
    free(ml.items);
    for (int c = 0; c < MUT_COUNT; c++) {
        printf("%4zu %s (%zu not caught at the edited line)\n", per_class[c], mutation_class_names[c],
               failed_per_class[c]);
        /* Every class must have produced mutants: a loop that finds nothing tests nothing. */
        assert_true(per_class[c] > 0);
    }
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

/* One edit of the manifest and the first error both commands must give for it (NULL: none). */
static void expect_edit(fixture *fx, const char *what, const char *find, const char *replace, const char *error)
{
    char *text = evgen_test_replace(fx->text, find, replace);
    if (!text)
        fail_msg("%s: text not found", what);
    for (int mode = EVGEN_COMPAT_CHECK; mode <= EVGEN_COMPAT_LOCK; mode++) {
        outcome o = run_check(fx, text, (evgen_compat_mode)mode);
        if (error ? o.n_errors == 0 || !strstr(o.message, error) : o.n_errors != 0)
            fail_msg("%s: expected %s, got:\n%s", what, error ? error : "no error", o.all);
        free_outcome(&o);
    }
    free(text);
}

/* Legacy-only fields (PrvGCPerHeapHistory v1's ClrInstanceID, which v2 dropped): the locked version
 * after the legacy one lacks the field and passes; every other edit of the locked layouts is still
 * refused, and a legacy-only field cannot drop a field from a new version. */
static void test_legacy_only_fields(void **state)
{
    fixture *fx = *state;
    const char *legacy = "EVENT_LEGACY_FIELD(PrvGCPerHeapHistory, 1, uint16_t, ClrInstanceID)";
    const char *latest = "EVENT_VERSION(PrvGCPerHeapHistory, 2)";
    expect_edit(fx, "append a version 3 after the legacy-only field", latest,
                "EVENT_VERSION(PrvGCPerHeapHistory, 2) EVENT_FIELD(PrvGCPerHeapHistory, 3, uint32_t, HeapIndex)", NULL);
    expect_edit(fx, "retype the legacy-only field", legacy,
                "EVENT_LEGACY_FIELD(PrvGCPerHeapHistory, 1, uint32_t, ClrInstanceID)",
                "'ClrInstanceID' of locked version 1 of 'PrvGCPerHeapHistory' is retyped: uint32, locked as uint16");
    expect_edit(fx, "remove the legacy layout", legacy, "/* removed */",
                "locked version 1 of 'PrvGCPerHeapHistory' is missing (it has 2..2)");
    expect_edit(fx, "remove the legacy-only field, keeping version 1", legacy, "EVENT_VERSION(PrvGCPerHeapHistory, 1)",
                "field 'ClrInstanceID' of locked version 1 of 'PrvGCPerHeapHistory' was removed");
    expect_edit(fx, "rename the legacy-only field", legacy,
                "EVENT_LEGACY_FIELD(PrvGCPerHeapHistory, 1, uint16_t, ClrInstanceId)",
                "field 'ClrInstanceID' of locked version 1 of 'PrvGCPerHeapHistory' is renamed to 'ClrInstanceId'");
    expect_edit(fx, "insert a legacy-only field", legacy,
                "EVENT_LEGACY_FIELD(PrvGCPerHeapHistory, 1, uint32_t, HeapIndex) "
                "EVENT_LEGACY_FIELD(PrvGCPerHeapHistory, 1, uint16_t, ClrInstanceID)",
                "field 'HeapIndex' is inserted before 'ClrInstanceID' in locked version 1 of 'PrvGCPerHeapHistory'");
    expect_edit(fx, "append a legacy-only field to the locked version", legacy,
                "EVENT_LEGACY_FIELD(PrvGCPerHeapHistory, 1, uint16_t, ClrInstanceID) "
                "EVENT_LEGACY_FIELD(PrvGCPerHeapHistory, 1, uint32_t, HeapIndex)",
                "field 'HeapIndex' is added to version 1 of 'PrvGCPerHeapHistory', which is locked");
    expect_edit(fx, "put the legacy-only field in the locked version 2", latest,
                "EVENT_VERSION(PrvGCPerHeapHistory, 2) EVENT_LEGACY_FIELD(PrvGCPerHeapHistory, 2, uint16_t, ClrInstanceID) "
                "EVENT_FIELD(PrvGCPerHeapHistory, 3, uint32_t, HeapIndex)",
                "field 'ClrInstanceID' is added to version 2 of 'PrvGCPerHeapHistory', which is locked");
    /* Turning a shipped field of GCOptimized (v0-1 locked) into a legacy-only one would drop it
     * from a new version 2: a new break, refused by check and by lock. */
    expect_edit(fx, "drop a shipped field by making it legacy-only",
                "EVENT_FIELD(GCOptimized, 0, uint32_t, GenerationNumber)\nEVENT_FIELD(GCOptimized, 1, uint16_t, ClrInstanceID)",
                "EVENT_LEGACY_FIELD(GCOptimized, 0, uint64_t, DesiredAllocation) "
                "EVENT_LEGACY_FIELD(GCOptimized, 0, uint64_t, NewAllocation) "
                "EVENT_LEGACY_FIELD(GCOptimized, 0, uint32_t, GenerationNumber) "
                "EVENT_LEGACY_FIELD(GCOptimized, 1, uint64_t, DesiredAllocation) "
                "EVENT_LEGACY_FIELD(GCOptimized, 1, uint64_t, NewAllocation) "
                "EVENT_LEGACY_FIELD(GCOptimized, 1, uint32_t, GenerationNumber) "
                "EVENT_LEGACY_FIELD(GCOptimized, 1, uint16_t, ClrInstanceID) "
                "EVENT_FIELD(GCOptimized, 1, uint16_t, ClrInstanceID) EVENT_VERSION(GCOptimized, 2)",
                "version 2 of 'GCOptimized' follows a legacy layout but is not locked");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unmodified_manifest_matches_lock),
        cmocka_unit_test(test_breaking_edits_are_caught),
        cmocka_unit_test(test_compatible_edits_pass),
        cmocka_unit_test(test_legacy_layout_must_be_locked),
        cmocka_unit_test(test_legacy_only_fields),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
