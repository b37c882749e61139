/* convert_metadata.c — the metadata of a converted trace (docs/convert.md): every output type
 * numbered, and the metadata block payloads of docs/format.md encoded — a manifest's original bytes
 * with its first type replaced, a manifest re-encoded from the reader's decoded tables, and the
 * "nettrace" block of the unbound events and the raw variants, grouped into events by name. */
#include <stdlib.h>
#include <string.h>

#include "convert_internal.h"
#include "evgen/wire_kinds.h"
#include "evgen/wire_metadata.h"

/* ---- the plan ----------------------------------------------------------------------------------- */

int evgen_cv_plan_init(cv_plan *plan, const evgen_reader *rd)
{
    memset(plan, 0, sizeof *plan);
    plan->n_serials = rd->n_versions;
    plan->own_type = malloc((rd->n_versions ? rd->n_versions : 1) * sizeof *plan->own_type);
    plan->raw_head = calloc(rd->n_versions ? rd->n_versions : 1, sizeof *plan->raw_head);
    if (!plan->own_type || !plan->raw_head)
        return -1;
    for (size_t s = 0; s < rd->n_versions; s++)
        plan->own_type[s] = CV_NO_TYPE;
    return 0;
}

void evgen_cv_plan_free(cv_plan *plan)
{
    for (size_t i = 0; i < plan->n_blocks; i++)
        evgen_wire_buf_free(&plan->blocks[i]);
    free(plan->blocks);
    free(plan->raws);
    free(plan->raw_head);
    free(plan->own_type);
    memset(plan, 0, sizeof *plan);
}

const evgen_trace_field evgen_cv_raw_fields[2] = {
    {"RawSize", EVGEN_WIRE_U32, 0, -1, -1, -1},
    {"Raw", EVGEN_WIRE_U8, 1, -1, -1, 0},
};

int evgen_cv_is_raw_type(const evgen_trace_version *v, const evgen_trace_event_info *info)
{
    if (!info->manifest || strcmp(info->manifest->name, CV_NETTRACE_MANIFEST) != 0 || v->n_fields != 2)
        return 0;
    for (uint32_t f = 0; f < 2; f++) {
        const evgen_trace_field *a = &v->fields[f], *b = &evgen_cv_raw_fields[f];
        if (strcmp(a->name, b->name) != 0 || a->kind != b->kind || a->is_array != b->is_array ||
            a->count_field != b->count_field)
            return 0;
    }
    return 1;
}

uint32_t evgen_cv_raw_bound(const evgen_reader *rd, const rd_version *raw)
{
    static const char suffix[] = " (raw)";
    const evgen_trace_event_info *ri = raw->info;
    size_t len = strlen(ri->provider), slen = sizeof suffix - 1;
    if (len <= slen || strcmp(ri->provider + len - slen, suffix) != 0)
        return 0;
    const rd_version *best = NULL;
    for (size_t s = 0; s < rd->n_versions; s++) {
        const rd_version *v = rd->versions[s];
        const evgen_trace_event_info *vi = v->info;
        if (vi->id != ri->id || strcmp(vi->name, ri->name) != 0 ||
            strncmp(vi->provider, ri->provider, len - slen) != 0 || vi->provider[len - slen] != '\0' ||
            v->pub->version > raw->pub->version || (best && best->pub->version >= v->pub->version) ||
            evgen_cv_is_raw_type(v->pub, vi))
            continue;
        if (v->pub->fixed_size >= 0) /* every field of a fixed size */
            best = v;
    }
    return best ? best->serial + 1 : 0;
}

long evgen_cv_raw_need(cv_plan *plan, uint32_t serial, uint32_t version)
{
    size_t last = 0; /* the serial's last raw variant + 1 */
    for (size_t k = plan->raw_head[serial]; k; k = plan->raws[k - 1].next) {
        if (plan->raws[k - 1].version == version)
            return (long)(k - 1);
        last = k;
    }
    if (evgen_rd_grow((void **)&plan->raws, &plan->cap_raws, plan->n_raws + 1, sizeof *plan->raws) != 0)
        return -1;
    cv_raw *r = &plan->raws[plan->n_raws];
    memset(r, 0, sizeof *r);
    r->serial = serial;
    r->version = version;
    r->type = CV_NO_TYPE;
    r->layout.version = version;
    r->layout.fields = evgen_cv_raw_fields;
    r->layout.n_fields = 2;
    r->layout.fixed_size = -1;
    r->layout.n_variable = 1;
    if (last)
        plan->raws[last - 1].next = plan->n_raws + 1;
    else
        plan->raw_head[serial] = plan->n_raws + 1;
    return (long)plan->n_raws++;
}

uint32_t evgen_cv_raw_type(const cv_plan *plan, uint32_t serial, uint32_t version)
{
    for (size_t k = plan->raw_head[serial]; k; k = plan->raws[k - 1].next)
        if (plan->raws[k - 1].version == version)
            return plan->raws[k - 1].type;
    return CV_NO_TYPE;
}

/* ---- encoding --------------------------------------------------------------------------------- */

/* The index of `name` among the providers, added if new. */
static uint32_t provider_index(const char ***providers, size_t *n, size_t *cap, const char *name, int *oom)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*providers)[i], name) == 0)
            return (uint32_t)i;
    if (evgen_rd_grow((void **)providers, cap, *n + 1, sizeof **providers) != 0) {
        *oom = 1;
        return 0;
    }
    (*providers)[*n] = name;
    return (uint32_t)(*n)++;
}

/* Everything before the events: first_type, the name, the providers, the enums and structs of `m`
 * (NULL: none). */
static void encode_head(evgen_wire_buf *b, uint64_t first_type, const char *name, const char *const *providers,
                        size_t n_providers, const evgen_trace_manifest *m)
{
    evgen_wire_meta_put_head(b, first_type, name);
    evgen_wire_meta_put_count(b, n_providers);
    for (size_t i = 0; i < n_providers; i++)
        evgen_wire_meta_put_provider(b, providers[i]);
    evgen_wire_meta_put_count(b, m ? m->n_enums : 0);
    for (uint32_t i = 0; m && i < m->n_enums; i++) {
        const evgen_trace_enum *e = &m->enums[i];
        evgen_wire_meta_put_enum_head(b, e->name, e->n_consts);
        for (uint32_t k = 0; k < e->n_consts; k++)
            evgen_wire_meta_put_enum_const(b, e->consts[k].name, e->consts[k].value);
    }
    evgen_wire_meta_put_count(b, m ? m->n_structs : 0);
    for (uint32_t i = 0; m && i < m->n_structs; i++) {
        const evgen_trace_struct *s = &m->structs[i];
        evgen_wire_meta_put_struct_head(b, s->name, s->stride, s->n_members);
        for (uint32_t k = 0; k < s->n_members; k++) {
            const evgen_trace_member *mb = &s->members[k];
            evgen_wire_member wm = {mb->name, mb->kind, mb->offset, mb->enum_index};
            evgen_wire_meta_put_member(b, &wm);
        }
    }
}

static void encode_event_head(evgen_wire_buf *b, const evgen_trace_event_info *info, uint32_t provider,
                              uint32_t n_versions)
{
    evgen_wire_event_head head = {info->name, provider, info->id, info->level, info->keywords, n_versions};
    evgen_wire_meta_put_event_head(b, &head);
}

static void encode_version(evgen_wire_buf *b, const evgen_trace_version *v)
{
    /* A version's own level and keywords go with it; the others are its event's. */
    uint32_t version_flags =
        (v->legacy ? EVGEN_WIRE_VERSION_LEGACY : 0) | (v->own_attributes ? EVGEN_WIRE_VERSION_ATTRIBUTES : 0);
    evgen_wire_version_head head = {v->version, version_flags, v->n_fields, v->level, v->keywords};
    evgen_wire_meta_put_version_head(b, &head);
    for (uint32_t f = 0; f < v->n_fields; f++) {
        const evgen_trace_field *fd = &v->fields[f];
        uint8_t flags = fd->is_array ? EVGEN_WIRE_FIELD_IS_ARRAY : 0;
        evgen_wire_field wf = {fd->name, fd->kind, flags, fd->enum_index, fd->struct_index, fd->count_field};
        evgen_wire_meta_put_field(b, &wf);
    }
}

static evgen_wire_buf *new_block(cv_plan *plan, size_t *cap)
{
    if (evgen_rd_grow((void **)&plan->blocks, cap, plan->n_blocks + 1, sizeof *plan->blocks) != 0)
        return NULL;
    evgen_wire_buf *b = &plan->blocks[plan->n_blocks++];
    memset(b, 0, sizeof *b);
    return b;
}

/* The block of manifest `m` (rd->manifests[i]): its types numbered from plan->n_types in the order
 * of its events and their versions, as a reader numbers them; the payload is `original` (a
 * metadata payload of this manifest, first_type 0) with its first_type replaced, or encoded from
 * the decoded tables. */
static int manifest_block(cv_plan *plan, size_t *cap_blocks, const evgen_reader *rd, const evgen_trace_manifest *m,
                          const evgen_reader_manifest *original)
{
    uint32_t first_type = plan->n_types;
    const char **providers = NULL;
    size_t n_providers = 0, cap_providers = 0, n_events = 0;
    int oom = 0;
    for (size_t i = 0; i < rd->n_events; i++) {
        const rd_event *e = rd->events[i];
        if (e->pub.manifest != m)
            continue;
        n_events++;
        provider_index(&providers, &n_providers, &cap_providers, e->pub.provider, &oom);
        for (uint32_t k = 0; k < e->pub.n_versions; k++)
            plan->own_type[e->versions[k].serial] = plan->n_types++;
    }
    evgen_wire_buf *b = oom ? NULL : new_block(plan, cap_blocks);
    if (!b) {
        free(providers);
        return -1;
    }
    const uint8_t *p = original ? original->metadata : NULL;
    uint64_t zero;
    if (p && evgen_wire_get_varint(&p, original->metadata + original->size, &zero) == 0) {
        /* The head's first element, first_type, replaced; the manifest's name and everything after
         * it copied as they are (evgen_wire_meta_put_head would encode the name again). */
        evgen_wire_buf_varint(b, first_type);
        evgen_wire_buf_raw(b, p, (size_t)(original->metadata + original->size - p));
    } else {
        encode_head(b, first_type, m->name, providers, n_providers, m);
        evgen_wire_meta_put_count(b, n_events);
        for (size_t i = 0; i < rd->n_events; i++) {
            const rd_event *e = rd->events[i];
            if (e->pub.manifest != m)
                continue;
            uint32_t provider = provider_index(&providers, &n_providers, &cap_providers, e->pub.provider, &oom);
            encode_event_head(b, &e->pub, provider, e->pub.n_versions);
            for (uint32_t k = 0; k < e->pub.n_versions; k++)
                encode_version(b, &e->pub.versions[k]);
        }
    }
    free(providers);
    return b->failed || oom ? -1 : 0;
}

/* ---- the "nettrace" block ----------------------------------------------------------------------- */

/* A type of the block: an unbound version's own layout, or a raw variant. */
typedef struct slot {
    const evgen_trace_event_info *info;
    const evgen_trace_version *layout;
    uint32_t *type; /* where its number goes */
    int raw;
    size_t group;   /* the event of the block it is a version of */
    size_t next;    /* the group's next slot + 1, or 0 */
} slot;

/* An event of the block: the types of one (provider, name, id, level, keywords), raw or not, with
 * distinct version numbers; a version seen twice (metadata the trace repeats) starts another. */
typedef struct group {
    const evgen_trace_event_info *info;
    int raw;
    size_t n_slots;
    size_t first, last; /* its slots: the first and last + 1 */
    size_t same;        /* the previous group with the same key + 1, or 0 */
} group;

static uint64_t hash_string(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
    return h;
}

static uint64_t group_hash(const evgen_trace_event_info *info, int raw)
{
    uint64_t h = hash_string(hash_string(0xcbf29ce484222325ull, info->provider), info->name);
    h = (h ^ info->id) * 0x100000001b3ull;
    h = (h ^ info->level) * 0x100000001b3ull;
    h = (h ^ info->keywords) * 0x100000001b3ull;
    return (h ^ (uint64_t)raw) * 0x100000001b3ull;
}

static int same_key(const group *g, const evgen_trace_event_info *info, int raw)
{
    return g->raw == raw && g->info->id == info->id && g->info->level == info->level &&
           g->info->keywords == info->keywords && strcmp(g->info->name, info->name) == 0 &&
           strcmp(g->info->provider, info->provider) == 0;
}

typedef struct grouping {
    slot *slots;
    size_t n_slots, cap_slots;
    group *groups;
    size_t n_groups, cap_groups;
    size_t *table; /* open addressing: the newest group of a key + 1, 0 empty */
    size_t table_cap;
} grouping;

static int add_slot(grouping *g, const evgen_trace_event_info *info, const evgen_trace_version *layout, uint32_t *type,
                    int raw)
{
    if (evgen_rd_grow((void **)&g->slots, &g->cap_slots, g->n_slots + 1, sizeof *g->slots) != 0)
        return -1;
    g->slots[g->n_slots++] = (slot){info, layout, type, raw, 0, 0};
    return 0;
}

/* Puts every slot in a group, in slot order (the block's event order is that of first appearance). */
static int assign_groups(grouping *g)
{
    g->table_cap = 16;
    while (g->table_cap < 2 * g->n_slots)
        g->table_cap *= 2;
    g->table = calloc(g->table_cap, sizeof *g->table);
    if (!g->table)
        return -1;
    for (size_t i = 0; i < g->n_slots; i++) {
        slot *s = &g->slots[i];
        size_t h = (size_t)group_hash(s->info, s->raw) & (g->table_cap - 1);
        while (g->table[h] && !same_key(&g->groups[g->table[h] - 1], s->info, s->raw))
            h = (h + 1) & (g->table_cap - 1);
        /* The oldest group of the key that does not have this version yet. */
        size_t chosen = 0;
        for (size_t k = g->table[h]; k; k = g->groups[k - 1].same) {
            int taken = 0;
            for (size_t j = g->groups[k - 1].first; j && !taken; j = g->slots[j - 1].next)
                taken = g->slots[j - 1].layout->version == s->layout->version;
            if (!taken)
                chosen = k;
        }
        if (!chosen) {
            if (evgen_rd_grow((void **)&g->groups, &g->cap_groups, g->n_groups + 1, sizeof *g->groups) != 0)
                return -1;
            g->groups[g->n_groups] = (group){s->info, s->raw, 0, 0, 0, g->table[h]};
            chosen = ++g->n_groups;
            g->table[h] = chosen;
        }
        group *gr = &g->groups[chosen - 1];
        s->group = chosen - 1;
        if (gr->last)
            g->slots[gr->last - 1].next = i + 1;
        else
            gr->first = i + 1;
        gr->last = i + 1;
        gr->n_slots++;
    }
    return 0;
}

static int by_group_then_version(const void *a, const void *b)
{
    const slot *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    return x->layout->version < y->layout->version ? -1 : x->layout->version > y->layout->version;
}

static int nettrace_block(cv_plan *plan, size_t *cap_blocks, const evgen_reader *rd)
{
    grouping g = {0};
    int rc = -1;
    char **names = NULL; /* by group: the provider it is written under */
    const char **providers = NULL;
    size_t n_providers = 0, cap_providers = 0;
    int oom = 0;
    /* Version by version: an unbound one's own type, then its raw variants by version number. */
    for (size_t s = 0; s < rd->n_versions; s++) {
        const rd_version *v = rd->versions[s];
        if (v->info->unbound && add_slot(&g, v->info, v->pub, &plan->own_type[s], 0) != 0)
            goto done;
        for (size_t k = plan->raw_head[s]; k; k = plan->raws[k - 1].next) {
            cv_raw *r = &plan->raws[k - 1];
            if (add_slot(&g, v->info, &r->layout, &r->type, 1) != 0)
                goto done;
        }
    }
    if (g.n_slots == 0) {
        rc = 0;
        goto done;
    }
    if (assign_groups(&g) != 0)
        goto done;
    /* Within an event, versions in increasing order (the format's rule); events in order. */
    qsort(g.slots, g.n_slots, sizeof *g.slots, by_group_then_version);
    evgen_wire_buf *b = new_block(plan, cap_blocks);
    names = calloc(g.n_groups, sizeof *names);
    if (!b || !names)
        goto done;
    /* The raw variants of a manifest's events go under a provider of their own, "<provider> (raw)",
     * so that a generated reader's <Event>_is (provider and id) never takes one for the event. */
    for (size_t i = 0; i < g.n_groups; i++) {
        const group *gr = &g.groups[i];
        const char *p = gr->info->provider;
        if (gr->raw && !gr->info->unbound) {
            size_t n = strlen(p);
            names[i] = malloc(n + 7);
            if (!names[i])
                goto done;
            memcpy(names[i], p, n);
            memcpy(names[i] + n, " (raw)", 7);
            p = names[i];
        }
        provider_index(&providers, &n_providers, &cap_providers, p, &oom);
    }
    encode_head(b, plan->n_types, CV_NETTRACE_MANIFEST, providers, n_providers, NULL);
    evgen_wire_meta_put_count(b, g.n_groups);
    for (size_t i = 0; i < g.n_slots; i++) {
        slot *s = &g.slots[i];
        if (i == 0 || s->group != g.slots[i - 1].group) {
            const group *gr = &g.groups[s->group];
            const char *p = names[s->group] ? names[s->group] : gr->info->provider;
            encode_event_head(b, gr->info, provider_index(&providers, &n_providers, &cap_providers, p, &oom),
                              (uint32_t)gr->n_slots);
        }
        encode_version(b, s->layout);
        *s->type = plan->n_types++;
    }
    rc = b->failed || oom ? -1 : 0;
done:
    for (size_t i = 0; names && i < g.n_groups; i++)
        free(names[i]);
    free(names);
    free(providers);
    free(g.slots);
    free(g.groups);
    free(g.table);
    return rc;
}

int evgen_cv_plan_metadata(cv_plan *plan, const evgen_reader *rd, const evgen_reader_options *options)
{
    size_t cap_blocks = 0;
    /* A .nettrace file's manifests are those given, in order; an .evtrace file's are its own. The
     * given bytes lay structs out for 8-byte pointers: for a trace with others the reader laid them
     * out again, and the block says what it reads, from the decoded tables. */
    int given = rd->header.container == EVGEN_CONTAINER_NETTRACE && options &&
                options->n_manifests == rd->n_manifests && !evgen_rd_bound_laid_out_again(rd);
    for (size_t i = 0; i < rd->n_manifests; i++)
        if (manifest_block(plan, &cap_blocks, rd, rd->manifests[i], given ? options->manifests[i] : NULL) != 0)
            return -1;
    return nettrace_block(plan, &cap_blocks, rd);
}
