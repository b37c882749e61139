/* sql.c — the back end of `evgen gen --sql`: NAME.sql, the SQL schema of the manifest's events. The
 * model's metadata (what its traces carry) is decoded by libevgen-reader into a reader of no trace
 * (evgen_reader_open_schema) and printed by the one DDL printer `evgen export --sql` writes schema.sql
 * with (evgen/export_sql.h): the schema of a manifest is the schema of its traces' export. */
#include "backends/backend.h"

#include <stdlib.h>

#include "backends/manifest_desc.h"
#include "evgen/export_sql.h"
#include "evgen/reader.h"

/* The schema does not depend on the pointer size (a pointer is a bigint either way). */
#define SQL_SCHEMA_POINTER_SIZE 8

static char *emit_sql(const evgen_backend *self, evgen_backend_run *run, evgen_diags *diags)
{
    (void)self;
    size_t size = 0;
    uint8_t *metadata = evgen_model_metadata(run->model, run->name, &size);
    evgen_reader_manifest manifest = {run->name, metadata, size};
    const evgen_reader_manifest *manifests[] = {&manifest};
    evgen_reader_options options = {manifests, 1};
    char *error = NULL;
    evgen_reader *schema = evgen_reader_open_schema(&options, SQL_SCHEMA_POINTER_SIZE, &error);
    char *text = NULL;
    if (!schema) {
        evgen_error(diags, NULL, EVGEN_D_IO, "cannot describe the manifest's events for %s.sql: %s", run->name,
                    error ? error : "out of memory");
    } else {
        const evgen_reader *readers[] = {schema};
        text = evgen_sql_schema(readers, 1);
        if (!text)
            evgen_error(diags, NULL, EVGEN_D_IO, "cannot print %s.sql: out of memory", run->name);
    }
    free(error);
    evgen_reader_close(schema);
    free(metadata);
    return text;
}

const evgen_backend evgen_backend_sql = {
    .name = "sql",
    .file_suffix = ".sql",
    .sql_only = true,
    .emit = emit_sql,
};
