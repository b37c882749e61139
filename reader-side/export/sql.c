/* sql.c — the sql exporter (evgen/export.h, docs/fleet.md): several traces into a directory of CSV
 * files, one per table of the schema lowered from their metadata (sql_schema.h), with that schema's
 * DDL (schema.sql, the text `evgen gen --sql` prints, sql_ddl.c) and the psql script that loads them
 * (load.sql, sql_load.c). Each table's rows are kept in memory and appended to its file 64 KiB at a
 * time, so any number of tables is written with one file open at once. */
#include "evgen/export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "sql_schema.h"
#include "sql_text.h"
#include "evgen/wire_bytes.h"
#include "evgen/wire_kinds.h"

/* A table's rows are appended to its file when they reach this. */
#define SQL_FLUSH_AT (64u << 10)

/* One CSV file: its rows not yet written. */
typedef struct csv_file {
    char *path;
    sql_text rows;
} csv_file;

/* Where a field of the event being written lies in its payload. */
typedef struct cell {
    uint64_t stamp; /* the event's number + 1 when the payload holds the field */
    uint32_t field, offset, size;
} cell;

typedef struct sql_writer {
    evgen_export_run *run;
    sql_schema schema;
    csv_file *table_files;  /* per table */
    csv_file **child_files; /* per table, per slot: an array's child table (else path NULL) */
    csv_file traces, event_tables;
    csv_file *enum_files;   /* per enum */
    cell *cells;            /* per slot of the widest table */
    uint64_t stamp;
    sql_text scratch;       /* UTF-16 converted */
    sql_time_cache time;
    int failed;             /* reported already */
} sql_writer;

/* ---- files --------------------------------------------------------------------------------------- */

/* Reports a failure once: `what` `path` and errno's reason, or with no path, memory ran out. */
static int fail(sql_writer *w, const char *what, const char *path)
{
    if (!w->failed) {
        if (path)
            evgen_export_error(w->run, "%s %s: %s", what, path, strerror(errno));
        else
            evgen_export_error(w->run, "out of memory");
    }
    w->failed = 1;
    return -1;
}

/* Appends the file's rows to it (creates it the first time, `create`). */
static int csv_flush(sql_writer *w, csv_file *f, int create)
{
    if (f->rows.failed)
        return fail(w, "cannot write", NULL);
    FILE *out = fopen(f->path, create ? "wb" : "ab");
    if (!out)
        return fail(w, "cannot create", f->path);
    size_t n = f->rows.len;
    int ok = fwrite(f->rows.data, 1, n, out) == n;
    ok &= fclose(out) == 0;
    if (!ok)
        return fail(w, "cannot write", f->path);
    f->rows.len = 0;
    return 0;
}

/* The end of a row; the rows go to the file once there are enough. */
static int csv_end_row(sql_writer *w, csv_file *f)
{
    sql_text_putc(&f->rows, '\n');
    return f->rows.len >= SQL_FLUSH_AT || f->rows.failed ? csv_flush(w, f, 0) : 0;
}

/* Creates `name`.csv with its header line. */
static int csv_open(sql_writer *w, csv_file *f, const char *name, const char *const *columns, size_t n)
{
    char file[SQL_IDENT_MAX + 8];
    snprintf(file, sizeof file, "%s.csv", name);
    f->path = evgen_export_path(w->run, file);
    if (!f->path)
        return fail(w, "cannot create", NULL);
    for (size_t i = 0; i < n; i++) {
        if (i)
            sql_text_putc(&f->rows, ',');
        sql_text_puts(&f->rows, columns[i]);
    }
    sql_text_putc(&f->rows, '\n');
    return csv_flush(w, f, 1);
}

static void csv_free(csv_file *f)
{
    free(f->path);
    sql_text_free(&f->rows);
}

/* ---- values -------------------------------------------------------------------------------------- */

/* One value of `kind` at p, `size` bytes (a string's with its terminator), in its column's form. */
static void put_value(sql_writer *w, sql_text *t, unsigned kind, const uint8_t *p, uint32_t size)
{
    switch (evgen_wire_kind_class(kind)) {
    case EVGEN_WIRE_CLASS_UNSIGNED:
        sql_text_u64(t, evgen_wire_load(p, size));
        break;
    case EVGEN_WIRE_CLASS_SIGNED: {
        sql_text_i64(t, evgen_wire_load_signed(p, size));
        break;
    }
    case EVGEN_WIRE_CLASS_FLOAT:
        if (kind == EVGEN_WIRE_F32) {
            float f;
            memcpy(&f, p, 4);
            sql_csv_float(t, f, 1);
        } else {
            double d;
            memcpy(&d, p, 8);
            sql_csv_float(t, d, 0);
        }
        break;
    case EVGEN_WIRE_CLASS_BOOL:
        sql_text_puts(t, evgen_wire_load(p, size) ? "true" : "false");
        break;
    case EVGEN_WIRE_CLASS_POINTER: /* bigint: the address's bits as a signed number */
        sql_text_i64(t, (int64_t)evgen_wire_load(p, size));
        break;
    case EVGEN_WIRE_CLASS_GUID:
        sql_csv_guid(t, p);
        break;
    case EVGEN_WIRE_CLASS_UTF8:
        sql_csv_utf8(t, p, size - 1);
        break;
    case EVGEN_WIRE_CLASS_UTF16:
        sql_csv_utf16(t, &w->scratch, p, (size - 2) / 2);
        break;
    case EVGEN_WIRE_CLASS_STRUCT: /* never a value: a struct is an array's element, by members */
        break;
    }
}

/* The rows of an array field's elements in its child table. */
static int put_elements(sql_writer *w, csv_file *f, const sql_slot *slot, const evgen_event *ev, uint64_t trace_id,
                        uint64_t seq, const evgen_trace_field *fd, const uint8_t *p, uint32_t size)
{
    const evgen_trace_manifest *m = ev->info->manifest;
    const evgen_trace_struct *st = fd->kind == EVGEN_WIRE_STRUCT ? &m->structs[fd->struct_index] : NULL;
    uint32_t elem = st ? 0 : evgen_wire_kind_size(fd->kind, ev->pointer_size);
    uint32_t at = 0;
    for (uint32_t i = 0; st ? at < size : elem && at + elem <= size; i++) {
        const uint8_t *e = p + at;
        uint32_t esize = st ? evgen_struct_element_size(st, e, size - at, ev->pointer_size) : elem;
        if (esize == 0) /* never for an array the plan located whole */
            break;
        at += esize;
        sql_text *t = &f->rows;
        sql_text_i64(t, (int64_t)trace_id);
        sql_text_putc(t, ',');
        sql_text_u64(t, seq);
        sql_text_putc(t, ',');
        sql_text_u64(t, i);
        if (!st) {
            sql_text_putc(t, ',');
            put_value(w, t, fd->kind, e, esize);
        }
        for (uint32_t k = 0; st && k < slot->n_members; k++) {
            uint32_t mo, ms;
            sql_text_putc(t, ',');
            if (k < st->n_members && evgen_struct_member(st, e, esize, ev->pointer_size, k, &mo, &ms))
                put_value(w, t, st->members[k].kind, e + mo, ms);
        }
        if (csv_end_row(w, f) != 0)
            return -1;
    }
    return 0;
}

/* The event's row in its table, and its arrays' elements in their child tables. */
static int put_event(sql_writer *w, size_t trace, uint64_t trace_id, uint64_t seq, const evgen_event *ev,
                     uint64_t start_unix_ns)
{
    const sql_reader_map *map = &w->schema.maps[trace];
    uint32_t serial = evgen_rd_version_of(ev)->serial;
    if (ev->info->index >= map->n_events || serial >= map->n_serials) { /* the reader defines all at open */
        evgen_export_error(w->run, "%s: event %s defined after the trace was opened", w->run->trace_paths[trace],
                           ev->info->name);
        w->failed = 1;
        return -1;
    }
    uint32_t ti = map->table_of_event[ev->info->index];
    const sql_table *table = &w->schema.tables[ti];
    const uint32_t *slot_of = map->slot_of_field[serial];
    csv_file *f = &w->table_files[ti];
    sql_text *t = &f->rows;

    /* where each field lies, up to the first the payload does not hold (it and the rest: NULL) */
    uint64_t stamp = ++w->stamp;
    uint32_t n = ev->layout->n_fields, fi, end = 0;
    for (fi = 0; fi < n; fi++) {
        uint32_t off, size;
        if (!evgen_event_field(ev, fi, &off, &size))
            break;
        cell *c = &w->cells[slot_of[fi]];
        *c = (cell){stamp, fi, off, size};
        if (off + size > end)
            end = off + size;
    }

    sql_text_i64(t, (int64_t)trace_id);
    sql_text_putc(t, ',');
    sql_text_u64(t, seq);
    sql_text_putc(t, ',');
    sql_text_i64(t, (int64_t)ev->thread_id);
    sql_text_putc(t, ',');
    sql_text_i64(t, (int64_t)ev->timestamp_ns);
    sql_text_putc(t, ',');
    sql_csv_time(t, &w->time, start_unix_ns + ev->timestamp_ns);
    sql_text_putc(t, ',');
    sql_text_u64(t, ev->version);
    for (uint32_t k = 0; k < table->n_slots; k++) {
        if (table->slots[k].is_array)
            continue;
        sql_text_putc(t, ',');
        const cell *c = &w->cells[k];
        if (c->stamp == stamp)
            put_value(w, t, ev->layout->fields[c->field].kind, ev->payload + c->offset, c->size);
    }
    sql_text_putc(t, ',');
    if (fi == n && end < ev->size)
        sql_csv_bytea(t, ev->payload + end, ev->size - end);
    if (csv_end_row(w, f) != 0)
        return -1;

    for (uint32_t k = 0; k < table->n_slots; k++) {
        const cell *c = &w->cells[k];
        if (table->slots[k].is_array && c->stamp == stamp &&
            put_elements(w, &w->child_files[ti][k], &table->slots[k], ev, trace_id, seq,
                         &ev->layout->fields[c->field], ev->payload + c->offset, c->size) != 0)
            return -1;
    }
    return 0;
}

/* ---- traces -------------------------------------------------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

/* A trace's id: a 63-bit hash of the file's bytes (4 lanes of 8-byte words), never 0. */
static uint64_t trace_hash(const uint8_t *p, size_t n)
{
    uint64_t lane[4] = {0x9e3779b97f4a7c15u, 0xc2b2ae3d27d4eb4fu, 0x165667b19e3779f9u, 0x27d4eb2f165667c5u};
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; k++) {
            lane[k] = (lane[k] ^ evgen_wire_le64(p + i + 8 * k)) * 0x100000001b3u;
            lane[k] ^= lane[k] >> 29;
        }
    uint64_t h = mix64(n);
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    for (int k = 0; k < 4; k++)
        h = mix64(h ^ lane[k]);
    h &= 0x7fffffffffffffffu;
    return h ? h : 1;
}

static const char *status_name(evgen_read_status s)
{
    switch (s) {
    case EVGEN_READ_OK: return "ok";
    case EVGEN_READ_CORRUPT: return "corrupt";
    case EVGEN_READ_TRUNCATED: return "truncated";
    }
    return "?";
}

static int put_trace(sql_writer *w, size_t i, uint64_t trace_id, uint64_t rows)
{
    const evgen_reader *rd = w->run->readers[i];
    const evgen_trace_header *h = evgen_reader_header(rd);
    sql_text *t = &w->traces.rows;
    size_t n_threads, n_problems;
    int has_end;
    const evgen_reader_thread *threads = evgen_reader_threads(rd, &n_threads, &has_end);
    evgen_reader_problems(rd, &n_problems);
    uint64_t dropped = 0, written_end = 0, dropped_end = 0, too_big_end = 0;
    for (size_t k = 0; k < n_threads; k++) {
        dropped += threads[k].dropped;
        written_end += threads[k].written_end;
        dropped_end += threads[k].dropped_end;
        too_big_end += threads[k].too_big_end;
    }
    int end_block = has_end && h->container == EVGEN_CONTAINER_EVTRACE;
    const char *path = w->run->trace_paths[i];
    sql_text_i64(t, (int64_t)trace_id);
    sql_text_putc(t, ',');
    sql_csv_utf8(t, (const uint8_t *)path, strlen(path));
    sql_text_puts(t, h->container == EVGEN_CONTAINER_NETTRACE ? ",nettrace," : ",evtrace,");
    sql_text_printf(t, "%u,%u,", h->format_version, h->process_id);
    sql_text_i64(t, (int64_t)h->start_unix_ns);
    sql_text_putc(t, ',');
    sql_csv_time(t, &w->time, h->start_unix_ns);
    sql_text_putc(t, ',');
    sql_text_i64(t, (int64_t)h->clock_frequency);
    sql_text_printf(t, ",%u,", h->pointer_size);
    if (h->cpu_count)
        sql_text_u64(t, h->cpu_count);
    sql_text_putc(t, ',');
    sql_text_i64(t, (int64_t)rows);
    sql_text_putc(t, ',');
    sql_text_i64(t, (int64_t)dropped);
    if (end_block) {
        sql_text_putc(t, ',');
        sql_text_i64(t, (int64_t)written_end);
        sql_text_putc(t, ',');
        sql_text_i64(t, (int64_t)dropped_end);
        sql_text_putc(t, ',');
        sql_text_i64(t, (int64_t)too_big_end);
    } else {
        sql_text_puts(t, ",,,");
    }
    sql_text_printf(t, ",%s,%zu", status_name(evgen_reader_status(rd, NULL)), n_problems);
    return csv_end_row(w, &w->traces);
}

/* Every trace's rows: its events in time order, then its row of traces. */
static int put_traces(sql_writer *w)
{
    size_t n = w->run->n_traces;
    uint64_t *ids = calloc(n + 1, sizeof *ids);
    if (!ids)
        return fail(w, "cannot write", NULL);
    for (size_t i = 0; i < n; i++) {
        const evgen_reader *rd = w->run->readers[i];
        ids[i] = trace_hash(rd->data, rd->size);
        /* the same file given twice: two traces all the same, the later one's id the next free one */
        for (int taken = 1; taken;) {
            taken = 0;
            for (size_t k = 0; k < i && !taken; k++)
                taken = ids[k] == ids[i];
            if (taken)
                ids[i] = ids[i] == 0x7fffffffffffffffu ? 1 : ids[i] + 1;
        }
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint64_t start = evgen_reader_header(w->run->readers[i])->start_unix_ns, seq = 0;
        evgen_event ev;
        evgen_export_rewind(w->run, i);
        while (rc == 0 && evgen_export_next(w->run, i, &ev))
            rc = put_event(w, i, ids[i], seq++, &ev, start);
        if (rc == 0)
            rc = put_trace(w, i, ids[i], seq);
    }
    free(ids);
    return rc;
}

/* ---- the lookup tables ----------------------------------------------------------------------------- */

static void put_text(sql_text *t, const char *s)
{
    sql_csv_utf8(t, (const uint8_t *)s, strlen(s));
}

static int put_lookups(sql_writer *w)
{
    const sql_schema *s = &w->schema;
    sql_text *t = &w->event_tables.rows;
    for (uint32_t i = 0; i < s->n_tables; i++) {
        const sql_table *table = &s->tables[i];
        for (int k = -1; k < (int)table->n_slots; k++) {
            const sql_slot *slot = k >= 0 ? &table->slots[k] : NULL;
            if (slot && !slot->is_array)
                continue;
            put_text(t, slot ? slot->child_ident : table->ident);
            sql_text_putc(t, ',');
            put_text(t, table->provider);
            sql_text_putc(t, ',');
            put_text(t, table->name);
            sql_text_printf(t, ",%u,", table->id);
            if (slot)
                put_text(t, slot->column.name);
            sql_text_putc(t, ',');
            sql_text versions = {0};
            if (slot)
                sql_versions_render(slot->versions, slot->n_versions, &versions);
            else
                sql_versions_render(table->versions, table->n_versions, &versions);
            t->failed |= versions.failed;
            sql_csv_utf8(t, (const uint8_t *)versions.data, versions.len);
            sql_text_free(&versions);
            if (csv_end_row(w, &w->event_tables) != 0)
                return -1;
        }
    }
    for (uint32_t i = 0; i < s->n_enums; i++) {
        const sql_enum *en = &s->enums[i];
        for (uint32_t k = 0; k < en->n_rows; k++) {
            sql_text *e = &w->enum_files[i].rows;
            sql_text_i64(e, en->rows[k].value);
            sql_text_putc(e, ',');
            put_text(e, en->rows[k].name);
            if (csv_end_row(w, &w->enum_files[i]) != 0)
                return -1;
        }
    }
    return 0;
}

/* ---- the files ----------------------------------------------------------------------------------- */

static int open_files(sql_writer *w)
{
    const sql_schema *s = &w->schema;
    uint32_t widest = 0;
    w->table_files = calloc((size_t)s->n_tables + 1, sizeof *w->table_files);
    w->child_files = calloc((size_t)s->n_tables + 1, sizeof *w->child_files);
    w->enum_files = calloc((size_t)s->n_enums + 1, sizeof *w->enum_files);
    if (!w->table_files || !w->child_files || !w->enum_files)
        return fail(w, "cannot write", NULL);
    if (csv_open(w, &w->traces, SQL_TABLE_TRACES, sql_traces_columns, sql_n_traces_columns) != 0 ||
        csv_open(w, &w->event_tables, SQL_TABLE_EVENT_TABLES, sql_event_tables_columns, sql_n_event_tables_columns) != 0)
        return -1;
    for (uint32_t i = 0; i < s->n_enums; i++)
        if (csv_open(w, &w->enum_files[i], s->enums[i].ident, sql_enum_columns, sql_n_enum_columns) != 0)
            return -1;
    sql_column_list columns = {NULL, 0};
    int rc = 0;
    for (uint32_t i = 0; i < s->n_tables && rc == 0; i++) {
        const sql_table *t = &s->tables[i];
        if (t->n_slots > widest)
            widest = t->n_slots;
        w->child_files[i] = calloc((size_t)t->n_slots + 1, sizeof **w->child_files);
        if (!w->child_files[i] || sql_table_columns(t, -1, &columns) != 0) {
            rc = fail(w, "cannot write", NULL);
            break;
        }
        rc = csv_open(w, &w->table_files[i], t->ident, columns.names, columns.n);
        for (uint32_t k = 0; k < t->n_slots && rc == 0; k++) {
            if (!t->slots[k].is_array)
                continue;
            if (sql_table_columns(t, (int)k, &columns) != 0)
                rc = fail(w, "cannot write", NULL);
            else
                rc = csv_open(w, &w->child_files[i][k], t->slots[k].child_ident, columns.names, columns.n);
        }
    }
    free(columns.names);
    w->cells = calloc((size_t)widest + 1, sizeof *w->cells);
    if (rc == 0 && !w->cells)
        rc = fail(w, "cannot write", NULL);
    return rc;
}

static int flush_files(sql_writer *w)
{
    const sql_schema *s = &w->schema;
    int rc = csv_flush(w, &w->traces, 0) | csv_flush(w, &w->event_tables, 0);
    for (uint32_t i = 0; i < s->n_enums; i++)
        rc |= csv_flush(w, &w->enum_files[i], 0);
    for (uint32_t i = 0; i < s->n_tables; i++) {
        rc |= csv_flush(w, &w->table_files[i], 0);
        for (uint32_t k = 0; k < s->tables[i].n_slots; k++)
            if (w->child_files[i][k].path)
                rc |= csv_flush(w, &w->child_files[i][k], 0);
    }
    return rc ? -1 : 0;
}

static void free_files(sql_writer *w)
{
    const sql_schema *s = &w->schema;
    csv_free(&w->traces);
    csv_free(&w->event_tables);
    for (uint32_t i = 0; w->enum_files && i < s->n_enums; i++)
        csv_free(&w->enum_files[i]);
    for (uint32_t i = 0; w->table_files && i < s->n_tables; i++) {
        csv_free(&w->table_files[i]);
        for (uint32_t k = 0; w->child_files[i] && k < s->tables[i].n_slots; k++)
            csv_free(&w->child_files[i][k]);
        free(w->child_files[i]);
    }
    free(w->enum_files);
    free(w->table_files);
    free(w->child_files);
    free(w->cells);
}

/* A whole file from a text. */
static int write_text(sql_writer *w, const char *name, sql_text *text)
{
    csv_file f = {evgen_export_path(w->run, name), *text};
    memset(text, 0, sizeof *text);
    int rc = f.path ? csv_flush(w, &f, 1) : fail(w, "cannot create", NULL);
    csv_free(&f);
    return rc;
}

static int write_sql(evgen_export_run *run)
{
    sql_writer w;
    memset(&w, 0, sizeof w);
    w.run = run;
    if (sql_schema_build(&w.schema, (const evgen_reader *const *)run->readers, run->n_traces) != 0)
        return fail(&w, "cannot write", NULL);
    sql_text ddl = {0};
    sql_ddl_render(&w.schema, &ddl);
    int rc = write_text(&w, "schema.sql", &ddl);
    if (rc == 0)
        rc = open_files(&w);
    if (rc == 0)
        rc = put_lookups(&w);
    if (rc == 0)
        rc = put_traces(&w);
    if (rc == 0)
        rc = flush_files(&w);
    if (rc == 0) {
        sql_text script = {0};
        rc = sql_load_script(&w.schema, &script) == 0 ? write_text(&w, "load.sql", &script) : fail(&w, NULL, NULL);
        sql_text_free(&script); /* write_text took it; left here only when it failed */
    }
    free_files(&w);
    sql_text_free(&w.scratch);
    sql_schema_free(&w.schema);
    return rc;
}

const evgen_exporter evgen_exporter_sql = {
    .name = "sql",
    .summary = "CSV tables, their DDL and a load script for PostgreSQL (DuckDB, ClickHouse read them)",
    .out_name = "DIR",
    .out_is_directory = 1,
    .several_traces = 1,
    .write = write_sql,
};
