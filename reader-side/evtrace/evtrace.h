/* evtrace.h — the .evtrace format in the reader (docs/format.md): the type table, the index of
 * events blocks chained per (thread, stream) that the walk at open builds (each block verified
 * when first touched, or all of them when the caller asks for problems or totals), and the
 * cursors that iterate it in file or time order. Its state hangs from evgen_reader.format. Not
 * installed. */
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

/* An events block's state: the walk at open takes a block whose header is as a writer writes it
 * as UNVERIFIED (its events counted), and its checksum and records are checked once, when it is
 * first touched; a BAD block's events are taken back out of the counts, and iteration skips it. */
enum { RD_BLOCK_UNVERIFIED = 0, RD_BLOCK_GOOD = 1, RD_BLOCK_BAD = 2 };

typedef struct rd_block {
    uint64_t payload;     /* file offset of the payload */
    uint32_t size;        /* payload bytes */
    uint32_t count;       /* records */
    uint64_t base_ticks;
    size_t thread;        /* index into rd->threads */
    size_t chain;         /* index into et->chains */
    size_t next;          /* the chain's next events block, or RD_NONE */
    uint64_t offset;      /* file offset of the block header */
    uint32_t dropped;     /* the header's dropped count */
    uint8_t state;        /* RD_BLOCK_* */
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
    size_t current;         /* the block it reads, or RD_NONE before the first */
    size_t chain;           /* time order: the chain it follows (rd_block.next) */
    int by_chain;           /* follow rd_block.next rather than the file order */
    int holding;            /* time order: `next` holds a record */
    const uint8_t *p, *end; /* the rest of the current block's payload */
    uint32_t left;          /* records left in it */
    uint64_t ticks;
    uint64_t last_type;     /* of the block's previous record (format 2 repeats it) */
    uint64_t thread_id;
    uint32_t stream;
    rd_record next;         /* time order: the record it holds up */
} rd_cursor;

typedef struct rd_verifier rd_verifier; /* verifier.c */

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

    /* lazy validation (lazy.c) */
    uint64_t tail;    /* where the eager scan still has to go on from (the end block the walk left, or
                         the file's end), or UINT64_MAX once it has */
    int final_checks; /* the scan reached the file's end (not a torn tail): the end-of-file checks apply */
    int dirty;        /* a block the walk took was found bad: the threads' order is recomputed */
    int complete;     /* every block verified, the books checked, the problems sorted */
    rd_verifier *verifier; /* the thread verifying blocks ahead of the iterator, or NULL */
    size_t verified_upto;  /* every block before it is verified (time order's prefix) */
    unsigned list_gen;     /* counts the times a bad block replaced the blocks after it */

    /* iteration */
    rd_cursor file_cursor;
    rd_cursor *cursors; /* time order: one per chain */
    rd_cursor **heap;   /* time order: cursors holding a record, smallest first */
    size_t n_cursors, cap_cursors, n_heap;
    unsigned merge_gen; /* the list_gen the cursors follow */
    rd_cursor *lent;    /* the cursor whose next records rd->run holds (order.c), or NULL */
} rd_evtrace;

/* The format's entry points (evtrace.c), for the table of formats. */
extern const evgen_rd_format_ops evgen_rd_evtrace_format;

/* order.c: the format's rewind and next. */
void evgen_rd_evtrace_rewind(evgen_reader *rd);
int evgen_rd_evtrace_next(evgen_reader *rd, evgen_event *event);

/* scan.c: the walk at open, from `offset`: block headers only while they are as a writer writes
 * them (events blocks indexed UNVERIFIED, metadata blocks decoded after every block before them is
 * verified, the end block left for later when it ends the file); from the first header that is
 * not, every block before it is verified and the eager scan takes over to the end of the file. */
void evgen_rd_scan(evgen_reader *rd, rd_evtrace *et, uint64_t offset);
/* scan.c: set (by the tests, which compare the two), the open runs the eager scan over the whole
 * file, as the reader did before validation was lazy. */
extern int evgen_rd_evtrace_eager_open;
/* scan.c: the eager scan from `offset` to the end of the file (every block checked in full, events
 * blocks indexed GOOD): 1 if it reached the end of the file, 0 if it stopped at a torn tail. */
int evgen_rd_scan_eager(evgen_reader *rd, rd_evtrace *et, uint64_t offset);
/* scan.c: the checks that need the whole file scanned: no end block, and the books. */
void evgen_rd_scan_final(evgen_reader *rd, rd_evtrace *et);
/* scan.c: verifies UNVERIFIED block `b` (every block before it first, if it fails), with the
 * problems the eager scan would record; when the eager scan would not have gone on at the next
 * block the walk took, the blocks after `b` are dropped and the eager scan runs from where it
 * would have. Returns the block's state then (GOOD or BAD). */
int evgen_rd_verify_block(evgen_reader *rd, rd_evtrace *et, size_t b);

/* scan.c: does the end block that ends the file check out and count, for every thread, exactly the
 * events of the blocks the walk took? Then the walk met every block a writer wrote, and no
 * verification can add one: what a lazy time-order merge needs (order.c). */
int evgen_rd_walk_matches_books(const evgen_reader *rd, const rd_evtrace *et);

/* scan.c: does block `b` check out (frame, crc, records)? Records nothing: what the verifier thread
 * runs. */
int evgen_rd_block_checks_out(evgen_reader *rd, const rd_evtrace *et, size_t b);

/* verifier.c: starts the thread that verifies the walk's blocks ahead of the iterator (not for a
 * few blocks, nor if it cannot start: the iterator then checks each block itself). */
void evgen_rd_verifier_start(evgen_reader *rd, rd_evtrace *et);
/* verifier.c: claims block `b` for the caller (RD_BLOCK_UNVERIFIED: check it, then publish), or
 * returns the verifier's verdict (RD_BLOCK_GOOD or RD_BLOCK_BAD), waiting while it checks the block. */
int evgen_rd_verifier_claim(rd_evtrace *et, size_t b);
void evgen_rd_verifier_publish(rd_evtrace *et, size_t b, int ok);
/* verifier.c: checks blocks from the last one back, on the caller's thread, until it meets one
 * the verifier (going forward) has claimed: the verdicts every block needs, in about half the time
 * and without waiting for each other; the caller then takes them in file order. Records nothing. */
void evgen_rd_verifier_meet(rd_evtrace *et);
/* verifier.c: stops and joins the thread, marking GOOD the blocks it found good; before anything
 * changes the blocks or the types it reads, and at close. */
void evgen_rd_verifier_stop(rd_evtrace *et);

/* lazy.c: every block verified, the end of the file scanned, the books checked, the threads in
 * the order the eager scan finds them, the problems sorted; once. What every query of problems or
 * totals does first. */
void evgen_rd_evtrace_complete(evgen_reader *rd);
/* lazy.c: the counts of events and the chains recomputed from the blocks left, after a verify
 * dropped the blocks the walk took past a bad one. */
void evgen_rd_recount(evgen_reader *rd, rd_evtrace *et);
/* Appends block B (its `next` RD_NONE) to its chain and adds its events and drops to its thread's
 * and the reader's counts: the one place a block joins the books (the walk, the scan, a recount). */
void evgen_rd_chain_block(evgen_reader *rd, rd_evtrace *et, size_t b);

/* The type of number `type`, or NULL. */
static inline const rd_type *evgen_rd_type(const rd_evtrace *et, uint64_t type)
{
    return type < et->n_types && et->types[type].version ? &et->types[type] : NULL;
}

#endif /* EVGEN_READER_EVTRACE_H */
