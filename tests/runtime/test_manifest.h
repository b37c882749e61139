/* test_manifest.h — a hand-written manifest descriptor for the runtime tests, and FireEtw-style
 * emit functions written exactly as generated code uses runtime_emit.h. */
#ifndef EVGEN_TEST_MANIFEST_H
#define EVGEN_TEST_MANIFEST_H

#include <stdint.h>

#include "evgen/runtime_desc.h"
#include "evgen/runtime_emit.h"

/* "testevents": providers "Test-Provider" (0) and "Other-Provider" (1).
 *   event 0 HeapStats id 4, level 4, keywords 0x1: v1 (94 bytes), v2 (110 bytes) — types 0, 1
 *   event 1 Message   id 10, level 5, keywords 0x2: v0 variable (u32 Seq, utf16z Text, u16 Count,
 *                     u32 Values[Count], u16 NSpans, Span Spans[NSpans]) — type 2
 *   event 2 Tick      id 11, level 4, keywords 0x4: v0 (u32 Thread, u64 Seq), 12 bytes — type 3
 *   event 3 Marker    id 1, Other-Provider, level 0, keywords 0: v0 (u64 Seq, i32 Reason enum) — type 4 */
extern evgen_manifest_desc testevents_manifest;
extern uint8_t testevents_enabled[4];

/* "lateevents": provider "Late-Provider"; event 0 Late id 1, level 4, no keywords: v0 (u64 Value,
 * ptr Where), registered by a test while a session is open. */
extern evgen_manifest_desc lateevents_manifest;
extern uint8_t lateevents_enabled[1];

typedef struct test_span {
    uint64_t start;
    uint32_t len;
} test_span;

enum { TEST_HEAPSTATS_V1_SIZE = 94, TEST_HEAPSTATS_V2_SIZE = 110, TEST_TICK_SIZE = 12, TEST_MARKER_SIZE = 12 };

/* The sessions recording the event (its enabled byte), as generated FireEtw functions load it. */
static inline uint32_t test_enabled(unsigned event)
{
    return __atomic_load_n(&testevents_enabled[event], __ATOMIC_RELAXED);
}

/* HeapStats v2: the ten u64 sizes and counts, three u32 counts, ClrInstanceID, then v2's two u64. */
static inline uint32_t fire_heapstats_v2(const uint64_t v[10], const uint32_t c[3], uint16_t clr, uint64_t gen4,
                                         uint64_t promoted4)
{
    const uint8_t *sessions = &testevents_enabled[0];
    if (!test_enabled(0))
        return EVGEN_EMIT_DISABLED;
    evgen_emit em;
    uint8_t *p = evgen_emit_begin(&em, &testevents_manifest, 1, 0, TEST_HEAPSTATS_V2_SIZE, sessions);
    if (!p)
        return em.status;
    for (int i = 0; i < 10; i++)
        p = evgen_put_u64(p, v[i]);
    for (int i = 0; i < 3; i++)
        p = evgen_put_u32(p, c[i]);
    p = evgen_put_u16(p, clr);
    p = evgen_put_u64(p, gen4);
    p = evgen_put_u64(p, promoted4);
    return evgen_emit_commit(&em, p);
}

static inline uint32_t fire_message(uint32_t seq, const uint16_t *text, uint16_t count, const uint32_t *values,
                                    uint16_t n_spans, const test_span *spans)
{
    const uint8_t *sessions = &testevents_enabled[1];
    if (!test_enabled(1))
        return EVGEN_EMIT_DISABLED;
    size_t size_text = evgen_utf16z_size(text);
    size_t size_values = (size_t)count * 4;
    size_t size_spans = (size_t)n_spans * sizeof(test_span);
    uint64_t payload = 4 + (uint64_t)size_text + 2 + size_values + 2 + size_spans;
    evgen_emit em;
    uint8_t *p = evgen_emit_begin(&em, &testevents_manifest, 2, 1, payload > UINT32_MAX ? UINT32_MAX : (uint32_t)payload, sessions);
    if (!p)
        return em.status;
    p = evgen_put_u32(p, seq);
    p = evgen_put_utf16z(p, text, size_text);
    p = evgen_put_u16(p, count);
    p = evgen_put_bytes(p, values, size_values);
    p = evgen_put_u16(p, n_spans);
    p = evgen_put_bytes(p, spans, size_spans);
    return evgen_emit_commit(&em, p);
}

static inline uint32_t fire_tick(uint32_t thread, uint64_t seq)
{
    const uint8_t *sessions = &testevents_enabled[2];
    if (!test_enabled(2))
        return EVGEN_EMIT_DISABLED;
    evgen_emit em;
    uint8_t *p = evgen_emit_begin(&em, &testevents_manifest, 3, 0, TEST_TICK_SIZE, sessions);
    if (!p)
        return em.status;
    p = evgen_put_u32(p, thread);
    p = evgen_put_u64(p, seq);
    return evgen_emit_commit(&em, p);
}

static inline uint32_t fire_marker(uint64_t seq, int32_t reason)
{
    const uint8_t *sessions = &testevents_enabled[3];
    if (!test_enabled(3))
        return EVGEN_EMIT_DISABLED;
    evgen_emit em;
    uint8_t *p = evgen_emit_begin(&em, &testevents_manifest, 4, 0, TEST_MARKER_SIZE, sessions);
    if (!p)
        return em.status;
    p = evgen_put_u64(p, seq);
    p = evgen_put_i32(p, reason);
    return evgen_emit_commit(&em, p);
}

static inline uint32_t fire_late(uint64_t value, const void *where)
{
    const uint8_t *sessions = &lateevents_enabled[0];
    if (!__atomic_load_n(sessions, __ATOMIC_RELAXED))
        return EVGEN_EMIT_DISABLED;
    evgen_emit em;
    uint8_t *p = evgen_emit_begin(&em, &lateevents_manifest, 0, 0, (uint32_t)(8 + sizeof(void *)), sessions);
    if (!p)
        return em.status;
    p = evgen_put_u64(p, value);
    p = evgen_put_ptr(p, where);
    return evgen_emit_commit(&em, p);
}

#endif /* EVGEN_TEST_MANIFEST_H */
