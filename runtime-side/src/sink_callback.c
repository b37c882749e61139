/* sink_callback.c — the in-process sink: learns the trace types from metadata blocks as a reader
 * would, then decodes each events block and calls the listener once per record. */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

static int learn_types(evgen_session *s, const evgen_manifest_desc *m)
{
    size_t need = (size_t)m->type_base + m->n_types;
    if (need > s->n_types) {
        rt_type *types = realloc(s->types, need * sizeof *types);
        if (!types)
            return ENOMEM;
        for (size_t i = s->n_types; i < need; i++)
            types[i] = (rt_type){NULL, NULL, NULL};
        s->types = types;
        s->n_types = need;
    }
    for (uint32_t i = 0; i < m->n_events; i++) {
        const evgen_event_desc *e = evgen_rt_event(m, i);
        for (uint32_t v = 0; v < e->n_versions; v++)
            s->types[m->type_base + e->type_offset + v] = (rt_type){m, e, evgen_rt_version(e, v)};
    }
    return 0;
}

/* An unregistered manifest's descriptors may be unloaded: no record of it comes after this. */
static void forget_types(evgen_session *s, const evgen_manifest_desc *m)
{
    for (size_t i = 0; i < s->n_types; i++)
        if (s->types[i].manifest == m)
            s->types[i] = (rt_type){NULL, NULL, NULL};
}

int evgen_rt_callback_block(evgen_session *s, const rt_buffer *b)
{
    if (b->type == EVGEN_WIRE_BLOCK_METADATA)
        return learn_types(s, b->manifest);
    if (b->type == RT_BLOCK_FORGET) {
        forget_types(s, b->manifest);
        return 0;
    }
    if (b->type != EVGEN_WIRE_BLOCK_EVENTS)
        return 0;
    const uint8_t *p = b->data + EVGEN_WIRE_BLOCK_HEADER_SIZE, *end = p + b->size;
    uint64_t ticks = b->base_ticks;
    evgen_event_record r = {0};
    r.thread_id = b->thread_id;
    uint64_t last_type = EVGEN_WIRE_NO_TYPE;
    for (uint32_t i = 0; i < b->event_count; i++) {
        uint64_t type, size;
        int64_t delta;
        if (evgen_wire_get_record_head(&p, end, EVGEN_WIRE_FORMAT_VERSION, &last_type, &type, &delta) != 0 ||
            type >= s->n_types || !s->types[type].version)
            return EIO; /* cannot happen: the runtime wrote this block */
        const rt_type *t = &s->types[type];
        if (t->version->flags & EVGEN_VERSION_VARIABLE) {
            if (evgen_wire_get_varint(&p, end, &size) != 0)
                return EIO;
        } else {
            size = t->version->fixed_size;
        }
        if (size > (uint64_t)(end - p))
            return EIO;
        ticks += (uint64_t)delta;
        r.manifest = t->manifest;
        r.event = t->event;
        r.version = t->version;
        r.provider = t->manifest->providers[t->event->provider];
        r.timestamp_ns = evgen_rt_ticks_to_ns(s, ticks);
        r.payload = p;
        r.size = (uint32_t)size;
        s->callback(&r, s->context);
        p += size;
    }
    return 0;
}
