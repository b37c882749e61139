/* frontend_clang.c — compiles a manifest with libclang under "probe" definitions of the manifest
 * macros and turns what the compiler resolved into the model's declarations.
 *
 * Each manifest macro expands to a small static function whose local variables carry the
 * macro's arguments: integer arguments as initializers that clang evaluates, names stringized,
 * the field type as the type of a variable. So the C compiler resolves every typedef, enum,
 * #include, #define and constant expression, and we read its answers back. Argument positions
 * come from tokenizing the macro invocation, so errors point at the argument itself. */
#include <clang-c/Index.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "util.h"

#define BUILTIN_DIR "/evgen-builtin"
#define PROBE_HEADER BUILTIN_DIR "/evgen/probe.h"

static const char probe_header[] =
    "/* evgen probe definitions: each manifest macro becomes a function the front end reads. */\n"
    "#define EVGEN_PROBE_CAT2(a, b) a##b\n"
    "#define EVGEN_PROBE_CAT(a, b) EVGEN_PROBE_CAT2(a, b)\n"
    "#define EVGEN_PROBE(kind) static void EVGEN_PROBE_CAT(evgen_probe_##kind##_, __COUNTER__)(void)\n"
    "#define EVENT_PROVIDER(symbol, name) EVGEN_PROBE(provider) {\\\n"
    "  const char *evgen_symbol = #symbol; const char *evgen_name = name; }\n"
    "#define KNOWN_EVENT(name, id, provider, level, keywords) EVGEN_PROBE(event) {\\\n"
    "  const char *evgen_name = #name; long long evgen_id = (id); const char *evgen_provider = #provider;\\\n"
    "  long long evgen_level = (level); unsigned long long evgen_keywords = (keywords); }\n"
    "#define EVENT_FIELD(event, since, type, name) EVGEN_PROBE(field) {\\\n"
    "  const char *evgen_event = #event; long long evgen_since = (since); type evgen_type;\\\n"
    "  const char *evgen_name = #name; }\n"
    "#define EVENT_ARRAY(event, since, type, name, count_field) EVGEN_PROBE(array) {\\\n"
    "  const char *evgen_event = #event; long long evgen_since = (since); type evgen_type;\\\n"
    "  const char *evgen_name = #name; const char *evgen_count = #count_field; }\n"
    "#define EVENT_VERSION(event, number) EVGEN_PROBE(version) {\\\n"
    "  const char *evgen_event = #event; long long evgen_since = (number); }\n"
    "#define EVENT_LEGACY_FIELD(event, version, type, name) EVGEN_PROBE(legacy) {\\\n"
    "  const char *evgen_event = #event; long long evgen_since = (version); type evgen_type;\\\n"
    "  const char *evgen_name = #name; }\n";

static const char *const manifest_macros[] = {"EVENT_PROVIDER", "KNOWN_EVENT", "EVENT_FIELD",
                                              "EVENT_ARRAY", "EVENT_VERSION", "EVENT_LEGACY_FIELD"};

#define MAX_ARGS 5

/* One invocation of a manifest macro, with the position of each argument. */
typedef struct macro_use {
    const char *file; /* interned */
    unsigned offset;
    evgen_loc loc;
    evgen_loc args[MAX_ARGS];
    unsigned n_args;
} macro_use;

/* One local variable of a probe function. */
typedef struct probe_var {
    const char *name; /* evgen_xxx without the prefix */
    CXCursor cursor;
} probe_var;

typedef struct frontend_state {
    evgen_model *model;
    evgen_diags *diags;
    CXTranslationUnit tu;
    macro_use *uses;
    size_t n_uses;
    size_t next_use; /* probes come in source order: search from the last match */
    /* USRs of registered enums and structs, parallel to model->enums / model->structs. */
    char **enum_usrs;
    char **struct_usrs;
} frontend_state;

/* ---- locations -------------------------------------------------------------------------- */

static evgen_loc make_loc(frontend_state *st, CXFile file, unsigned line, unsigned col)
{
    evgen_loc loc = {NULL, line, col};
    if (file) {
        CXString name = clang_getFileName(file);
        loc.file = evgen_model_intern_file(st->model, clang_getCString(name));
        clang_disposeString(name);
    }
    return loc;
}

static evgen_loc expansion_loc(frontend_state *st, CXSourceLocation where, unsigned *offset)
{
    CXFile file;
    unsigned line, col, off;
    clang_getExpansionLocation(where, &file, &line, &col, &off);
    if (offset)
        *offset = off;
    return make_loc(st, file, line, col);
}

static evgen_loc file_loc(frontend_state *st, CXSourceLocation where)
{
    CXFile file;
    unsigned line, col, off;
    clang_getFileLocation(where, &file, &line, &col, &off);
    return make_loc(st, file, line, col);
}

/* ---- macro invocations ------------------------------------------------------------------ */

static bool is_manifest_macro(const char *name)
{
    for (size_t i = 0; i < sizeof manifest_macros / sizeof manifest_macros[0]; i++)
        if (strcmp(name, manifest_macros[i]) == 0)
            return true;
    return false;
}

static void record_macro_use(frontend_state *st, CXCursor cursor)
{
    CXString name = clang_getCursorSpelling(cursor);
    bool wanted = is_manifest_macro(clang_getCString(name));
    clang_disposeString(name);
    if (!wanted)
        return;

    macro_use *use = EVGEN_PUSH(st->uses, st->n_uses);
    use->loc = expansion_loc(st, clang_getCursorLocation(cursor), &use->offset);
    use->file = use->loc.file;

    CXToken *tokens = NULL;
    unsigned n_tokens = 0;
    clang_tokenize(st->tu, clang_getCursorExtent(cursor), &tokens, &n_tokens);
    /* tokens: NAME ( arg , arg ... ) — split at commas outside nested parentheses. */
    int depth = 0;
    bool arg_started = false;
    for (unsigned i = 1; i < n_tokens && use->n_args <= MAX_ARGS; i++) {
        CXString sp = clang_getTokenSpelling(st->tu, tokens[i]);
        const char *s = clang_getCString(sp);
        CXTokenKind kind = clang_getTokenKind(tokens[i]);
        bool punct = kind == CXToken_Punctuation;
        if (punct && (strcmp(s, "(") == 0 || strcmp(s, "[") == 0 || strcmp(s, "{") == 0)) {
            depth++;
            if (depth == 1) {
                clang_disposeString(sp);
                continue;
            }
        } else if (punct && (strcmp(s, ")") == 0 || strcmp(s, "]") == 0 || strcmp(s, "}") == 0)) {
            depth--;
            if (depth == 0) {
                clang_disposeString(sp);
                break;
            }
        } else if (punct && depth == 1 && strcmp(s, ",") == 0) {
            if (!arg_started && use->n_args < MAX_ARGS) /* empty argument: point at the comma */
                use->args[use->n_args++] = file_loc(st, clang_getTokenLocation(st->tu, tokens[i]));
            arg_started = false;
            clang_disposeString(sp);
            continue;
        }
        if (depth >= 1 && !arg_started && use->n_args < MAX_ARGS) {
            use->args[use->n_args++] = file_loc(st, clang_getTokenLocation(st->tu, tokens[i]));
            arg_started = true;
        }
        clang_disposeString(sp);
    }
    clang_disposeTokens(st->tu, tokens, n_tokens);
}

/* The argument positions of the macro invocation that produced a probe at `loc`. A probe
 * produced through a user macro wrapping ours has none: every argument then points at `loc`. */
static void argument_locs(frontend_state *st, evgen_loc loc, unsigned offset, evgen_loc args[MAX_ARGS])
{
    for (size_t k = 0; k < st->n_uses; k++) {
        size_t i = (st->next_use + k) % st->n_uses;
        const macro_use *use = &st->uses[i];
        if (use->offset == offset && use->file == loc.file) {
            for (unsigned a = 0; a < MAX_ARGS; a++)
                args[a] = a < use->n_args ? use->args[a] : loc;
            st->next_use = i + 1;
            return;
        }
    }
    for (unsigned a = 0; a < MAX_ARGS; a++)
        args[a] = loc;
}

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

/* Evaluates an integer argument. Returns false if it is not an integer constant. */
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
    "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq", "ev"};

/* Checks that `name` can become part of generated C and C++ identifiers. `ev` is reserved: it is
 * the parameter name of every generated accessor. */
static bool check_identifier(frontend_state *st, const char *name, const evgen_loc *loc, const char *what)
{
    bool ok = name && name[0] && (isalpha((unsigned char)name[0]) || name[0] == '_');
    for (const char *p = name; ok && *p; p++)
        ok = isalnum((unsigned char)*p) || *p == '_';
    if (!ok) {
        evgen_error(st->diags, loc, EVGEN_D_BAD_NAME, "%s name '%s' is not a C identifier", what, name ? name : "");
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

/* ---- types ------------------------------------------------------------------------------ */

static const struct {
    const char *name;
    evgen_kind kind;
} named_types[] = {
    {"uint8_t", EVGEN_KIND_U8},         {"uint16_t", EVGEN_KIND_U16},     {"uint32_t", EVGEN_KIND_U32},
    {"uint64_t", EVGEN_KIND_U64},       {"int8_t", EVGEN_KIND_I8},        {"int16_t", EVGEN_KIND_I16},
    {"int32_t", EVGEN_KIND_I32},        {"int64_t", EVGEN_KIND_I64},      {"evgen_utf16z", EVGEN_KIND_UTF16Z},
    {"evgen_utf8z", EVGEN_KIND_UTF8Z},  {"evgen_guid", EVGEN_KIND_GUID},  {"evgen_ptr", EVGEN_KIND_PTR},
    {"evgen_bool32", EVGEN_KIND_BOOL32},
};

static char *type_spelling(CXType t)
{
    CXString s = clang_getTypeSpelling(t);
    char *r = evgen_xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return r;
}

static char *cursor_usr(CXCursor c)
{
    CXString s = clang_getCursorUSR(c);
    char *r = evgen_xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return r;
}

static enum CXChildVisitResult collect_enum_const(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    evgen_enum *en = data;
    if (clang_getCursorKind(c) == CXCursor_EnumConstantDecl) {
        evgen_enum_const *k = EVGEN_PUSH(en->consts, en->n_consts);
        CXString s = clang_getCursorSpelling(c);
        k->name = evgen_xstrdup(clang_getCString(s));
        clang_disposeString(s);
        k->value = clang_getEnumConstantDeclValue(c);
    }
    return CXChildVisit_Continue;
}

/* Registers an enum once; display names drop the "<Enum>_" prefix when every constant has it. */
static int register_enum(frontend_state *st, CXCursor decl, const char *name)
{
    char *usr = cursor_usr(decl);
    for (size_t i = 0; i < st->model->n_enums; i++) {
        if (strcmp(st->enum_usrs[i], usr) == 0) {
            free(usr);
            return (int)i;
        }
    }
    size_t n = st->model->n_enums;
    evgen_enum *en = EVGEN_PUSH(st->model->enums, st->model->n_enums);
    st->enum_usrs = evgen_xrealloc(st->enum_usrs, (n + 1) * sizeof *st->enum_usrs);
    st->enum_usrs[n] = usr;
    en->name = evgen_xstrdup(name);
    clang_visitChildren(decl, collect_enum_const, en);
    size_t prefix_len = strlen(name);
    bool all_prefixed = en->n_consts > 0;
    for (size_t i = 0; i < en->n_consts && all_prefixed; i++) {
        const char *c = en->consts[i].name;
        all_prefixed = strncmp(c, name, prefix_len) == 0 && c[prefix_len] == '_' && c[prefix_len + 1] != '\0';
    }
    for (size_t i = 0; i < en->n_consts; i++)
        en->consts[i].display_name = evgen_xstrdup(en->consts[i].name + (all_prefixed ? prefix_len + 1 : 0));
    return (int)n;
}

typedef enum type_use { USE_FIELD, USE_ARRAY_ELEMENT, USE_STRUCT_MEMBER } type_use;

static int register_struct(frontend_state *st, CXType record, const char *name, const evgen_loc *use_loc);

/* The fix to suggest for a builtin integer type of the given size and signedness. */
static const char *exact_width_for(long long size, bool is_signed)
{
    switch (size) {
    case 1: return is_signed ? "int8_t" : "uint8_t";
    case 2: return is_signed ? "int16_t" : "uint16_t";
    case 4: return is_signed ? "int32_t" : "uint32_t";
    default: return is_signed ? "int64_t" : "uint64_t";
    }
}

static bool builtin_is_signed(enum CXTypeKind k)
{
    return k == CXType_Short || k == CXType_Int || k == CXType_Long || k == CXType_LongLong ||
           k == CXType_Int128 || k == CXType_SChar || k == CXType_Char_S || k == CXType_WChar;
}

/* Resolves a C type to a wire type, walking typedefs until an exact-width or evgen name.
 * Reports an error at `loc` and returns false when the type is not allowed for `use`. */
static bool resolve_type(frontend_state *st, CXType t, type_use use, const evgen_loc *loc, evgen_type *out)
{
    char *spelled = type_spelling(t);
    const char *nearest_typedef = NULL; /* the innermost typedef name seen, for enum/struct names */
    char *typedef_buf = NULL;
    bool ok = false;
    out->enum_index = -1;
    out->struct_index = -1;
    out->c_spelling = NULL;
    for (int guard = 0; guard < 64; guard++) {
        enum CXTypeKind k = t.kind;
        if (k == CXType_Elaborated) {
            t = clang_Type_getNamedType(t);
            continue;
        }
        if (k == CXType_Typedef) {
            CXString tn = clang_getTypedefName(t);
            const char *name = clang_getCString(tn);
            bool found = false;
            for (size_t i = 0; i < sizeof named_types / sizeof named_types[0]; i++) {
                if (strcmp(name, named_types[i].name) == 0) {
                    out->kind = named_types[i].kind;
                    found = true;
                }
            }
            free(typedef_buf);
            typedef_buf = evgen_xstrdup(name);
            nearest_typedef = typedef_buf;
            clang_disposeString(tn);
            if (found) {
                ok = true;
                break;
            }
            t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
            continue;
        }
        switch (k) {
        case CXType_Bool:
            out->kind = EVGEN_KIND_BOOL8;
            ok = true;
            break;
        case CXType_Float:
            out->kind = EVGEN_KIND_F32;
            ok = true;
            break;
        case CXType_Double:
            out->kind = EVGEN_KIND_F64;
            ok = true;
            break;
        case CXType_Enum: {
            CXCursor decl = clang_getTypeDeclaration(t);
            long long size = clang_Type_getSizeOf(t);
            bool is_signed = builtin_is_signed(clang_getEnumDeclIntegerType(decl).kind);
            CXString tag = clang_getCursorSpelling(decl);
            const char *name = nearest_typedef ? nearest_typedef : clang_getCString(tag);
            if (size != 1 && size != 2 && size != 4 && size != 8) {
                evgen_error(st->diags, loc, EVGEN_D_BAD_TYPE, "enum type '%s' has an unsupported size %lld", spelled,
                            size);
                clang_disposeString(tag);
                goto done;
            }
            out->kind = size == 1   ? (is_signed ? EVGEN_KIND_I8 : EVGEN_KIND_U8)
                        : size == 2 ? (is_signed ? EVGEN_KIND_I16 : EVGEN_KIND_U16)
                        : size == 4 ? (is_signed ? EVGEN_KIND_I32 : EVGEN_KIND_U32)
                                    : (is_signed ? EVGEN_KIND_I64 : EVGEN_KIND_U64);
            out->enum_index = register_enum(st, decl, name[0] ? name : spelled);
            clang_disposeString(tag);
            ok = true;
            break;
        }
        case CXType_Record: {
            CXCursor decl = clang_getTypeDeclaration(t);
            if (clang_getCursorKind(decl) != CXCursor_StructDecl) {
                evgen_error(st->diags, loc, EVGEN_D_BAD_TYPE, "union type '%s' is not allowed", spelled);
                evgen_note(st->diags, NULL, "declare each member as a field of its own");
                goto done;
            }
            if (use != USE_ARRAY_ELEMENT) {
                evgen_error(st->diags, loc, EVGEN_D_BAD_TYPE, "struct type '%s' is not allowed %s", spelled,
                            use == USE_FIELD ? "as a field" : "inside a struct");
                evgen_note(st->diags, NULL,
                           "a struct is allowed only as the element type of an EVENT_ARRAY; declare its members as "
                           "fields");
                goto done;
            }
            CXString tag = clang_getCursorSpelling(decl);
            const char *name = nearest_typedef ? nearest_typedef : clang_getCString(tag);
            out->kind = EVGEN_KIND_STRUCT;
            out->struct_index = register_struct(st, t, name[0] ? name : spelled, loc);
            clang_disposeString(tag);
            ok = out->struct_index >= 0;
            goto done;
        }
        case CXType_Pointer: {
            CXType pointee = clang_getCanonicalType(clang_getPointeeType(t));
            const char *fix = pointee.kind == CXType_Char_S || pointee.kind == CXType_Char_U ? "evgen_utf8z"
                              : pointee.kind == CXType_UShort ? "evgen_utf16z"
                                                               : "evgen_ptr";
            evgen_error(st->diags, loc, EVGEN_D_BAD_TYPE, "pointer type '%s' is not a wire type", spelled);
            evgen_note(st->diags, NULL, "use %s", fix);
            goto done;
        }
        case CXType_Char_S:
        case CXType_Char_U:
            evgen_error(st->diags, loc, EVGEN_D_BAD_TYPE, "type '%s' is not a fixed-width integer", spelled);
            evgen_note(st->diags, NULL, "use int8_t or uint8_t, or evgen_utf8z for a string");
            goto done;
        case CXType_SChar:
        case CXType_UChar:
        case CXType_Short:
        case CXType_UShort:
        case CXType_Int:
        case CXType_UInt:
        case CXType_Long:
        case CXType_ULong:
        case CXType_LongLong:
        case CXType_ULongLong:
        case CXType_WChar:
        case CXType_Char16:
        case CXType_Char32: {
            long long size = clang_Type_getSizeOf(t);
            const char *fix = exact_width_for(size, builtin_is_signed(k));
            evgen_error(st->diags, loc, EVGEN_D_BAD_TYPE, "type '%s' is platform-dependent", spelled);
            if (k == CXType_Long || k == CXType_ULong)
                evgen_note(st->diags, NULL, "use %s, or evgen_ptr for a pointer-sized value",
                           builtin_is_signed(k) ? "int64_t" : "uint64_t");
            else
                evgen_note(st->diags, NULL, "use %s", fix);
            goto done;
        }
        case CXType_ConstantArray:
        case CXType_IncompleteArray:
            evgen_error(st->diags, loc, EVGEN_D_BAD_TYPE, "array type '%s' is not a field type", spelled);
            evgen_note(st->diags, NULL, "use EVENT_ARRAY with a count field");
            goto done;
        default:
            evgen_error(st->diags, loc, EVGEN_D_BAD_TYPE, "type '%s' is not allowed", spelled);
            evgen_note(st->diags, NULL,
                       "field types are int8_t..int64_t, uint8_t..uint64_t, float, double, bool, enums, and "
                       "evgen_utf16z, evgen_utf8z, evgen_guid, evgen_ptr, evgen_bool32");
            goto done;
        }
        break;
    }
    if (ok && use != USE_FIELD && (out->kind == EVGEN_KIND_UTF8Z || out->kind == EVGEN_KIND_UTF16Z)) {
        evgen_error(st->diags, loc, EVGEN_D_BAD_TYPE, "string type '%s' is not allowed %s", spelled,
                    use == USE_ARRAY_ELEMENT ? "as an array element" : "inside a struct");
        evgen_note(st->diags, NULL, "strings are variable-length; only plain fields can hold them");
        ok = false;
    }
done:
    if (ok)
        out->c_spelling = evgen_xstrdup(spelled);
    free(spelled);
    free(typedef_buf);
    return ok;
}

typedef struct struct_walk {
    frontend_state *st;
    evgen_struct *s;
    const evgen_loc *use_loc;
    bool ok;
} struct_walk;

static enum CXVisitorResult collect_member(CXCursor c, CXClientData data)
{
    struct_walk *w = data;
    frontend_state *st = w->st;
    CXString name = clang_getCursorSpelling(c);
    evgen_loc loc = file_loc(st, clang_getCursorLocation(c));
    if (clang_Cursor_isBitField(c)) {
        evgen_error(st->diags, &loc, EVGEN_D_BAD_TYPE, "bit-field '%s' is not allowed in an array element struct",
                    clang_getCString(name));
        evgen_note(st->diags, w->use_loc, "struct '%s' is used as an array element here", w->s->name);
        w->ok = false;
        clang_disposeString(name);
        return CXVisit_Continue;
    }
    evgen_type type;
    size_t errors_before = st->diags->n_errors;
    if (!resolve_type(st, clang_getCursorType(c), USE_STRUCT_MEMBER, &loc, &type)) {
        if (st->diags->n_errors > errors_before)
            evgen_note(st->diags, w->use_loc, "struct '%s' is used as an array element here", w->s->name);
        w->ok = false;
        clang_disposeString(name);
        return CXVisit_Continue;
    }
    evgen_struct_member *m = EVGEN_PUSH(w->s->members, w->s->n_members);
    m->name = evgen_xstrdup(clang_getCString(name));
    m->kind = type.kind;
    m->enum_index = type.enum_index;
    m->offset = (unsigned)(clang_Cursor_getOffsetOfField(c) / 8);
    m->size = (unsigned)clang_Type_getSizeOf(clang_getCursorType(c));
    m->loc = loc;
    if (type.kind == EVGEN_KIND_PTR)
        w->s->pointer_dependent = true;
    free(type.c_spelling);
    clang_disposeString(name);
    return CXVisit_Continue;
}

static int register_struct(frontend_state *st, CXType record, const char *name, const evgen_loc *use_loc)
{
    CXCursor decl = clang_getTypeDeclaration(record);
    char *usr = cursor_usr(decl);
    for (size_t i = 0; i < st->model->n_structs; i++) {
        if (strcmp(st->struct_usrs[i], usr) == 0) {
            free(usr);
            return (int)i;
        }
    }
    evgen_struct tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.name = evgen_xstrdup(name);
    tmp.size = (unsigned)clang_Type_getSizeOf(record);
    tmp.align = (unsigned)clang_Type_getAlignOf(record);
    tmp.loc = file_loc(st, clang_getCursorLocation(decl));
    struct_walk w = {st, &tmp, use_loc, true};
    clang_Type_visitFields(record, collect_member, &w);
    if (w.ok && tmp.n_members == 0) {
        evgen_error(st->diags, &tmp.loc, EVGEN_D_BAD_TYPE, "struct '%s' has no members", tmp.name);
        w.ok = false;
    }
    if (!w.ok) {
        for (size_t i = 0; i < tmp.n_members; i++)
            free(tmp.members[i].name);
        free(tmp.members);
        free(tmp.name);
        free(usr);
        return -1;
    }
    size_t n = st->model->n_structs;
    *EVGEN_PUSH(st->model->structs, st->model->n_structs) = tmp;
    st->struct_usrs = evgen_xrealloc(st->struct_usrs, (n + 1) * sizeof *st->struct_usrs);
    st->struct_usrs[n] = usr;
    return (int)n;
}

/* ---- probes ----------------------------------------------------------------------------- */

static evgen_event *find_event_mut(evgen_model *model, const char *name)
{
    for (size_t i = model->n_events; i-- > 0;)
        if (strcmp(model->events[i].name, name) == 0)
            return &model->events[i];
    return NULL;
}

static bool int_arg(frontend_state *st, const probe_vars *pv, const char *var, const evgen_loc *loc,
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

static void probe_provider(frontend_state *st, const probe_vars *pv, evgen_loc loc, const evgen_loc *args)
{
    char *symbol = var_string(pv, "evgen_symbol");
    char *name = var_string(pv, "evgen_name");
    if (!check_identifier(st, symbol, &args[0], "provider symbol")) {
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
    evgen_provider *p = EVGEN_PUSH(st->model->providers, st->model->n_providers);
    p->symbol = symbol;
    p->name = name;
    p->loc = loc;
    p->symbol_loc = args[0];
    p->name_loc = args[1];
}

static void probe_event(frontend_state *st, const probe_vars *pv, evgen_loc loc, const evgen_loc *args)
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
    evgen_event *e = EVGEN_PUSH(st->model->events, st->model->n_events);
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
static evgen_event *owner_event(frontend_state *st, const probe_vars *pv, const evgen_loc *loc, char **name_out)
{
    char *event = var_string(pv, "evgen_event");
    evgen_event *e = event ? find_event_mut(st->model, event) : NULL;
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

static void probe_field(frontend_state *st, const probe_vars *pv, evgen_loc loc, const evgen_loc *args, probe_kind kind)
{
    evgen_event *e = owner_event(st, pv, &args[0], NULL);
    char *name = var_string(pv, "evgen_name");
    long long since = 0;
    bool ok = check_identifier(st, name, &args[3], "field");
    ok = int_arg(st, pv, "evgen_since", &args[1], kind == PROBE_LEGACY ? "legacy version" : "since", 0, 255, &since) &&
         ok;
    const probe_var *tv = find_var(pv, "evgen_type");
    evgen_type type;
    memset(&type, 0, sizeof type);
    ok = tv && resolve_type(st, clang_getCursorType(tv->cursor), kind == PROBE_ARRAY ? USE_ARRAY_ELEMENT : USE_FIELD,
                            &args[2], &type) &&
         ok;
    char *count = kind == PROBE_ARRAY ? var_string(pv, "evgen_count") : NULL;
    if (kind == PROBE_ARRAY && ok && !check_identifier(st, count, &args[4], "count field"))
        ok = false;
    if (!e || !ok) {
        free(name);
        free(type.c_spelling);
        free(count);
        return;
    }
    evgen_field *f = kind == PROBE_LEGACY ? EVGEN_PUSH(e->legacy_fields, e->n_legacy_fields)
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

static void probe_version(frontend_state *st, const probe_vars *pv, const evgen_loc *args)
{
    evgen_event *e = owner_event(st, pv, &args[0], NULL);
    long long version = 0;
    if (!int_arg(st, pv, "evgen_since", &args[1], "version", 0, 255, &version) || !e)
        return;
    size_t n = e->n_explicit_versions;
    *EVGEN_PUSH(e->explicit_versions, e->n_explicit_versions) = (unsigned)version;
    e->explicit_version_locs = evgen_xrealloc(e->explicit_version_locs, (n + 1) * sizeof *e->explicit_version_locs);
    e->explicit_version_locs[n] = args[1];
}

static void run_probe(frontend_state *st, CXCursor fn, const char *kind)
{
    probe_vars pv;
    pv.count = 0;
    clang_visitChildren(fn, collect_vars, &pv);
    unsigned offset = 0;
    evgen_loc loc = expansion_loc(st, clang_getCursorLocation(fn), &offset);
    evgen_loc args[MAX_ARGS];
    argument_locs(st, loc, offset, args);
    if (strcmp(kind, "provider") == 0)
        probe_provider(st, &pv, loc, args);
    else if (strcmp(kind, "event") == 0)
        probe_event(st, &pv, loc, args);
    else if (strcmp(kind, "field") == 0)
        probe_field(st, &pv, loc, args, PROBE_FIELD);
    else if (strcmp(kind, "array") == 0)
        probe_field(st, &pv, loc, args, PROBE_ARRAY);
    else if (strcmp(kind, "legacy") == 0)
        probe_field(st, &pv, loc, args, PROBE_LEGACY);
    else if (strcmp(kind, "version") == 0)
        probe_version(st, &pv, args);
}

static enum CXChildVisitResult visit_top(CXCursor cursor, CXCursor parent, CXClientData data)
{
    (void)parent;
    frontend_state *st = data;
    enum CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind == CXCursor_MacroExpansion) {
        record_macro_use(st, cursor);
    } else if (kind == CXCursor_FunctionDecl) {
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
    frontend_state *st = data;
    CXString name = clang_getFileName(file);
    const char *s = clang_getCString(name);
    if (strncmp(s, BUILTIN_DIR "/", sizeof BUILTIN_DIR) != 0) {
        bool seen = false;
        for (size_t i = 0; i < st->model->n_included_files && !seen; i++)
            seen = strcmp(st->model->included_files[i], s) == 0;
        if (!seen)
            *EVGEN_PUSH(st->model->included_files, st->model->n_included_files) = evgen_xstrdup(s);
    }
    clang_disposeString(name);
}

/* Copies clang's own diagnostics; returns the number of errors among them. */
static size_t report_clang_diagnostics(frontend_state *st)
{
    size_t errors = 0;
    unsigned n = clang_getNumDiagnostics(st->tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(st->tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        if (sev == CXDiagnostic_Ignored) {
            clang_disposeDiagnostic(d);
            continue;
        }
        CXFile file;
        unsigned line = 0, col = 0, off;
        clang_getFileLocation(clang_getDiagnosticLocation(d), &file, &line, &col, &off);
        CXString msg = clang_getDiagnosticSpelling(d);
        CXString fname = file ? clang_getFileName(file) : clang_getDiagnosticSpelling(d);
        const char *fn = file ? clang_getCString(fname) : NULL;
        evgen_severity s = sev >= CXDiagnostic_Error ? EVGEN_SEV_ERROR
                           : sev == CXDiagnostic_Warning ? EVGEN_SEV_WARNING
                                                         : EVGEN_SEV_NOTE;
        evgen_diag_add(st->diags, s, EVGEN_D_CLANG, fn, line, col, clang_getCString(msg));
        if (s == EVGEN_SEV_ERROR)
            errors++;
        clang_disposeString(fname);
        clang_disposeString(msg);
        clang_disposeDiagnostic(d);
    }
    return errors;
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
    frontend_state st;
    memset(&st, 0, sizeof st);
    st.model = model;
    st.diags = diags;
    model->manifest_path = evgen_xstrdup(opts->manifest_path);

    if (!opts->manifest_text) {
        FILE *f = fopen(opts->manifest_path, "rb");
        if (!f) {
            evgen_error(diags, NULL, EVGEN_D_IO, "cannot open manifest '%s'", opts->manifest_path);
            return -1;
        }
        fclose(f);
    }

    /* Our builtin headers come first so that a manifest always sees the macro language of this
     * evgen, whatever -I paths the build passes. */
    const char *fixed_args[] = {"-x", "c", "-std=c11", "-I" BUILTIN_DIR, "-include", PROBE_HEADER,
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
        {BUILTIN_DIR "/evgen/manifest.h", evgen_builtin_manifest_h, (unsigned long)strlen(evgen_builtin_manifest_h)},
        {BUILTIN_DIR "/evgen/manifest_end.h", evgen_builtin_manifest_end_h,
         (unsigned long)strlen(evgen_builtin_manifest_end_h)},
        {opts->manifest_path, opts->manifest_text, opts->manifest_text ? (unsigned long)strlen(opts->manifest_text) : 0},
    };
    unsigned n_unsaved = opts->manifest_text ? 4 : 3;

    CXIndex index = clang_createIndex(0, 0);
    enum CXErrorCode code = clang_parseTranslationUnit2(
        index, opts->manifest_path, args, (int)n_args, unsaved, n_unsaved,
        CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &st.tu);
    free(args);
    int result = 0;
    if (code != CXError_Success || !st.tu) {
        evgen_error(diags, NULL, EVGEN_D_CLANG, "%s: %s", opts->manifest_path, describe_cx_error(code));
        result = -1;
    } else if (report_clang_diagnostics(&st) > 0) {
        /* No follow-on errors of ours on top of the compiler's. */
        result = -1;
    } else {
        size_t errors_before = diags->n_errors;
        clang_getInclusions(st.tu, visit_inclusion, &st);
        clang_visitChildren(clang_getTranslationUnitCursor(st.tu), visit_top, &st);
        if (diags->n_errors > errors_before)
            result = -1;
    }
    if (st.tu)
        clang_disposeTranslationUnit(st.tu);
    clang_disposeIndex(index);
    for (size_t i = 0; i < model->n_enums; i++)
        free(st.enum_usrs[i]);
    free(st.enum_usrs);
    for (size_t i = 0; i < model->n_structs; i++)
        free(st.struct_usrs[i]);
    free(st.struct_usrs);
    free(st.uses);
    return result;
}
