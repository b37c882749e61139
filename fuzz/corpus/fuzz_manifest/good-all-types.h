/* Checks every allowed field type, typedef chains from an included header and #define constants. */
#include <evgen/manifest.h>

#include "include/types.h"

EVENT_PROVIDER(TestProvider, "Evgen-Test")

KNOWN_EVENT(Everything, 1, TestProvider, TEST_LEVEL_VERBOSE, TEST_KEYWORD_GC | TEST_KEYWORD_ALLOC)
EVENT_FIELD(Everything, 0, uint8_t, U8)
EVENT_FIELD(Everything, 0, uint16_t, U16)
EVENT_FIELD(Everything, 0, uint32_t, U32)
EVENT_FIELD(Everything, 0, uint64_t, U64)
EVENT_FIELD(Everything, 0, int8_t, I8)
EVENT_FIELD(Everything, 0, int16_t, I16)
EVENT_FIELD(Everything, 0, int32_t, I32)
EVENT_FIELD(Everything, 0, int64_t, I64)
EVENT_FIELD(Everything, 0, float, F32)
EVENT_FIELD(Everything, 0, double, F64)
EVENT_FIELD(Everything, 0, bool, Flag)
EVENT_FIELD(Everything, 0, evgen_bool32, Flag32)
EVENT_FIELD(Everything, 0, evgen_guid, ActivityId)
EVENT_FIELD(Everything, 0, evgen_ptr, Pointer)
EVENT_FIELD(Everything, 0, evgen_utf8z, Name8)
EVENT_FIELD(Everything, 0, evgen_utf16z, Name16)
EVENT_FIELD(Everything, 1, Address, Address)
EVENT_FIELD(Everything, 1, ObjectId, ObjectId)
EVENT_FIELD(Everything, 1, TypeHandle, TypeHandle)
EVENT_FIELD(Everything, 1, uint32_t, GuidCount)
EVENT_ARRAY(Everything, 1, evgen_guid, Guids, GuidCount)
EVENT_ARRAY(Everything, 1, double, Samples, GuidCount)

#include <evgen/manifest_end.h>
