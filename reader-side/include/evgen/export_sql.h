/* evgen/export_sql.h — the SQL schema (PostgreSQL DDL) of the events some traces' decoded metadata
 * define: the one text `evgen export --sql` writes as schema.sql and `evgen gen --sql` as NAME.sql
 * (from a reader of no trace, evgen_reader_open_schema), so a database made from a manifest takes
 * the exports of its traces. The tables, columns, types and naming rules are docs/fleet.md's.
 *
 * Thread safety: reads the readers' metadata only (never their events); the readers must not be
 * used by another thread meanwhile. */
#ifndef EVGEN_EXPORT_SQL_H
#define EVGEN_EXPORT_SQL_H

#include <stddef.h>

#include "evgen/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The DDL of the events of `readers[0..n_readers)` merged (an event by provider and name, its
 * columns the union by name of every version's fields): a malloc'd NUL-terminated text the caller
 * frees, or NULL if memory ran out. The same metadata gives the same text, byte for byte, whatever
 * order a reader lists its events in (tables by provider, event id, name). */
char *evgen_sql_schema(const evgen_reader *const *readers, size_t n_readers);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_EXPORT_SQL_H */
