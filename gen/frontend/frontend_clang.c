/* frontend_clang.c — compiles a manifest with libclang under "probe" definitions of the manifest
 * macros and turns what the compiler resolved into the model's declarations.
 *
 * Each manifest macro expands to a small static function whose local variables carry the
 * macro's arguments: integer arguments as initializers that clang evaluates, names stringized,
 * the field type as the type of a variable. So the C compiler resolves every typedef, enum,
 * #include, #define and constant expression, and we read its answers back. Argument positions
 * come from tokenizing the macro invocation, so errors point at the argument itself. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"
#include "frontend/frontend_internal.h"
#include "model/outputs.h"
#include "model/util.h"

#define PROBE_HEADER EVGEN_BUILTIN_DIR "/evgen/probe.h"

static const char probe_header[] =
    "/* evgen probe definitions: each manifest macro becomes a function the front end reads. */\n"
    "#define EVGEN_PROBE_CAT2(a, b) a##b\n"
    "#define EVGEN_PROBE_CAT(a, b) EVGEN_PROBE_CAT2(a, b)\n"
    "#define EVGEN_PROBE(kind) static void EVGEN_PROBE_CAT(evgen_probe_##kind##_, __COUNTER__)(void)\n"
    "#define EVENT_PROVIDER(symbol, name) EVGEN_PROBE(provider) {\\\n"
    "  const char *evgen_symbol = #symbol; const char *evgen_name = name; }\n"
    "#define KNOWN_EVENT(name, id, provider, level, keywords) EVGEN_PROBE(event) {\\\n"
    "  const char *evgen_name = #name; __auto_type evgen_id = (id); const char *evgen_provider = #provider;\\\n"
    "  __auto_type evgen_level = (level); __auto_type evgen_keywords = (keywords); }\n"
    "#define EVENT_FIELD(event, since, type, name) EVGEN_PROBE(field) {\\\n"
    "  const char *evgen_event = #event; __auto_type evgen_since = (since); type evgen_type;\\\n"
    "  const char *evgen_name = #name; }\n"
    "#define EVENT_ARRAY(event, since, type, name, count_field) EVGEN_PROBE(array) {\\\n"
    "  const char *evgen_event = #event; __auto_type evgen_since = (since); type evgen_type;\\\n"
    "  const char *evgen_name = #name; const char *evgen_count = #count_field; }\n"
    "#define EVENT_VERSION(event, number) EVGEN_PROBE(version) {\\\n"
    "  const char *evgen_event = #event; __auto_type evgen_since = (number); }\n"
    "#define EVENT_LEGACY_FIELD(event, version, type, name) EVGEN_PROBE(legacy) {\\\n"
    "  const char *evgen_event = #event; __auto_type evgen_since = (version); type evgen_type;\\\n"
    "  const char *evgen_name = #name; }\n"
    "#define EVENT_VERSION_ATTRIBUTES(event, version, level, keywords) EVGEN_PROBE(attributes) {\\\n"
    "  const char *evgen_event = #event; __auto_type evgen_since = (version);\\\n"
    "  __auto_type evgen_level = (level); __auto_type evgen_keywords = (keywords); }\n";


/* One local variable of a probe function. */
typedef struct probe_var {
    const char *name; /* evgen_xxx without the prefix */
    CXCursor cursor;
} probe_var;

/* ---- probe variables -------------------------------------------------------------------- */

typedef struct probe_vars {
    probe_var vars[8];
    unsigned count;
} probe_vars;

static enum CXChildVisitResult collect_vars(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    probe_vars *pv = data;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind == CXCursor_CompoundStmt || kind == CXCursor_DeclStmt)
        return CXChildVisit_Recurse;
    if (kind == CXCursor_VarDecl && pv->count < 8) {
        pv->vars[pv->count].cursor = cursor;
        pv->vars[pv->count].name = NULL;
        pv->count++;
    }
    return CXChildVisit_Continue;
}

static const probe_var *find_var(const probe_vars *pv, const char *name)
{
    for (unsigned i = 0; i < pv->count; i++) {
        CXString sp = clang_getCursorSpelling(pv->vars[i].cursor);
        bool match = strcmp(clang_getCString(sp), name) == 0;
        clang_disposeString(sp);
        if (match)
            return &pv->vars[i];
    }
    return NULL;
}

/* The string a probe variable was initialized with (a stringized argument or a literal). */
static char *var_string(const probe_vars *pv, const char *name)
{
    const probe_var *v = find_var(pv, name);
    if (!v)
        return NULL;
    CXEvalResult r = clang_Cursor_Evaluate(v->cursor);
    char *s = NULL;
    if (r && clang_EvalResult_getKind(r) == CXEval_StrLiteral)
        s = evgen_xstrdup(clang_EvalResult_getAsStr(r));
    if (r)
        clang_EvalResult_dispose(r);
    return s;
}

/* Evaluates an integer argument. Returns false if it is not an integer constant: the probe
 * declares each with __auto_type, so a floating constant keeps its type and is refused here
 * rather than silently truncated. */
static bool var_int(const probe_vars *pv, const char *name, long long *value, unsigned long long *uvalue)
{
    const probe_var *v = find_var(pv, name);
    if (!v)
        return false;
    CXEvalResult r = clang_Cursor_Evaluate(v->cursor);
    bool ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) {
        if (value)
            *value = clang_EvalResult_getAsLongLong(r);
        if (uvalue)
            *uvalue = clang_EvalResult_getAsUnsigned(r);
    }
    if (r)
        clang_EvalResult_dispose(r);
    return ok;
}

/* ---- names ------------------------------------------------------------------------------ */

static const char *const reserved_words[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    "_Bool", "_Complex", "_Imaginary", "bool", "true", "false", "alignas", "alignof", "and", "and_eq", "asm",
    "bitand", "bitor", "catch", "char16_t", "char32_t", "class", "compl", "const_cast", "constexpr",
    "decltype", "delete", "dynamic_cast", "explicit", "export", "friend", "mutable", "namespace", "new",
    "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
    "reinterpret_cast", "static_assert", "static_cast", "template", "this", "thread_local", "throw", "try",
    "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq"};

/* Checks that `name` can become part of generated C and C++ identifiers. `ev` is reserved: it is
 * the parameter name of every generated accessor. */
static bool check_identifier(evgen_frontend_state *st, const char *name, const evgen_model_loc *loc, const char *what)
{
    bool ok = name && name[0] && (isalpha((unsigned char)name[0]) || name[0] == '_');
    for (const char *p = name; ok && *p; p++)
        ok = isalnum((unsigned char)*p) || *p == '_';
    if (!ok) {
        evgen_error(st->diags, loc, EVGEN_D_BAD_NAME, "%s name '%s' is not a C identifier", what, name ? name : "");
        return false;
    }
    if (strncmp(name, "evgen_", 6) == 0 || strncmp(name, "EVGEN_", 6) == 0) {
        evgen_error(st->diags, loc, EVGEN_D_BAD_NAME, "%s name '%s' is reserved by evgen", what, name);
        evgen_note(st->diags, NULL, "names starting with evgen_ or EVGEN_ belong to generated code; choose another name");
        return false;
    }
    if (strcmp(name, "ev") == 0) {
        evgen_error(st->diags, loc, EVGEN_D_BAD_NAME, "%s name 'ev' is reserved by evgen", what);
        evgen_note(st->diags, NULL, "'ev' is the parameter of every generated accessor; choose another name");
        return false;
    }
    for (size_t i = 0; i < sizeof reserved_words / sizeof reserved_words[0]; i++) {
        if (strcmp(name, reserved_words[i]) == 0) {
            evgen_error(st->diags, loc, EVGEN_D_BAD_NAME, "%s name '%s' is reserved in C or C++", what, name);
            evgen_note(st->diags, NULL, "generated code uses names as C and C++ identifiers; choose another name");
            return false;
        }
    }
    return true;
}

/* ---- probes ----------------------------------------------------------------------------- */

static evgen_model_event *find_event_mut(evgen_model *model, const char *name)
{
    for (size_t i = model->n_events; i-- > 0;)
        if (strcmp(model->events[i].name, name) == 0)
            return &model->events[i];
    return NULL;
}

static bool int_arg(evgen_frontend_state *st, const probe_vars *pv, const char *var, const evgen_model_loc *loc,
                    const char *what, long long min, long long max, long long *out)
{
    if (!var_int(pv, var, out, NULL)) {
        evgen_error(st->diags, loc, EVGEN_D_NOT_CONSTANT, "%s is not an integer constant expression", what);
        return false;
    }
    if (*out < min || *out > max) {
        evgen_error(st->diags, loc, EVGEN_D_OUT_OF_RANGE, "%s %lld is out of range (%lld to %lld)", what, *out, min,
                    max);
        return false;
    }
    return true;
}

static void probe_provider(evgen_frontend_state *st, const probe_vars *pv, evgen_model_loc loc,
                           const evgen_model_loc *args)
{
    char *symbol = var_string(pv, "evgen_symbol");
    char *name = var_string(pv, "evgen_name");
    if (!check_identifier(st, symbol, &args[0], "provider symbol")) {
        free(symbol);
        free(name);
        return;
    }
    bool control = false;
    for (const char *c = name; c && *c; c++)
        control = control || (unsigned char)*c < 0x20 || *c == 0x7f;
    if (control) {
        evgen_error(st->diags, &args[1], EVGEN_D_BAD_NAME, "provider name contains a control character");
        free(symbol);
        free(name);
        return;
    }
    if (!name || !name[0]) {
        evgen_error(st->diags, &args[1], EVGEN_D_BAD_NAME, "provider name must be a non-empty string literal");
        free(symbol);
        free(name);
        return;
    }
    evgen_model_provider *p = EVGEN_PUSH(st->model->providers, st->model->n_providers);
    p->symbol = symbol;
    p->name = name;
    p->loc = loc;
    p->symbol_loc = args[0];
    p->name_loc = args[1];
}

static void probe_event(evgen_frontend_state *st, const probe_vars *pv, evgen_model_loc loc,
                        const evgen_model_loc *args)
{
    char *name = var_string(pv, "evgen_name");
    /* A bad name is reported, and the event still recorded so that its fields are not reported
     * again as fields of an undeclared event. */
    check_identifier(st, name, &args[0], "event");
    if (!name)
        name = evgen_xstrdup("");
    long long id = 0, level = 0;
    unsigned long long keywords = 0;
    bool ok = int_arg(st, pv, "evgen_id", &args[1], "event id", 0, 0xFFFFFFFFLL, &id);
    ok = int_arg(st, pv, "evgen_level", &args[3], "event level", 0, 255, &level) && ok;
    if (!var_int(pv, "evgen_keywords", NULL, &keywords)) {
        evgen_error(st->diags, &args[4], EVGEN_D_NOT_CONSTANT, "event keywords are not an integer constant expression");
        ok = false;
    }
    char *provider = var_string(pv, "evgen_provider");
    evgen_model_event *e = EVGEN_PUSH(st->model->events, st->model->n_events);
    e->name = name;
    e->id = (uint64_t)id;
    e->level = (uint64_t)level;
    e->keywords = keywords;
    e->provider_symbol = provider ? provider : evgen_xstrdup("");
    e->provider_index = -1;
    e->loc = loc;
    e->name_loc = args[0];
    e->id_loc = args[1];
    e->provider_loc = args[2];
    e->level_loc = args[3];
    e->keywords_loc = args[4];
    (void)ok;
}

/* Finds the event a field/version line belongs to; reports an undeclared one. */
static evgen_model_event *owner_event(evgen_frontend_state *st, const probe_vars *pv, const evgen_model_loc *loc,
                                      char **name_out)
{
    char *event = var_string(pv, "evgen_event");
    evgen_model_event *e = event ? find_event_mut(st->model, event) : NULL;
    if (!e) {
        evgen_error(st->diags, loc, EVGEN_D_UNDECLARED_EVENT, "'%s' is not an event declared by KNOWN_EVENT before this line",
                    event ? event : "");
        evgen_note(st->diags, NULL, "declare the event with KNOWN_EVENT(%s, id, provider, level, keywords) first",
                   event ? event : "Name");
    }
    if (name_out)
        *name_out = event;
    else
        free(event);
    return e;
}

typedef enum probe_kind { PROBE_FIELD, PROBE_ARRAY, PROBE_LEGACY } probe_kind;

/* `wrapped`: the line came through a user's macro, so the argument positions are unknown; the
 * type's is still found where it was spelled. */
static void probe_field(evgen_frontend_state *st, const probe_vars *pv, evgen_model_loc loc, evgen_model_loc *args,
                        bool wrapped, probe_kind kind)
{
    const probe_var *tv = find_var(pv, "evgen_type");
    if (tv && wrapped)
        args[2] = evgen_fe_file_loc(st, clang_getRangeStart(clang_getCursorExtent(tv->cursor)));
    evgen_model_event *e = owner_event(st, pv, &args[0], NULL);
    char *name = var_string(pv, "evgen_name");
    long long since = 0;
    bool ok = check_identifier(st, name, &args[3], "field");
    const char *since_what = kind == PROBE_LEGACY ? "legacy version" : "since";
    ok = int_arg(st, pv, "evgen_since", &args[1], since_what, 0, 255, &since) && ok;
    evgen_model_type type;
    memset(&type, 0, sizeof type);
    evgen_type_use use = kind == PROBE_ARRAY ? EVGEN_USE_ARRAY_ELEMENT : EVGEN_USE_FIELD;
    ok = tv && evgen_fe_resolve_type(st, clang_getCursorType(tv->cursor), use, &args[2], &type) && ok;
    char *count = kind == PROBE_ARRAY ? var_string(pv, "evgen_count") : NULL;
    if (kind == PROBE_ARRAY && ok && !check_identifier(st, count, &args[4], "count field"))
        ok = false;
    if (!e || !ok) {
        free(name);
        free(type.c_spelling);
        free(count);
        return;
    }
    evgen_model_field *f = kind == PROBE_LEGACY ? EVGEN_PUSH(e->legacy_fields, e->n_legacy_fields)
                                          : EVGEN_PUSH(e->fields, e->n_fields);
    f->name = name;
    f->type = type;
    f->since = (unsigned)since;
    f->is_array = kind == PROBE_ARRAY;
    f->count_name = count;
    f->count_index = -1;
    f->loc = loc;
    f->since_loc = args[1];
    f->type_loc = args[2];
    f->name_loc = args[3];
    f->count_loc = args[4];
}

static void probe_version(evgen_frontend_state *st, const probe_vars *pv, const evgen_model_loc *args)
{
    evgen_model_event *e = owner_event(st, pv, &args[0], NULL);
    long long version = 0;
    if (!int_arg(st, pv, "evgen_since", &args[1], "version", 0, 255, &version) || !e)
        return;
    size_t n = e->n_explicit_versions;
    *EVGEN_PUSH(e->explicit_versions, e->n_explicit_versions) = (unsigned)version;
    e->explicit_version_locs = evgen_xrealloc(e->explicit_version_locs, (n + 1) * sizeof *e->explicit_version_locs);
    e->explicit_version_locs[n] = args[1];
}

/* The version is checked against the event's versions once they are known (model_check.c). */
static void probe_attributes(evgen_frontend_state *st, const probe_vars *pv, evgen_model_loc loc,
                             const evgen_model_loc *args)
{
    evgen_model_event *e = owner_event(st, pv, &args[0], NULL);
    long long version = 0, level = 0;
    unsigned long long keywords = 0;
    bool ok = int_arg(st, pv, "evgen_since", &args[1], "version", 0, 255, &version);
    ok = int_arg(st, pv, "evgen_level", &args[2], "level", 0, 255, &level) && ok;
    if (!var_int(pv, "evgen_keywords", NULL, &keywords)) {
        evgen_error(st->diags, &args[3], EVGEN_D_NOT_CONSTANT, "keywords are not an integer constant expression");
        ok = false;
    }
    if (!e || !ok)
        return;
    evgen_model_version_attributes *a = EVGEN_PUSH(e->attributes, e->n_attributes);
    a->version = (unsigned)version;
    a->level = (uint64_t)level;
    a->keywords = keywords;
    a->loc = loc;
    a->version_loc = args[1];
    a->level_loc = args[2];
    a->keywords_loc = args[3];
}

static void run_probe(evgen_frontend_state *st, CXCursor fn, const char *kind)
{
    probe_vars pv;
    pv.count = 0;
    clang_visitChildren(fn, collect_vars, &pv);
    unsigned offset = 0;
    evgen_model_loc loc = evgen_fe_expansion_loc(st, clang_getCursorLocation(fn), &offset);
    evgen_model_loc args[EVGEN_MAX_ARGS];
    bool wrapped = !evgen_fe_argument_locs(st, loc, offset, args);
    if (strcmp(kind, "provider") == 0)
        probe_provider(st, &pv, loc, args);
    else if (strcmp(kind, "event") == 0)
        probe_event(st, &pv, loc, args);
    else if (strcmp(kind, "field") == 0)
        probe_field(st, &pv, loc, args, wrapped, PROBE_FIELD);
    else if (strcmp(kind, "array") == 0)
        probe_field(st, &pv, loc, args, wrapped, PROBE_ARRAY);
    else if (strcmp(kind, "legacy") == 0)
        probe_field(st, &pv, loc, args, wrapped, PROBE_LEGACY);
    else if (strcmp(kind, "version") == 0)
        probe_version(st, &pv, args);
    else if (strcmp(kind, "attributes") == 0)
        probe_attributes(st, &pv, loc, args);
}

static enum CXChildVisitResult visit_top(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    evgen_frontend_state *st = data;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind == CXCursor_FunctionDecl) {
        CXString name = clang_getCursorSpelling(cursor);
        const char *s = clang_getCString(name);
        static const char prefix[] = "evgen_probe_";
        if (strncmp(s, prefix, sizeof prefix - 1) == 0) {
            const char *k = s + sizeof prefix - 1;
            const char *end = strrchr(k, '_');
            char *kind_name = evgen_xstrndup(k, end ? (size_t)(end - k) : strlen(k));
            run_probe(st, cursor, kind_name);
            free(kind_name);
        }
        clang_disposeString(name);
    }
    return CXChildVisit_Continue;
}

static void visit_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    (void)stack;
    (void)depth;
    evgen_frontend_state *st = data;
    CXString name = clang_getFileName(file);
    const char *s = clang_getCString(name);
    if (strncmp(s, EVGEN_BUILTIN_DIR "/", sizeof EVGEN_BUILTIN_DIR) != 0) {
        bool seen = false;
        for (size_t i = 0; i < st->model->n_included_files && !seen; i++)
            seen = strcmp(st->model->included_files[i], s) == 0;
        if (!seen)
            *EVGEN_PUSH(st->model->included_files, st->model->n_included_files) = evgen_xstrdup(s);
    }
    clang_disposeString(name);
}

/* Generated code declares a parameter per field: a field named like a macro would be replaced
 * by the macro's expansion there. */
static void check_fields_of(evgen_frontend_state *st, const evgen_model_field *fields, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const evgen_macro_def *m = evgen_fe_find_macro(st, fields[i].name);
        if (!m)
            continue;
        evgen_error(st->diags, &fields[i].name_loc, EVGEN_D_BAD_NAME, "field name '%s' is a macro", fields[i].name);
        if (m->loc.file)
            evgen_note(st->diags, &m->loc, "'%s' is defined here; generated code would expand it", m->name);
        else
            evgen_note(st->diags, NULL, "'%s' is defined by <stddef.h>, which generated code includes", m->name);
    }
}

static void check_field_names_are_not_macros(evgen_frontend_state *st)
{
    for (size_t e = 0; e < st->model->n_events; e++) {
        check_fields_of(st, st->model->events[e].fields, st->model->events[e].n_fields);
        check_fields_of(st, st->model->events[e].legacy_fields, st->model->events[e].n_legacy_fields);
    }
}

static const char *describe_cx_error(enum CXErrorCode code)
{
    switch (code) {
    case CXError_Success: return "success";
    case CXError_Failure: return "libclang could not parse the file (is it readable?)";
    case CXError_Crashed: return "libclang crashed while parsing";
    case CXError_InvalidArguments: return "libclang rejected the compiler arguments";
    case CXError_ASTReadError: return "libclang could not read an AST file";
    }
    return "libclang failed";
}

int evgen_frontend_parse(const evgen_frontend_options *opts, evgen_model *model, evgen_diags *diags)
{
    evgen_frontend_state st;
    memset(&st, 0, sizeof st);
    st.model = model;
    st.diags = diags;
    model->manifest_path = evgen_xstrdup(opts->manifest_path);
    const char *why;
    if (evgen_libclang_load(&why) != 0) {
        evgen_error(diags, NULL, EVGEN_D_CLANG, "cannot load libclang: %s", why);
        return -1;
    }

    /* The manifest is read here, by the rule of every input (outputs.h: a regular file, not too
     * large, never a FIFO that would block), and handed to libclang as an unsaved file: libclang
     * does not open it again. */
    const char *text = opts->manifest_text;
    char *read_text = NULL;
    if (!text) {
        bool missing = false;
        text = read_text = evgen_read_input(opts->manifest_path, &missing, diags);
        if (missing)
            evgen_error(diags, NULL, EVGEN_D_IO, "cannot open manifest '%s'", opts->manifest_path);
        if (!text)
            return -1;
    }

    /* Our builtin headers come first so that a manifest always sees the macro language of this
     * evgen, whatever -I paths the build passes. */
    const char *fixed_args[] = {"-x", "c", "-std=c11", "-I" EVGEN_BUILTIN_DIR, "-include", PROBE_HEADER,
                                "-Wno-unused-variable", "-ferror-limit=50"};
    size_t n_fixed = sizeof fixed_args / sizeof fixed_args[0];
    size_t n_args = n_fixed + opts->n_clang_args;
    const char **args = evgen_xcalloc(n_args, sizeof *args);
    for (size_t i = 0; i < n_fixed; i++)
        args[i] = fixed_args[i];
    for (size_t i = 0; i < opts->n_clang_args; i++)
        args[n_fixed + i] = opts->clang_args[i];

    struct CXUnsavedFile unsaved[4] = {
        {PROBE_HEADER, probe_header, sizeof probe_header - 1},
        {EVGEN_BUILTIN_DIR "/evgen/manifest.h", evgen_builtin_manifest_h, (unsigned long)strlen(evgen_builtin_manifest_h)},
        {EVGEN_BUILTIN_DIR "/evgen/manifest_end.h", evgen_builtin_manifest_end_h,
         (unsigned long)strlen(evgen_builtin_manifest_end_h)},
        {opts->manifest_path, text, (unsigned long)strlen(text)},
    };
    unsigned n_unsaved = 4;

    CXIndex index = clang_createIndex(0, 0);
    enum CXErrorCode code = clang_parseTranslationUnit2(
        index, opts->manifest_path, args, (int)n_args, unsaved, n_unsaved,
        CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &st.tu);
    free(args);
    int result = 0;
    if (code != CXError_Success || !st.tu) {
        evgen_error(diags, NULL, EVGEN_D_CLANG, "%s: %s", opts->manifest_path, describe_cx_error(code));
        result = -1;
    } else {
        evgen_fe_collect_macro_uses(&st);
        if (evgen_fe_report_clang_diagnostics(&st) > 0)
            result = -1; /* no follow-on errors of ours on top of the compiler's */
    }
    if (result == 0) {
        size_t errors_before = diags->n_errors;
        clang_getInclusions(st.tu, visit_inclusion, &st);
        clang_visitChildren(clang_getTranslationUnitCursor(st.tu), visit_top, &st);
        check_field_names_are_not_macros(&st);
        if (diags->n_errors > errors_before)
            result = -1;
    }
    if (st.tu)
        clang_disposeTranslationUnit(st.tu);
    clang_disposeIndex(index);
    free(read_text);
    for (size_t i = 0; i < model->n_enums; i++)
        free(st.enum_usrs[i]);
    free(st.enum_usrs);
    for (size_t i = 0; i < model->n_structs; i++)
        free(st.struct_usrs[i]);
    free(st.struct_usrs);
    free(st.uses);
    evgen_fe_free_macros(&st);
    return result;
}

