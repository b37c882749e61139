/* disabled_tu.c — a translation unit of a runtime built with EVGEN_DISABLE (set by CMake for
 * this file only): its events are compiled out, whatever the session records. */
#include "gcevents_runtime.h"

int disabled_build_fire(int *evaluations);

int disabled_build_fire(int *evaluations)
{
    FIRE_EVENT(GCHeapStats, (uint64_t)(*evaluations)++, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    if (EventEnabledGCHeapStats())
        return -1;
    return (int)FireEtwGCHeapStats_V2(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
}
