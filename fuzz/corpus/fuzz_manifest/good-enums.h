/* Checks enum field types: typedef'd, tagged, prefixed constants, an 8-byte enum, enum array elements. */
#include <evgen/manifest.h>

typedef enum Reason {
    Reason_AllocSmall = 0,
    Reason_Induced = 1,
    Reason_LowMemory = 2
} Reason;

enum Generation { Gen0, Gen1, Gen2 };

typedef enum Mask {
    Mask_None = 0,
    Mask_High = 0x100000000
} Mask;

typedef struct GenReason {
    Reason Why;
    enum Generation Gen;
} GenReason;

EVENT_PROVIDER(TestProvider, "Evgen-Test")

KNOWN_EVENT(Triggered, 35, TestProvider, 4, 0x1)
EVENT_FIELD(Triggered, 0, Reason, Reason)
EVENT_FIELD(Triggered, 0, enum Generation, Generation)
EVENT_FIELD(Triggered, 1, Mask, Mask)
EVENT_FIELD(Triggered, 1, uint32_t, Count)
EVENT_ARRAY(Triggered, 1, GenReason, History, Count)
EVENT_ARRAY(Triggered, 1, Reason, Reasons, Count)

#include <evgen/manifest_end.h>
