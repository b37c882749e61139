/* iterate.c — reading events: file order (the good blocks as written), time order (a k-way merge
 * through a binary heap of one cursor per (thread, stream) chain, each in time order), and
 * dispatch to handlers. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "nettrace.h"

int evgen_rd_decode(const evgen_reader *rd, rd_cursor *c, rd_record *out)
{
    const uint8_t *p = c->p;
    uint64_t type, zigzag, size;
    if (rd_varint(&p, c->end, &type) != 0 || rd_varint(&p, c->end, &zigzag) != 0)
        return -1;
    const rd_type *t = evgen_rd_type(rd, type);
    if (!t)
        return -1;
    if (!t->variable)
        size = t->fixed_size;
    else if (rd_varint(&p, c->end, &size) != 0)
        return -1;
    if (size > (uint64_t)(c->end - p))
        return -1;
    out->offset = (uint64_t)(c->p - rd->data);
    c->ticks += (uint64_t)rd_unzigzag(zigzag);
    out->version = t->version;
    out->payload = p;
    out->size = (uint32_t)size;
    out->ticks = c->ticks;
    c->p = p + size;
    c->left--;
    return 0;
}

/* The cursor's next record: 1, or 0 at the end of its chain. */
static int advance(const evgen_reader *rd, rd_cursor *c, rd_record *r)
{
    for (;;) {
        if (c->left) {
            if (evgen_rd_decode(rd, c, r) == 0)
                return 1;
            c->left = 0; /* the scan checked every record: never reached */
            continue;
        }
        size_t b = c->pending;
        if (b == RD_NONE)
            return 0;
        const rd_block *blk = &rd->blocks[b];
        c->pending = c->by_chain ? blk->next : b + 1 < rd->n_blocks ? b + 1 : RD_NONE;
        c->p = rd->data + blk->payload;
        c->end = c->p + blk->size;
        c->left = blk->count;
        c->ticks = blk->base_ticks;
        c->thread_id = rd->threads[blk->thread].thread_id;
        c->stream = rd->chains[blk->chain].stream;
    }
}

/* Time order: is a's record before b's? Ties by thread id, then by file offset (a thread's streams
 * are one thread). */
static int before(const rd_cursor *a, const rd_cursor *b)
{
    if (a->next.ticks != b->next.ticks)
        return a->next.ticks < b->next.ticks;
    if (a->thread_id != b->thread_id)
        return a->thread_id < b->thread_id;
    return a->next.offset < b->next.offset;
}

static void sift_down(rd_cursor **heap, size_t n, size_t i)
{
    rd_cursor *c = heap[i];
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= n)
            break;
        if (k + 1 < n && before(heap[k + 1], heap[k]))
            k++;
        if (!before(heap[k], c))
            break;
        heap[i] = heap[k];
        i = k;
    }
    heap[i] = c;
}

void evgen_reader_rewind(evgen_reader *rd, evgen_order order)
{
    rd->order = order == EVGEN_ORDER_TIME ? EVGEN_ORDER_TIME : EVGEN_ORDER_FILE;
    if (rd->nt) {
        evgen_rd_nt_rewind(rd);
        return;
    }
    memset(&rd->file_cursor, 0, sizeof rd->file_cursor);
    rd->file_cursor.pending = rd->n_blocks ? 0 : RD_NONE;
    rd->n_heap = 0;
    if (rd->order != EVGEN_ORDER_TIME)
        return;
    for (size_t i = 0; i < rd->n_chains; i++) {
        rd_cursor *c = &rd->cursors[i];
        memset(c, 0, sizeof *c);
        c->by_chain = 1;
        c->pending = rd->chains[i].first_block;
        if (advance(rd, c, &c->next))
            rd->heap[rd->n_heap++] = c;
    }
    for (size_t i = rd->n_heap / 2; i-- > 0;)
        sift_down(rd->heap, rd->n_heap, i);
}

int evgen_reader_next(evgen_reader *rd, evgen_event *event)
{
    if (rd->nt)
        return evgen_rd_nt_next(rd, event);
    if (rd->order == EVGEN_ORDER_FILE) {
        rd_record r;
        if (!advance(rd, &rd->file_cursor, &r))
            return 0;
        evgen_rd_fill_event(rd, &r, rd->file_cursor.thread_id, event);
        event->stream = rd->file_cursor.stream;
        return 1;
    }
    if (rd->n_heap == 0)
        return 0;
    rd_cursor *top = rd->heap[0];
    evgen_rd_fill_event(rd, &top->next, top->thread_id, event);
    event->stream = top->stream;
    if (!advance(rd, top, &top->next))
        rd->heap[0] = rd->heap[--rd->n_heap];
    if (rd->n_heap)
        sift_down(rd->heap, rd->n_heap, 0);
    return 1;
}

/* ---- dispatch ----------------------------------------------------------------------------- */

static int matches(const evgen_trace_event_info *e, const char *provider, const char *event)
{
    return (!provider || strcmp(e->provider, provider) == 0) && (!event || strcmp(e->name, event) == 0);
}

int evgen_reader_on(evgen_reader *rd, const char *provider, const char *event, evgen_event_handler handler,
                    void *context)
{
    if (!handler)
        return -1;
    size_t i;
    for (i = 0; i < rd->n_events && !matches(&rd->events[i]->pub, provider, event); i++) {
    }
    if ((provider || event) && i == rd->n_events)
        return -1;
    if (evgen_rd_grow((void **)&rd->handlers, &rd->cap_handlers, rd->n_handlers + 1, sizeof *rd->handlers) != 0)
        return -1;
    rd_handler *h = &rd->handlers[rd->n_handlers];
    h->provider = provider ? strdup(provider) : NULL;
    h->event = event ? strdup(event) : NULL;
    if ((provider && !h->provider) || (event && !h->event)) {
        free(h->provider);
        free(h->event);
        return -1;
    }
    h->fn = handler;
    h->context = context;
    rd->n_handlers++;
    return 0;
}

uint64_t evgen_reader_process(evgen_reader *rd, evgen_order order)
{
    /* Each event's handlers, in the order they were added: starts[e] .. starts[e + 1] in list. */
    size_t *starts = calloc(rd->n_events + 1, sizeof *starts);
    size_t n_list = 0;
    for (size_t e = 0; starts && e < rd->n_events; e++)
        for (size_t h = 0; h < rd->n_handlers; h++)
            n_list += matches(&rd->events[e]->pub, rd->handlers[h].provider, rd->handlers[h].event);
    /* Copies: a handler may add handlers (for the next run) while this one goes on. */
    rd_handler *list = calloc(n_list + 1, sizeof *list);
    if (!starts || !list) {
        free(starts);
        free(list);
        return 0;
    }
    n_list = 0;
    for (size_t e = 0; e < rd->n_events; e++) {
        starts[e] = n_list;
        for (size_t h = 0; h < rd->n_handlers; h++)
            if (matches(&rd->events[e]->pub, rd->handlers[h].provider, rd->handlers[h].event))
                list[n_list++] = rd->handlers[h];
    }
    starts[rd->n_events] = n_list;

    uint64_t n = 0;
    evgen_event ev;
    evgen_reader_rewind(rd, order);
    while (evgen_reader_next(rd, &ev)) {
        n++;
        for (size_t k = starts[ev.info->index]; k < starts[ev.info->index + 1]; k++)
            list[k].fn(&ev, list[k].context);
    }
    free(list);
    free(starts);
    return n;
}
