/* gc_dynamic.c — the layouts of CoreCLR's GCDynamicEvent payloads, and their decoder
 * (evgen/gc_dynamic.h). */
#include <stdbool.h>
#include <string.h>

#include "evgen/gc_dynamic.h"
#include "evgen/wire_bytes.h"

typedef struct layout_field {
    const char *name;
    evgen_gc_dynamic_kind kind;
} layout_field;

typedef struct layout {
    const char *name;
    uint16_t version;
    const layout_field *fields;
    size_t n_fields;
} layout;

/* Version 1 of each, as gc.cpp fires them (GCEventFire<Name>_V1: Version, then its arguments). */
static const layout_field committed_usage[] = {
    {"Version", EVGEN_GC_DYNAMIC_U16},
    {"TotalCommittedInUse", EVGEN_GC_DYNAMIC_U64},
    {"TotalCommittedInGlobalDecommit", EVGEN_GC_DYNAMIC_U64},
    {"TotalCommittedInFree", EVGEN_GC_DYNAMIC_U64},
    {"TotalCommittedInGlobalFree", EVGEN_GC_DYNAMIC_U64},
    {"TotalBookkeepingCommitted", EVGEN_GC_DYNAMIC_U64},
};
static const layout_field heap_count_tuning[] = {
    {"Version", EVGEN_GC_DYNAMIC_U16},
    {"NewHeapCount", EVGEN_GC_DYNAMIC_U16},
    {"GCIndex", EVGEN_GC_DYNAMIC_U64},
    {"MedianThroughputCostPercent", EVGEN_GC_DYNAMIC_F32},
    {"SmoothedMedianThroughputCostPercent", EVGEN_GC_DYNAMIC_F32},
    {"ThroughputCostPercentReductionPerStepUp", EVGEN_GC_DYNAMIC_F32},
    {"ThroughputCostPercentIncreasePerStepDown", EVGEN_GC_DYNAMIC_F32},
    {"SpaceCostPercentIncreasePerStepUp", EVGEN_GC_DYNAMIC_F32},
    {"SpaceCostPercentDecreasePerStepDown", EVGEN_GC_DYNAMIC_F32},
};
static const layout_field heap_count_sample[] = {
    {"Version", EVGEN_GC_DYNAMIC_U16},
    {"GCIndex", EVGEN_GC_DYNAMIC_U64},
    {"ElapsedTimeBetweenGCs", EVGEN_GC_DYNAMIC_U64},
    {"GCPauseTime", EVGEN_GC_DYNAMIC_U64},
    {"MslWaitTime", EVGEN_GC_DYNAMIC_U64},
};

#define LAYOUT(name, fields) {name, 1, fields, sizeof fields / sizeof fields[0]}
static const layout layouts[] = {
    LAYOUT("CommittedUsage", committed_usage),
    LAYOUT("HeapCountTuning", heap_count_tuning),
    LAYOUT("HeapCountSample", heap_count_sample),
};
#undef LAYOUT

static size_t kind_size(evgen_gc_dynamic_kind kind)
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

static int ascii_lower(unsigned c)
{
    return c >= 'A' && c <= 'Z' ? (int)(c - 'A' + 'a') : (int)c;
}

/* Is the UTF-16 name equal to `ascii`, ignoring ASCII case? */
static bool utf16_names(evgen_utf16_view name, const char *ascii)
{
    size_t n = strlen(ascii);
    if (name.units != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned unit = evgen_wire_le16(name.data + 2 * i);
        if (unit > 0x7f || ascii_lower(unit) != ascii_lower((unsigned char)ascii[i]))
            return false;
    }
    return true;
}

static bool utf8_names(const char *name, const char *ascii)
{
    for (; *name && *ascii; name++, ascii++)
        if (ascii_lower((unsigned char)*name) != ascii_lower((unsigned char)*ascii))
            return false;
    return *name == '\0' && *ascii == '\0';
}

static evgen_gc_dynamic_status decode_layout(const layout *l, const uint8_t *data, size_t size, evgen_gc_dynamic *out)
{
    memset(out, 0, sizeof *out);
    if (!l)
        return EVGEN_GC_DYNAMIC_UNKNOWN_NAME;
    out->name = l->name;
    out->version = l->version;
    for (size_t i = 0; i < l->n_fields; i++)
        out->layout_size += kind_size(l->fields[i].kind);
    size_t at = 0;
    for (size_t i = 0; i < l->n_fields; i++) {
        size_t n = kind_size(l->fields[i].kind);
        if (size - at < n)
            return EVGEN_GC_DYNAMIC_TRUNCATED;
        evgen_gc_dynamic_field *f = &out->fields[out->n_fields++];
        f->name = l->fields[i].name;
        f->kind = l->fields[i].kind;
        uint64_t bits = evgen_wire_load(data + at, (unsigned)n);
        if (f->kind == EVGEN_GC_DYNAMIC_F32) {
            uint32_t b32 = (uint32_t)bits;
            memcpy(&f->f, &b32, sizeof f->f);
        } else
            f->u = bits;
        at += n;
        if (i == 0 && f->u != l->version)
            return EVGEN_GC_DYNAMIC_UNKNOWN_VERSION; /* another layout: the rest is not read */
    }
    out->extra = size - at;
    return EVGEN_GC_DYNAMIC_OK;
}

evgen_gc_dynamic_status evgen_gc_dynamic_decode(evgen_utf16_view name, const uint8_t *data, size_t size,
                                                evgen_gc_dynamic *out)
{
    const layout *found = NULL;
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0] && !found; i++)
        if (name.data && utf16_names(name, layouts[i].name))
            found = &layouts[i];
    return decode_layout(found, data, data ? size : 0, out);
}

evgen_gc_dynamic_status evgen_gc_dynamic_decode_utf8(const char *name, const uint8_t *data, size_t size,
                                                     evgen_gc_dynamic *out)
{
    const layout *found = NULL;
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0] && !found; i++)
        if (name && utf8_names(name, layouts[i].name))
            found = &layouts[i];
    return decode_layout(found, data, data ? size : 0, out);
}

const evgen_gc_dynamic_field *evgen_gc_dynamic_find(const evgen_gc_dynamic *decoded, const char *field)
{
    for (size_t i = 0; i < decoded->n_fields; i++)
        if (strcmp(decoded->fields[i].name, field) == 0)
            return &decoded->fields[i];
    return NULL;
}

const char *evgen_gc_dynamic_status_name(evgen_gc_dynamic_status status)
{
    switch (status) {
    case EVGEN_GC_DYNAMIC_OK:
        return "ok";
    case EVGEN_GC_DYNAMIC_UNKNOWN_NAME:
        return "unknown name";
    case EVGEN_GC_DYNAMIC_UNKNOWN_VERSION:
        return "unknown version";
    case EVGEN_GC_DYNAMIC_TRUNCATED:
        return "truncated";
    }
    return "?";
}
