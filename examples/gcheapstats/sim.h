/* sim.h — the simulated garbage collector's state, shared by its allocator (sim_alloc.c), its
 * collector (sim_gc.c) and its driver (simulate.c). */
#ifndef SIM_H
#define SIM_H

#include <stdint.h>

#include "worker.h"

enum { SIM_GEN0, SIM_GEN1, SIM_GEN2, SIM_LOH, SIM_POH, SIM_HEAPS };

enum {
    SIM_GEN0_BUDGET = 6u << 20,           /* bytes of gen0 allocation that trigger a GC */
    SIM_TICK_BYTES = 100u * 1024,         /* a GCAllocationTick every 100 KB, per SOH and per UOH */
    SIM_BGC_CONCURRENT_BYTES = 15u << 20, /* allocation during a background GC's concurrent phases */
    SIM_CLR_INSTANCE = 1
};

typedef struct sim {
    uint64_t gen[SIM_HEAPS];      /* sizes in bytes */
    uint64_t promoted[SIM_HEAPS]; /* bytes that survived the last GC, per generation collected */
    uint64_t tick_amount[2];      /* allocated since the last tick: [0] SOH, [1] UOH (LOH and POH) */
    uint32_t gc_count;            /* GCs started: the last GCStart's Count */
    uint32_t client_sequence;     /* GCs induced by the tracing client (GCStart.ClientSequenceNumber) */
    uint64_t rng;
    int all_events;               /* also suspensions, restarts and GCGlobalHeapHistory */
    int verbose;                  /* print each GC's figures */

    /* the background GC in progress */
    int bgc_active;
    uint32_t bgc_number;
    uint64_t bgc_allocated;       /* bytes allocated since it started */
    uint64_t bgc_gen2_dead;       /* gen2 garbage its marking found, swept at its end */
    worker *bgc_thread;           /* CoreCLR's BGC thread, started at the first background GC */
} sim;

uint64_t sim_random(sim *s);

/* sim_alloc.c: allocates one object of a random type, firing the allocation tick it crosses;
 * returns the bytes added to gen0 (0 for the LOH and the POH). */
uint64_t sim_allocate(sim *s);

/* sim_gc.c: a GC triggered by a full gen0 budget: gen0, gen1, a blocking gen2, the start of a
 * background gen2, or a foreground GC while one runs. */
void sim_collect(sim *s);
/* Ends the background GC in progress (its final pause, sweep, GCEnd and GCHeapStats). */
void sim_finish_background(sim *s);

#endif /* SIM_H */
