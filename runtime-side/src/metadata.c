/* metadata.c — the payloads of metadata blocks (a manifest's providers, enums, structs, events,
 * versions and fields) and of the end block, encoded as docs/format.md specifies. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

rt_buffer *evgen_rt_block_new(uint8_t type, const rt_bytes *payload)
{
    if (payload->failed || payload->len > UINT32_MAX)
        return NULL;
    rt_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->data = malloc(EVGEN_RT_BLOCK_HEADER_SIZE + payload->len);
    if (!b->data) {
        free(b);
        return NULL;
    }
    if (payload->len)
        memcpy(b->data + EVGEN_RT_BLOCK_HEADER_SIZE, payload->data, payload->len);
    b->capacity = b->size = (uint32_t)payload->len;
    b->type = type;
    return b;
}

static void put_enum(rt_bytes *o, const evgen_enum_desc *en)
{
    evgen_rt_bytes_string(o, en->name);
    evgen_rt_bytes_varint(o, en->n_consts);
    for (uint32_t k = 0; k < en->n_consts; k++) {
        evgen_rt_bytes_string(o, en->consts[k].name);
        evgen_rt_bytes_zigzag(o, en->consts[k].value);
    }
}

static void put_struct(rt_bytes *o, const evgen_struct_desc *st)
{
    evgen_rt_bytes_string(o, st->name);
    evgen_rt_bytes_varint(o, st->stride);
    evgen_rt_bytes_varint(o, st->n_members);
    for (uint32_t k = 0; k < st->n_members; k++) {
        const evgen_member_desc *mb = &st->members[k];
        evgen_rt_bytes_string(o, mb->name);
        evgen_rt_bytes_varint(o, mb->kind);
        evgen_rt_bytes_varint(o, mb->offset);
        evgen_rt_bytes_varint(o, (uint64_t)(mb->enum_index + 1)); /* -1 (none) becomes 0 */
    }
}

static void put_event(rt_bytes *o, const evgen_event_desc *e)
{
    evgen_rt_bytes_string(o, e->name);
    evgen_rt_bytes_varint(o, e->provider);
    evgen_rt_bytes_varint(o, e->id);
    evgen_rt_bytes_varint(o, e->level);
    evgen_rt_bytes_varint(o, e->keywords);
    evgen_rt_bytes_varint(o, e->n_versions);
    for (uint32_t v = 0; v < e->n_versions; v++) {
        const evgen_version_desc *ver = evgen_rt_version(e, v);
        evgen_rt_bytes_varint(o, ver->version);
        /* Only the legacy bit is defined by the format; "variable" follows from the fields. */
        evgen_rt_bytes_varint(o, ver->flags & EVGEN_VERSION_LEGACY);
        evgen_rt_bytes_varint(o, ver->n_fields);
        for (uint32_t f = 0; f < ver->n_fields; f++) {
            const evgen_field_desc *fd = &ver->fields[f];
            evgen_rt_bytes_string(o, fd->name);
            evgen_rt_bytes_varint(o, fd->kind);
            evgen_rt_bytes_varint(o, fd->flags & EVGEN_FIELD_ARRAY);
            evgen_rt_bytes_varint(o, (uint64_t)(fd->enum_index + 1));
            evgen_rt_bytes_varint(o, (uint64_t)(fd->struct_index + 1));
            evgen_rt_bytes_varint(o, (fd->flags & EVGEN_FIELD_ARRAY) ? (uint64_t)(fd->count_field + 1) : 0);
        }
    }
}

/* The one encoder of a manifest's metadata: what a metadata block holds, and what
 * evgen_manifest_metadata hands out. */
static void put_manifest(rt_bytes *o, const evgen_manifest_desc *m)
{
    evgen_rt_bytes_varint(o, m->type_base);
    evgen_rt_bytes_string(o, m->name);
    evgen_rt_bytes_varint(o, m->n_providers);
    for (uint32_t i = 0; i < m->n_providers; i++)
        evgen_rt_bytes_string(o, m->providers[i]);
    evgen_rt_bytes_varint(o, m->n_enums);
    for (uint32_t i = 0; i < m->n_enums; i++)
        put_enum(o, evgen_rt_enum(m, i));
    evgen_rt_bytes_varint(o, m->n_structs);
    for (uint32_t i = 0; i < m->n_structs; i++)
        put_struct(o, evgen_rt_struct(m, i));
    evgen_rt_bytes_varint(o, m->n_events);
    for (uint32_t i = 0; i < m->n_events; i++)
        put_event(o, evgen_rt_event(m, i));
}

rt_buffer *evgen_rt_metadata_block(const evgen_manifest_desc *m)
{
    rt_bytes o = {0};
    put_manifest(&o, m);
    rt_buffer *b = evgen_rt_block_new(EVGEN_RT_BLOCK_METADATA, &o);
    if (b)
        b->manifest = m;
    evgen_rt_bytes_free(&o);
    return b;
}

uint8_t *evgen_manifest_metadata(const evgen_manifest_desc *manifest, size_t *size)
{
    *size = 0;
    if (!manifest)
        return NULL;
    rt_bytes o = {0};
    put_manifest(&o, manifest);
    if (o.failed) {
        evgen_rt_bytes_free(&o);
        return NULL;
    }
    *size = o.len;
    return o.data; /* malloc'd by the byte string, never empty: the counts are always there */
}

/* `unattributed`: drops of threads interrupted while joining the session, in no thread's entry. */
rt_buffer *evgen_rt_end_block(const evgen_session *s, uint64_t unattributed)
{
    rt_bytes o = {0};
    uint64_t written = 0, dropped = 0, too_big = 0;
    evgen_rt_bytes_varint(&o, s->n_totals);
    for (size_t i = 0; i < s->n_totals; i++) {
        const evgen_thread_totals *t = &s->totals[i];
        evgen_rt_bytes_varint(&o, t->thread_id);
        evgen_rt_bytes_varint(&o, t->written);
        evgen_rt_bytes_varint(&o, t->dropped);
        evgen_rt_bytes_varint(&o, t->too_big);
        written += t->written;
        dropped += t->dropped;
        too_big += t->too_big;
    }
    evgen_rt_bytes_varint(&o, written);
    evgen_rt_bytes_varint(&o, dropped + unattributed);
    evgen_rt_bytes_varint(&o, too_big);
    rt_buffer *b = evgen_rt_block_new(EVGEN_RT_BLOCK_END, &o);
    evgen_rt_bytes_free(&o);
    return b;
}
