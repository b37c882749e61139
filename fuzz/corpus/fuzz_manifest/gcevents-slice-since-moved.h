/* gcevents.h — CoreCLR's GC events, as an evgen manifest (no include guard, like every manifest).
 *
 * It mirrors exactly the GC event templates of CoreCLR's ETW manifest, ClrEtwAll.man (dotnet/runtime
 * src/coreclr/vm; the private provider's GCGlobalHeapHistory and GCJoin versions 0-1 from its 2016
 * copy), so that traces written by a real .NET runtime decode with it: every event and version of
 * both providers, with the same ids, versions, field names, field order and wire types
 * (win:UInt8..UInt64 -> uint8_t..uint64_t, win:Int32 -> int32_t, win:Pointer -> evgen_ptr,
 * win:UnicodeString -> evgen_utf16z, win:Boolean -> evgen_bool32, win:Binary -> an EVENT_ARRAY of
 * uint8_t, struct arrays -> an EVENT_ARRAY of the runtime's C struct, padding included).
 * Conventions: an event is named after its template's event symbol without the _V<n> suffix, and a
 * private event whose name collides with a public one takes CoreCLR's Prv prefix
 * (PrvGCGlobalHeapHistory, PrvGCJoin); a field's `since` is the first version whose template holds
 * it, so the EVENT_FIELD lines follow the newest version's order; a version without payload is
 * declared with EVENT_VERSION; the three old layouts CoreCLR changed in place (version 0 of
 * GCStart, GCEnd and GCSuspendEEBegin) are spelled out with EVENT_LEGACY_FIELD lines; levels,
 * keywords and value maps use the constants and enums of the types section below, every enum
 * constant starting with its enum's name and an underscore, and only UInt32 fields get an enum
 * type (an enum is 4 bytes).
 */
#include <evgen/manifest.h>

#ifndef EVGEN_GCEVENTS_TYPES_H
#define EVGEN_GCEVENTS_TYPES_H

/* Event levels (ETW's win:LogAlways .. win:Verbose). */
typedef enum GCEventLevel {
    GCEventLevel_LogAlways = 0,
    GCEventLevel_Critical = 1,
    GCEventLevel_Error = 2,
    GCEventLevel_Warning = 3,
    GCEventLevel_Information = 4,
    GCEventLevel_Verbose = 5
} GCEventLevel;

/* Keywords of Microsoft-Windows-DotNETRuntime used by the GC events (ClrEtwAll.man names without
 * their "Keyword" suffix). #define rather than an enum: keyword masks are 64-bit. */
#define GCEventKeyword_GC                            0x1
#define GCEventKeyword_GCHandle                      0x2
#define GCEventKeyword_Threading                     0x10000
#define GCEventKeyword_GCHeapDump                    0x100000
#define GCEventKeyword_GCSampledObjectAllocationHigh 0x200000
#define GCEventKeyword_GCHeapSurvivalAndMovement     0x400000
#define GCEventKeyword_GCHeapCollect                 0x800000
#define GCEventKeyword_ManagedHeapCollect            GCEventKeyword_GCHeapCollect /* its other name */
#define GCEventKeyword_GCHeapAndTypeNames            0x1000000
#define GCEventKeyword_GCSampledObjectAllocationLow  0x2000000

/* Why a GC happened (GCStart, GCTriggered, GCGlobalHeapHistory .Reason). */
typedef enum GCReason {
    GCReason_AllocSmall = 0,
    GCReason_Induced = 1,
    GCReason_LowMemory = 2,
    GCReason_Empty = 3,
    GCReason_AllocLarge = 4,
    GCReason_OutOfSpaceSOH = 5,
    GCReason_OutOfSpaceLOH = 6,
    GCReason_InducedNotForced = 7,
    GCReason_Internal = 8,
    GCReason_InducedLowMemory = 9,
    GCReason_InducedCompacting = 10,
    GCReason_LowMemoryHost = 11,
    GCReason_PMFullGC = 12,
    GCReason_LowMemoryHostBlocking = 13
} GCReason;

/* GCStart.Type. */
typedef enum GCType {
    GCType_NonConcurrentGC = 0,
    GCType_BackgroundGC = 1,
    GCType_ForegroundGC = 2
} GCType;

/* GCAllocationTick.AllocationKind. */
typedef enum GCAllocationKind {
    GCAllocationKind_Small = 0,
    GCAllocationKind_Large = 1,
    GCAllocationKind_Pinned = 2
} GCAllocationKind;

/* GCSuspendEEBegin.Reason (version 1 on; version 0's was a UInt16). */
typedef enum GCSuspendEEReason {
    GCSuspendEEReason_SuspendOther = 0,
    GCSuspendEEReason_SuspendForGC = 1,
    GCSuspendEEReason_SuspendForAppDomainShutdown = 2,
    GCSuspendEEReason_SuspendForCodePitching = 3,
    GCSuspendEEReason_SuspendForShutdown = 4,
    GCSuspendEEReason_SuspendForDebugger = 5,
    GCSuspendEEReason_SuspendForGCPrep = 6,
    GCSuspendEEReason_SuspendForDebuggerSweep = 7
} GCSuspendEEReason;

/* GCCreateSegment.Type. */
typedef enum GCSegmentType {
    GCSegmentType_SmallObjectHeap = 0,
    GCSegmentType_LargeObjectHeap = 1,
    GCSegmentType_ReadOnlyHeap = 2,
    GCSegmentType_PinnedObjectHeap = 3
} GCSegmentType;

/* SetGCHandle.Kind. */
typedef enum GCHandleKind {
    GCHandleKind_WeakShort = 0,
    GCHandleKind_WeakLong = 1,
    GCHandleKind_Strong = 2,
    GCHandleKind_Pinned = 3,
    GCHandleKind_Variable = 4,
    GCHandleKind_RefCounted = 5,
    GCHandleKind_Dependent = 6,
    GCHandleKind_AsyncPinned = 7,
    GCHandleKind_SizedRef = 8
} GCHandleKind;

/* GCMarkWithType.Type. */
typedef enum GCRootKind {
    GCRootKind_Stack = 0,
    GCRootKind_Finalizer = 1,
    GCRootKind_Handle = 2,
    GCRootKind_Older = 3,
    GCRootKind_SizedRef = 4,
    GCRootKind_Overflow = 5,
    GCRootKind_DependentHandle = 6,
    GCRootKind_NewFQ = 7,
    GCRootKind_Steal = 8,
    GCRootKind_BGC = 9
} GCRootKind;

/* GCGlobalHeapHistory.PauseMode. */
typedef enum GCPauseMode {
    GCPauseMode_Batch = 0,
    GCPauseMode_Interactive = 1,
    GCPauseMode_LowLatency = 2,
    GCPauseMode_SustainedLowLatency = 3,
    GCPauseMode_NoGC = 4
} GCPauseMode;

/* GCJoin.JoinType and PrvGCJoin.JoinType. */
typedef enum GCJoinType {
    GCJoinType_LastJoin = 0,
    GCJoinType_Join = 1,
    GCJoinType_Restart = 2,
    GCJoinType_FirstReverseJoin = 3,
    GCJoinType_ReverseJoin = 4
} GCJoinType;

/* GCJoin.JoinTime and PrvGCJoin.JoinTime. */
typedef enum GCJoinTime {
    GCJoinTime_Start = 0,
    GCJoinTime_End = 1
} GCJoinTime;

/* Array elements, laid out as the runtime's C structs that are copied into the payload. */

/* GCLOHCompact.Values: 28 bytes of fields, 32 with padding on 64-bit. */
typedef struct GCLOHCompactInfo {
    uint32_t TimePlan;
    uint32_t TimeCompact;
    uint32_t TimeRelocate;
    evgen_ptr TotalRefs;
    evgen_ptr ZeroRefs;
} GCLOHCompactInfo;

/* GCFitBucketInfo.Values: 14 bytes of fields, 16 with padding on 64-bit. */
typedef struct GCFitBucketInfoValue {
    uint16_t Index;
    uint32_t Count;
    evgen_ptr Size;
} GCFitBucketInfoValue;

/* GCPerHeapHistory.Values: one per generation. */
typedef struct GCPerHeapHistoryGenData {
    evgen_ptr SizeBefore;
    evgen_ptr FreeListBefore;
    evgen_ptr FreeObjBefore;
    evgen_ptr SizeAfter;
    evgen_ptr FreeListAfter;
    evgen_ptr FreeObjAfter;
    evgen_ptr In;
    evgen_ptr PinnedSurv;
    evgen_ptr NonePinnedSurv;
    evgen_ptr NewAllocation;
} GCPerHeapHistoryGenData;

/* GCGlobalHeapHistory.Values. */
typedef struct GCGlobalHeapHistoryTime {
    uint32_t Time;
} GCGlobalHeapHistoryTime;

/* GCBulkMovedObjectRanges.Values: 24 bytes on 64-bit, no padding. */
typedef struct GCBulkMovedObjectRangesValue {
    evgen_ptr OldRangeBase;
    evgen_ptr NewRangeBase;
    uint64_t RangeLength;
} GCBulkMovedObjectRangesValue;

#endif /* EVGEN_GCEVENTS_TYPES_H */

EVENT_PROVIDER(GCEventProvider_Default, "Microsoft-Windows-DotNETRuntime")
EVENT_PROVIDER(GCEventProvider_Private, "Microsoft-Windows-DotNETRuntimePrivate")

/* ---- Microsoft-Windows-DotNETRuntime ---- */

/* GCStart, v0-2: a GC begins. v1 inserted Depth before Reason: v0 is a legacy layout. */
KNOWN_EVENT(GCStart, 1, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_LEGACY_FIELD(GCStart, 0, uint32_t, Count)
EVENT_LEGACY_FIELD(GCStart, 0, GCReason, Reason)
EVENT_FIELD(GCStart,        0, uint32_t, Count)
EVENT_FIELD(GCStart,        1, uint32_t, Depth)
EVENT_FIELD(GCStart,        0, GCReason, Reason)
EVENT_FIELD(GCStart,        1, GCType,   Type)
EVENT_FIELD(GCStart,        1, uint16_t, ClrInstanceID)
EVENT_FIELD(GCStart,        2, uint64_t, ClientSequenceNumber)
/* GCHeapStats, v0-2: generation sizes and promoted bytes at the end of a GC. */
KNOWN_EVENT(GCHeapStats, 4, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCHeapStats, 0, uint64_t, GenerationSize0)
EVENT_FIELD(GCHeapStats, 0, uint64_t, TotalPromotedSize0)
EVENT_FIELD(GCHeapStats, 0, uint64_t, GenerationSize1)
EVENT_FIELD(GCHeapStats, 0, uint64_t, TotalPromotedSize1)
EVENT_FIELD(GCHeapStats, 0, uint64_t, GenerationSize2)
EVENT_FIELD(GCHeapStats, 0, uint64_t, TotalPromotedSize2)
EVENT_FIELD(GCHeapStats, 0, uint64_t, GenerationSize3)
EVENT_FIELD(GCHeapStats, 0, uint64_t, TotalPromotedSize3)
EVENT_FIELD(GCHeapStats, 0, uint64_t, FinalizationPromotedSize)
EVENT_FIELD(GCHeapStats, 0, uint64_t, FinalizationPromotedCount)
EVENT_FIELD(GCHeapStats, 0, uint32_t, PinnedObjectCount)
EVENT_FIELD(GCHeapStats, 0, uint32_t, SinkBlockCount)
EVENT_FIELD(GCHeapStats, 0, uint32_t, GCHandleCount)
EVENT_FIELD(GCHeapStats, 1, uint16_t, ClrInstanceID)
EVENT_FIELD(GCHeapStats, 1, uint64_t, GenerationSize4)
EVENT_FIELD(GCHeapStats, 2, uint64_t, TotalPromotedSize4)
/* GCAllocationTick, v0-4: emitted about every 100 KB of allocation. */
KNOWN_EVENT(GCAllocationTick, 10, GCEventProvider_Default, GCEventLevel_Verbose, GCEventKeyword_GC)
EVENT_FIELD(GCAllocationTick, 0, uint32_t,         AllocationAmount)
EVENT_FIELD(GCAllocationTick, 0, GCAllocationKind, AllocationKind)
EVENT_FIELD(GCAllocationTick, 1, uint16_t,         ClrInstanceID)
EVENT_FIELD(GCAllocationTick, 2, uint64_t,         AllocationAmount64)
EVENT_FIELD(GCAllocationTick, 2, evgen_ptr,        TypeID)
EVENT_FIELD(GCAllocationTick, 2, evgen_utf16z,     TypeName)
EVENT_FIELD(GCAllocationTick, 2, uint32_t,         HeapIndex)
EVENT_FIELD(GCAllocationTick, 3, evgen_ptr,        Address)
EVENT_FIELD(GCAllocationTick, 4, uint64_t,         ObjectSize)
#include <evgen/manifest_end.h>
