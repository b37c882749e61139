/* iterate.c — reading events, in file or time order, through the file's format (format.h), and
 * dispatch to handlers. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "format.h"

void evgen_reader_rewind(evgen_reader *rd, evgen_order order)
{
    rd->order = order == EVGEN_ORDER_TIME ? EVGEN_ORDER_TIME : EVGEN_ORDER_FILE;
    rd->run.left = 0; /* the format's rewind forgets the cursor it was lent from */
    rd->format_ops->rewind(rd);
}

int evgen_reader_next_record(evgen_reader *rd, evgen_event *event)
{
    return rd->format_ops->next(rd, event);
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
