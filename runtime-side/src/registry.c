/* registry.c — the process-wide list of registered manifests: validation, trace type numbers
 * (type_base), and the lookup from a type to its event. */
#include <errno.h>

#include "evgen/wire_metadata.h"
#include "internal.h"

/* The lock is a plain mutex; every other field starts zeroed. */
rt_state evgen_rt = {.lock = PTHREAD_MUTEX_INITIALIZER};

void evgen_rt_lock(void)
{
    evgen_thread *t = evgen_thread_self;
    if (t)
        __atomic_fetch_add(&t->no_wait, 1, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    pthread_mutex_lock(&evgen_rt.lock);
}

void evgen_rt_unlock(void)
{
    pthread_mutex_unlock(&evgen_rt.lock);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    evgen_thread *t = evgen_thread_self;
    if (t && t->no_wait)
        __atomic_fetch_sub(&t->no_wait, 1, __ATOMIC_RELAXED);
}

/* Descriptors are generated, so a bad one means a stale or hand-edited file: such a manifest is
 * refused as a whole (its events are never enabled) rather than producing metadata that does not
 * match its records. */
static int manifest_valid(const evgen_manifest_desc *m)
{
    if (m->size < sizeof *m || m->abi != EVGEN_RUNTIME_ABI)
        return 0;
    if ((m->n_providers && !m->providers) || (m->n_enums && !m->enums) || (m->n_structs && !m->structs))
        return 0;
    if (m->n_events && (!m->events || !m->enabled || m->events[0].size < sizeof(evgen_event_desc)))
        return 0;
    if (m->n_enums && m->enums[0].size < sizeof(evgen_enum_desc))
        return 0;
    if (m->n_structs && m->structs[0].size < sizeof(evgen_struct_desc))
        return 0;
    for (uint32_t i = 0; i < m->n_enums; i++) {
        const evgen_enum_desc *en = evgen_rt_enum(m, i);
        if (en->n_consts && !en->consts)
            return 0;
    }
    for (uint32_t i = 0; i < m->n_structs; i++) {
        const evgen_struct_desc *st = evgen_rt_struct(m, i);
        if (st->n_members && !st->members)
            return 0;
        /* A variable struct (stride 0) may hold strings, and holds one at least (docs/format.md). */
        uint32_t strings = 0;
        for (uint32_t k = 0; k < st->n_members; k++) {
            unsigned kind = st->members[k].kind;
            int string = st->stride == EVGEN_WIRE_STRIDE_VARIABLE && evgen_wire_kind_is_string(kind);
            if ((!evgen_wire_kind_is_fixed(kind) && !string) || st->members[k].enum_index >= (int32_t)m->n_enums)
                return 0;
            strings += (uint32_t)string;
        }
        if (st->stride == EVGEN_WIRE_STRIDE_VARIABLE && strings == 0)
            return 0;
    }
    uint64_t types = 0;
    if (m->n_enabled && m->n_enabled < m->n_events)
        return 0;
    for (uint32_t i = 0; i < m->n_events; i++) {
        const evgen_event_desc *e = evgen_rt_event(m, i);
        if (e->provider >= m->n_providers || e->n_versions == 0 || !e->versions ||
            e->versions[0].size < sizeof(evgen_version_desc) || e->type_offset != types)
            return 0;
        types += e->n_versions;
        for (uint32_t v = 0; v < e->n_versions; v++) {
            const evgen_version_desc *ver = evgen_rt_version(e, v);
            if (ver->n_fields && !ver->fields)
                return 0;
            /* A version's own enabled byte lies above the events' bytes. */
            if (ver->enabled && (ver->enabled <= m->n_events || ver->enabled > evgen_rt_n_enabled(m)))
                return 0;
            for (uint32_t f = 0; f < ver->n_fields; f++) {
                const evgen_field_desc *fd = &ver->fields[f];
                int array = (fd->flags & EVGEN_FIELD_ARRAY) != 0;
                if (fd->enum_index >= (int32_t)m->n_enums || fd->struct_index >= (int32_t)m->n_structs)
                    return 0;
                /* An array's count is an earlier field of the same version. */
                if (array && (fd->count_field < 0 || fd->count_field >= (int32_t)f))
                    return 0;
                /* The format's rules for a field (a known kind, structs only as array elements,
                 * an integer count...), the ones a reader checks the metadata by. */
                evgen_wire_field wf = evgen_rt_wire_field(fd);
                evgen_wire_field count = array ? evgen_rt_wire_field(&ver->fields[fd->count_field]) : wf;
                if (evgen_wire_field_problem(&wf, array ? &count : NULL))
                    return 0;
            }
        }
    }
    return types == m->n_types;
}

void evgen_register_manifest(evgen_manifest_desc *manifest)
{
    if (!manifest)
        return;
    evgen_rt_lock();
    for (const evgen_manifest_desc *m = evgen_rt.manifests; m; m = m->next)
        if (m == manifest)
            goto out;
    if (!manifest_valid(manifest) || manifest->n_types > UINT32_MAX - evgen_rt.n_types)
        goto out;
    manifest->type_base = evgen_rt.n_types;
    evgen_rt.n_types += manifest->n_types;
    manifest->next = NULL;
    if (evgen_rt.last_manifest)
        evgen_rt.last_manifest->next = manifest;
    else
        evgen_rt.manifests = manifest;
    evgen_rt.last_manifest = manifest;
    for (unsigned slot = 0; slot < EVGEN_MAX_SESSIONS; slot++) {
        evgen_session *s = evgen_rt.slots[slot];
        if (!s)
            continue;
        /* Placed before any of its events can be enabled, so a reader meets the metadata first. */
        rt_buffer *b = evgen_rt_metadata_block(manifest);
        if (b)
            evgen_rt_put_metadata(s, b);
        else if (!s->error)
            __atomic_store_n(&s->error, ENOMEM, __ATOMIC_RELAXED);
    }
    evgen_rt_apply_rules(manifest);
out:
    evgen_rt_unlock();
}

void evgen_unregister_manifest(evgen_manifest_desc *manifest)
{
    if (!manifest || evgen_rt_in_writer())
        return;
    evgen_rt_lock();
    evgen_manifest_desc *prev = NULL, *m = evgen_rt.manifests;
    while (m && m != manifest) {
        prev = m;
        m = m->next;
    }
    if (!m)
        goto out;
    for (uint32_t i = 0; i < evgen_rt_n_enabled(m); i++)
        __atomic_store_n(&m->enabled[i], 0, __ATOMIC_RELAXED);
    /* Every record of the manifest reaches each sink, and the callback sink forgets its types, before
     * the descriptors may go away. */
    for (unsigned slot = 0; slot < EVGEN_MAX_SESSIONS; slot++) {
        evgen_session *s = evgen_rt.slots[slot];
        if (!s)
            continue;
        evgen_rt_flush_streams(s);
        if (s->sink == RT_SINK_CALLBACK) {
            evgen_wire_buf none = {0};
            rt_buffer *b = evgen_rt_block_new(RT_BLOCK_FORGET, &none);
            if (b) {
                b->manifest = m;
                evgen_rt_enqueue(s, b);
            } else if (!s->error) {
                __atomic_store_n(&s->error, ENOMEM, __ATOMIC_RELAXED);
            }
        }
        evgen_rt_wait_written(s);
    }
    if (prev)
        prev->next = m->next;
    else
        evgen_rt.manifests = m->next;
    if (evgen_rt.last_manifest == m)
        evgen_rt.last_manifest = prev;
    m->next = NULL;
    m->type_base = 0;
out:
    evgen_rt_unlock();
}

int evgen_rt_type_event(const evgen_manifest_desc *m, uint32_t type, uint32_t *event, uint32_t *version)
{
    if (type >= m->n_types || m->n_events == 0)
        return -1;
    /* type_offset increases with the event index (checked at registration). */
    uint32_t lo = 0, hi = m->n_events;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (evgen_rt_event(m, mid)->type_offset <= type)
            lo = mid;
        else
            hi = mid;
    }
    const evgen_event_desc *e = evgen_rt_event(m, lo);
    if (type - e->type_offset >= e->n_versions)
        return -1;
    *event = lo;
    *version = type - e->type_offset;
    return 0;
}
