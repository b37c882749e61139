/* sql.c — the sql exporter (evgen/export.h): not written yet. */
#include "evgen/export.h"

static int write_sql(evgen_export_run *run)
{
    evgen_export_error(run, "the sql export is not implemented yet");
    return -1;
}

const evgen_exporter evgen_exporter_sql = {
    .name = "sql",
    .summary = "CSV tables, their DDL and a load script for PostgreSQL (DuckDB, ClickHouse read them)",
    .out_name = "DIR",
    .out_is_directory = 1,
    .several_traces = 1,
    .write = write_sql,
};
