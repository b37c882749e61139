/* metadata.c — the payloads of metadata blocks (a manifest's providers, enums, structs, events,
 * versions and fields) and of the end block, encoded as docs/format.md specifies. */
#include <stdlib.h>
#include <string.h>

#include "evgen/wire_layout.h"
#include "evgen/wire_metadata.h"
#include "internal.h"

rt_buffer *evgen_rt_block_new(uint8_t type, const evgen_wire_buf *payload)
{
    if (payload->failed || payload->len > UINT32_MAX)
        return NULL;
    rt_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->data = malloc(EVGEN_WIRE_BLOCK_HEADER_SIZE + payload->len);
    if (!b->data) {
        free(b);
        return NULL;
    }
    if (payload->len)
        memcpy(b->data + EVGEN_WIRE_BLOCK_HEADER_SIZE, payload->data, payload->len);
    b->capacity = b->size = (uint32_t)payload->len;
    b->type = type;
    return b;
}

static void put_enum(evgen_wire_buf *o, const evgen_enum_desc *en)
{
    evgen_wire_meta_put_enum_head(o, en->name, en->n_consts);
    for (uint32_t k = 0; k < en->n_consts; k++)
        evgen_wire_meta_put_enum_const(o, en->consts[k].name, en->consts[k].value);
}

/* A variable struct's member offsets are the payload layout rule's applied to one element, with
 * this process's pointers (docs/format.md): computed here, so that descriptors built for 8-byte
 * pointers (the generator's) and generated ones say the same. */
static void put_struct(evgen_wire_buf *o, const evgen_struct_desc *st)
{
    evgen_wire_meta_put_struct_head(o, st->name, st->stride, st->n_members);
    evgen_wire_layout layout;
    evgen_wire_layout_init(&layout, sizeof(void *));
    for (uint32_t k = 0; k < st->n_members; k++) {
        const evgen_member_desc *mb = &st->members[k];
        evgen_wire_member m = {mb->name, mb->kind, mb->offset, mb->enum_index};
        if (st->stride == EVGEN_WIRE_STRIDE_VARIABLE)
            m.offset = (uint32_t)evgen_wire_layout_add(&layout, mb->kind, 0).delta;
        evgen_wire_meta_put_member(o, &m);
    }
}

static void put_event(evgen_wire_buf *o, const evgen_event_desc *e)
{
    evgen_wire_event_head head = {e->name, e->provider, e->id, e->level, e->keywords, e->n_versions};
    evgen_wire_meta_put_event_head(o, &head);
    for (uint32_t v = 0; v < e->n_versions; v++) {
        const evgen_version_desc *ver = evgen_rt_version(e, v);
        /* "Variable" is not on the wire: it follows from the fields. */
        int own = (ver->flags & EVGEN_VERSION_ATTRIBUTES) != 0;
        evgen_wire_version_head vh = {ver->version,
                                      (ver->flags & EVGEN_VERSION_LEGACY ? EVGEN_WIRE_VERSION_LEGACY : 0u) |
                                          (own ? EVGEN_WIRE_VERSION_ATTRIBUTES : 0u),
                                      ver->n_fields, own ? ver->level : 0, own ? ver->keywords : 0};
        evgen_wire_meta_put_version_head(o, &vh);
        for (uint32_t f = 0; f < ver->n_fields; f++) {
            evgen_wire_field wf = evgen_rt_wire_field(&ver->fields[f]);
            evgen_wire_meta_put_field(o, &wf);
        }
    }
}

/* The one walk of a manifest's descriptors into its metadata: what a metadata block holds, and
 * what evgen_manifest_metadata hands out. */
static void put_manifest(evgen_wire_buf *o, const evgen_manifest_desc *m)
{
    evgen_wire_meta_put_head(o, m->type_base, m->name);
    evgen_wire_meta_put_count(o, m->n_providers);
    for (uint32_t i = 0; i < m->n_providers; i++)
        evgen_wire_meta_put_provider(o, m->providers[i]);
    evgen_wire_meta_put_count(o, m->n_enums);
    for (uint32_t i = 0; i < m->n_enums; i++)
        put_enum(o, evgen_rt_enum(m, i));
    evgen_wire_meta_put_count(o, m->n_structs);
    for (uint32_t i = 0; i < m->n_structs; i++)
        put_struct(o, evgen_rt_struct(m, i));
    evgen_wire_meta_put_count(o, m->n_events);
    for (uint32_t i = 0; i < m->n_events; i++)
        put_event(o, evgen_rt_event(m, i));
}

rt_buffer *evgen_rt_metadata_block(const evgen_manifest_desc *m)
{
    evgen_wire_buf o = {0};
    put_manifest(&o, m);
    rt_buffer *b = evgen_rt_block_new(EVGEN_WIRE_BLOCK_METADATA, &o);
    if (b)
        b->manifest = m;
    evgen_wire_buf_free(&o);
    return b;
}

uint8_t *evgen_manifest_metadata(const evgen_manifest_desc *manifest, size_t *size)
{
    *size = 0;
    if (!manifest)
        return NULL;
    evgen_wire_buf o = {0};
    put_manifest(&o, manifest);
    if (o.failed) {
        evgen_wire_buf_free(&o);
        return NULL;
    }
    *size = o.len;
    return o.data; /* malloc'd by the byte string, never empty: the counts are always there */
}

/* `unattributed`: drops of threads interrupted while joining the session, in no thread's entry. */
rt_buffer *evgen_rt_end_block(const evgen_session *s, uint64_t unattributed)
{
    evgen_wire_buf o = {0};
    evgen_wire_end_writer w;
    evgen_wire_end_begin(&w, &o, s->n_totals);
    for (size_t i = 0; i < s->n_totals; i++) {
        const evgen_thread_totals *t = &s->totals[i];
        evgen_wire_end_put(&w, &(evgen_wire_end_thread){t->thread_id, t->written, t->dropped, t->too_big});
    }
    evgen_wire_end_finish(&w, unattributed);
    rt_buffer *b = evgen_rt_block_new(EVGEN_WIRE_BLOCK_END, &o);
    evgen_wire_buf_free(&o);
    return b;
}
