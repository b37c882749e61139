/* sim_alloc.c — the simulated allocator: objects of a few .NET types land in gen0, the large object
 * heap (85000 bytes and more) or the pinned object heap, and each time 100 KB more have been
 * allocated on the small object heap, or on the large-and-pinned heaps together, a
 * GCAllocationTick v4 names the object that crossed the threshold, as CoreCLR's allocator does
 * (gc.cpp, etw_allocation_running_amount: one counter for SOH, one for UOH). */
#include <stddef.h>

#include "evgen/runtime.h"
#include "gcevents_runtime.h"
#include "sim.h"

typedef struct type_info {
    const char *name;
    uint32_t kind;      /* GCAllocationKind */
    uint32_t weight;    /* of 1000 allocations */
    uint64_t min, span; /* size: min + random % span */
    uintptr_t method_table;
} type_info;

/* By kind; the weights of one kind add up to 1000. 1 allocation in 400 is large, 1 in 150 pinned. */
static const type_info types[] = {
    {"System.String", GCAllocationKind_Small, 350, 24, 1000, 0x7ff8a1c21038u},
    {"System.Object[]", GCAllocationKind_Small, 200, 32, 4000, 0x7ff8a1c2a1d0u},
    {"MyApp.Order", GCAllocationKind_Small, 200, 72, 1, 0x7ff8a2004c88u},
    {"System.Char[]", GCAllocationKind_Small, 100, 24, 2000, 0x7ff8a1c35e10u},
    {"System.Byte[]", GCAllocationKind_Small, 100, 24, 8000, 0x7ff8a1c30a98u},
    {"System.Int32[]", GCAllocationKind_Small, 50, 24, 4000, 0x7ff8a1c31f40u},
    {"System.Byte[]", GCAllocationKind_Large, 700, 85000, 400000, 0x7ff8a1c30a98u},
    {"System.Double[]", GCAllocationKind_Large, 300, 85000, 200000, 0x7ff8a1c33aa8u},
    {"System.Byte[]", GCAllocationKind_Pinned, 1000, 1024, 7168, 0x7ff8a1c30a98u},
};
enum { N_TYPES = sizeof types / sizeof types[0], NAME_MAX_UNITS = 64 };

static evgen_char16 names16[N_TYPES][NAME_MAX_UNITS];

static const evgen_char16 *utf16_name(size_t t)
{
    if (!names16[t][0])
        for (size_t i = 0; types[t].name[i] && i + 1 < NAME_MAX_UNITS; i++)
            names16[t][i] = (evgen_char16)types[t].name[i];
    return names16[t];
}

static size_t pick_type(sim *s)
{
    uint64_t r = sim_random(s);
    uint32_t kind = r % 400 == 0 ? GCAllocationKind_Large : r % 150 == 1 ? GCAllocationKind_Pinned
                                                                          : GCAllocationKind_Small;
    uint32_t w = (uint32_t)(sim_random(s) % 1000);
    size_t last = 0;
    for (size_t t = 0; t < N_TYPES; t++) {
        if (types[t].kind != kind)
            continue;
        last = t;
        if (w < types[t].weight)
            return t;
        w -= types[t].weight;
    }
    return last;
}

uint64_t sim_allocate(sim *s)
{
    size_t t = pick_type(s);
    const type_info *type = &types[t];
    uint64_t size = type->min + sim_random(s) % type->span;
    int heap = type->kind == GCAllocationKind_Large ? SIM_LOH : type->kind == GCAllocationKind_Pinned ? SIM_POH
                                                                                                      : SIM_GEN0;
    uint64_t address = 0x1c0000000ull + ((uint64_t)heap << 32) + s->gen[heap];
    s->gen[heap] += size;
    uint64_t *amount = &s->tick_amount[heap == SIM_GEN0 ? 0 : 1];
    *amount += size;
    if (*amount >= SIM_TICK_BYTES) {
        FIRE_EVENT(GCAllocationTick, (uint32_t)*amount, type->kind, SIM_CLR_INSTANCE, *amount,
                   (const void *)type->method_table, utf16_name(t), 0, (const void *)(uintptr_t)address, size);
        *amount = 0;
    }
    return heap == SIM_GEN0 ? size : 0;
}
