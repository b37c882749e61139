/* sql_load.c — the columns of each table of a lowered SQL schema (sql_schema.h) as its CSV file's
 * header and load.sql name them, and load.sql itself: the psql script that runs schema.sql and
 * copies every table from its CSV file, in one transaction, into a database that may already hold
 * other exports (docs/fleet.md, "Loading"). */
#include <stdlib.h>

#include "sql_schema.h"

#define SQL_NAME_ROW(name, type, doc) name,
const char *const sql_traces_columns[] = {SQL_TRACES_COLUMNS(SQL_NAME_ROW)};
const char *const sql_event_tables_columns[] = {SQL_EVENT_TABLES_COLUMNS(SQL_NAME_ROW)};
const char *const sql_enum_columns[] = {SQL_ENUM_COLUMNS(SQL_NAME_ROW)};
#undef SQL_NAME_ROW

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
const size_t sql_n_traces_columns = COUNT(sql_traces_columns);
const size_t sql_n_event_tables_columns = COUNT(sql_event_tables_columns);
const size_t sql_n_enum_columns = COUNT(sql_enum_columns);

static int columns_add(sql_column_list *c, const char *name)
{
    const char **grown = realloc(c->names, (c->n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    grown[c->n++] = name;
    c->names = grown;
    return 0;
}

int sql_table_columns(const sql_table *t, int slot, sql_column_list *c)
{
    int failed = 0;
    c->n = 0;
#define SQL_NAME(name, type, doc) failed |= columns_add(c, name);
    if (slot < 0) {
        SQL_EVENT_LEADING(SQL_NAME)
        for (uint32_t k = 0; k < t->n_slots; k++)
            if (!t->slots[k].is_array)
                failed |= columns_add(c, t->slots[k].column.ident);
        failed |= columns_add(c, SQL_EVENT_RAW);
    } else {
        SQL_CHILD_LEADING(SQL_NAME)
        for (uint32_t m = 0; m < t->slots[slot].n_members; m++)
            failed |= columns_add(c, t->slots[slot].members[m].ident);
    }
#undef SQL_NAME
    return failed ? -1 : 0;
}

/* \copy of a table from its CSV file, its columns named (a database made by a newer schema, with more
 * columns, takes it). */
static void copy_line(sql_text *t, const char *file, const char *into, const sql_column_list *c)
{
    sql_text_printf(t, "\\copy \"%s\" (", into);
    for (size_t i = 0; i < c->n; i++)
        sql_text_printf(t, "%s\"%s\"", i ? ", " : "", c->names[i]);
    sql_text_printf(t, ") FROM '%s.csv' WITH (FORMAT csv, HEADER)\n", file);
}

/* A lookup table through a temporary table: its rows already there are kept, not loaded twice. */
static void lookup_lines(sql_text *t, const char *table, const char *const *names, size_t n)
{
    sql_column_list c = {(const char **)names, n};
    sql_text_printf(t, "CREATE TEMP TABLE \"evgen_load\" (LIKE \"%s\");\n", table);
    copy_line(t, table, "evgen_load", &c);
    sql_text_printf(t, "INSERT INTO \"%s\" SELECT * FROM \"evgen_load\" ON CONFLICT DO NOTHING;\n"
                       "DROP TABLE \"evgen_load\";\n", table);
}

int sql_load_script(const sql_schema *s, sql_text *t)
{
    sql_text_puts(t, "-- Loads this export of evgen (evgen export --sql; docs/fleet.md) into PostgreSQL, in one "
                     "transaction:\n"
                     "--   cd DIR && psql -d DATABASE -f load.sql\n"
                     "-- The tables are created if missing (schema.sql); a trace already loaded is refused "
                     "(traces.trace_id).\n"
                     "\\set ON_ERROR_STOP on\n"
                     "SET client_min_messages = warning;\n"
                     "BEGIN;\n"
                     "\\ir schema.sql\n");
    lookup_lines(t, SQL_TABLE_EVENT_TABLES, sql_event_tables_columns, sql_n_event_tables_columns);
    for (uint32_t i = 0; i < s->n_enums; i++)
        lookup_lines(t, s->enums[i].ident, sql_enum_columns, sql_n_enum_columns);
    sql_column_list c = {(const char **)sql_traces_columns, sql_n_traces_columns};
    copy_line(t, SQL_TABLE_TRACES, SQL_TABLE_TRACES, &c);
    sql_column_list columns = {NULL, 0};
    int failed = 0;
    for (uint32_t i = 0; i < s->n_tables && !failed; i++) {
        const sql_table *table = &s->tables[i];
        for (int k = -1; k < (int)table->n_slots && !failed; k++) {
            if (k >= 0 && !table->slots[k].is_array)
                continue;
            failed = sql_table_columns(table, k, &columns) != 0;
            const char *ident = k < 0 ? table->ident : table->slots[k].child_ident;
            copy_line(t, ident, ident, &columns);
        }
    }
    free(columns.names);
    sql_text_puts(t, "COMMIT;\n");
    return failed || t->failed ? -1 : 0;
}
