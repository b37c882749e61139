/* edge_trace.c — writes a hand-made .nettrace (tests/support/nettrace_writer.h) of CoreCLR GC events
 * at the edges of the perfetto export's GC and pause rules, for check_perfetto.py to export and
 * check (its function check_edge says what each step must give): a background GC started on one
 * thread and restarted by another whose thread id does not fit 32 bits; a foreground GC inside it
 * with its GCStart fired twice; a foreground GC whose GCEnd is lost; an orphan GCEnd; a GC whose
 * GCEnd is lost before the next GCStart; 4-byte pointers; a pause, a GC and a restart still open
 * when the trace ends. Timestamps are nanoseconds (QPC frequency 1 GHz from 0).
 * usage: edge_trace TRACE */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace_writer.h"

#define RUNTIME "Microsoft-Windows-DotNETRuntime"
#define T1 100u
#define T2 0x100000005ull /* beyond 32 bits: a synthetic tid */

enum { GC_START = 1, GC_END, SUSPEND_BEGIN, SUSPEND_END, RESTART_BEGIN, RESTART_END, ALLOC_TICK };

typedef struct payload {
    uint8_t b[128];
    uint32_t n;
} payload;

static void put(payload *p, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        p->b[p->n++] = (uint8_t)(v >> (8 * i));
}

static uint32_t sequence[2];

static void event(nt_writer *w, uint32_t metadata_id, uint64_t thread, uint64_t ns, const payload *p)
{
    nt_event e;
    memset(&e, 0, sizeof e);
    e.metadata_id = metadata_id;
    e.sequence = ++sequence[thread == T1 ? 0 : 1];
    e.thread_id = thread;
    e.capture_thread_id = thread;
    e.timestamp = ns;
    e.payload = p ? p->b : NULL;
    e.payload_size = p ? p->n : 0;
    nt_write_event(w, &e);
}

/* GCStart v2: Count, Depth, Reason, Type, ClrInstanceID, ClientSequenceNumber. */
static void gc_start(nt_writer *w, uint64_t thread, uint64_t ns, uint32_t count, uint32_t depth, uint32_t type)
{
    payload p = {{0}, 0};
    put(&p, count, 4);
    put(&p, depth, 4);
    put(&p, 0, 4);
    put(&p, type, 4);
    put(&p, 1, 2);
    put(&p, 0, 8);
    event(w, GC_START, thread, ns, &p);
}

/* GCEnd v1: Count, Depth, ClrInstanceID. */
static void gc_end(nt_writer *w, uint64_t thread, uint64_t ns, uint32_t count)
{
    payload p = {{0}, 0};
    put(&p, count, 4);
    put(&p, 0, 4);
    put(&p, 1, 2);
    event(w, GC_END, thread, ns, &p);
}

/* GCSuspendEEBegin v1: Reason, Count, ClrInstanceID. */
static void suspend_begin(nt_writer *w, uint64_t thread, uint64_t ns)
{
    payload p = {{0}, 0};
    put(&p, 1, 4); /* SuspendForGC */
    put(&p, 0, 4);
    put(&p, 1, 2);
    event(w, SUSPEND_BEGIN, thread, ns, &p);
}

/* The events of one id with ClrInstanceID alone (v1 of the suspend and restart ends, restart begin). */
static void plain(nt_writer *w, uint32_t metadata_id, uint64_t thread, uint64_t ns)
{
    payload p = {{0}, 0};
    put(&p, 1, 2);
    event(w, metadata_id, thread, ns, &p);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s TRACE\n", argv[0]);
        return 2;
    }
    nt_writer *w = nt_writer_new(4, 0, 4, 0, 1000000000u, 4242, 2);
    /* Runtime events carry no field descriptions: the reader binds them to gcevents.h by id. */
    nt_metadata(w, GC_START, RUNTIME, 1, "", 1, 2, 4, NULL, 0);
    nt_metadata(w, GC_END, RUNTIME, 2, "", 1, 1, 4, NULL, 0);
    nt_metadata(w, SUSPEND_BEGIN, RUNTIME, 9, "", 1, 1, 4, NULL, 0);
    nt_metadata(w, SUSPEND_END, RUNTIME, 8, "", 1, 1, 4, NULL, 0);
    nt_metadata(w, RESTART_BEGIN, RUNTIME, 7, "", 1, 1, 4, NULL, 0);
    nt_metadata(w, RESTART_END, RUNTIME, 3, "", 1, 1, 4, NULL, 0);
    nt_metadata(w, ALLOC_TICK, RUNTIME, 10, "", 1, 3, 5, NULL, 0);

    /* A background GC: T1 suspends and starts it, T2 (its GC thread) restarts the runtime. */
    suspend_begin(w, T1, 1000);
    plain(w, SUSPEND_END, T1, 1100);
    gc_start(w, T1, 1200, 1, 2, 1);
    plain(w, RESTART_BEGIN, T2, 1300);
    plain(w, RESTART_END, T2, 1400);
    /* A foreground GC inside it, its GCStart fired twice. */
    suspend_begin(w, T1, 2000);
    plain(w, SUSPEND_END, T1, 2100);
    gc_start(w, T1, 2200, 2, 0, 2);
    gc_start(w, T1, 2250, 2, 0, 2);
    gc_end(w, T1, 2300, 2);
    plain(w, RESTART_BEGIN, T1, 2400);
    plain(w, RESTART_END, T1, 2500);
    /* A foreground GC whose GCEnd is lost: the background GC's GCEnd closes it. */
    gc_start(w, T1, 3000, 3, 0, 2);
    gc_end(w, T2, 4000, 1);
    /* A GCEnd whose GCStart is not in the trace. */
    gc_end(w, T1, 4100, 9);
    /* A blocking GC whose GCEnd is lost: the next GCStart closes it. */
    gc_start(w, T1, 5000, 4, 1, 0);
    gc_start(w, T1, 5100, 5, 0, 0);
    /* An allocation tick with 4-byte pointers (v3: amount, kind, instance, amount64, TypeID,
     * TypeName, HeapIndex, Address). */
    payload tick = {{0}, 0};
    put(&tick, 100000, 4);
    put(&tick, 1, 4); /* Large */
    put(&tick, 1, 2);
    put(&tick, 100000, 8);
    put(&tick, 0x12345678u, 4);
    put(&tick, 'F', 2);
    put(&tick, 'o', 2);
    put(&tick, 'o', 2);
    put(&tick, 0, 2);
    put(&tick, 0, 4);
    put(&tick, 0x9abcdef0u, 4);
    event(w, ALLOC_TICK, T1, 5200, &tick);
    /* Still open when the trace ends: T1's pause and suspension, GC #5, T2's restart. */
    suspend_begin(w, T1, 6000);
    plain(w, RESTART_BEGIN, T2, 7000);

    size_t size;
    uint8_t *data = nt_writer_finish(w, &size);
    int rc = nt_write_file(argv[1], data, size);
    if (rc != 0)
        perror(argv[1]);
    free(data);
    return rc != 0;
}
