/* gcevents.h — CoreCLR's GC events, as an evgen manifest (no include guard, like every manifest).
 *
 * It mirrors exactly the GC event templates of CoreCLR's ETW manifest, ClrEtwAll.man (dotnet/runtime
 * src/coreclr/vm), so that traces written by a real .NET runtime decode with it: every GC event and
 * version of both providers (the GarbageCollection task of Microsoft-Windows-DotNETRuntime, all 67 of
 * its event-versions; the GarbageCollectionPrivate task of Microsoft-Windows-DotNETRuntimePrivate, all
 * 44), with the same ids, versions, field names, field order and wire types
 * (win:UInt8..UInt64 -> uint8_t..uint64_t, win:Int32 -> int32_t, win:Pointer -> evgen_ptr,
 * win:UnicodeString -> evgen_utf16z, win:Boolean -> evgen_bool32, win:Binary -> an EVENT_ARRAY of
 * uint8_t, struct arrays -> an EVENT_ARRAY of the runtime's C struct, padding included, or packed
 * where CoreCLR packs it; GCBulkRootStaticVar's elements, each with an inline UnicodeString, a packed
 * variable struct). tests/unit/gc-templates-full.tsv lists every one of them, field by field.
 * Levels and keywords are the latest version's;
 * where ClrEtwAll.man gives an old version other ones (version 0 of GCCreateConcurrentThread and
 * GCTerminateConcurrentThread: GC only), an EVENT_VERSION_ATTRIBUTES line gives it its own.
 * Conventions: an event is named after its template's event symbol without the _V<n> suffix, and a
 * private event whose name collides with a public one takes CoreCLR's Prv prefix
 * (PrvGCGlobalHeapHistory, PrvGCJoin, PrvGCPerHeapHistory); a field's `since` is the first version
 * whose template holds it, so the EVENT_FIELD lines follow the newest version's order; a version without payload is
 * declared with EVENT_VERSION; the three old layouts CoreCLR changed in place (version 0 of
 * GCStart, GCEnd and GCSuspendEEBegin) are spelled out with EVENT_LEGACY_FIELD lines, and so is
 * version 1 of PrvGCPerHeapHistory, whose ClrInstanceID version 2 dropped (a legacy-only field); levels,
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

/* Keywords of Microsoft-Windows-DotNETRuntimePrivate used by its GC events (same naming). */
#define GCPrivateEventKeyword_GCPrivate       0x1
#define GCPrivateEventKeyword_InteropPrivate  0x2000
#define GCPrivateEventKeyword_GCHandlePrivate 0x4000

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

/* The heap-dump and survival events copy CoreCLR's value structs declared under #pragma pack(1)
 * (eventtracepriv.h): their elements are packed, e.g. 21 bytes apart for GCBulkRootEdge on x64. */
#pragma pack(push, 1)

/* GCBulkRootEdge.Values: 21 bytes on 64-bit. */
typedef struct GCBulkRootEdgeValue {
    evgen_ptr RootedNodeAddress;
    uint8_t GCRootKind; /* GCRootKind's values, in one byte */
    uint32_t GCRootFlag;
    evgen_ptr GCRootID;
} GCBulkRootEdgeValue;

/* GCBulkRootConditionalWeakTableElementEdge.Values: 24 bytes on 64-bit. */
typedef struct GCBulkRootConditionalWeakTableElementEdgeValue {
    evgen_ptr GCKeyNodeID;
    evgen_ptr GCValueNodeID;
    evgen_ptr GCRootID;
} GCBulkRootConditionalWeakTableElementEdgeValue;

/* GCBulkNode.Values: 32 bytes on 64-bit. */
typedef struct GCBulkNodeValue {
    evgen_ptr Address;
    uint64_t Size;
    uint64_t TypeID;
    uint64_t EdgeCount;
} GCBulkNodeValue;

/* GCBulkEdge.Values: 12 bytes on 64-bit. */
typedef struct GCBulkEdgeValue {
    evgen_ptr Value;
    uint32_t ReferencingFieldID;
} GCBulkEdgeValue;

/* GCBulkSurvivingObjectRanges.Values: 16 bytes on 64-bit. */
typedef struct GCBulkSurvivingObjectRangesValue {
    evgen_ptr RangeBase;
    uint64_t RangeLength;
} GCBulkSurvivingObjectRangesValue;

/* GCBulkRootCCW.Values: 44 bytes. */
typedef struct GCBulkRootCCWValue {
    uint64_t GCRootID;
    uint64_t ObjectID;
    uint64_t TypeID;
    uint64_t IUnknown;
    uint32_t RefCount;
    uint32_t PeggedRefCount;
    uint32_t Flags;
} GCBulkRootCCWValue;

/* GCBulkRCW.Values: 40 bytes. */
typedef struct GCBulkRCWValue {
    uint64_t ObjectID;
    uint64_t TypeID;
    uint64_t IUnknown;
    uint64_t VTable;
    uint32_t RefCount;
    uint32_t Flags;
} GCBulkRCWValue;

/* GCBulkRootStaticVar.Values: a variable struct (its FieldName inline): on the wire, 28 bytes of
 * members back to back, then FieldName up to and including its terminator (no stride). */
typedef struct GCBulkRootStaticVarValue {
    uint64_t GCRootID;
    uint64_t ObjectID;
    uint64_t TypeID;
    uint32_t Flags;
    evgen_utf16z FieldName;
} GCBulkRootStaticVarValue;

#pragma pack(pop)

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

/* GCEnd, v0-1: a GC ends. v0's Depth was a UInt16, v1's a UInt32: v0 is a legacy layout. */
KNOWN_EVENT(GCEnd, 2, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_LEGACY_FIELD(GCEnd, 0, uint32_t, Count)
EVENT_LEGACY_FIELD(GCEnd, 0, uint16_t, Depth)
EVENT_FIELD(GCEnd,        0, uint32_t, Count)
EVENT_FIELD(GCEnd,        0, uint32_t, Depth)
EVENT_FIELD(GCEnd,        1, uint16_t, ClrInstanceID)

/* GCRestartEEEnd, v0-1: managed threads have been resumed. v0 has no payload. */
KNOWN_EVENT(GCRestartEEEnd, 3, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_VERSION(GCRestartEEEnd, 0)
EVENT_FIELD(GCRestartEEEnd,   1, uint16_t, ClrInstanceID)

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
EVENT_FIELD(GCHeapStats, 2, uint64_t, GenerationSize4)
EVENT_FIELD(GCHeapStats, 2, uint64_t, TotalPromotedSize4)

/* GCCreateSegment, v0-1: the GC reserved a new heap segment. */
KNOWN_EVENT(GCCreateSegment, 5, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCCreateSegment, 0, uint64_t,      Address)
EVENT_FIELD(GCCreateSegment, 0, uint64_t,      Size)
EVENT_FIELD(GCCreateSegment, 0, GCSegmentType, Type)
EVENT_FIELD(GCCreateSegment, 1, uint16_t,      ClrInstanceID)

/* GCFreeSegment, v0-1: the GC released a heap segment. */
KNOWN_EVENT(GCFreeSegment, 6, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCFreeSegment, 0, uint64_t, Address)
EVENT_FIELD(GCFreeSegment, 1, uint16_t, ClrInstanceID)

/* GCRestartEEBegin, v0-1: the runtime starts resuming managed threads. v0 has no payload. */
KNOWN_EVENT(GCRestartEEBegin, 7, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_VERSION(GCRestartEEBegin, 0)
EVENT_FIELD(GCRestartEEBegin,   1, uint16_t, ClrInstanceID)

/* GCSuspendEEEnd, v0-1: managed threads are suspended. v0 has no payload. */
KNOWN_EVENT(GCSuspendEEEnd, 8, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_VERSION(GCSuspendEEEnd, 0)
EVENT_FIELD(GCSuspendEEEnd,   1, uint16_t, ClrInstanceID)

/* GCSuspendEEBegin, v0-1: suspension starts. v0's Reason was a UInt16: v0 is a legacy layout. */
KNOWN_EVENT(GCSuspendEEBegin, 9, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_LEGACY_FIELD(GCSuspendEEBegin, 0, uint16_t,          Reason)
EVENT_FIELD(GCSuspendEEBegin,        0, GCSuspendEEReason, Reason)
EVENT_FIELD(GCSuspendEEBegin,        1, uint32_t,          Count)
EVENT_FIELD(GCSuspendEEBegin,        1, uint16_t,          ClrInstanceID)

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

/* GCCreateConcurrentThread, v0-1: BGC thread created; v0 has no payload. Keywords: GC and Threading
 * (v1); v0 shipped with GC alone, which its EVENT_VERSION_ATTRIBUTES line says. */
KNOWN_EVENT(GCCreateConcurrentThread, 11, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC | GCEventKeyword_Threading)
EVENT_VERSION(GCCreateConcurrentThread, 0)
EVENT_VERSION_ATTRIBUTES(GCCreateConcurrentThread, 0, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCCreateConcurrentThread,   1, uint16_t, ClrInstanceID)

/* GCTerminateConcurrentThread, v0-1: BGC thread exited; v0 has no payload. Keywords: GC and Threading
 * (v1); v0 shipped with GC alone, which its EVENT_VERSION_ATTRIBUTES line says. */
KNOWN_EVENT(GCTerminateConcurrentThread, 12, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC | GCEventKeyword_Threading)
EVENT_VERSION(GCTerminateConcurrentThread, 0)
EVENT_VERSION_ATTRIBUTES(GCTerminateConcurrentThread, 0, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCTerminateConcurrentThread,   1, uint16_t, ClrInstanceID)

/* GCFinalizersEnd, v0-1: the finalizer thread has run Count finalizers. */
KNOWN_EVENT(GCFinalizersEnd, 13, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCFinalizersEnd, 0, uint32_t, Count)
EVENT_FIELD(GCFinalizersEnd, 1, uint16_t, ClrInstanceID)

/* GCFinalizersBegin, v0-1: the finalizer thread starts running finalizers. v0 has no payload. */
KNOWN_EVENT(GCFinalizersBegin, 14, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_VERSION(GCFinalizersBegin, 0)
EVENT_FIELD(GCFinalizersBegin,   1, uint16_t, ClrInstanceID)

/* GCBulkRootEdge, v0: heap dump: the roots of the object graph, in batches numbered by Index. */
KNOWN_EVENT(GCBulkRootEdge, 16, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHeapDump)
EVENT_FIELD(GCBulkRootEdge, 0, uint32_t,            Index)
EVENT_FIELD(GCBulkRootEdge, 0, uint32_t,            Count)
EVENT_FIELD(GCBulkRootEdge, 0, uint16_t,            ClrInstanceID)
EVENT_ARRAY(GCBulkRootEdge, 0, GCBulkRootEdgeValue, Values, Count)

/* GCBulkRootConditionalWeakTableElementEdge, v0: heap dump: ConditionalWeakTable dependent edges. */
KNOWN_EVENT(GCBulkRootConditionalWeakTableElementEdge, 17, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHeapDump)
EVENT_FIELD(GCBulkRootConditionalWeakTableElementEdge, 0, uint32_t,                                       Index)
EVENT_FIELD(GCBulkRootConditionalWeakTableElementEdge, 0, uint32_t,                                       Count)
EVENT_FIELD(GCBulkRootConditionalWeakTableElementEdge, 0, uint16_t,                                       ClrInstanceID)
EVENT_ARRAY(GCBulkRootConditionalWeakTableElementEdge, 0, GCBulkRootConditionalWeakTableElementEdgeValue, Values, Count)

/* GCBulkNode, v0: heap dump: objects (nodes) of the heap graph. */
KNOWN_EVENT(GCBulkNode, 18, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHeapDump)
EVENT_FIELD(GCBulkNode, 0, uint32_t,        Index)
EVENT_FIELD(GCBulkNode, 0, uint32_t,        Count)
EVENT_FIELD(GCBulkNode, 0, uint16_t,        ClrInstanceID)
EVENT_ARRAY(GCBulkNode, 0, GCBulkNodeValue, Values, Count)

/* GCBulkEdge, v0: heap dump: references (edges) of the nodes, in node order. */
KNOWN_EVENT(GCBulkEdge, 19, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHeapDump)
EVENT_FIELD(GCBulkEdge, 0, uint32_t,        Index)
EVENT_FIELD(GCBulkEdge, 0, uint32_t,        Count)
EVENT_FIELD(GCBulkEdge, 0, uint16_t,        ClrInstanceID)
EVENT_ARRAY(GCBulkEdge, 0, GCBulkEdgeValue, Values, Count)

/* GCSampledObjectAllocationHigh, v0: an allocated object, sampled at a high rate. */
KNOWN_EVENT(GCSampledObjectAllocationHigh, 20, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCSampledObjectAllocationHigh)
EVENT_FIELD(GCSampledObjectAllocationHigh, 0, evgen_ptr, Address)
EVENT_FIELD(GCSampledObjectAllocationHigh, 0, evgen_ptr, TypeID)
EVENT_FIELD(GCSampledObjectAllocationHigh, 0, uint32_t,  ObjectCountForTypeSample)
EVENT_FIELD(GCSampledObjectAllocationHigh, 0, uint64_t,  TotalSizeForTypeSample)
EVENT_FIELD(GCSampledObjectAllocationHigh, 0, uint16_t,  ClrInstanceID)

/* GCBulkSurvivingObjectRanges, v0: address ranges that survived a GC, in batches numbered by Index. */
KNOWN_EVENT(GCBulkSurvivingObjectRanges, 21, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHeapSurvivalAndMovement)
EVENT_FIELD(GCBulkSurvivingObjectRanges, 0, uint32_t,                         Index)
EVENT_FIELD(GCBulkSurvivingObjectRanges, 0, uint32_t,                         Count)
EVENT_FIELD(GCBulkSurvivingObjectRanges, 0, uint16_t,                         ClrInstanceID)
EVENT_ARRAY(GCBulkSurvivingObjectRanges, 0, GCBulkSurvivingObjectRangesValue, Values, Count)

/* GCBulkMovedObjectRanges, v0: address ranges a compacting GC moved, in batches numbered by Index. */
KNOWN_EVENT(GCBulkMovedObjectRanges, 22, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHeapSurvivalAndMovement)
EVENT_FIELD(GCBulkMovedObjectRanges, 0, uint32_t,                     Index)
EVENT_FIELD(GCBulkMovedObjectRanges, 0, uint32_t,                     Count)
EVENT_FIELD(GCBulkMovedObjectRanges, 0, uint16_t,                     ClrInstanceID)
EVENT_ARRAY(GCBulkMovedObjectRanges, 0, GCBulkMovedObjectRangesValue, Values, Count)

/* GCGenerationRange, v0: the address range of a generation. */
KNOWN_EVENT(GCGenerationRange, 23, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHeapSurvivalAndMovement)
EVENT_FIELD(GCGenerationRange, 0, uint8_t,   Generation)
EVENT_FIELD(GCGenerationRange, 0, evgen_ptr, RangeStart)
EVENT_FIELD(GCGenerationRange, 0, uint64_t,  RangeUsedLength)
EVENT_FIELD(GCGenerationRange, 0, uint64_t,  RangeReservedLength)
EVENT_FIELD(GCGenerationRange, 0, uint16_t,  ClrInstanceID)

/* GCMarkStackRoots, v0: a heap finished marking stack roots. */
KNOWN_EVENT(GCMarkStackRoots, 25, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCMarkStackRoots, 0, uint32_t, HeapNum)
EVENT_FIELD(GCMarkStackRoots, 0, uint16_t, ClrInstanceID)

/* GCMarkFinalizeQueueRoots, v0: a heap finished marking finalization-queue roots. */
KNOWN_EVENT(GCMarkFinalizeQueueRoots, 26, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCMarkFinalizeQueueRoots, 0, uint32_t, HeapNum)
EVENT_FIELD(GCMarkFinalizeQueueRoots, 0, uint16_t, ClrInstanceID)

/* GCMarkHandles, v0: a heap finished marking handle-table roots. */
KNOWN_EVENT(GCMarkHandles, 27, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCMarkHandles, 0, uint32_t, HeapNum)
EVENT_FIELD(GCMarkHandles, 0, uint16_t, ClrInstanceID)

/* GCMarkOlderGenerationRoots, v0: a heap finished marking older-generation roots. */
KNOWN_EVENT(GCMarkOlderGenerationRoots, 28, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCMarkOlderGenerationRoots, 0, uint32_t, HeapNum)
EVENT_FIELD(GCMarkOlderGenerationRoots, 0, uint16_t, ClrInstanceID)

/* FinalizeObject, v0: the finalizer thread is about to run an object's finalizer. */
KNOWN_EVENT(FinalizeObject, 29, GCEventProvider_Default, GCEventLevel_Verbose, GCEventKeyword_GC)
EVENT_FIELD(FinalizeObject, 0, evgen_ptr, TypeID)
EVENT_FIELD(FinalizeObject, 0, evgen_ptr, ObjectID)
EVENT_FIELD(FinalizeObject, 0, uint16_t,  ClrInstanceID)

/* SetGCHandle, v0: a GC handle was created or set. */
KNOWN_EVENT(SetGCHandle, 30, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHandle)
EVENT_FIELD(SetGCHandle, 0, evgen_ptr,    HandleID)
EVENT_FIELD(SetGCHandle, 0, evgen_ptr,    ObjectID)
EVENT_FIELD(SetGCHandle, 0, GCHandleKind, Kind)
EVENT_FIELD(SetGCHandle, 0, uint32_t,     Generation)
EVENT_FIELD(SetGCHandle, 0, uint64_t,     AppDomainID)
EVENT_FIELD(SetGCHandle, 0, uint16_t,     ClrInstanceID)

/* DestroyGCHandle, v0: a GC handle was destroyed. */
KNOWN_EVENT(DestroyGCHandle, 31, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHandle)
EVENT_FIELD(DestroyGCHandle, 0, evgen_ptr, HandleID)
EVENT_FIELD(DestroyGCHandle, 0, uint16_t,  ClrInstanceID)

/* GCSampledObjectAllocationLow, v0: an allocated object, sampled at a low rate. */
KNOWN_EVENT(GCSampledObjectAllocationLow, 32, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCSampledObjectAllocationLow)
EVENT_FIELD(GCSampledObjectAllocationLow, 0, evgen_ptr, Address)
EVENT_FIELD(GCSampledObjectAllocationLow, 0, evgen_ptr, TypeID)
EVENT_FIELD(GCSampledObjectAllocationLow, 0, uint32_t,  ObjectCountForTypeSample)
EVENT_FIELD(GCSampledObjectAllocationLow, 0, uint64_t,  TotalSizeForTypeSample)
EVENT_FIELD(GCSampledObjectAllocationLow, 0, uint16_t,  ClrInstanceID)

/* PinObjectAtGCTime, v0: an object pinned by a handle during a GC. */
KNOWN_EVENT(PinObjectAtGCTime, 33, GCEventProvider_Default, GCEventLevel_Verbose, GCEventKeyword_GC)
EVENT_FIELD(PinObjectAtGCTime, 0, evgen_ptr,    HandleID)
EVENT_FIELD(PinObjectAtGCTime, 0, evgen_ptr,    ObjectID)
EVENT_FIELD(PinObjectAtGCTime, 0, uint64_t,     ObjectSize)
EVENT_FIELD(PinObjectAtGCTime, 0, evgen_utf16z, TypeName)
EVENT_FIELD(PinObjectAtGCTime, 0, uint16_t,     ClrInstanceID)

/* GCTriggered, v0: why a GC was triggered, on the triggering thread. */
KNOWN_EVENT(GCTriggered, 35, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCTriggered, 0, GCReason, Reason)
EVENT_FIELD(GCTriggered, 0, uint16_t, ClrInstanceID)

/* GCBulkRootCCW, v0: heap dump: COM-callable wrappers that root objects. */
KNOWN_EVENT(GCBulkRootCCW, 36, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHeapDump)
EVENT_FIELD(GCBulkRootCCW, 0, uint32_t,           Count)
EVENT_FIELD(GCBulkRootCCW, 0, uint16_t,           ClrInstanceID)
EVENT_ARRAY(GCBulkRootCCW, 0, GCBulkRootCCWValue, Values, Count)

/* GCBulkRCW, v0: heap dump: runtime-callable wrappers. */
KNOWN_EVENT(GCBulkRCW, 37, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHeapDump)
EVENT_FIELD(GCBulkRCW, 0, uint32_t,       Count)
EVENT_FIELD(GCBulkRCW, 0, uint16_t,       ClrInstanceID)
EVENT_ARRAY(GCBulkRCW, 0, GCBulkRCWValue, Values, Count)

/* GCBulkRootStaticVar, v0: heap dump: static variables that root objects, each named inline. */
KNOWN_EVENT(GCBulkRootStaticVar, 38, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHeapDump)
EVENT_FIELD(GCBulkRootStaticVar, 0, uint32_t,                 Count)
EVENT_FIELD(GCBulkRootStaticVar, 0, uint64_t,                 AppDomainID)
EVENT_FIELD(GCBulkRootStaticVar, 0, uint16_t,                 ClrInstanceID)
EVENT_ARRAY(GCBulkRootStaticVar, 0, GCBulkRootStaticVarValue, Values, Count)

/* GCDynamicEvent, v0: a named GC event with an opaque payload (keywords 0x3f00003). */
KNOWN_EVENT(GCDynamicEvent, 39, GCEventProvider_Default, GCEventLevel_LogAlways, GCEventKeyword_GC | GCEventKeyword_GCHandle | GCEventKeyword_GCHeapDump | GCEventKeyword_GCSampledObjectAllocationHigh | GCEventKeyword_GCHeapSurvivalAndMovement | GCEventKeyword_GCHeapCollect | GCEventKeyword_GCHeapAndTypeNames | GCEventKeyword_GCSampledObjectAllocationLow)
EVENT_FIELD(GCDynamicEvent, 0, evgen_utf16z, Name)
EVENT_FIELD(GCDynamicEvent, 0, uint32_t,     DataSize)
EVENT_ARRAY(GCDynamicEvent, 0, uint8_t,      Data, DataSize)
EVENT_FIELD(GCDynamicEvent, 0, uint16_t,     ClrInstanceID)

/* IncreaseMemoryPressure, v0: GC.AddMemoryPressure reported unmanaged memory allocated. */
KNOWN_EVENT(IncreaseMemoryPressure, 200, GCEventProvider_Default, GCEventLevel_Verbose, GCEventKeyword_GC)
EVENT_FIELD(IncreaseMemoryPressure, 0, uint64_t, BytesAllocated)
EVENT_FIELD(IncreaseMemoryPressure, 0, uint16_t, ClrInstanceID)

/* DecreaseMemoryPressure, v0: GC.RemoveMemoryPressure reported unmanaged memory freed. */
KNOWN_EVENT(DecreaseMemoryPressure, 201, GCEventProvider_Default, GCEventLevel_Verbose, GCEventKeyword_GC)
EVENT_FIELD(DecreaseMemoryPressure, 0, uint64_t, BytesFreed)
EVENT_FIELD(DecreaseMemoryPressure, 0, uint16_t, ClrInstanceID)

/* GCMarkWithType, v0: a heap finished marking one kind of roots, with the bytes they kept alive. */
KNOWN_EVENT(GCMarkWithType, 202, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCMarkWithType, 0, uint32_t,   HeapNum)
EVENT_FIELD(GCMarkWithType, 0, uint16_t,   ClrInstanceID)
EVENT_FIELD(GCMarkWithType, 0, GCRootKind, Type)
EVENT_FIELD(GCMarkWithType, 0, uint64_t,   Bytes)

/* GCJoin, v2 only: a server-GC thread join (v0-1 are the private PrvGCJoin). */
KNOWN_EVENT(GCJoin, 203, GCEventProvider_Default, GCEventLevel_Verbose, GCEventKeyword_GC)
EVENT_FIELD(GCJoin, 2, uint32_t,   Heap)
EVENT_FIELD(GCJoin, 2, GCJoinTime, JoinTime)
EVENT_FIELD(GCJoin, 2, GCJoinType, JoinType)
EVENT_FIELD(GCJoin, 2, uint16_t,   ClrInstanceID)
EVENT_FIELD(GCJoin, 2, uint32_t,   JoinID)

/* GCPerHeapHistory, v3 only: per-heap statistics of a GC, one Values element per generation. */
KNOWN_EVENT(GCPerHeapHistory, 204, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCPerHeapHistory, 3, uint16_t,                ClrInstanceID)
EVENT_FIELD(GCPerHeapHistory, 3, evgen_ptr,               FreeListAllocated)
EVENT_FIELD(GCPerHeapHistory, 3, evgen_ptr,               FreeListRejected)
EVENT_FIELD(GCPerHeapHistory, 3, evgen_ptr,               EndOfSegAllocated)
EVENT_FIELD(GCPerHeapHistory, 3, evgen_ptr,               CondemnedAllocated)
EVENT_FIELD(GCPerHeapHistory, 3, evgen_ptr,               PinnedAllocated)
EVENT_FIELD(GCPerHeapHistory, 3, evgen_ptr,               PinnedAllocatedAdvance)
EVENT_FIELD(GCPerHeapHistory, 3, uint32_t,                RunningFreeListEfficiency)
EVENT_FIELD(GCPerHeapHistory, 3, uint32_t,                CondemnReasons0)
EVENT_FIELD(GCPerHeapHistory, 3, uint32_t,                CondemnReasons1)
EVENT_FIELD(GCPerHeapHistory, 3, uint32_t,                CompactMechanisms)
EVENT_FIELD(GCPerHeapHistory, 3, uint32_t,                ExpandMechanisms)
EVENT_FIELD(GCPerHeapHistory, 3, uint32_t,                HeapIndex)
EVENT_FIELD(GCPerHeapHistory, 3, evgen_ptr,               ExtraGen0Commit)
EVENT_FIELD(GCPerHeapHistory, 3, uint32_t,                Count)
EVENT_ARRAY(GCPerHeapHistory, 3, GCPerHeapHistoryGenData, Values, Count)

/* GCGlobalHeapHistory, v2-4: global statistics of a GC (v0-1 are PrvGCGlobalHeapHistory). */
KNOWN_EVENT(GCGlobalHeapHistory, 205, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCGlobalHeapHistory, 2, uint64_t,                FinalYoungestDesired)
EVENT_FIELD(GCGlobalHeapHistory, 2, int32_t,                 NumHeaps)
EVENT_FIELD(GCGlobalHeapHistory, 2, uint32_t,                CondemnedGeneration)
EVENT_FIELD(GCGlobalHeapHistory, 2, uint32_t,                Gen0ReductionCount)
EVENT_FIELD(GCGlobalHeapHistory, 2, GCReason,                Reason)
EVENT_FIELD(GCGlobalHeapHistory, 2, uint32_t,                GlobalMechanisms)
EVENT_FIELD(GCGlobalHeapHistory, 2, uint16_t,                ClrInstanceID)
EVENT_FIELD(GCGlobalHeapHistory, 2, GCPauseMode,             PauseMode)
EVENT_FIELD(GCGlobalHeapHistory, 2, uint32_t,                MemoryPressure)
EVENT_FIELD(GCGlobalHeapHistory, 3, uint32_t,                CondemnReasons0)
EVENT_FIELD(GCGlobalHeapHistory, 3, uint32_t,                CondemnReasons1)
EVENT_FIELD(GCGlobalHeapHistory, 4, uint32_t,                Count)
EVENT_ARRAY(GCGlobalHeapHistory, 4, GCGlobalHeapHistoryTime, Values, Count)

/* GenAwareBegin, v0: a generation-aware heap analysis (a dump of gen Count) begins. */
KNOWN_EVENT(GenAwareBegin, 206, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHeapDump)
EVENT_FIELD(GenAwareBegin, 0, uint32_t, Count)
EVENT_FIELD(GenAwareBegin, 0, uint16_t, ClrInstanceID)

/* GenAwareEnd, v0: the generation-aware heap analysis ends. */
KNOWN_EVENT(GenAwareEnd, 207, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GCHeapDump)
EVENT_FIELD(GenAwareEnd, 0, uint32_t, Count)
EVENT_FIELD(GenAwareEnd, 0, uint16_t, ClrInstanceID)

/* GCLOHCompact, v0: per-heap timings of a large-object-heap compaction. */
KNOWN_EVENT(GCLOHCompact, 208, GCEventProvider_Default, GCEventLevel_Information, GCEventKeyword_GC)
EVENT_FIELD(GCLOHCompact, 0, uint16_t,         ClrInstanceID)
EVENT_FIELD(GCLOHCompact, 0, uint16_t,         Count)
EVENT_ARRAY(GCLOHCompact, 0, GCLOHCompactInfo, Values, Count)

/* GCFitBucketInfo, v0: free-space fit statistics per size bucket. */
KNOWN_EVENT(GCFitBucketInfo, 209, GCEventProvider_Default, GCEventLevel_Verbose, GCEventKeyword_GC)
EVENT_FIELD(GCFitBucketInfo, 0, uint16_t,             ClrInstanceID)
EVENT_FIELD(GCFitBucketInfo, 0, uint16_t,             BucketKind)
EVENT_FIELD(GCFitBucketInfo, 0, uint64_t,             TotalSize)
EVENT_FIELD(GCFitBucketInfo, 0, uint16_t,             Count)
EVENT_ARRAY(GCFitBucketInfo, 0, GCFitBucketInfoValue, Values, Count)

/* ---- Microsoft-Windows-DotNETRuntimePrivate ---- */

/* GCDecision, v0-1: whether the GC decided to compact. */
KNOWN_EVENT(GCDecision, 1, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(GCDecision, 0, evgen_bool32, DoCompact)
EVENT_FIELD(GCDecision, 1, uint16_t,     ClrInstanceID)

/* GCSettings, v0-1: the GC's segment sizes and flavour, at startup. */
KNOWN_EVENT(GCSettings, 2, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(GCSettings, 0, uint64_t,     SegmentSize)
EVENT_FIELD(GCSettings, 0, uint64_t,     LargeObjectSegmentSize)
EVENT_FIELD(GCSettings, 0, evgen_bool32, ServerGC)
EVENT_FIELD(GCSettings, 1, uint16_t,     ClrInstanceID)

/* GCOptimized, v0-1: a generation's allocation budget was tuned. */
KNOWN_EVENT(GCOptimized, 3, GCEventProvider_Private, GCEventLevel_Verbose, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(GCOptimized, 0, uint64_t, DesiredAllocation)
EVENT_FIELD(GCOptimized, 0, uint64_t, NewAllocation)
EVENT_FIELD(GCOptimized, 0, uint32_t, GenerationNumber)
EVENT_FIELD(GCOptimized, 1, uint16_t, ClrInstanceID)

/* PrvGCPerHeapHistory, v1-2: private GCPerHeapHistory (public id 204 continues at v3); ClrEtwAll.man
 * has no version 0. Version 2 (template GCPerHeapHistory) has no payload: it dropped version 1's
 * ClrInstanceID, so version 1 is a legacy layout and ClrInstanceID a legacy-only field (no
 * EVENT_FIELD: no version after 1 holds it). */
KNOWN_EVENT(PrvGCPerHeapHistory, 4, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_LEGACY_FIELD(PrvGCPerHeapHistory, 1, uint16_t, ClrInstanceID)
EVENT_VERSION(PrvGCPerHeapHistory, 2)

/* PrvGCGlobalHeapHistory, v0-1: private GCGlobalHeapHistory (public id 205 continues at v2). */
KNOWN_EVENT(PrvGCGlobalHeapHistory, 5, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(PrvGCGlobalHeapHistory, 0, uint64_t, FinalYoungestDesired)
EVENT_FIELD(PrvGCGlobalHeapHistory, 0, int32_t,  NumHeaps)
EVENT_FIELD(PrvGCGlobalHeapHistory, 0, uint32_t, CondemnedGeneration)
EVENT_FIELD(PrvGCGlobalHeapHistory, 0, uint32_t, Gen0ReductionCount)
EVENT_FIELD(PrvGCGlobalHeapHistory, 0, GCReason, Reason)
EVENT_FIELD(PrvGCGlobalHeapHistory, 0, uint32_t, GlobalMechanisms)
EVENT_FIELD(PrvGCGlobalHeapHistory, 1, uint16_t, ClrInstanceID)

/* PrvGCJoin, v0-1: private GCJoin (public id 203 continues at v2). */
KNOWN_EVENT(PrvGCJoin, 6, GCEventProvider_Private, GCEventLevel_Verbose, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(PrvGCJoin, 0, uint32_t,   Heap)
EVENT_FIELD(PrvGCJoin, 0, GCJoinTime, JoinTime)
EVENT_FIELD(PrvGCJoin, 0, GCJoinType, JoinType)
EVENT_FIELD(PrvGCJoin, 1, uint16_t,   ClrInstanceID)

/* PrvGCMarkStackRoots, v0-1: a heap finished marking stack roots (private twin of GCMarkStackRoots). */
KNOWN_EVENT(PrvGCMarkStackRoots, 7, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(PrvGCMarkStackRoots, 0, uint32_t, HeapNum)
EVENT_FIELD(PrvGCMarkStackRoots, 1, uint16_t, ClrInstanceID)

/* PrvGCMarkFinalizeQueueRoots, v0-1: a heap finished marking finalization-queue roots (private twin of GCMarkFinalizeQueueRoots). */
KNOWN_EVENT(PrvGCMarkFinalizeQueueRoots, 8, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(PrvGCMarkFinalizeQueueRoots, 0, uint32_t, HeapNum)
EVENT_FIELD(PrvGCMarkFinalizeQueueRoots, 1, uint16_t, ClrInstanceID)

/* PrvGCMarkHandles, v0-1: a heap finished marking handle roots (private twin of GCMarkHandles). */
KNOWN_EVENT(PrvGCMarkHandles, 9, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(PrvGCMarkHandles, 0, uint32_t, HeapNum)
EVENT_FIELD(PrvGCMarkHandles, 1, uint16_t, ClrInstanceID)

/* PrvGCMarkCards, v0-1: a heap finished marking card (older-generation) roots (private twin of GCMarkOlderGenerationRoots). */
KNOWN_EVENT(PrvGCMarkCards, 10, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(PrvGCMarkCards, 0, uint32_t, HeapNum)
EVENT_FIELD(PrvGCMarkCards, 1, uint16_t, ClrInstanceID)

/* BGCBegin, v0: background GC phase marker, the BGC begins. */
KNOWN_EVENT(BGCBegin, 11, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGCBegin, 0, uint16_t, ClrInstanceID)

/* BGC1stNonConEnd, v0: background GC phase marker, end of the first non-concurrent phase. */
KNOWN_EVENT(BGC1stNonConEnd, 12, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGC1stNonConEnd, 0, uint16_t, ClrInstanceID)

/* BGC1stConEnd, v0: background GC phase marker, end of the first concurrent phase. */
KNOWN_EVENT(BGC1stConEnd, 13, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGC1stConEnd, 0, uint16_t, ClrInstanceID)

/* BGC2ndNonConBegin, v0: background GC phase marker, start of the second non-concurrent phase. */
KNOWN_EVENT(BGC2ndNonConBegin, 14, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGC2ndNonConBegin, 0, uint16_t, ClrInstanceID)

/* BGC2ndNonConEnd, v0: background GC phase marker, end of the second non-concurrent phase. */
KNOWN_EVENT(BGC2ndNonConEnd, 15, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGC2ndNonConEnd, 0, uint16_t, ClrInstanceID)

/* BGC2ndConBegin, v0: background GC phase marker, start of the second concurrent phase. */
KNOWN_EVENT(BGC2ndConBegin, 16, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGC2ndConBegin, 0, uint16_t, ClrInstanceID)

/* BGC2ndConEnd, v0: background GC phase marker, end of the second concurrent phase. */
KNOWN_EVENT(BGC2ndConEnd, 17, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGC2ndConEnd, 0, uint16_t, ClrInstanceID)

/* BGCPlanEnd, v0: background GC phase marker, end of planning. */
KNOWN_EVENT(BGCPlanEnd, 18, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGCPlanEnd, 0, uint16_t, ClrInstanceID)

/* BGCSweepEnd, v0: background GC phase marker, end of sweeping. */
KNOWN_EVENT(BGCSweepEnd, 19, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGCSweepEnd, 0, uint16_t, ClrInstanceID)

/* BGCDrainMark, v0: the BGC drained its mark list. */
KNOWN_EVENT(BGCDrainMark, 20, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGCDrainMark, 0, uint64_t, Objects)
EVENT_FIELD(BGCDrainMark, 0, uint16_t, ClrInstanceID)

/* BGCRevisit, v0: the BGC revisited pages written during concurrent marking. */
KNOWN_EVENT(BGCRevisit, 21, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGCRevisit, 0, uint64_t, Pages)
EVENT_FIELD(BGCRevisit, 0, uint64_t, Objects)
EVENT_FIELD(BGCRevisit, 0, uint32_t, IsLarge)
EVENT_FIELD(BGCRevisit, 0, uint16_t, ClrInstanceID)

/* BGCOverflow, v0-1: the BGC mark stack overflowed over [Min, Max). */
KNOWN_EVENT(BGCOverflow, 22, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGCOverflow, 0, uint64_t, Min)
EVENT_FIELD(BGCOverflow, 0, uint64_t, Max)
EVENT_FIELD(BGCOverflow, 0, uint64_t, Objects)
EVENT_FIELD(BGCOverflow, 0, uint32_t, IsLarge)
EVENT_FIELD(BGCOverflow, 0, uint16_t, ClrInstanceID)
EVENT_FIELD(BGCOverflow, 1, uint32_t, GenNumber)

/* BGCAllocWaitBegin, v0: an allocation starts waiting for the BGC. */
KNOWN_EVENT(BGCAllocWaitBegin, 23, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGCAllocWaitBegin, 0, uint32_t, Reason)
EVENT_FIELD(BGCAllocWaitBegin, 0, uint16_t, ClrInstanceID)

/* BGCAllocWaitEnd, v0: the allocation stops waiting for the BGC. */
KNOWN_EVENT(BGCAllocWaitEnd, 24, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGCAllocWaitEnd, 0, uint32_t, Reason)
EVENT_FIELD(BGCAllocWaitEnd, 0, uint16_t, ClrInstanceID)

/* GCFullNotify, v0-1: a full-GC notification (GC.RegisterForFullGCNotification) was raised. */
KNOWN_EVENT(GCFullNotify, 25, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(GCFullNotify, 0, uint32_t, GenNumber)
EVENT_FIELD(GCFullNotify, 0, uint32_t, IsAlloc)
EVENT_FIELD(GCFullNotify, 1, uint16_t, ClrInstanceID)

/* BGC1stSweepEnd, v0: end of the BGC's first sweep. */
KNOWN_EVENT(BGC1stSweepEnd, 26, GCEventProvider_Private, GCEventLevel_Information, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(BGC1stSweepEnd, 0, uint32_t, GenNumber)
EVENT_FIELD(BGC1stSweepEnd, 0, uint16_t, ClrInstanceID)

/* PrvFinalizeObject, v0: private FinalizeObject, with the type's name. */
KNOWN_EVENT(PrvFinalizeObject, 192, GCEventProvider_Private, GCEventLevel_Verbose, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(PrvFinalizeObject, 0, evgen_ptr,    TypeID)
EVENT_FIELD(PrvFinalizeObject, 0, evgen_ptr,    ObjectID)
EVENT_FIELD(PrvFinalizeObject, 0, uint16_t,     ClrInstanceID)
EVENT_FIELD(PrvFinalizeObject, 0, evgen_utf16z, TypeName)

/* CCWRefCountChangeAnsi, v0: a COM-callable wrapper's reference count changed (8-bit names). */
KNOWN_EVENT(CCWRefCountChangeAnsi, 193, GCEventProvider_Private, GCEventLevel_Verbose, GCPrivateEventKeyword_InteropPrivate)
EVENT_FIELD(CCWRefCountChangeAnsi, 0, evgen_ptr,    HandleID)
EVENT_FIELD(CCWRefCountChangeAnsi, 0, evgen_ptr,    ObjectID)
EVENT_FIELD(CCWRefCountChangeAnsi, 0, evgen_ptr,    COMInterfacePointer)
EVENT_FIELD(CCWRefCountChangeAnsi, 0, uint32_t,     NewRefCount)
EVENT_FIELD(CCWRefCountChangeAnsi, 0, uint64_t,     AppDomainID)
EVENT_FIELD(CCWRefCountChangeAnsi, 0, evgen_utf8z,  ClassName)
EVENT_FIELD(CCWRefCountChangeAnsi, 0, evgen_utf8z,  NameSpace)
EVENT_FIELD(CCWRefCountChangeAnsi, 0, evgen_utf16z, Operation)
EVENT_FIELD(CCWRefCountChangeAnsi, 0, uint16_t,     ClrInstanceID)

/* PrvSetGCHandle, v0: private SetGCHandle. */
KNOWN_EVENT(PrvSetGCHandle, 194, GCEventProvider_Private, GCEventLevel_Verbose, GCPrivateEventKeyword_GCHandlePrivate)
EVENT_FIELD(PrvSetGCHandle, 0, evgen_ptr,    HandleID)
EVENT_FIELD(PrvSetGCHandle, 0, evgen_ptr,    ObjectID)
EVENT_FIELD(PrvSetGCHandle, 0, GCHandleKind, Kind)
EVENT_FIELD(PrvSetGCHandle, 0, uint32_t,     Generation)
EVENT_FIELD(PrvSetGCHandle, 0, uint64_t,     AppDomainID)
EVENT_FIELD(PrvSetGCHandle, 0, uint16_t,     ClrInstanceID)

/* PrvDestroyGCHandle, v0: private DestroyGCHandle. */
KNOWN_EVENT(PrvDestroyGCHandle, 195, GCEventProvider_Private, GCEventLevel_Verbose, GCPrivateEventKeyword_GCHandlePrivate)
EVENT_FIELD(PrvDestroyGCHandle, 0, evgen_ptr, HandleID)
EVENT_FIELD(PrvDestroyGCHandle, 0, uint16_t,  ClrInstanceID)

/* PinPlugAtGCTime, v0: a plug pinned during a compacting GC. */
KNOWN_EVENT(PinPlugAtGCTime, 199, GCEventProvider_Private, GCEventLevel_Verbose, GCPrivateEventKeyword_GCPrivate)
EVENT_FIELD(PinPlugAtGCTime, 0, evgen_ptr, PlugStart)
EVENT_FIELD(PinPlugAtGCTime, 0, evgen_ptr, PlugEnd)
EVENT_FIELD(PinPlugAtGCTime, 0, evgen_ptr, GapBeforeSize)
EVENT_FIELD(PinPlugAtGCTime, 0, uint16_t,  ClrInstanceID)

/* CCWRefCountChange, v0: a COM-callable wrapper's reference count changed. */
KNOWN_EVENT(CCWRefCountChange, 200, GCEventProvider_Private, GCEventLevel_Verbose, GCPrivateEventKeyword_InteropPrivate)
EVENT_FIELD(CCWRefCountChange, 0, evgen_ptr,    HandleID)
EVENT_FIELD(CCWRefCountChange, 0, evgen_ptr,    ObjectID)
EVENT_FIELD(CCWRefCountChange, 0, evgen_ptr,    COMInterfacePointer)
EVENT_FIELD(CCWRefCountChange, 0, uint32_t,     NewRefCount)
EVENT_FIELD(CCWRefCountChange, 0, uint64_t,     AppDomainID)
EVENT_FIELD(CCWRefCountChange, 0, evgen_utf16z, ClassName)
EVENT_FIELD(CCWRefCountChange, 0, evgen_utf16z, NameSpace)
EVENT_FIELD(CCWRefCountChange, 0, evgen_utf16z, Operation)
EVENT_FIELD(CCWRefCountChange, 0, uint16_t,     ClrInstanceID)

#include <evgen/manifest_end.h>
