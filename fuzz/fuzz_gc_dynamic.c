/* fuzz_gc_dynamic.c — libFuzzer target: the GCDynamicEvent payload decoder (evgen/gc_dynamic.h).
 * The input up to its first NUL is the event's Name, the bytes after it the Data: both decoded
 * with the Name as UTF-8 and as UTF-16 (each in a buffer of its exact size), which must agree, and
 * whose fields must lie within the Data. Seeds: fuzz/corpus/fuzz_gc_dynamic. */
#include <stdlib.h>
#include <string.h>

#include "evgen/gc_dynamic.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static size_t field_bytes(evgen_gc_dynamic_kind kind)
{
    switch (kind) {
    case EVGEN_GC_DYNAMIC_U16:
        return 2;
    case EVGEN_GC_DYNAMIC_U64:
        return 8;
    case EVGEN_GC_DYNAMIC_F32:
        return 4;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t name_len = nul ? (size_t)(nul - data) : size;
    size_t rest = nul ? size - name_len - 1 : 0;
    char *name = evgen_fuzz_text(data, name_len);
    uint8_t *units = malloc(2 * name_len + 1);
    for (size_t i = 0; i < name_len; i++) {
        units[2 * i] = data[i];
        units[2 * i + 1] = 0;
    }
    uint8_t *payload = malloc(rest ? rest : 1);
    if (rest)
        memcpy(payload, nul + 1, rest);

    evgen_gc_dynamic a, b;
    evgen_gc_dynamic_status sa = evgen_gc_dynamic_decode_utf8(name, rest ? payload : NULL, rest, &a);
    evgen_utf16_view view = {units, (uint32_t)name_len};
    evgen_gc_dynamic_status sb = evgen_gc_dynamic_decode(view, rest ? payload : NULL, rest, &b);
    /* bytes >= 0x80 are one UTF-8 byte but a non-ASCII UTF-16 unit: neither matches a name */
    FUZZ_CHECK(sa == sb);
    FUZZ_CHECK(a.n_fields == b.n_fields && a.n_fields <= EVGEN_GC_DYNAMIC_MAX_FIELDS);
    FUZZ_CHECK((a.name == NULL) == (sa == EVGEN_GC_DYNAMIC_UNKNOWN_NAME));
    size_t used = 0;
    for (size_t i = 0; i < a.n_fields; i++) {
        FUZZ_CHECK(strcmp(a.fields[i].name, b.fields[i].name) == 0 && a.fields[i].u == b.fields[i].u);
        FUZZ_CHECK(evgen_gc_dynamic_find(&a, a.fields[i].name) != NULL);
        used += field_bytes(a.fields[i].kind);
    }
    FUZZ_CHECK(used <= rest);
    if (sa == EVGEN_GC_DYNAMIC_OK)
        FUZZ_CHECK(used == a.layout_size && used + a.extra == rest);
    if (sa == EVGEN_GC_DYNAMIC_TRUNCATED)
        FUZZ_CHECK(rest < a.layout_size);
    FUZZ_CHECK(strlen(evgen_gc_dynamic_status_name(sa)) > 0);

    free(payload);
    free(units);
    free(name);
    return 0;
}
