/* sql_schema.h — the SQL schema of traces, lowered once from their decoded metadata: a table per
 * event (provider and name), its columns the union by name of every version's fields, a child table
 * per array field, an enum lookup table per enum a field names, and for every version of every
 * reader the column of each of its fields. The DDL (sql_ddl.c) is printed from it and the CSV rows
 * (sql.c) are written by it, so the two cannot disagree. The rules are docs/fleet.md's. Not
 * installed. */
#ifndef EVGEN_EXPORT_SQL_SCHEMA_H
#define EVGEN_EXPORT_SQL_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/reader.h"
#include "sql_text.h"

/* The columns every event table starts with, and the one it ends with. */
#define SQL_EVENT_LEADING(X)                                   \
    X("trace_id", "bigint NOT NULL", "the trace (traces.trace_id)") \
    X("seq", "bigint NOT NULL", "the event's number in the trace, in time order, from 0") \
    X("thread_id", "bigint NOT NULL", "the thread the event describes")                   \
    X("timestamp_ns", "bigint NOT NULL", "nanoseconds since the session started")         \
    X("time", "timestamptz NOT NULL", "traces.start_unix_ns + timestamp_ns, to the microsecond") \
    X("version", "integer NOT NULL", "the payload's version")
#define SQL_EVENT_RAW "raw"
/* The columns every child table starts with. */
#define SQL_CHILD_LEADING(X)                                         \
    X("trace_id", "bigint NOT NULL", "the event's trace")                \
    X("seq", "bigint NOT NULL", "the event's seq in its table")          \
    X("idx", "integer NOT NULL", "the element's index in the array, from 0")
#define SQL_CHILD_VALUE "value"

/* A column of values of one kind: a scalar field of an event table, an array's element value or a
 * struct member of a child table. */
typedef struct sql_column {
    char *ident;          /* SQL identifier, unique in its table */
    const char *name;     /* the field's or member's name in the metadata */
    uint8_t kind;         /* its kind (the first version's, for a field) */
    uint32_t kinds;       /* bit 1 << kind of every kind the versions give it */
    uint8_t rank;         /* of its type in its family of types: the widest of its kinds' */
    const char *type;     /* the SQL type: one that holds the values of every kind of `kinds` */
    int32_t enum_id;      /* schema enums[] index of the first enum a version names for it, or -1 */
} sql_column;

/* A field of an event: one column of the event table, or for an array a child table. */
typedef struct sql_slot {
    sql_column column;    /* a scalar: the column; an array: the child table's name and element */
    uint8_t is_array;
    char *child_ident;    /* an array: the child table */
    const evgen_trace_struct *st; /* an array of structs: the first version's struct */
    sql_column *members;  /* an array: its value column, or each member of its struct */
    uint32_t n_members;
    uint32_t *versions;   /* the versions that hold the field, increasing */
    uint32_t n_versions;
    char *shape;          /* what versions must agree on to share the slot (SQL types, members) */
} sql_slot;

/* An event: (provider, name) across every reader. */
typedef struct sql_table {
    char *ident;
    const char *provider, *name;
    uint32_t id;          /* the first definition's */
    uint8_t unbound;      /* the first definition's: an event of a .nettrace no manifest binds */
    uint32_t *versions;   /* every version any reader defines, increasing */
    uint32_t n_versions;
    sql_slot *slots;      /* in order: by version, then by field */
    uint32_t n_slots;
    uint32_t n_scalars;   /* columns between the leading ones and raw */
} sql_table;

typedef struct sql_enum_row {
    int64_t value;
    const char *name;
} sql_enum_row;

typedef struct sql_enum {
    char *ident;          /* "enum_" + the enum's name */
    const char *name;
    sql_enum_row *rows;   /* every (value, name) of every manifest's enum of that name, by value then name */
    uint32_t n_rows;
} sql_enum;

/* Where a reader's events go: by event index, its table; by version serial, each field's slot. */
typedef struct sql_reader_map {
    uint32_t *table_of_event;
    size_t n_events;
    uint32_t **slot_of_field; /* [serial][field] */
    size_t n_serials;
} sql_reader_map;

typedef struct sql_schema {
    sql_table *tables;    /* by provider, then id, then name */
    uint32_t n_tables;
    sql_enum *enums;      /* in the order the tables first name them */
    uint32_t n_enums;
    sql_reader_map *maps; /* one per reader */
    size_t n_readers;
} sql_schema;

/* The fixed tables, named before any event's, and their columns: X(name, type, doc). */
#define SQL_TABLE_TRACES "traces"
#define SQL_TRACES_COLUMNS(X)                                                                              \
    X("trace_id", "bigint NOT NULL", "a hash of the trace file's bytes (+1 for a copy given twice)")       \
    X("file", "text NOT NULL", "the trace's path as the export was given it")                              \
    X("container", "text NOT NULL", "evtrace or nettrace")                                                 \
    X("format_version", "integer NOT NULL", "of the container")                                            \
    X("process_id", "bigint NOT NULL", "the traced process")                                               \
    X("start_unix_ns", "bigint NOT NULL", "when the session started: nanoseconds since 1970-01-01 UTC")    \
    X("start_time", "timestamptz NOT NULL", "the same, to the microsecond")                                \
    X("clock_frequency", "bigint NOT NULL", "ticks per second of the writer's clock")                      \
    X("pointer_size", "smallint NOT NULL", "bytes")                                                        \
    X("cpu_count", "integer", "nettrace: the machine's processors")                                        \
    X("events", "bigint NOT NULL", "events read (rows of the event tables)")                               \
    X("dropped", "bigint NOT NULL", "events the writer dropped (evtrace) or lost (nettrace sequence gaps)") \
    X("end_written", "bigint", "evtrace with its end block: events the writer wrote")                      \
    X("end_dropped", "bigint", "evtrace with its end block: events it dropped")                            \
    X("end_too_big", "bigint", "evtrace with its end block: events too big for a buffer")                  \
    X("status", "text NOT NULL", "ok, corrupt or truncated")                                               \
    X("problems", "integer NOT NULL", "problems the reader found (evgen dump lists them)")
#define SQL_TABLE_EVENT_TABLES "event_tables"
#define SQL_EVENT_TABLES_COLUMNS(X)                                                          \
    X("table_name", "text NOT NULL", "an event table or a child table")                      \
    X("provider", "text NOT NULL", "the event's provider")                                   \
    X("event", "text NOT NULL", "the event's name")                                          \
    X("event_id", "bigint NOT NULL", "the event's id")                                       \
    X("field", "text", "a child table: the array field its rows are the elements of")        \
    X("versions", "text NOT NULL", "the versions of the event (of the field) the metadata defines")
#define SQL_ENUM_COLUMNS(X)                       \
    X("value", "bigint NOT NULL", "the constant's value") \
    X("name", "text NOT NULL", "its name")

/* Lowers the metadata of `readers` into `schema`: 0, or -1 if memory ran out (the schema then
 * freed). */
int sql_schema_build(sql_schema *schema, const evgen_reader *const *readers, size_t n_readers);
void sql_schema_free(sql_schema *schema);

/* sql_names.c: the identifiers of a table's columns, child tables' columns included (at build, once
 * its slots are known), and of every table and enum table (once all tables are): 0, or -1 if memory
 * ran out. */
int sql_name_columns(sql_table *table);
int sql_name_tables(sql_schema *schema);

/* sql_ddl.c: the DDL of `schema` (the text of schema.sql and of `evgen gen --sql`) appended to `out`. */
void sql_ddl_render(const sql_schema *schema, sql_text *out);
/* A list of versions as ranges, "0-2, 4", appended to `out`. */
void sql_versions_render(const uint32_t *versions, uint32_t n, sql_text *out);

/* sql_load.c: the columns of a table in the order of its CSV rows, and load.sql. */
typedef struct sql_column_list {
    const char **names;
    size_t n;
} sql_column_list;
extern const char *const sql_traces_columns[], *const sql_event_tables_columns[], *const sql_enum_columns[];
extern const size_t sql_n_traces_columns, sql_n_event_tables_columns, sql_n_enum_columns;
/* The columns of table `t` (slot < 0) or of its slot `slot`'s child table into `list` (its names
 * array grown as needed; the caller frees it): 0, or -1 if memory ran out. */
int sql_table_columns(const sql_table *t, int slot, sql_column_list *list);
/* load.sql appended to `out`: 0, or -1 if memory ran out. */
int sql_load_script(const sql_schema *schema, sql_text *out);

#endif /* EVGEN_EXPORT_SQL_SCHEMA_H */
