/* alloctick.c — per-type and per-heap sums of GCAllocationTick amounts: a hash table of type names
 * (UTF-16 in the trace, UTF-8 here) and a sort by estimated bytes. */
#include "alloctick.h"

#include <stdlib.h>
#include <string.h>

#include "gcevents_reader.h"

#define NO_TYPE_NAME "(no type name)"

struct alloctick {
    alloctick_type *types;
    size_t n_types, cap_types;
    uint32_t *slots; /* open addressing: index + 1 into types, 0 = empty */
    size_t n_slots;  /* a power of two, at least twice n_types */
    alloctick_sum total, heaps[ALLOCTICK_HEAPS];
    int sorted;
    char *name; /* conversion buffer */
    size_t name_cap;
};

alloctick *alloctick_new(void)
{
    return calloc(1, sizeof(alloctick));
}

void alloctick_free(alloctick *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n_types; i++)
        free((char *)a->types[i].name);
    free(a->types);
    free(a->slots);
    free(a->name);
    free(a);
}

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int grow_slots(alloctick *a)
{
    size_t n = a->n_slots ? 2 * a->n_slots : 64;
    while (n < 2 * (a->n_types + 1))
        n *= 2;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < a->n_types; i++) {
        size_t k = hash(a->types[i].name) & (n - 1);
        while (slots[k])
            k = (k + 1) & (n - 1);
        slots[k] = (uint32_t)(i + 1);
    }
    free(a->slots);
    a->slots = slots;
    a->n_slots = n;
    return 0;
}

static alloctick_type *find_or_add(alloctick *a, const char *name)
{
    if (2 * (a->n_types + 1) > a->n_slots && grow_slots(a) != 0)
        return NULL;
    size_t k = hash(name) & (a->n_slots - 1);
    for (; a->slots[k]; k = (k + 1) & (a->n_slots - 1))
        if (strcmp(a->types[a->slots[k] - 1].name, name) == 0)
            return &a->types[a->slots[k] - 1];
    if (a->n_types == a->cap_types) {
        size_t cap = a->cap_types ? 2 * a->cap_types : 32;
        alloctick_type *grown = realloc(a->types, cap * sizeof *grown);
        if (!grown)
            return NULL;
        a->types = grown;
        a->cap_types = cap;
    }
    char *copy = malloc(strlen(name) + 1);
    if (!copy)
        return NULL;
    strcpy(copy, name);
    alloctick_type *t = &a->types[a->n_types++];
    memset(t, 0, sizeof *t);
    t->name = copy;
    a->slots[k] = (uint32_t)a->n_types;
    return t;
}

/* The tick's type name in UTF-8, in a->name. */
static const char *type_name(alloctick *a, const evgen_event *ev)
{
    if (!GCAllocationTick_has_TypeName(ev))
        return NO_TYPE_NAME;
    evgen_utf16_view view = GCAllocationTick_TypeName(ev);
    size_t need = evgen_utf16_to_utf8(view, NULL, 0) + 1;
    if (need > a->name_cap) {
        char *grown = realloc(a->name, need);
        if (!grown)
            return NULL;
        a->name = grown;
        a->name_cap = need;
    }
    evgen_utf16_to_utf8(view, a->name, a->name_cap);
    return a->name[0] ? a->name : "(empty type name)";
}

int alloctick_feed(alloctick *a, const evgen_event *ev)
{
    if (!GCAllocationTick_is(ev))
        return 0;
    uint64_t amount = GCAllocationTick_has_AllocationAmount64(ev) ? GCAllocationTick_AllocationAmount64(ev)
                                                                  : GCAllocationTick_AllocationAmount(ev);
    uint32_t kind = GCAllocationTick_AllocationKind(ev);
    int heap = kind < ALLOCTICK_OTHER ? (int)kind : ALLOCTICK_OTHER;
    const char *name = type_name(a, ev);
    alloctick_type *t = name ? find_or_add(a, name) : NULL;
    if (!t)
        return -1;
    a->sorted = 0;
    a->total.ticks++;
    a->total.bytes += amount;
    a->heaps[heap].ticks++;
    a->heaps[heap].bytes += amount;
    t->total.ticks++;
    t->total.bytes += amount;
    t->heap_bytes[heap] += amount;
    if (GCAllocationTick_has_ObjectSize(ev)) {
        t->sized_ticks++;
        t->object_bytes += GCAllocationTick_ObjectSize(ev);
    }
    return 0;
}

alloctick_sum alloctick_total(const alloctick *a)
{
    return a->total;
}

alloctick_sum alloctick_heap(const alloctick *a, int heap)
{
    alloctick_sum none = {0, 0};
    return heap >= 0 && heap < ALLOCTICK_HEAPS ? a->heaps[heap] : none;
}

static int by_bytes(const void *x, const void *y)
{
    const alloctick_type *a = x, *b = y;
    if (a->total.bytes != b->total.bytes)
        return a->total.bytes < b->total.bytes ? 1 : -1;
    return strcmp(a->name, b->name);
}

const alloctick_type *alloctick_types(alloctick *a, size_t *count)
{
    if (!a->sorted && a->n_types > 1) {
        qsort(a->types, a->n_types, sizeof *a->types, by_bytes);
        /* The slots index the old order: rebuild them now, or (out of memory) at the next feed. */
        free(a->slots);
        a->slots = NULL;
        a->n_slots = 0;
        (void)grow_slots(a);
    }
    a->sorted = 1;
    *count = a->n_types;
    return a->types;
}
