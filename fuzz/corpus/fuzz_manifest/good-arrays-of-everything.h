/* Checks arrays of every element type: each scalar kind, enums, GUIDs, pointers, and a struct with
 * a member of each of those kinds (laid out by the compiler, padding included). */
#include <evgen/manifest.h>

#ifndef ARRAYS_OF_EVERYTHING_TYPES
#define ARRAYS_OF_EVERYTHING_TYPES
typedef enum Color { Color_Red = 1, Color_Green = 2, Color_Blue = 3 } Color;

typedef struct Mixed {
    uint8_t Small;
    int64_t Signed;
    double Real;
    float Single;
    bool Flag;
    evgen_bool32 Flag32;
    evgen_guid Id;
    evgen_ptr Where;
    Color Hue;
    int16_t Short;
} Mixed;
#endif

EVENT_PROVIDER(TestProvider, "Evgen-Test")

KNOWN_EVENT(Arrays, 1, TestProvider, 4, 0x1)
EVENT_FIELD(Arrays, 0, uint16_t, N)
EVENT_ARRAY(Arrays, 0, uint8_t, U8s, N)
EVENT_ARRAY(Arrays, 0, uint16_t, U16s, N)
EVENT_ARRAY(Arrays, 0, uint32_t, U32s, N)
EVENT_ARRAY(Arrays, 0, uint64_t, U64s, N)
EVENT_ARRAY(Arrays, 0, int8_t, I8s, N)
EVENT_ARRAY(Arrays, 0, int16_t, I16s, N)
EVENT_ARRAY(Arrays, 0, int32_t, I32s, N)
EVENT_ARRAY(Arrays, 0, int64_t, I64s, N)
EVENT_ARRAY(Arrays, 0, float, F32s, N)
EVENT_ARRAY(Arrays, 0, double, F64s, N)
EVENT_ARRAY(Arrays, 0, bool, Bools, N)
EVENT_ARRAY(Arrays, 0, evgen_bool32, Bool32s, N)
EVENT_ARRAY(Arrays, 0, evgen_guid, Guids, N)
EVENT_ARRAY(Arrays, 0, evgen_ptr, Pointers, N)
EVENT_ARRAY(Arrays, 0, Color, Colors, N)
EVENT_FIELD(Arrays, 1, uint32_t, M)
EVENT_ARRAY(Arrays, 1, Mixed, Mixes, M)
EVENT_FIELD(Arrays, 1, evgen_utf8z, Tail)

#include <evgen/manifest_end.h>
