/* dl_module.c — a shared library holding a generated manifest, for test_runtime_lifecycle's
 * dlopen/dlclose test. It takes the runtime from the program that loads it. */
#include <stdint.h>

#include "dlevents_runtime.h"

uint32_t dl_fire(uint64_t value);

uint32_t dl_fire(uint64_t value)
{
    return FireEtwGCCreateSegment(value);
}
