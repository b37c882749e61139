/* nettrace_order.c — iterating a .nettrace file's index: in file order, or in time order, which
 * the format makes a sort within each sequence-point region (every event of a region lies between
 * its two sequence points in time); ties keep file order. */
#include <stdlib.h>
#include <string.h>

#include "nettrace.h"

/* Merges the sorted runs of order[0..n) (run k is runs[k] .. runs[k + 1]; runs[n_runs] == n) into
 * one, stably: a natural merge sort, since every capture thread's events are already in time order
 * and a region is a few such runs. `tmp` holds n indexes; `runs` is reused. */
static void merge_runs(const rd_nt_event *events, uint32_t *order, uint32_t *tmp, size_t *runs, size_t n_runs)
{
    uint32_t *src = order, *dst = tmp;
    while (n_runs > 1) {
        size_t out = 0;
        for (size_t k = 0; k < n_runs; k += 2) {
            size_t lo = runs[k], mid = runs[k + 1], hi = k + 2 <= n_runs ? runs[k + 2] : mid;
            size_t i = lo, j = mid, w = lo;
            if (k + 1 >= n_runs)
                mid = hi = runs[n_runs];
            while (i < mid && j < hi)
                dst[w++] = events[src[j]].ticks < events[src[i]].ticks ? src[j++] : src[i++];
            while (i < mid)
                dst[w++] = src[i++];
            while (j < hi)
                dst[w++] = src[j++];
            runs[out++] = lo;
        }
        runs[out] = runs[n_runs];
        n_runs = out;
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != order)
        memcpy(order, src, runs[1] * sizeof *order);
}

/* The time order, built once: 0, or -1 if memory ran out (file order is used then). */
static int build_time_order(rd_nettrace *nt)
{
    if (nt->time_order || !nt->n_events)
        return 0;
    size_t largest = 0, start = 0;
    for (size_t r = 0; r <= nt->n_regions; r++) {
        size_t end = r < nt->n_regions ? nt->regions[r] : nt->n_events;
        if (end - start > largest)
            largest = end - start;
        start = end;
    }
    uint32_t *order = malloc(nt->n_events * sizeof *order);
    uint32_t *tmp = malloc(largest * sizeof *tmp);
    size_t *runs = malloc((largest + 1) * sizeof *runs);
    if (!order || !tmp || !runs) {
        free(order);
        free(tmp);
        free(runs);
        return -1;
    }
    start = 0;
    for (size_t r = 0; r <= nt->n_regions; r++) {
        size_t end = r < nt->n_regions ? nt->regions[r] : nt->n_events, n_runs = 0;
        for (size_t i = start; i < end; i++) {
            order[i] = (uint32_t)i;
            if (i == start || nt->events[i].ticks < nt->events[i - 1].ticks)
                runs[n_runs++] = i - start;
        }
        runs[n_runs] = end - start;
        if (n_runs > 1)
            merge_runs(nt->events, order + start, tmp, runs, n_runs);
        start = end;
    }
    free(tmp);
    free(runs);
    nt->time_order = order;
    return 0;
}

void evgen_rd_nt_rewind(evgen_reader *rd)
{
    rd_nettrace *nt = evgen_rd_nt(rd);
    nt->cursor = 0;
    if (rd->order == EVGEN_ORDER_TIME && build_time_order(nt) != 0)
        rd->order = EVGEN_ORDER_FILE;
}

int evgen_rd_nt_next(evgen_reader *rd, evgen_event *ev)
{
    rd_nettrace *nt = evgen_rd_nt(rd);
    if (nt->cursor >= nt->n_events)
        return 0;
    size_t i = rd->order == EVGEN_ORDER_TIME ? nt->time_order[nt->cursor] : nt->cursor;
    nt->cursor++;
    const rd_nt_event *e = &nt->events[i];
    const rd_nt_meta *m = &nt->metas[e->meta];
    rd_record r;
    r.version = m->version;
    r.payload = rd->data + e->payload;
    r.size = e->size;
    r.ticks = e->ticks;
    r.offset = e->offset;
    evgen_rd_fill_event(rd, &r, e->thread_id, ev);
    ev->version = m->trace_version;
    if (e->stack) {
        const rd_nt_stack *st = &nt->stacks[e->stack - 1];
        ev->stack = rd->data + st->offset;
        ev->stack_depth = st->depth;
    }
    ev->sequence = e->sequence;
    ev->capture_thread_id = e->capture_thread_id;
    if (e->activity) { /* an all-zero id is no activity */
        static const uint8_t zero[16];
        if (memcmp(rd->data + e->activity, zero, 16) != 0)
            ev->activity_id = rd->data + e->activity;
    }
    return 1;
}
