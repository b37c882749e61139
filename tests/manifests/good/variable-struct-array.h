/* Checks arrays of a variable struct: a packed element struct with string members (UTF-16 and
 * UTF-8) between scalars and after them, elements written back to back, a field after the array. */
#include <evgen/manifest.h>

typedef enum RootKind { RootKind_Static = 0, RootKind_Thread = 1, RootKind_Handle = 2 } RootKind;

/* Packed, as a struct with a string member must be (docs/manifest.md). */
#pragma pack(push, 1)
typedef struct NamedRoot {
    uint64_t RootID;
    RootKind Kind;
    uint32_t Flags;
    evgen_utf16z FieldName;
    uint16_t Slot;
    evgen_utf8z TypeName;
    evgen_ptr Address;
    bool Pinned;
} NamedRoot;
#pragma pack(pop)

EVENT_PROVIDER(TestProvider, "Evgen-Test")

KNOWN_EVENT(NamedRoots, 38, TestProvider, 4, 0x100000)
EVENT_FIELD(NamedRoots, 0, uint32_t, Count)
EVENT_FIELD(NamedRoots, 0, uint64_t, AppDomainID)
EVENT_ARRAY(NamedRoots, 0, NamedRoot, Values, Count)
EVENT_FIELD(NamedRoots, 0, uint16_t, ClrInstanceID)
EVENT_FIELD(NamedRoots, 1, evgen_guid, Module)

#include <evgen/manifest_end.h>
