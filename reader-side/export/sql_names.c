/* sql_names.c — the identifiers of a lowered SQL schema (sql_schema.h; docs/fleet.md, "Names"):
 * metadata names made identifiers (sql_ident), each unique in its namespace — a table's columns, a
 * child table's, every table of the schema — by a suffix _2, _3 ...; events qualified by their
 * provider when two providers share a name, and always when no manifest binds them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql_schema.h"
#include "sql_text.h"

/* ---- namespaces ---------------------------------------------------------------------------------- */

/* The identifiers taken in one namespace (a table's columns, or every table). */
typedef struct namespace_ {
    char **idents;
    size_t n, cap;
    int failed;
} namespace_;

static int ns_has(const namespace_ *ns, const char *ident)
{
    for (size_t i = 0; i < ns->n; i++)
        if (strcmp(ns->idents[i], ident) == 0)
            return 1;
    return 0;
}

/* Records `ident` (taken over; freed on failure): 0, or -1. */
static int ns_add(namespace_ *ns, char *ident)
{
    if (!ident || ns->failed) {
        free(ident);
        ns->failed = 1;
        return -1;
    }
    if (ns->n == ns->cap) {
        size_t cap = ns->cap ? 2 * ns->cap : 16;
        char **grown = realloc(ns->idents, cap * sizeof *grown);
        if (!grown) {
            free(ident);
            ns->failed = 1;
            return -1;
        }
        ns->idents = grown;
        ns->cap = cap;
    }
    ns->idents[ns->n++] = ident;
    return 0;
}

static void ns_free(namespace_ *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        free(ns->idents[i]);
    free(ns->idents);
    memset(ns, 0, sizeof *ns);
}

/* `base` (taken over), made unique in `ns` by a suffix _2, _3 ... (the base cut to keep it within
 * SQL_IDENT_MAX), and recorded there: a copy of it, malloc'd, or NULL if out of memory. */
static char *ns_unique(namespace_ *ns, char *base)
{
    if (!base) {
        ns->failed = 1;
        return NULL;
    }
    char *ident = base;
    for (unsigned k = 2; ns_has(ns, ident); k++) {
        char suffix[16];
        int n = snprintf(suffix, sizeof suffix, "_%u", k);
        size_t keep = strlen(base);
        if (keep + (size_t)n > SQL_IDENT_MAX)
            keep = SQL_IDENT_MAX - (size_t)n;
        if (ident != base)
            free(ident);
        ident = malloc(keep + (size_t)n + 1);
        if (!ident) {
            free(base);
            ns->failed = 1;
            return NULL;
        }
        memcpy(ident, base, keep);
        memcpy(ident + keep, suffix, (size_t)n + 1);
    }
    if (ident != base)
        free(base);
    char *copy = strdup(ident);
    if (ns_add(ns, ident) != 0 || !copy) {
        free(copy);
        ns->failed = 1;
        return NULL;
    }
    return copy;
}

/* ---- the schema's names ---------------------------------------------------------------------------- */

/* Column identifiers, unique in their table (the leading columns and raw first). */
int sql_name_columns(sql_table *table)
{
    namespace_ ns = {0}, *target = &ns;
#define SQL_RESERVE(name, type, doc) ns_add(target, strdup(name));
    SQL_EVENT_LEADING(SQL_RESERVE)
    ns_add(&ns, strdup(SQL_EVENT_RAW));
    for (uint32_t i = 0; i < table->n_slots; i++) {
        sql_slot *slot = &table->slots[i];
        if (!slot->is_array)
            slot->column.ident = ns_unique(&ns, slot->column.ident);
    }
    /* an array's name among the arrays only: it names a child table, not a column */
    namespace_ arrays = {0};
    for (uint32_t i = 0; i < table->n_slots; i++) {
        sql_slot *slot = &table->slots[i];
        if (slot->is_array)
            slot->column.ident = ns_unique(&arrays, slot->column.ident);
        if (slot->is_array && slot->column.ident) {
            namespace_ members = {0};
            target = &members;
            SQL_CHILD_LEADING(SQL_RESERVE)
            for (uint32_t k = 0; k < slot->n_members; k++)
                slot->members[k].ident =
                    ns_unique(&members, sql_ident(slot->st ? slot->members[k].name : SQL_CHILD_VALUE));
            ns.failed |= members.failed;
            ns_free(&members);
        }
    }
#undef SQL_RESERVE
    int failed = ns.failed || arrays.failed;
    ns_free(&ns);
    ns_free(&arrays);
    return failed ? -1 : 0;
}

/* Table identifiers, unique across the schema: the fixed tables, then the events' (qualified by their
 * provider when another provider has an event of the same identifier, and always for an event no
 * manifest binds, whose name, often EventN, each provider gives its own), their child tables, the
 * enums'. */
int sql_name_tables(sql_schema *s)
{
    namespace_ ns = {0};
    ns_add(&ns, strdup(SQL_TABLE_TRACES));
    ns_add(&ns, strdup(SQL_TABLE_EVENT_TABLES));
    char **base = calloc((size_t)s->n_tables + 1, sizeof *base);
    if (!base)
        return -1;
    for (uint32_t i = 0; i < s->n_tables; i++)
        if (!(base[i] = sql_ident(s->tables[i].name)))
            ns.failed = 1;
    for (uint32_t i = 0; i < s->n_tables && !ns.failed; i++) {
        sql_table *t = &s->tables[i];
        int shared = t->unbound;
        for (uint32_t j = 0; j < s->n_tables && !shared; j++)
            shared = j != i && strcmp(base[i], base[j]) == 0 && strcmp(t->provider, s->tables[j].provider) != 0;
        t->ident = ns_unique(&ns, shared ? sql_ident2(t->provider, t->name) : strdup(base[i]));
    }
    for (uint32_t i = 0; i < s->n_tables && !ns.failed; i++) {
        sql_table *t = &s->tables[i];
        for (uint32_t k = 0; k < t->n_slots && !ns.failed; k++) {
            sql_slot *slot = &t->slots[k];
            if (!slot->is_array)
                continue;
            sql_text name = {0};
            sql_text_printf(&name, "%.*s__%s", SQL_IDENT_MAX, t->ident, slot->column.ident);
            char *ident = sql_text_take(&name);
            if (ident && strlen(ident) > SQL_IDENT_MAX)
                ident[SQL_IDENT_MAX] = '\0';
            slot->child_ident = ns_unique(&ns, ident);
        }
    }
    for (uint32_t i = 0; i < s->n_enums && !ns.failed; i++)
        s->enums[i].ident = ns_unique(&ns, sql_ident2("enum", s->enums[i].name));
    for (uint32_t i = 0; i < s->n_tables; i++)
        free(base[i]);
    free(base);
    int failed = ns.failed;
    ns_free(&ns);
    return failed ? -1 : 0;
}

