/* verifier.c — a thread that verifies the blocks the walk took (crc32c, every record) ahead of the
 * iterator, on another core: each block is claimed once, by the thread or by the iterator when it
 * gets there first, so that no block is checked twice and the iterator never waits for a block
 * nobody is checking. The thread only reads (the file, the type table, the blocks' offsets and
 * counts) and publishes a verdict per block; everything else — problems, counts, the resync after a
 * bad block — stays with the reader's thread, which stops the verifier before it changes what the
 * verifier reads. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "evtrace.h"

/* A block's claim: free, being checked, or its verdict. */
enum { CLAIM_FREE = 0, CLAIM_TAKEN = 1, CLAIM_GOOD = 2, CLAIM_BAD = 3 };

/* The smallest walk worth a thread: below it the iterator checks every block itself. */
#define RD_VERIFIER_MIN_BLOCKS 32

/* How far ahead of the iterator the thread keeps. Checking a block from memory (its crc32c, the
 * page faults of its mapping, its records) can take the thread longer than the iterator takes to
 * read one; had the thread gone on to the next block once the iterator caught up, the iterator
 * would have waited at every block for the thread to finish it, held to the thread's speed. So
 * the thread never starts a block fewer than RD_VERIFIER_LEAD blocks ahead of the last one the
 * iterator entered (time to finish it before the iterator gets there), and when it has fallen
 * that close it leaps RD_VERIFIER_LEAP blocks ahead, leaving the blocks between to the iterator,
 * which checks them as it enters them, from its own cache: the two share the checking, neither
 * waiting for the other (docs/performance-log.md, "Fifteenth round"). */
#define RD_VERIFIER_LEAD 2
#define RD_VERIFIER_LEAP 4

struct rd_verifier {
    pthread_t thread;
    evgen_reader *rd;
    rd_evtrace *et;
    uint8_t *claims; /* per block of the walk, atomics */
    size_t n;
    int stop;        /* atomic */
    size_t entered;  /* atomic: 1 + the last block the iterator claimed (0: none yet) */
    pid_t pid;       /* the process that started the thread: a child of fork(2) has no verifier */
};

static int take(uint8_t *claim)
{
    uint8_t expected = CLAIM_FREE;
    return __atomic_compare_exchange_n(claim, &expected, CLAIM_TAKEN, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* Checks block `b`, claimed by the caller, and publishes the verdict. */
static void check_claimed(rd_verifier *v, size_t b)
{
    int ok = evgen_rd_block_checks_out(v->rd, v->et, b);
    __atomic_store_n(&v->claims[b], ok ? CLAIM_GOOD : CLAIM_BAD, __ATOMIC_RELEASE);
}

static void *verify_ahead(void *arg)
{
    rd_verifier *v = arg;
    for (size_t b = 0; b < v->n && !__atomic_load_n(&v->stop, __ATOMIC_ACQUIRE); b++) {
        size_t entered = __atomic_load_n(&v->entered, __ATOMIC_RELAXED);
        if (entered && b < entered - 1 + RD_VERIFIER_LEAD) /* the iterator is (nearly) here: leap */
            b = entered - 1 + RD_VERIFIER_LEAP;
        if (b < v->n && take(&v->claims[b])) /* else the iterator's, or already checked */
            check_claimed(v, b);
    }
    return NULL;
}

void evgen_rd_verifier_start(evgen_reader *rd, rd_evtrace *et)
{
    if (et->n_blocks < RD_VERIFIER_MIN_BLOCKS || et->verifier)
        return;
    rd_verifier *v = calloc(1, sizeof *v);
    uint8_t *claims = calloc(et->n_blocks, 1);
    if (!v || !claims) {
        free(v);
        free(claims);
        return; /* the iterator checks every block itself */
    }
    *v = (rd_verifier){.rd = rd, .et = et, .claims = claims, .n = et->n_blocks, .pid = getpid()};
    for (size_t b = 0; b < v->n; b++)
        if (et->blocks[b].state != RD_BLOCK_UNVERIFIED)
            claims[b] = CLAIM_GOOD; /* nothing to check: never claimed */
    /* The thread takes none of the application's signals: its handlers run where it expects. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = evgen_rd_thread_start_beside(&v->thread, verify_ahead, v);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err != 0) {
        free(claims);
        free(v);
        return;
    }
    et->verifier = v;
}

int evgen_rd_verifier_claim(rd_evtrace *et, size_t b)
{
    rd_verifier *v = et->verifier;
    if (!v || b >= v->n)
        return RD_BLOCK_UNVERIFIED;
    __atomic_store_n(&v->entered, b + 1, __ATOMIC_RELAXED); /* where the thread keeps ahead of */
    if (take(&v->claims[b]))
        return RD_BLOCK_UNVERIFIED; /* the caller's to check, and to publish */
    uint8_t c;
    for (unsigned spins = 0; (c = __atomic_load_n(&v->claims[b], __ATOMIC_ACQUIRE)) == CLAIM_TAKEN; spins++)
        if (spins > 64) {
            if (getpid() != v->pid)
                return RD_BLOCK_UNVERIFIED; /* forked while the verifier had it: nobody else will */
            sched_yield(); /* the verifier is on it; two cores shared: let it run */
        }
    return c == CLAIM_GOOD ? RD_BLOCK_GOOD : RD_BLOCK_BAD;
}

void evgen_rd_verifier_meet(rd_evtrace *et)
{
    rd_verifier *v = et->verifier;
    if (!v)
        return;
    for (size_t b = v->n; b-- > 0 && take(&v->claims[b]);)
        check_claimed(v, b);
}

void evgen_rd_verifier_publish(rd_evtrace *et, size_t b, int ok)
{
    rd_verifier *v = et->verifier;
    if (v && b < v->n)
        __atomic_store_n(&v->claims[b], ok ? CLAIM_GOOD : CLAIM_BAD, __ATOMIC_RELEASE);
}

void evgen_rd_verifier_stop(rd_evtrace *et)
{
    rd_verifier *v = et->verifier;
    if (!v)
        return;
    __atomic_store_n(&v->stop, 1, __ATOMIC_RELEASE);
    int forked = getpid() != v->pid; /* the thread is the parent's: not ours to join */
    if (!forked)
        pthread_join(v->thread, NULL);
    /* What it found good is good; a bad block is checked again by the reader's thread, which
     * records its problems. */
    for (size_t b = 0; b < v->n && b < et->n_blocks; b++)
        if (__atomic_load_n(&v->claims[b], __ATOMIC_ACQUIRE) == CLAIM_GOOD &&
            et->blocks[b].state == RD_BLOCK_UNVERIFIED)
            et->blocks[b].state = RD_BLOCK_GOOD;
    free(v->claims);
    free(v);
    et->verifier = NULL;
}
