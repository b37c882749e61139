/* evgen/wire_kinds.h — the field kinds of the wire format: the one list, with every property of a
 * kind that any part of evgen needs (the generator's C spellings, the runtime's stores, the
 * reader's accessors and formatting). Every per-kind table in evgen is an expansion of
 * EVGEN_WIRE_KINDS; a new kind is a new row here (docs/architecture.md, "Adding a field kind").
 *
 * Kind numbers are the ones trace metadata carries (docs/format.md): never renumbered, never
 * reused. Header-only; compiles as C99 and C++. */
#ifndef EVGEN_WIRE_KINDS_H
#define EVGEN_WIRE_KINDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a kind's values are read and printed (dump's text and JSON, the accessors' getters). */
typedef enum evgen_wire_class {
    EVGEN_WIRE_CLASS_UNSIGNED, /* little-endian unsigned integer */
    EVGEN_WIRE_CLASS_SIGNED,   /* little-endian two's-complement integer */
    EVGEN_WIRE_CLASS_FLOAT,    /* IEEE 754, little-endian */
    EVGEN_WIRE_CLASS_BOOL,     /* an integer; non-zero is true */
    EVGEN_WIRE_CLASS_POINTER,  /* an unsigned integer of the trace's pointer size, printed in hex */
    EVGEN_WIRE_CLASS_GUID,     /* 16 bytes: Data1..Data3 little-endian, then 8 bytes */
    EVGEN_WIRE_CLASS_UTF8,     /* UTF-8 bytes up to and including a 0 byte */
    EVGEN_WIRE_CLASS_UTF16,    /* UTF-16LE units up to and including a 0 unit */
    EVGEN_WIRE_CLASS_STRUCT    /* an array element: the struct's stride, members at their offsets */
} evgen_wire_class;

/* X(NAME, code, spelling, size, class, decl, param, elem, store, read_type, access, fixed)
 *   NAME       EVGEN_WIRE_NAME (evgen_wire_kind_info.name spells it)
 *   code       the number in trace metadata
 *   spelling   the kind's name in locks, `evgen describe` and docs/format.md
 *   size       bytes of one value; 0 = variable (strings) or the struct's stride; ptr: 8 here, the
 *              trace's pointer_size on the wire (evgen_wire_kind_size)
 *   class      evgen_wire_class
 *   decl       the manifest type that declares it (a lock names it so)
 *   param      the C type of a FireEtw parameter of this kind (scalars)
 *   elem       the C type of an array element of this kind (a FireEtw array parameter points to
 *              it); NULL: no arrays of it, or the struct's own type
 *   store      the generated store: evgen_put_<store> (runtime_emit.h)
 *   read_type  the C type a generated accessor returns (NULL: none; structs have members)
 *   access     the accessor family: evgen_access_<access>, evgen_element_<access> (reader_access.h)
 *   fixed      the fixed-offset loader of the accessors' fast path, evgen_fixed_<fixed>, or NULL */
#define EVGEN_WIRE_KINDS(X) \
    X(U8,     1,  "uint8",   1,  UNSIGNED, "uint8_t",      "uint8_t",              "uint8_t",    "u8",          "uint8_t",          "uint",  "u8") \
    X(U16,    2,  "uint16",  2,  UNSIGNED, "uint16_t",     "uint16_t",             "uint16_t",   "u16",         "uint16_t",         "uint",  "u16") \
    X(U32,    3,  "uint32",  4,  UNSIGNED, "uint32_t",     "uint32_t",             "uint32_t",   "u32",         "uint32_t",         "uint",  "u32") \
    X(U64,    4,  "uint64",  8,  UNSIGNED, "uint64_t",     "uint64_t",             "uint64_t",   "u64",         "uint64_t",         "uint",  "u64") \
    X(I8,     5,  "int8",    1,  SIGNED,   "int8_t",       "int8_t",               "int8_t",     "i8",          "int8_t",           "int",   "i8") \
    X(I16,    6,  "int16",   2,  SIGNED,   "int16_t",      "int16_t",              "int16_t",    "i16",         "int16_t",          "int",   "i16") \
    X(I32,    7,  "int32",   4,  SIGNED,   "int32_t",      "int32_t",              "int32_t",    "i32",         "int32_t",          "int",   "i32") \
    X(I64,    8,  "int64",   8,  SIGNED,   "int64_t",      "int64_t",              "int64_t",    "i64",         "int64_t",          "int",   "i64") \
    X(F32,    9,  "float32", 4,  FLOAT,    "float",        "float",                "float",      "f32",         "float",            "f64",   "f32") \
    X(F64,    10, "float64", 8,  FLOAT,    "double",       "double",               "double",     "f64",         "double",           "f64",   "f64") \
    X(BOOL8,  11, "bool8",   1,  BOOL,     "bool",         "int",                  "uint8_t",    "bool8",       "int",              "uint",  NULL) \
    X(BOOL32, 12, "bool32",  4,  BOOL,     "evgen_bool32", "uint32_t",             "uint32_t",   "bool32",      "uint32_t",         "uint",  "u32") \
    X(GUID,   13, "guid",    16, GUID,     "evgen_guid",   "const evgen_guid *",   "evgen_guid", "guid",        "evgen_guid",       "guid",  NULL) \
    X(PTR,    14, "ptr",     8,  POINTER,  "evgen_ptr",    "const void *",         "void",       "ptr",         "uint64_t",         "uint",  NULL) \
    X(UTF8Z,  15, "utf8z",   0,  UTF8,     "evgen_utf8z",  "const char *",         NULL,         "utf8z_sized", "evgen_utf8_view",  "utf8",  NULL) \
    X(UTF16Z, 16, "utf16z",  0,  UTF16,    "evgen_utf16z", "const evgen_char16 *", NULL,         "utf16z",      "evgen_utf16_view", "utf16", NULL) \
    X(STRUCT, 17, "struct",  0,  STRUCT,   "struct",       "const void *",         NULL,         "bytes",       NULL,               NULL,    NULL)

typedef enum evgen_wire_kind {
#define EVGEN_WIRE_KIND_ENUM(NAME, code, ...) EVGEN_WIRE_##NAME = code,
    EVGEN_WIRE_KINDS(EVGEN_WIRE_KIND_ENUM)
#undef EVGEN_WIRE_KIND_ENUM
    EVGEN_WIRE_KIND_LAST = EVGEN_WIRE_STRUCT /* the highest code: a reader refuses any above it */
} evgen_wire_kind;

/* Everything the table says about one kind. */
typedef struct evgen_wire_kind_info {
    const char *name; /* "U8": the enumerator is EVGEN_WIRE_ and this */
    const char *spelling, *decl, *param, *elem, *store, *read_type, *access, *fixed;
    uint8_t code, size;
    evgen_wire_class cls;
} evgen_wire_kind_info;

/* The row of `kind`, or NULL for a number that is no kind (0, above EVGEN_WIRE_KIND_LAST). */
static inline const evgen_wire_kind_info *evgen_wire_kind_info_of(unsigned kind)
{
    static const evgen_wire_kind_info rows[] = {
        {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, EVGEN_WIRE_CLASS_UNSIGNED},
#define EVGEN_WIRE_KIND_ROW(NAME, code, spelling, size, cls, decl, param, elem, store, read_type, access, fixed) \
    {#NAME, spelling, decl, param, elem, store, read_type, access, fixed, code, size, EVGEN_WIRE_CLASS_##cls},
        EVGEN_WIRE_KINDS(EVGEN_WIRE_KIND_ROW)
#undef EVGEN_WIRE_KIND_ROW
    };
    return kind >= 1 && kind <= EVGEN_WIRE_KIND_LAST ? &rows[kind] : NULL;
}

static inline int evgen_wire_kind_valid(unsigned kind)
{
    return kind >= 1 && kind <= EVGEN_WIRE_KIND_LAST;
}

/* The class of `kind`; EVGEN_WIRE_CLASS_STRUCT for a number that is no kind. A byte table of its
 * own: dump and the accessors ask it per field. */
static inline evgen_wire_class evgen_wire_kind_class(unsigned kind)
{
    static const uint8_t classes[] = {
        EVGEN_WIRE_CLASS_STRUCT, /* 0: no kind */
#define EVGEN_WIRE_KIND_CLASS(NAME, code, spelling, size, cls, ...) EVGEN_WIRE_CLASS_##cls,
        EVGEN_WIRE_KINDS(EVGEN_WIRE_KIND_CLASS)
#undef EVGEN_WIRE_KIND_CLASS
    };
    return kind <= EVGEN_WIRE_KIND_LAST ? (evgen_wire_class)classes[kind] : EVGEN_WIRE_CLASS_STRUCT;
}

/* Bytes of one value with `pointer_size`-byte pointers; 0 for strings, structs and non-kinds. */
static inline unsigned evgen_wire_kind_size(unsigned kind, unsigned pointer_size)
{
    static const uint8_t sizes[] = {
        0, /* 0: no kind */
#define EVGEN_WIRE_KIND_SIZE(NAME, code, spelling, size, ...) size,
        EVGEN_WIRE_KINDS(EVGEN_WIRE_KIND_SIZE)
#undef EVGEN_WIRE_KIND_SIZE
    };
    if (kind > EVGEN_WIRE_KIND_LAST)
        return 0;
    return evgen_wire_kind_class(kind) == EVGEN_WIRE_CLASS_POINTER ? pointer_size : sizes[kind];
}

/* Fixed-size: a value of this kind has a size known from the metadata alone (not a string). */
static inline int evgen_wire_kind_is_fixed(unsigned kind)
{
    const evgen_wire_kind_info *k = evgen_wire_kind_info_of(kind);
    return k && k->size != 0;
}

static inline int evgen_wire_kind_is_integer(unsigned kind)
{
    evgen_wire_class c = evgen_wire_kind_class(kind);
    return evgen_wire_kind_valid(kind) && (c == EVGEN_WIRE_CLASS_UNSIGNED || c == EVGEN_WIRE_CLASS_SIGNED);
}

static inline int evgen_wire_kind_is_signed(unsigned kind)
{
    return evgen_wire_kind_valid(kind) && evgen_wire_kind_class(kind) == EVGEN_WIRE_CLASS_SIGNED;
}

static inline int evgen_wire_kind_is_string(unsigned kind)
{
    evgen_wire_class c = evgen_wire_kind_class(kind);
    return evgen_wire_kind_valid(kind) && (c == EVGEN_WIRE_CLASS_UTF8 || c == EVGEN_WIRE_CLASS_UTF16);
}

/* The alignment of a struct member of this kind (its size; a GUID's is 4, as C declares it). */
static inline unsigned evgen_wire_kind_align(unsigned kind, unsigned pointer_size)
{
    return evgen_wire_kind_class(kind) == EVGEN_WIRE_CLASS_GUID ? 4u : evgen_wire_kind_size(kind, pointer_size);
}

/* The kind a spelling (`uint32`) names, or 0. `n` bytes of `s`, no terminator needed. */
static inline unsigned evgen_wire_kind_by_spelling(const char *s, size_t n)
{
    for (unsigned k = 1; k <= EVGEN_WIRE_KIND_LAST; k++) {
        const char *sp = evgen_wire_kind_info_of(k)->spelling;
        if (strlen(sp) == n && memcmp(sp, s, n) == 0)
            return k;
    }
    return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_WIRE_KINDS_H */
