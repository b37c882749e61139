/* sql_schema.c — the SQL schema lowered from the readers' decoded metadata (sql_schema.h): events
 * merged by (provider, name), their versions' fields merged by name into slots typed by family,
 * enums gathered, and every reader's fields mapped to their slots; the identifiers are chosen once
 * by sql_names.c. */
#include "sql_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "sql_text.h"

/* ---- SQL types -----------------------------------------------------------------------------------
 * A kind's values belong to a family of SQL types, ranked by the values they hold: the column of a
 * field whose kind differs between versions takes the widest type of the family that holds every
 * version's values (docs/fleet.md, "Types"). */

typedef enum sql_family { SQL_INTEGER, SQL_FLOAT, SQL_BOOLEAN, SQL_UUID, SQL_TEXT, SQL_STRUCT } sql_family;

static const char *const family_names[] = {"integer", "float", "boolean", "uuid", "text", "struct"};

/* The family of `kind`, and its rank in it. */
static sql_family family_of(unsigned kind, uint8_t *rank)
{
    *rank = 1;
    switch ((evgen_wire_kind)kind) {
    case EVGEN_WIRE_U8: return SQL_INTEGER;                 /* smallint */
    case EVGEN_WIRE_I8: return SQL_INTEGER;
    case EVGEN_WIRE_I16: return SQL_INTEGER;
    case EVGEN_WIRE_U16: *rank = 2; return SQL_INTEGER;     /* integer */
    case EVGEN_WIRE_I32: *rank = 2; return SQL_INTEGER;
    case EVGEN_WIRE_U32: *rank = 3; return SQL_INTEGER;     /* bigint */
    case EVGEN_WIRE_I64: *rank = 3; return SQL_INTEGER;
    case EVGEN_WIRE_PTR: *rank = 3; return SQL_INTEGER;     /* the address's 64 bits, as a signed number */
    case EVGEN_WIRE_U64: *rank = 4; return SQL_INTEGER;     /* numeric(20): up to 2^64 - 1, exactly */
    case EVGEN_WIRE_F32: return SQL_FLOAT;                  /* real */
    case EVGEN_WIRE_F64: *rank = 2; return SQL_FLOAT;       /* double precision */
    case EVGEN_WIRE_BOOL8: return SQL_BOOLEAN;
    case EVGEN_WIRE_BOOL32: return SQL_BOOLEAN;
    case EVGEN_WIRE_GUID: return SQL_UUID;
    case EVGEN_WIRE_UTF8Z: return SQL_TEXT;
    case EVGEN_WIRE_UTF16Z: return SQL_TEXT;
    case EVGEN_WIRE_STRUCT: return SQL_STRUCT; /* never a column: a struct is only an array's element */
    }
    return SQL_STRUCT;
}

/* The SQL type of a family's rank. */
static const char *type_of(sql_family family, uint8_t rank)
{
    static const char *const integers[] = {"smallint", "integer", "bigint", "numeric(20)"};
    switch (family) {
    case SQL_INTEGER: return integers[rank - 1];
    case SQL_FLOAT: return rank == 1 ? "real" : "double precision";
    case SQL_BOOLEAN: return "boolean";
    case SQL_UUID: return "uuid";
    case SQL_TEXT: return "text";
    case SQL_STRUCT: return "bytea";
    }
    return "bytea";
}

/* A column's type starts as its first kind's, and widens to hold every kind's (`kind`). */
static void column_take_kind(sql_column *c, unsigned kind)
{
    uint8_t rank;
    sql_family family = family_of(kind, &rank);
    if (!c->kinds) {
        c->kind = (uint8_t)kind;
        c->rank = rank;
    }
    if (rank > c->rank)
        c->rank = rank;
    c->kinds |= 1u << kind;
    c->type = type_of(family, c->rank);
}

/* ---- building ------------------------------------------------------------------------------------ */

/* One reader's definition of an event. */
typedef struct event_def {
    size_t reader;
    const rd_event *event;
} event_def;

typedef struct builder {
    sql_schema *s;
    const evgen_reader *const *readers;
    event_def *defs;
    size_t n_defs;
    int failed;
} builder;

static int def_order(const void *a, const void *b)
{
    const event_def *x = a, *y = b;
    int c = strcmp(x->event->pub.provider, y->event->pub.provider);
    if (c == 0)
        c = strcmp(x->event->pub.name, y->event->pub.name);
    if (c == 0)
        c = x->reader < y->reader ? -1 : x->reader > y->reader;
    if (c == 0)
        c = x->event->pub.index < y->event->pub.index ? -1 : x->event->pub.index > y->event->pub.index;
    return c;
}

static int same_event(const event_def *x, const event_def *y)
{
    return strcmp(x->event->pub.provider, y->event->pub.provider) == 0 &&
           strcmp(x->event->pub.name, y->event->pub.name) == 0;
}

/* Tables are listed by provider, then id, then name; `first` travels with its table. */
typedef struct table_order_item {
    sql_table table;
    size_t first, end; /* its defs */
} table_order_item;

static int table_order(const void *a, const void *b)
{
    const sql_table *x = &((const table_order_item *)a)->table, *y = &((const table_order_item *)b)->table;
    int c = strcmp(x->provider, y->provider);
    if (c == 0)
        c = x->id < y->id ? -1 : x->id > y->id;
    if (c == 0)
        c = strcmp(x->name, y->name);
    return c;
}

static int u32_order(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int add_u32(uint32_t **items, uint32_t *n, uint32_t v)
{
    uint32_t *grown = realloc(*items, ((size_t)*n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    grown[(*n)++] = v;
    *items = grown;
    return 0;
}

/* The enum `en`'s index in the schema, added (its rows gathered later) if new; -1 if out of memory. */
static int32_t enum_id(builder *b, const evgen_trace_enum *en)
{
    sql_schema *s = b->s;
    for (uint32_t i = 0; i < s->n_enums; i++)
        if (strcmp(s->enums[i].name, en->name) == 0)
            return (int32_t)i;
    sql_enum *grown = realloc(s->enums, ((size_t)s->n_enums + 1) * sizeof *grown);
    if (!grown) {
        b->failed = 1;
        return -1;
    }
    s->enums = grown;
    memset(&s->enums[s->n_enums], 0, sizeof s->enums[0]);
    s->enums[s->n_enums].name = en->name;
    return (int32_t)s->n_enums++;
}

static const char *family_name(unsigned kind)
{
    uint8_t rank;
    return family_names[family_of(kind, &rank)];
}

/* What versions must agree on to share a slot: the families of the values, and an array's members by
 * name. */
static char *shape_of(const evgen_trace_field *f, const evgen_trace_manifest *m)
{
    sql_text t = {0};
    if (!f->is_array) {
        sql_text_puts(&t, family_name(f->kind));
    } else if (f->kind != EVGEN_WIRE_STRUCT) {
        sql_text_puts(&t, "[]");
        sql_text_puts(&t, family_name(f->kind));
    } else {
        const evgen_trace_struct *st = &m->structs[f->struct_index];
        sql_text_puts(&t, "[]{");
        for (uint32_t k = 0; k < st->n_members; k++)
            sql_text_printf(&t, "%s%s:%s", k ? "," : "", st->members[k].name, family_name(st->members[k].kind));
        sql_text_putc(&t, '}');
    }
    return sql_text_take(&t);
}

/* A new slot of `table` for field `f` of version `version` (its manifest `m`), named after the field,
 * or for a field whose shape changed, after the field and the version: its index, or -1. */
static int new_slot(builder *b, sql_table *table, const evgen_trace_field *f, const evgen_trace_manifest *m,
                    uint32_t version, char *shape, int renamed)
{
    sql_slot *grown = realloc(table->slots, ((size_t)table->n_slots + 1) * sizeof *grown);
    if (!grown) {
        free(shape);
        return -1;
    }
    table->slots = grown;
    sql_slot *slot = &table->slots[table->n_slots];
    memset(slot, 0, sizeof *slot);
    slot->shape = shape;
    slot->is_array = f->is_array;
    slot->column.name = f->name;
    slot->column.enum_id = f->enum_index >= 0 ? enum_id(b, &m->enums[f->enum_index]) : -1;
    if (renamed) { /* the ident is the field's + "_v<version>"; chosen in name_columns */
        char tag[16];
        snprintf(tag, sizeof tag, "v%u", version);
        slot->column.ident = sql_ident2(f->name, tag);
    } else {
        slot->column.ident = sql_ident(f->name);
    }
    table->n_slots++;
    if (!slot->column.ident)
        return -1;
    if (f->is_array) {
        const evgen_trace_struct *st = f->kind == EVGEN_WIRE_STRUCT ? &m->structs[f->struct_index] : NULL;
        uint32_t n = st ? st->n_members : 1;
        slot->st = st;
        slot->members = calloc(n, sizeof *slot->members);
        if (!slot->members)
            return -1;
        slot->n_members = n;
        for (uint32_t k = 0; k < n; k++) {
            sql_column *c = &slot->members[k];
            if (st) {
                const evgen_trace_member *mb = &st->members[k];
                c->name = mb->name;
                c->enum_id = mb->enum_index >= 0 ? enum_id(b, &m->enums[mb->enum_index]) : -1;
            } else {
                c->name = f->name;
                c->enum_id = slot->column.enum_id;
            }
        }
    }
    return b->failed ? -1 : (int)(table->n_slots - 1);
}

/* The slot of field `f` in `table`, made if new, with `version` recorded on it: its index, or -1. */
static int slot_of(builder *b, sql_table *table, const evgen_trace_field *f, const evgen_trace_manifest *m,
                   uint32_t version)
{
    char *shape = shape_of(f, m);
    if (!shape)
        return -1;
    int found = -1, same_name = 0;
    for (uint32_t i = 0; i < table->n_slots && found < 0; i++) {
        if (strcmp(table->slots[i].column.name, f->name) != 0)
            continue;
        same_name = 1;
        if (strcmp(table->slots[i].shape, shape) == 0)
            found = (int)i;
    }
    if (found >= 0)
        free(shape);
    else
        found = new_slot(b, table, f, m, version, shape, same_name);
    if (found < 0)
        return -1;
    sql_slot *slot = &table->slots[found];
    column_take_kind(&slot->column, f->kind);
    if (slot->column.enum_id < 0 && f->enum_index >= 0) { /* the first enum a version names */
        slot->column.enum_id = enum_id(b, &m->enums[f->enum_index]);
        if (slot->is_array && !slot->st)
            slot->members[0].enum_id = slot->column.enum_id;
    }
    if (slot->st) { /* the same members by name and family: each widened by this version's */
        const evgen_trace_struct *st = &m->structs[f->struct_index];
        for (uint32_t k = 0; k < slot->n_members && k < st->n_members; k++)
            column_take_kind(&slot->members[k], st->members[k].kind);
    } else if (slot->is_array) {
        column_take_kind(&slot->members[0], f->kind);
    }
    if ((slot->n_versions == 0 || slot->versions[slot->n_versions - 1] != version) &&
        add_u32(&slot->versions, &slot->n_versions, version) != 0)
        return -1;
    return found;
}

/* The table of defs [first, end): its versions, its slots, and each def's fields mapped. */
static int build_table(builder *b, uint32_t index, size_t first, size_t end)
{
    sql_table *table = &b->s->tables[index];
    for (size_t d = first; d < end; d++) {
        const evgen_trace_event_info *info = &b->defs[d].event->pub;
        b->s->maps[b->defs[d].reader].table_of_event[info->index] = index;
        for (uint32_t k = 0; k < info->n_versions; k++)
            if (add_u32(&table->versions, &table->n_versions, info->versions[k].version) != 0)
                return -1;
    }
    qsort(table->versions, table->n_versions, sizeof *table->versions, u32_order);
    uint32_t n = 0;
    for (uint32_t i = 0; i < table->n_versions; i++)
        if (n == 0 || table->versions[n - 1] != table->versions[i])
            table->versions[n++] = table->versions[i];
    table->n_versions = n;

    /* by version, then reader, then field: the union by name in version order */
    for (uint32_t i = 0; i < table->n_versions; i++) {
        uint32_t version = table->versions[i];
        for (size_t d = first; d < end; d++) {
            const rd_event *e = b->defs[d].event;
            sql_reader_map *map = &b->s->maps[b->defs[d].reader];
            for (uint32_t k = 0; k < e->pub.n_versions; k++) {
                const evgen_trace_version *v = &e->pub.versions[k];
                if (v->version != version)
                    continue;
                uint32_t serial = e->versions[k].serial;
                if (v->n_fields) {
                    map->slot_of_field[serial] = calloc(v->n_fields, sizeof **map->slot_of_field);
                    if (!map->slot_of_field[serial])
                        return -1;
                }
                for (uint32_t f = 0; f < v->n_fields; f++) {
                    int slot = slot_of(b, table, &v->fields[f], e->pub.manifest, version);
                    if (slot < 0)
                        return -1;
                    map->slot_of_field[serial][f] = (uint32_t)slot;
                }
            }
        }
    }
    for (uint32_t i = 0; i < table->n_slots; i++)
        table->n_scalars += !table->slots[i].is_array;
    return 0;
}

static int row_order(const void *a, const void *b)
{
    const sql_enum_row *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Each enum's rows: the constants of every manifest's enum of its name, each (value, name) once. */
static int gather_enum_rows(builder *b)
{
    sql_schema *s = b->s;
    for (uint32_t i = 0; i < s->n_enums; i++) {
        sql_enum *en = &s->enums[i];
        size_t n = 0;
        for (size_t r = 0; r < s->n_readers; r++) {
            const evgen_reader *rd = b->readers[r];
            for (size_t m = 0; m < rd->n_manifests; m++)
                for (uint32_t k = 0; k < rd->manifests[m]->n_enums; k++) {
                    const evgen_trace_enum *te = &rd->manifests[m]->enums[k];
                    if (strcmp(te->name, en->name) != 0)
                        continue;
                    sql_enum_row *grown = realloc(en->rows, (n + te->n_consts + 1) * sizeof *grown);
                    if (!grown)
                        return -1;
                    en->rows = grown;
                    for (uint32_t c = 0; c < te->n_consts; c++)
                        en->rows[n++] = (sql_enum_row){te->consts[c].value, te->consts[c].name};
                }
        }
        if (n)
            qsort(en->rows, n, sizeof *en->rows, row_order);
        uint32_t kept = 0;
        for (size_t k = 0; k < n; k++)
            if (kept == 0 || row_order(&en->rows[kept - 1], &en->rows[k]) != 0)
                en->rows[kept++] = en->rows[k];
        en->n_rows = kept;
    }
    return 0;
}

static int build(builder *b)
{
    sql_schema *s = b->s;
    size_t n_defs = 0;
    for (size_t r = 0; r < s->n_readers; r++)
        n_defs += b->readers[r]->n_events;
    b->defs = calloc(n_defs + 1, sizeof *b->defs);
    s->maps = calloc(s->n_readers + 1, sizeof *s->maps);
    if (!b->defs || !s->maps)
        return -1;
    for (size_t r = 0; r < s->n_readers; r++) {
        const evgen_reader *rd = b->readers[r];
        sql_reader_map *map = &s->maps[r];
        map->table_of_event = calloc(rd->n_events + 1, sizeof *map->table_of_event);
        map->slot_of_field = calloc(rd->n_versions + 1, sizeof *map->slot_of_field);
        if (!map->table_of_event || !map->slot_of_field)
            return -1;
        map->n_events = rd->n_events;
        map->n_serials = rd->n_versions;
        for (size_t e = 0; e < rd->n_events; e++)
            b->defs[b->n_defs++] = (event_def){r, rd->events[e]};
    }
    qsort(b->defs, b->n_defs, sizeof *b->defs, def_order);

    /* one table per run of defs of the same event, then the tables in their order */
    size_t n_tables = 0;
    for (size_t d = 0; d < b->n_defs; d++)
        n_tables += d == 0 || !same_event(&b->defs[d - 1], &b->defs[d]);
    table_order_item *items = calloc(n_tables + 1, sizeof *items);
    if (!items)
        return -1;
    size_t t = 0;
    for (size_t d = 0; d < b->n_defs; d++) {
        if (d > 0 && same_event(&b->defs[d - 1], &b->defs[d])) {
            items[t - 1].end = d + 1;
            continue;
        }
        const evgen_trace_event_info *info = &b->defs[d].event->pub;
        items[t].table.provider = info->provider;
        items[t].table.name = info->name;
        items[t].table.id = info->id;
        items[t].table.unbound = info->unbound;
        items[t].first = d;
        items[t].end = d + 1;
        t++;
    }
    qsort(items, n_tables, sizeof *items, table_order);
    s->tables = calloc(n_tables + 1, sizeof *s->tables);
    if (!s->tables) {
        free(items);
        return -1;
    }
    s->n_tables = (uint32_t)n_tables;
    for (size_t i = 0; i < n_tables; i++)
        s->tables[i] = items[i].table;
    int failed = 0;
    for (size_t i = 0; i < n_tables && !failed; i++)
        failed = build_table(b, (uint32_t)i, items[i].first, items[i].end) != 0 || b->failed ||
                 sql_name_columns(&s->tables[i]) != 0;
    free(items);
    if (failed || sql_name_tables(s) != 0 || gather_enum_rows(b) != 0)
        return -1;
    return 0;
}

int sql_schema_build(sql_schema *schema, const evgen_reader *const *readers, size_t n_readers)
{
    memset(schema, 0, sizeof *schema);
    schema->n_readers = n_readers;
    builder b = {schema, readers, NULL, 0, 0};
    int rc = build(&b);
    free(b.defs);
    if (rc != 0)
        sql_schema_free(schema);
    return rc;
}

void sql_schema_free(sql_schema *s)
{
    for (uint32_t i = 0; i < s->n_tables; i++) {
        sql_table *t = &s->tables[i];
        for (uint32_t k = 0; k < t->n_slots; k++) {
            sql_slot *slot = &t->slots[k];
            free(slot->column.ident);
            free(slot->child_ident);
            for (uint32_t m = 0; m < slot->n_members; m++)
                free(slot->members[m].ident);
            free(slot->members);
            free(slot->versions);
            free(slot->shape);
        }
        free(t->slots);
        free(t->versions);
        free(t->ident);
    }
    free(s->tables);
    for (uint32_t i = 0; i < s->n_enums; i++) {
        free(s->enums[i].ident);
        free(s->enums[i].rows);
    }
    free(s->enums);
    for (size_t r = 0; s->maps && r < s->n_readers; r++) {
        sql_reader_map *map = &s->maps[r];
        for (size_t k = 0; map->slot_of_field && k < map->n_serials; k++)
            free(map->slot_of_field[k]);
        free(map->slot_of_field);
        free(map->table_of_event);
    }
    free(s->maps);
    memset(s, 0, sizeof *s);
}
