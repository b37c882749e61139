/* Types for good/all-types.h: typedefs of exact-width and special types, with an include guard. */
#ifndef EVGEN_TEST_GOOD_TYPES_H
#define EVGEN_TEST_GOOD_TYPES_H

#include <evgen/manifest.h>

typedef uint64_t Address;
typedef Address ObjectId;
typedef evgen_ptr TypeHandle;

#define TEST_LEVEL_VERBOSE 5
#define TEST_KEYWORD_GC 0x1
#define TEST_KEYWORD_ALLOC (1ULL << 40)

#endif
