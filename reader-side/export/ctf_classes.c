/* ctf_classes.c — the ctf exporter's event classes: one per version of every event, and the classes
 * made for payloads that do not fit their version (bytes past the last field, a payload that ends
 * inside a field), so that every byte is exported and each event shows what `evgen dump` shows;
 * evgen convert's raw types read back as dump reads them (docs/export-ctf.md, "Event classes"). */
#include <stdlib.h>
#include <string.h>

#include "convert_internal.h"
#include "ctf_internal.h"

/* Is event `e` shown under its own name? Not when it is a raw type whose every version is read
 * with the bound version it came from. */
static int shown_event(const ctf_classes *c, const rd_event *e)
{
    for (uint32_t k = 0; k < e->pub.n_versions; k++) {
        const ctf_version_plan *p = &c->plans[e->versions[k].serial];
        if (!p->raw_type || !p->bound)
            return 1;
    }
    return 0;
}

int ctf_classes_init(ctf_classes *c, const evgen_reader *rd)
{
    memset(c, 0, sizeof *c);
    c->rd = rd;
    c->plans = calloc(rd->n_versions + 1, sizeof *c->plans);
    c->qualified = calloc(rd->n_events + 1, 1);
    c->cap = rd->n_versions + 16;
    c->items = calloc(c->cap, sizeof *c->items);
    if (!c->plans || !c->qualified || !c->items)
        return -1;
    c->n = rd->n_versions;
    for (size_t s = 0; s < rd->n_versions; s++) {
        const rd_version *v = rd->versions[s];
        ctf_version_plan *p = &c->plans[s];
        p->raw_type = (uint8_t)evgen_cv_is_raw_type(v->pub, v->info);
        p->bound = p->raw_type ? evgen_cv_raw_bound(rd, v) : 0;
        p->n_fields = p->raw_type ? 0 : v->pub->n_fields;
        c->items[s] = (ctf_class){v, p->n_fields, 0, 0, -1};
    }
    /* Two providers' events of one name: both named with their provider. */
    for (size_t i = 0; i < rd->n_events; i++) {
        const rd_event *a = rd->events[i];
        if (!shown_event(c, a))
            continue;
        for (size_t j = i + 1; j < rd->n_events; j++) {
            const rd_event *b = rd->events[j];
            if (strcmp(a->pub.name, b->pub.name) == 0 && strcmp(a->pub.provider, b->pub.provider) != 0 &&
                shown_event(c, b))
                c->qualified[i] = c->qualified[j] = 1;
        }
    }
    return 0;
}

void ctf_classes_free(ctf_classes *c)
{
    for (size_t s = 0; c->plans && c->rd && s < c->rd->n_versions; s++)
        free(c->plans[s].cut_class);
    free(c->plans);
    free(c->qualified);
    free(c->items);
    memset(c, 0, sizeof *c);
}

/* A new class; its id, or -1 if memory ran out. */
static long add_class(ctf_classes *c, ctf_class cls)
{
    if (evgen_rd_grow((void **)&c->items, &c->cap, c->n + 1, sizeof *c->items) != 0) {
        c->oom = 1;
        return -1;
    }
    c->items[c->n] = cls;
    return (long)c->n++;
}

long ctf_class_for(ctf_classes *c, const rd_version *v, uint32_t whole, uint32_t rest)
{
    ctf_version_plan *p = &c->plans[v->serial];
    long id;
    if (whole >= p->n_fields && rest == 0) {
        id = (long)v->serial;
    } else if (whole >= p->n_fields) {
        if (!p->tail_class) {
            id = add_class(c, (ctf_class){v, p->n_fields, 1, 0, -1});
            if (id < 0)
                return -1;
            p->tail_class = (uint32_t)id + 1;
        }
        id = (long)p->tail_class - 1;
    } else {
        if (!p->cut_class && !(p->cut_class = calloc(p->n_fields, sizeof *p->cut_class))) {
            c->oom = 1;
            return -1;
        }
        if (!p->cut_class[whole]) {
            id = add_class(c, (ctf_class){v, whole, 1, 0, (int32_t)whole});
            if (id < 0)
                return -1;
            p->cut_class[whole] = (uint32_t)id + 1;
        }
        id = (long)p->cut_class[whole] - 1;
    }
    c->items[id].used = 1;
    return id;
}

int ctf_class_listed(const ctf_classes *c, size_t id)
{
    const ctf_class *cls = &c->items[id];
    return cls->used || (id < c->rd->n_versions && !c->plans[id].raw_type);
}
