/* use_fire_event.c — a translation unit as a runtime writes it: FIRE_EVENT and FireEtw calls of
 * every shape (scalars, strings, arrays of structs, pointers), compiled by test_gen_compile as C99
 * and C++11 with gcc and clang, with and without EVGEN_DISABLE. */
#include "gcevents_runtime.h"

int use_fire_event(void);

int use_fire_event(void)
{
    static const GCLOHCompactInfo compact[2] = {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}};
    static const evgen_char16 name[] = {'S', 'y', 's', 't', 'e', 'm', 0};
    int evaluated = 0;
    FIRE_EVENT(GCHeapStats, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, (uint32_t)(evaluated++), 14, 15, 16);
    FIRE_EVENT(GCAllocationTick, 100, GCAllocationKind_Small, 1, 100, (const void *)&evaluated, name, 0,
               (const void *)0, 24);
    FIRE_EVENT(GCLOHCompact, 1, 2, compact);
    uint32_t status = FireEtwGCStart_V0(1, GCReason_Induced);
    status |= FireEtwGCRestartEEEnd_V0();
    return evaluated + (int)status;
}
