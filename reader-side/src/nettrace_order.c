/* nettrace_order.c — iterating a .nettrace file's index: in file order, or in time order, which
 * the format makes a sort within each sequence-point region (every event of a region lies between
 * its two sequence points in time); ties keep file order. */
#include <stdlib.h>
#include <string.h>

#include "nettrace.h"

typedef struct keyed {
    uint64_t ticks;
    uint64_t index;
} keyed;

static int by_time(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->ticks != y->ticks)
        return x->ticks < y->ticks ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The time order, built once: 0, or -1 if memory ran out (file order is used then). */
static int build_time_order(rd_nettrace *nt)
{
    if (nt->time_order || !nt->n_events)
        return 0;
    uint32_t *order = malloc(nt->n_events * sizeof *order);
    keyed *keys = NULL;
    size_t largest = 0, start = 0;
    for (size_t r = 0; r <= nt->n_regions; r++) {
        size_t end = r < nt->n_regions ? nt->regions[r] : nt->n_events;
        if (end - start > largest)
            largest = end - start;
        start = end;
    }
    keys = malloc((largest ? largest : 1) * sizeof *keys);
    if (!order || !keys) {
        free(order);
        free(keys);
        return -1;
    }
    start = 0;
    for (size_t r = 0; r <= nt->n_regions; r++) {
        size_t end = r < nt->n_regions ? nt->regions[r] : nt->n_events;
        int sorted = 1;
        for (size_t i = start; i < end; i++) {
            keys[i - start].ticks = nt->events[i].ticks;
            keys[i - start].index = i;
            if (i > start && nt->events[i].ticks < nt->events[i - 1].ticks)
                sorted = 0;
        }
        if (!sorted)
            qsort(keys, end - start, sizeof *keys, by_time);
        for (size_t i = start; i < end; i++)
            order[i] = (uint32_t)keys[i - start].index;
        start = end;
    }
    free(keys);
    nt->time_order = order;
    return 0;
}

void evgen_rd_nt_rewind(evgen_reader *rd)
{
    rd_nettrace *nt = rd->nt;
    nt->cursor = 0;
    if (rd->order == EVGEN_ORDER_TIME && build_time_order(nt) != 0)
        rd->order = EVGEN_ORDER_FILE;
}

int evgen_rd_nt_next(evgen_reader *rd, evgen_event *ev)
{
    rd_nettrace *nt = rd->nt;
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
    if (e->activity)
        ev->activity_id = rd->data + e->activity;
    return 1;
}
