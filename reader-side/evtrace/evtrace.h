/* evtrace.h — the .evtrace format in the reader (docs/format.md): the type table, the index of
 * good blocks chained per (thread, stream) that the one scan at open builds, and the cursors that
 * iterate it in file or time order. Its state hangs from evgen_reader.format. Not installed. */
#ifndef EVGEN_READER_EVTRACE_H
#define EVGEN_READER_EVTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "evgen/wire_format.h"
#include "format.h"

/* A trace type number's meaning; `version` NULL: not defined (yet). */
typedef struct rd_type {
    const rd_version *version;
    uint32_t fixed_size; /* when the version is fixed-size */
    uint8_t variable;
} rd_type;

typedef struct rd_block {
    uint64_t payload;     /* file offset of the payload */
    uint32_t size;        /* payload bytes */
    uint32_t count;       /* records */
    uint64_t base_ticks;
    size_t thread;        /* index into rd->threads */
    size_t chain;         /* index into et->chains */
    size_t next;          /* the chain's next good events block, or RD_NONE */
} rd_block;

/* The good events blocks of one (thread, stream), in file order: one base_ticks/delta chain whose
 * records are in emit order, so in time order (what the time-order merge needs; the blocks of one
 * thread id are not, once a signal handler emits into a nested stream). */
typedef struct rd_chain {
    size_t thread;  /* index into rd->threads */
    uint32_t stream;
    size_t first_block, last_block;
    size_t next_of_thread; /* the thread's next chain, or RD_NONE */
} rd_chain;

typedef struct rd_thread {
    size_t first_chain; /* RD_NONE: none; then rd_chain.next_of_thread */
} rd_thread;

/* A position in a sequence of blocks: every good block in file order, or one chain's. */
typedef struct rd_cursor {
    size_t pending;         /* the next block to enter, or RD_NONE */
    int by_chain;           /* follow rd_block.next rather than the file order */
    const uint8_t *p, *end; /* the rest of the current block's payload */
    uint32_t left;          /* records left in it */
    uint64_t ticks;
    uint64_t thread_id;
    uint32_t stream;
    rd_record next;         /* time order: the record it holds up */
} rd_cursor;

typedef struct rd_evtrace {
    rd_type *types; /* by type number */
    size_t n_types, cap_types;
    rd_block *blocks; /* good events blocks, in file order */
    size_t n_blocks, cap_blocks;
    rd_thread *thread_chains; /* by rd->threads index; a thread added since has none */
    size_t n_thread_chains, cap_thread_chains;
    rd_chain *chains; /* in the order of their first block */
    size_t n_chains, cap_chains;
    uint64_t end_offset; /* of the end block read, when rd->has_end */

    /* iteration */
    rd_cursor file_cursor;
    rd_cursor *cursors; /* time order: one per chain */
    rd_cursor **heap;   /* time order: cursors holding a record, smallest first */
    size_t n_heap;
} rd_evtrace;

/* The format's entry points (evtrace.c), for the table of formats. */
extern const evgen_rd_format_ops evgen_rd_evtrace_format;

/* order.c: the format's rewind and next. */
void evgen_rd_evtrace_rewind(evgen_reader *rd);
int evgen_rd_evtrace_next(evgen_reader *rd, evgen_event *event);

/* scan.c: scans the blocks from `offset` to the end of the file, once, at open. */
void evgen_rd_scan(evgen_reader *rd, rd_evtrace *et, uint64_t offset);

/* The type of number `type`, or NULL. */
static inline const rd_type *evgen_rd_type(const rd_evtrace *et, uint64_t type)
{
    return type < et->n_types && et->types[type].version ? &et->types[type] : NULL;
}

#endif /* EVGEN_READER_EVTRACE_H */
