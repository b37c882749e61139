/* frontend_macros.c — where things are in a manifest: locations, the invocations of manifest
 * macros with the position of each argument, and clang's own diagnostics, annotated with the
 * macro argument they fall in. */
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend_internal.h"
#include "model/util.h"

const evgen_manifest_macro evgen_manifest_macros[] = {
    {"EVENT_PROVIDER", {"symbol", "name"}, 2},
    {"KNOWN_EVENT", {"name", "id", "provider", "level", "keywords"}, 5},
    {"EVENT_FIELD", {"event", "since", "type", "name"}, 4},
    {"EVENT_ARRAY", {"event", "since", "type", "name", "count_field"}, 5},
    {"EVENT_VERSION", {"event", "version"}, 2},
    {"EVENT_LEGACY_FIELD", {"event", "version", "type", "name"}, 4},
    {"EVENT_VERSION_ATTRIBUTES", {"event", "version", "level", "keywords"}, 4},
};
const size_t evgen_n_manifest_macros = sizeof evgen_manifest_macros / sizeof evgen_manifest_macros[0];

/* ---- locations -------------------------------------------------------------------------- */

static evgen_model_loc make_loc(evgen_frontend_state *st, CXFile file, unsigned line, unsigned col)
{
    evgen_model_loc loc = {NULL, line, col};
    if (file) {
        CXString name = clang_getFileName(file);
        loc.file = evgen_model_intern_file(st->model, clang_getCString(name));
        clang_disposeString(name);
    }
    return loc;
}

evgen_model_loc evgen_fe_expansion_loc(evgen_frontend_state *st, CXSourceLocation where, unsigned *offset)
{
    CXFile file;
    unsigned line, col, off;
    clang_getExpansionLocation(where, &file, &line, &col, &off);
    if (offset)
        *offset = off;
    return make_loc(st, file, line, col);
}

evgen_model_loc evgen_fe_file_loc(evgen_frontend_state *st, CXSourceLocation where)
{
    CXFile file;
    unsigned line, col, off;
    clang_getFileLocation(where, &file, &line, &col, &off);
    return make_loc(st, file, line, col);
}

/* ---- macro invocations ------------------------------------------------------------------ */

static int manifest_macro_index(const char *name)
{
    for (size_t i = 0; i < evgen_n_manifest_macros; i++)
        if (strcmp(name, evgen_manifest_macros[i].name) == 0)
            return (int)i;
    return -1;
}

static bool is_punct(const char *s, const char *set)
{
    return s[0] && !s[1] && strchr(set, s[0]);
}

/* Splits NAME ( arg , arg ... ) at the commas outside nested brackets. */
static void split_arguments(evgen_frontend_state *st, evgen_macro_use *use, CXToken *tokens, unsigned n_tokens)
{
    int depth = 0;
    bool arg_started = false;
    for (unsigned i = 1; i < n_tokens; i++) {
        CXString sp = clang_getTokenSpelling(st->tu, tokens[i]);
        const char *s = clang_getCString(sp);
        bool punct = clang_getTokenKind(tokens[i]) == CXToken_Punctuation;
        bool opens = punct && is_punct(s, "([{"), closes = punct && is_punct(s, ")]}");
        bool comma = punct && depth == 1 && strcmp(s, ",") == 0;
        clang_disposeString(sp);
        evgen_model_loc at = evgen_fe_file_loc(st, clang_getTokenLocation(st->tu, tokens[i]));
        if (opens && ++depth == 1)
            continue;
        if (closes && --depth == 0) {
            use->end = at;
            if (!arg_started && use->n_args > 0 && use->n_args < EVGEN_MAX_ARGS) {
                use->empty[use->n_args] = true; /* "f(a, )": point at the closing parenthesis */
                use->args[use->n_args++] = at;
            }
            break;
        }
        if (comma) {
            if (!arg_started && use->n_args < EVGEN_MAX_ARGS) {
                use->empty[use->n_args] = true; /* "f(a, , b)": point at the comma */
                use->args[use->n_args++] = at;
            }
            arg_started = false;
            continue;
        }
        if (depth >= 1 && !arg_started && use->n_args < EVGEN_MAX_ARGS) {
            use->args[use->n_args++] = at;
            arg_started = true;
        }
    }
}

static void record_macro_definition(evgen_frontend_state *st, CXCursor cursor)
{
    CXString name = clang_getCursorSpelling(cursor);
    evgen_macro_def *m = EVGEN_PUSH(st->macros, st->n_macros);
    m->name = evgen_xstrdup(clang_getCString(name));
    m->loc = evgen_fe_file_loc(st, clang_getCursorLocation(cursor));
    clang_disposeString(name);
}

static int compare_macros(const void *a, const void *b)
{
    return strcmp(((const evgen_macro_def *)a)->name, ((const evgen_macro_def *)b)->name);
}

const evgen_macro_def *evgen_fe_find_macro(const evgen_frontend_state *st, const char *name)
{
    evgen_macro_def key = {(char *)name, {NULL, 0, 0}};
    return st->n_macros ? bsearch(&key, st->macros, st->n_macros, sizeof key, compare_macros) : NULL;
}

void evgen_fe_free_macros(evgen_frontend_state *st)
{
    for (size_t i = 0; i < st->n_macros; i++)
        free(st->macros[i].name);
    free(st->macros);
}

static enum CXChildVisitResult visit_macro_expansion(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    evgen_frontend_state *st = data;
    if (clang_getCursorKind(cursor) == CXCursor_MacroDefinition) {
        record_macro_definition(st, cursor);
        return CXChildVisit_Continue;
    }
    if (clang_getCursorKind(cursor) != CXCursor_MacroExpansion)
        return CXChildVisit_Continue;
    CXString name = clang_getCursorSpelling(cursor);
    int macro = manifest_macro_index(clang_getCString(name));
    clang_disposeString(name);
    if (macro < 0)
        return CXChildVisit_Continue;
    evgen_macro_use *use = EVGEN_PUSH(st->uses, st->n_uses);
    use->macro = macro;
    use->loc = evgen_fe_expansion_loc(st, clang_getCursorLocation(cursor), &use->offset);
    use->file = use->loc.file;
    CXToken *tokens = NULL;
    unsigned n_tokens = 0;
    clang_tokenize(st->tu, clang_getCursorExtent(cursor), &tokens, &n_tokens);
    split_arguments(st, use, tokens, n_tokens);
    clang_disposeTokens(st->tu, tokens, n_tokens);
    return CXChildVisit_Continue;
}

void evgen_fe_collect_macro_uses(evgen_frontend_state *st)
{
    clang_visitChildren(clang_getTranslationUnitCursor(st->tu), visit_macro_expansion, st);
    /* <stddef.h>'s, which generated code includes though the manifest need not. */
    static const char *const generated_code_macros[] = {"NULL", "offsetof"};
    for (size_t i = 0; i < sizeof generated_code_macros / sizeof generated_code_macros[0]; i++) {
        evgen_macro_def *m = EVGEN_PUSH(st->macros, st->n_macros);
        m->name = evgen_xstrdup(generated_code_macros[i]);
    }
    qsort(st->macros, st->n_macros, sizeof *st->macros, compare_macros);
}

bool evgen_fe_argument_locs(evgen_frontend_state *st, evgen_model_loc loc, unsigned offset,
                            evgen_model_loc args[EVGEN_MAX_ARGS])
{
    for (size_t k = 0; k < st->n_uses; k++) {
        size_t i = (st->next_use + k) % st->n_uses;
        const evgen_macro_use *use = &st->uses[i];
        if (use->offset == offset && use->file == loc.file) {
            for (unsigned a = 0; a < EVGEN_MAX_ARGS; a++)
                args[a] = a < use->n_args ? use->args[a] : loc;
            st->next_use = i + 1;
            return true;
        }
    }
    for (unsigned a = 0; a < EVGEN_MAX_ARGS; a++)
        args[a] = loc;
    return false;
}

/* ---- clang's diagnostics ---------------------------------------------------------------- */

static bool loc_before(const evgen_model_loc *a, const evgen_model_loc *b)
{
    return a->line < b->line || (a->line == b->line && a->col < b->col);
}

/* The macro invocation whose argument `arg` (or the macro itself: -1) holds a position. */
static const evgen_macro_use *use_at(const evgen_frontend_state *st, const evgen_model_loc *at, int *arg)
{
    for (size_t i = 0; i < st->n_uses; i++) {
        const evgen_macro_use *use = &st->uses[i];
        if (use->file == at->file && use->loc.line == at->line && use->loc.col == at->col) {
            *arg = -1;
            return use;
        }
    }
    for (size_t i = 0; i < st->n_uses; i++) {
        const evgen_macro_use *use = &st->uses[i];
        if (use->file != at->file)
            continue;
        for (unsigned a = 0; a < use->n_args; a++) {
            const evgen_model_loc *next = a + 1 < use->n_args ? &use->args[a + 1] : &use->end;
            if (!loc_before(at, &use->args[a]) && loc_before(at, next)) {
                *arg = (int)a;
                return use;
            }
        }
    }
    return NULL;
}

static void signature(evgen_strbuf *sb, const evgen_manifest_macro *m)
{
    evgen_sb_printf(sb, "%s(", m->name);
    for (unsigned i = 0; i < m->n_params; i++)
        evgen_sb_printf(sb, "%s%s", i ? ", " : "", m->params[i]);
    evgen_sb_putc(sb, ')');
}

/* The manifest macro named last before `col` on line `line` of `file`, read from the source. */
static int macro_on_line(evgen_frontend_state *st, CXFile file, unsigned line, unsigned col)
{
    size_t size = 0;
    const char *text = file ? clang_getFileContents(st->tu, file, &size) : NULL;
    if (!text)
        return -1;
    const char *p = text, *end = text + size;
    for (unsigned l = 1; l < line && p < end; p++)
        if (*p == '\n')
            l++;
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    size_t len = eol ? (size_t)(eol - p) : (size_t)(end - p);
    int found = -1;
    for (size_t i = 0; i < len && i + 1 < col; i++) {
        for (size_t m = 0; m < evgen_n_manifest_macros; m++) {
            size_t n = strlen(evgen_manifest_macros[m].name);
            if (i + n <= len && strncmp(p + i, evgen_manifest_macros[m].name, n) == 0 &&
                (i + n == len || p[i + n] == '(' || p[i + n] == ' '))
                found = (int)m;
        }
    }
    return found;
}

/* Adds our explanation to a clang error that falls inside a manifest macro invocation.
 * Returns true when the error breaks the invocation itself, so that what follows is noise. */
static bool annotate(evgen_frontend_state *st, CXFile file, const evgen_model_loc *at, const char *message)
{
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    bool invocation_broken = strstr(message, "function-like macro invocation") != NULL;
    int arg = -1;
    const evgen_macro_use *use = invocation_broken ? NULL : use_at(st, at, &arg);
    if (invocation_broken) {
        int m = macro_on_line(st, file, at->line, at->col);
        if (m >= 0) {
            evgen_sb_puts(&sb, "the macro is ");
            signature(&sb, &evgen_manifest_macros[m]);
            evgen_note(st->diags, at, "%s", sb.data);
        }
    } else if (use && arg < 0) {
        for (unsigned a = 0; a < use->n_args; a++) {
            if (use->empty[a]) {
                const evgen_manifest_macro *m = &evgen_manifest_macros[use->macro];
                evgen_note(st->diags, &use->args[a], "the '%s' argument of %s is empty",
                           a < m->n_params ? m->params[a] : "?", m->name);
                break;
            }
        }
    } else if (use) {
        const evgen_manifest_macro *m = &evgen_manifest_macros[use->macro];
        const char *param = (unsigned)arg < m->n_params ? m->params[arg] : "extra";
        signature(&sb, m);
        if (strcmp(param, "type") == 0 && strstr(message, "undeclared identifier"))
            evgen_note(st->diags, at, "the 'type' argument of %s must name a type declared before this line", m->name);
        else if (strcmp(m->name, "EVENT_PROVIDER") == 0 && strcmp(param, "name") == 0)
            evgen_note(st->diags, at, "the provider name is a string literal: EVENT_PROVIDER(symbol, \"Provider-Name\")");
        else
            evgen_note(st->diags, at, "in the '%s' argument of %s", param, sb.data);
    }
    evgen_sb_free(&sb);
    return invocation_broken;
}

static evgen_severity severity_of(enum CXDiagnosticSeverity sev)
{
    return sev >= CXDiagnostic_Error ? EVGEN_SEV_ERROR : sev == CXDiagnostic_Warning ? EVGEN_SEV_WARNING : EVGEN_SEV_NOTE;
}

/* Adds one clang diagnostic; notes in evgen's own probe header are clang talking about our
 * macro plumbing, not about the manifest, and are left out. */
static void add_clang_diagnostic(evgen_frontend_state *st, CXDiagnostic d, evgen_severity sev, CXFile *file_out,
                                 evgen_model_loc *at)
{
    /* Where clang wrote the offending token (a #define's body, say), unless that is inside
     * evgen's probe macros: then where the manifest used them. */
    CXFile file = NULL;
    unsigned line = 0, col = 0, off;
    CXSourceLocation where = clang_getDiagnosticLocation(d);
    clang_getSpellingLocation(where, &file, &line, &col, &off);
    *at = make_loc(st, file, line, col);
    if (!at->file || strncmp(at->file, EVGEN_BUILTIN_DIR "/", sizeof EVGEN_BUILTIN_DIR) == 0) {
        clang_getFileLocation(where, &file, &line, &col, &off);
        *at = make_loc(st, file, line, col);
    }
    if (file_out)
        *file_out = file;
    if (sev == EVGEN_SEV_NOTE && at->file && strncmp(at->file, EVGEN_BUILTIN_DIR "/", sizeof EVGEN_BUILTIN_DIR) == 0)
        return;
    CXString msg = clang_getDiagnosticSpelling(d);
    evgen_diag_add(st->diags, sev, EVGEN_D_CLANG, at->file, line, col, clang_getCString(msg));
    clang_disposeString(msg);
}

size_t evgen_fe_report_clang_diagnostics(evgen_frontend_state *st)
{
    size_t errors = 0;
    unsigned n = clang_getNumDiagnostics(st->tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(st->tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        bool stop = false;
        if (sev != CXDiagnostic_Ignored) {
            CXFile file = NULL;
            evgen_model_loc at;
            add_clang_diagnostic(st, d, severity_of(sev), &file, &at);
            if (sev >= CXDiagnostic_Error) {
                errors++;
                stop = annotate(st, file, &at, st->diags->items[st->diags->count - 1].message);
            }
            CXDiagnosticSet children = clang_getChildDiagnostics(d);
            for (unsigned c = 0; c < clang_getNumDiagnosticsInSet(children); c++) {
                CXDiagnostic child = clang_getDiagnosticInSet(children, c);
                evgen_model_loc child_at;
                add_clang_diagnostic(st, child, EVGEN_SEV_NOTE, NULL, &child_at);
                clang_disposeDiagnostic(child);
            }
        }
        clang_disposeDiagnostic(d);
        if (stop)
            break; /* the rest follows from a broken macro invocation */
    }
    return errors;
}
