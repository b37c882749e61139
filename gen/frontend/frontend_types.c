/* frontend_types.c — C types to wire types: walks typedefs to an exact-width or evgen name,
 * refuses what is platform-dependent (with the fix), and registers enums (with their constant
 * names) and array element structs (laid out as the C compiler lays them out). */
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend_internal.h"
#include "model/util.h"

/* The kind a typedef name declares: uint32_t, evgen_guid, ... (the `decl` column of
 * evgen/wire_kinds.h; the others there, float, double, bool and struct, are no typedef names), or 0. */
static evgen_wire_kind named_kind(const char *name)
{
    for (unsigned k = 1; k <= EVGEN_WIRE_KIND_LAST; k++)
        if (strcmp(name, evgen_wire_kind_info_of(k)->decl) == 0)
            return (evgen_wire_kind)k;
    return (evgen_wire_kind)0;
}

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
    evgen_model_enum *en = data;
    if (clang_getCursorKind(c) == CXCursor_EnumConstantDecl) {
        evgen_model_enum_const *k = EVGEN_PUSH(en->consts, en->n_consts);
        CXString s = clang_getCursorSpelling(c);
        k->name = evgen_xstrdup(clang_getCString(s));
        clang_disposeString(s);
        k->value = clang_getEnumConstantDeclValue(c);
    }
    return CXChildVisit_Continue;
}

/* Registers an enum once; display names drop the "<Enum>_" prefix when every constant has it. */
static int register_enum(evgen_frontend_state *st, CXCursor decl, const char *name)
{
    char *usr = cursor_usr(decl);
    for (size_t i = 0; i < st->model->n_enums; i++) {
        if (strcmp(st->enum_usrs[i], usr) == 0) {
            free(usr);
            return (int)i;
        }
    }
    size_t n = st->model->n_enums;
    evgen_model_enum *en = EVGEN_PUSH(st->model->enums, st->model->n_enums);
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


static int register_struct(evgen_frontend_state *st, CXType record, const char *name, const char *c_type,
                           const evgen_model_loc *use_loc);

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

bool evgen_fe_resolve_type(evgen_frontend_state *st, CXType t, evgen_type_use use, const evgen_model_loc *loc,
                           evgen_model_type *out)
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
            evgen_wire_kind named = named_kind(name);
            bool found = named != 0;
            if (found)
                out->kind = named;
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
            out->kind = EVGEN_WIRE_BOOL8;
            ok = true;
            break;
        case CXType_Float:
            out->kind = EVGEN_WIRE_F32;
            ok = true;
            break;
        case CXType_Double:
            out->kind = EVGEN_WIRE_F64;
            ok = true;
            break;
        case CXType_Enum: {
            CXCursor decl = clang_getTypeDeclaration(t);
            long long size = clang_Type_getSizeOf(t);
            CXString tag = clang_getCursorSpelling(decl);
            const char *name = nearest_typedef ? nearest_typedef : clang_getCString(tag);
            if (size != 1 && size != 2 && size != 4 && size != 8) {
                evgen_error(st->diags, loc, EVGEN_D_BAD_TYPE, "enum type '%s' has an unsupported size %lld", spelled,
                            size);
                clang_disposeString(tag);
                goto done;
            }
            out->enum_index = register_enum(st, decl, name[0] ? name : spelled);
            /* Signed only if a constant is negative: compilers differ on an enum's underlying
             * type (MSVC's is always int), and the wire type must not. */
            const evgen_model_enum *en = &st->model->enums[out->enum_index];
            bool is_signed = false;
            for (size_t i = 0; i < en->n_consts; i++)
                is_signed = is_signed || en->consts[i].value < 0;
            out->kind = size == 1   ? (is_signed ? EVGEN_WIRE_I8 : EVGEN_WIRE_U8)
                        : size == 2 ? (is_signed ? EVGEN_WIRE_I16 : EVGEN_WIRE_U16)
                        : size == 4 ? (is_signed ? EVGEN_WIRE_I32 : EVGEN_WIRE_U32)
                                    : (is_signed ? EVGEN_WIRE_I64 : EVGEN_WIRE_U64);
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
            if (use != EVGEN_USE_ARRAY_ELEMENT) {
                evgen_error(st->diags, loc, EVGEN_D_BAD_TYPE, "struct type '%s' is not allowed %s", spelled,
                            use == EVGEN_USE_FIELD ? "as a field" : "inside a struct");
                evgen_note(st->diags, NULL,
                           "a struct is allowed only as the element type of an EVENT_ARRAY; declare its members as "
                           "fields");
                goto done;
            }
            CXString tag = clang_getCursorSpelling(decl);
            const char *name = nearest_typedef ? nearest_typedef : clang_getCString(tag);
            out->kind = EVGEN_WIRE_STRUCT;
            /* Without a typedef, C code must say "struct Tag". */
            char *c_type = nearest_typedef ? evgen_xstrdup(nearest_typedef)
                                           : evgen_xasprintf("struct %s", clang_getCString(tag));
            out->struct_index = register_struct(st, t, name[0] ? name : spelled, c_type, loc);
            free(c_type);
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
    /* A struct member may be a string (the struct is then variable: docs/format.md); an array
     * element may not, for nothing would say where one string ends and the next begins. */
    if (ok && use == EVGEN_USE_ARRAY_ELEMENT && (out->kind == EVGEN_WIRE_UTF8Z || out->kind == EVGEN_WIRE_UTF16Z)) {
        evgen_error(st->diags, loc, EVGEN_D_BAD_TYPE, "string type '%s' is not allowed as an array element", spelled);
        evgen_note(st->diags, NULL,
                   "strings are variable-length; a plain field or a member of an element struct can hold them");
        ok = false;
    }
done:
    if (ok) /* C's bool is a macro for _Bool: show what the manifest wrote */
        out->c_spelling = evgen_xstrdup(strcmp(spelled, "_Bool") == 0 ? "bool" : spelled);
    free(spelled);
    free(typedef_buf);
    return ok;
}

typedef struct struct_walk {
    evgen_frontend_state *st;
    evgen_model_struct *s;
    const evgen_model_loc *use_loc;
    bool ok;
} struct_walk;

static enum CXVisitorResult collect_member(CXCursor c, CXClientData data)
{
    struct_walk *w = data;
    evgen_frontend_state *st = w->st;
    CXString name = clang_getCursorSpelling(c);
    evgen_model_loc loc = evgen_fe_file_loc(st, clang_getCursorLocation(c));
    evgen_model_loc type_loc = evgen_fe_file_loc(st, clang_getRangeStart(clang_getCursorExtent(c)));
    if (clang_Cursor_isBitField(c)) {
        evgen_error(st->diags, &loc, EVGEN_D_BAD_TYPE, "bit-field '%s' is not allowed in an array element struct",
                    clang_getCString(name));
        evgen_note(st->diags, w->use_loc, "struct '%s' is used as an array element here", w->s->name);
        w->ok = false;
        clang_disposeString(name);
        return CXVisit_Continue;
    }
    evgen_model_type type;
    size_t errors_before = st->diags->n_errors;
    if (!evgen_fe_resolve_type(st, clang_getCursorType(c), EVGEN_USE_STRUCT_MEMBER, &type_loc, &type)) {
        if (st->diags->n_errors > errors_before)
            evgen_note(st->diags, w->use_loc, "struct '%s' is used as an array element here", w->s->name);
        w->ok = false;
        clang_disposeString(name);
        return CXVisit_Continue;
    }
    evgen_model_struct_member *m = EVGEN_PUSH(w->s->members, w->s->n_members);
    m->name = evgen_xstrdup(clang_getCString(name));
    m->kind = type.kind;
    m->enum_index = type.enum_index;
    m->offset = (unsigned)(clang_Cursor_getOffsetOfField(c) / 8);
    m->size = (unsigned)clang_Type_getSizeOf(clang_getCursorType(c));
    m->loc = loc;
    if (type.kind == EVGEN_WIRE_UTF8Z || type.kind == EVGEN_WIRE_UTF16Z)
        w->s->variable = true;
    if (type.kind == EVGEN_WIRE_PTR)
        w->s->pointer_dependent = true;
    m->c_spelling = type.c_spelling;
    clang_disposeString(name);
    return CXVisit_Continue;
}

/* A variable struct is written member by member, packed (docs/format.md): its C layout must be
 * that too, so that what the caller's compiler lays out and what the wire holds cannot be
 * mistaken for each other (a reader of the C struct, a memcpy of it). */
static bool check_unpadded(evgen_frontend_state *st, const evgen_model_struct *s, const evgen_model_loc *use_loc)
{
    unsigned at = 0;
    for (size_t i = 0; i < s->n_members; i++) {
        const evgen_model_struct_member *m = &s->members[i];
        if (m->offset != at) {
            evgen_error(st->diags, &m->loc, EVGEN_D_BAD_TYPE,
                        "struct '%s' has %u bytes of padding before member '%s', and a string member", s->name,
                        m->offset - at, m->name);
            evgen_note(st->diags, NULL,
                       "a struct with a string member is packed: declare it between #pragma pack(push, 1) and "
                       "#pragma pack(pop)");
            evgen_note(st->diags, use_loc, "struct '%s' is used as an array element here", s->name);
            return false;
        }
        at += m->size;
    }
    if (s->size != at) {
        evgen_error(st->diags, &s->loc, EVGEN_D_BAD_TYPE,
                    "struct '%s' has %u bytes of padding after its last member, and a string member", s->name,
                    s->size - at);
        evgen_note(st->diags, NULL,
                   "a struct with a string member is packed: declare it between #pragma pack(push, 1) and "
                   "#pragma pack(pop)");
        evgen_note(st->diags, use_loc, "struct '%s' is used as an array element here", s->name);
        return false;
    }
    return true;
}

static int register_struct(evgen_frontend_state *st, CXType record, const char *name, const char *c_type,
                           const evgen_model_loc *use_loc)
{
    CXCursor decl = clang_getTypeDeclaration(record);
    char *usr = cursor_usr(decl);
    for (size_t i = 0; i < st->model->n_structs; i++) {
        if (strcmp(st->struct_usrs[i], usr) == 0) {
            free(usr);
            return (int)i;
        }
    }
    evgen_model_struct tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.name = evgen_xstrdup(name);
    tmp.c_type = evgen_xstrdup(c_type);
    tmp.size = (unsigned)clang_Type_getSizeOf(record);
    tmp.align = (unsigned)clang_Type_getAlignOf(record);
    tmp.loc = evgen_fe_file_loc(st, clang_getCursorLocation(decl));
    struct_walk w = {st, &tmp, use_loc, true};
    clang_Type_visitFields(record, collect_member, &w);
    if (w.ok && tmp.n_members == 0) {
        evgen_error(st->diags, &tmp.loc, EVGEN_D_BAD_TYPE, "struct '%s' has no members", tmp.name);
        w.ok = false;
    }
    if (w.ok && tmp.variable)
        w.ok = check_unpadded(st, &tmp, use_loc);
    if (!w.ok) {
        for (size_t i = 0; i < tmp.n_members; i++) {
            free(tmp.members[i].name);
            free(tmp.members[i].c_spelling);
        }
        free(tmp.members);
        free(tmp.name);
        free(tmp.c_type);
        free(usr);
        return -1;
    }
    size_t n = st->model->n_structs;
    *EVGEN_PUSH(st->model->structs, st->model->n_structs) = tmp;
    st->struct_usrs = evgen_xrealloc(st->struct_usrs, (n + 1) * sizeof *st->struct_usrs);
    st->struct_usrs[n] = usr;
    return (int)n;
}

