/* Checks struct array elements laid out as the C compiler does, padding included, and scalar arrays. */
#include <evgen/manifest.h>

/* 14 bytes of members, 16 with padding on 64-bit targets. */
typedef struct FitBucket {
    uint16_t Index;
    uint32_t Count;
    evgen_ptr Size;
} FitBucket;

/* No pointer: 12 bytes with padding after Kind on every target. */
struct Timing {
    uint8_t Kind;
    uint32_t Start;
    uint32_t End;
};

EVENT_PROVIDER(TestProvider, "Evgen-Test")

KNOWN_EVENT(FitBucketInfo, 209, TestProvider, 5, 0x1)
EVENT_FIELD(FitBucketInfo, 0, uint16_t, ClrInstanceID)
EVENT_FIELD(FitBucketInfo, 0, uint16_t, Count)
EVENT_ARRAY(FitBucketInfo, 0, FitBucket, Values, Count)
EVENT_FIELD(FitBucketInfo, 1, uint32_t, TimingCount)
EVENT_ARRAY(FitBucketInfo, 1, struct Timing, Timings, TimingCount)

KNOWN_EVENT(Dynamic, 39, TestProvider, 0, 0x1)
EVENT_FIELD(Dynamic, 0, evgen_utf16z, Name)
EVENT_FIELD(Dynamic, 0, uint32_t, DataSize)
EVENT_ARRAY(Dynamic, 0, uint8_t, Data, DataSize)
EVENT_FIELD(Dynamic, 0, uint16_t, ClrInstanceID)

#include <evgen/manifest_end.h>
