/* ctf_names.c — names as TSDL spells them: struct member names made identifiers and unique, with
 * the leading '_' babeltrace2 removes, and string literals (docs/export-ctf.md, "Names"). */
#include <stdlib.h>
#include <string.h>

#include "ctf_internal.h"

/* Words a member name may not be: TSDL's keywords and the type names the metadata declares
 * (ctf_metadata.c's). */
static const char *const reserved[] = {
    "align", "callsite", "const", "char", "clock", "double", "enum", "env", "event", "floating_point",
    "float", "integer", "int", "long", "short", "signed", "stream", "string", "struct", "trace",
    "typealias", "typedef", "unsigned", "variant", "void", "_Bool", "_Complex", "_Imaginary",
    "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t", "int16_t", "int32_t", "int64_t",
    "float32_t", "float64_t", "bool8_t", "bool32_t", "guid_t", "ptr_t", "ticks_t",
};

static int is_reserved(const char *s)
{
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (strcmp(reserved[i], s) == 0)
            return 1;
    return 0;
}

static int is_ident_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int taken(const ctf_names *names, const char *s)
{
    for (size_t i = 0; i < names->n; i++)
        if (strcmp(names->shown[i], s) == 0)
            return 1;
    return 0;
}

char *ctf_names_claim(ctf_names *names, const char *name)
{
    if (names->oom)
        return NULL;
    size_t len = strlen(name);
    char *shown = malloc(len + 32);
    if (!shown) {
        names->oom = 1;
        return NULL;
    }
    if (len == 0) {
        strcpy(shown, "field");
        len = 5;
    } else {
        for (size_t i = 0; i < len; i++)
            shown[i] = is_ident_byte((unsigned char)name[i]) ? name[i] : '_';
        shown[len] = '\0';
    }
    for (unsigned k = 2; taken(names, shown); k++)
        snprintf(shown + len, 32, "_%u", k);
    if (names->n == names->cap) {
        size_t cap = names->cap ? 2 * names->cap : 16;
        char **items = realloc(names->shown, cap * sizeof *items);
        if (!items) {
            free(shown);
            names->oom = 1;
            return NULL;
        }
        names->shown = items;
        names->cap = cap;
    }
    names->shown[names->n++] = shown;
    int prefix = shown[0] == '_' || (shown[0] >= '0' && shown[0] <= '9') || is_reserved(shown);
    size_t n = strlen(shown);
    char *tsdl = malloc(n + 2);
    if (!tsdl) {
        names->oom = 1;
        return NULL;
    }
    tsdl[0] = '_';
    memcpy(tsdl + prefix, shown, n + 1);
    return tsdl;
}

void ctf_names_free(ctf_names *names)
{
    for (size_t i = 0; i < names->n; i++)
        free(names->shown[i]);
    free(names->shown);
    memset(names, 0, sizeof *names);
}

void ctf_put_literal(FILE *f, const char *s)
{
    putc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            putc('\\', f);
        putc(c < 0x20 || c == 0x7f ? '?' : c, f);
    }
    putc('"', f);
}
