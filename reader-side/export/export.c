/* export.c — `evgen export`'s driver (evgen/export.h): the table of exporters, the output checked
 * before anything is read and written under a temporary name beside it, the traces opened, the
 * progress bar over their events, the traces' problems reported after the export. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "evgen/export.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"
#include "evgen/files.h"
#include "progress.h"

/* X(ID): evgen_exporter_ID, one row each, in the order --help lists them. */
#define EVGEN_EXPORTERS(X) \
    X(ctf)                 \
    X(perfetto)            \
    X(sql)

#define EVGEN_EXPORTER_DECLARE(id) extern const evgen_exporter evgen_exporter_##id;
EVGEN_EXPORTERS(EVGEN_EXPORTER_DECLARE)
#undef EVGEN_EXPORTER_DECLARE

const evgen_exporter *const evgen_exporters[] = {
#define EVGEN_EXPORTER_ROW(id) &evgen_exporter_##id,
    EVGEN_EXPORTERS(EVGEN_EXPORTER_ROW)
#undef EVGEN_EXPORTER_ROW
        NULL};

const evgen_exporter *evgen_exporter_find(const char *name)
{
    for (const evgen_exporter *const *e = evgen_exporters; *e; e++)
        if (strcmp((*e)->name, name) == 0)
            return *e;
    return NULL;
}

void evgen_export_options_init(evgen_export_options *o)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->progress = 1;
}

/* ---- for exporters ------------------------------------------------------------------------------ */

char *evgen_export_path(const evgen_export_run *run, const char *name)
{
    size_t a = strlen(run->dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (p) {
        memcpy(p, run->dir, a);
        p[a] = '/';
        memcpy(p + a + 1, name, b + 1);
    }
    return p;
}

void evgen_export_error(const evgen_export_run *run, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    fprintf(run->err, "%s: ", run->out);
    vfprintf(run->err, format, ap);
    fputc('\n', run->err);
    va_end(ap);
}

void evgen_export_rewind(evgen_export_run *run, size_t index)
{
    evgen_reader_rewind(run->readers[index], EVGEN_ORDER_TIME);
}

int evgen_export_next(evgen_export_run *run, size_t index, evgen_event *event)
{
    if (!evgen_reader_next(run->readers[index], event))
        return 0;
    evgen_progress_step((evgen_progress *)run->driver);
    return 1;
}

/* ---- a directory output ------------------------------------------------------------------------- */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Removes the temporary directory and what the exporter wrote in it. */
static void remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Whether `path` is an empty directory: 1 yes, 0 it holds something, -1 it cannot be read. */
static int empty_directory(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int empty = 1;
    struct dirent *e;
    while (empty && (e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            empty = 0;
    closedir(d);
    return empty;
}

typedef struct dir_output {
    char *tmp;    /* the temporary directory beside `out` */
    int replaces; /* `out` is an empty directory, removed at the commit */
} dir_output;

/* Checks a directory output: it may not exist yet, or be an empty directory; then creates the
 * temporary directory beside it. 0, or -1 with the reason in `why` (nothing created). */
static int dir_output_open(dir_output *o, const char *out, char *why, size_t why_size)
{
    memset(o, 0, sizeof *o);
    struct stat st;
    if (lstat(out, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            snprintf(why, why_size, "cannot write: %s; the export is a directory, which must be new or empty",
                     S_ISLNK(st.st_mode) ? "a symbolic link" : "it exists and is not a directory");
            return -1;
        }
        int empty = empty_directory(out);
        if (empty != 1) {
            snprintf(why, why_size, "cannot write: %s", empty == 0 ? "a directory that is not empty; the export "
                                                                    "writes a new or empty directory"
                                                                  : strerror(errno));
            return -1;
        }
        o->replaces = 1;
    } else if (errno != ENOENT) {
        snprintf(why, why_size, "cannot write: %s", strerror(errno));
        return -1;
    }
    char *copy1 = strdup(out), *copy2 = strdup(out);
    if (copy1 && copy2) {
        const char *parent = dirname(copy1), *base = basename(copy2);
        size_t n = strlen(parent) + strlen(base) + 32;
        o->tmp = malloc(n);
        if (o->tmp)
            snprintf(o->tmp, n, "%s/.%s.evgen-XXXXXX", parent, base);
    }
    free(copy1);
    free(copy2);
    if (!o->tmp) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (!mkdtemp(o->tmp)) {
        snprintf(why, why_size, "cannot create a directory beside it: %s", strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    return 0;
}

static void dir_output_discard(dir_output *o)
{
    if (o->tmp)
        remove_tree(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
}

/* Renames the temporary directory to `out` (the empty directory it replaces removed first), with the
 * permissions a new directory gets (mkdtemp made it 0700). */
static int dir_output_commit(dir_output *o, const char *out, char *why, size_t why_size)
{
    mode_t mask = umask(0);
    umask(mask);
    if (chmod(o->tmp, 0777 & ~mask) != 0) {
        snprintf(why, why_size, "cannot set the permissions of %s: %s", o->tmp, strerror(errno));
        dir_output_discard(o);
        return -1;
    }
    if (o->replaces && rmdir(out) != 0) {
        snprintf(why, why_size, "cannot replace the empty directory: %s", strerror(errno));
        dir_output_discard(o);
        return -1;
    }
    if (rename(o->tmp, out) != 0) {
        snprintf(why, why_size, "cannot rename %s to it: %s", o->tmp, strerror(errno));
        dir_output_discard(o);
        return -1;
    }
    free(o->tmp);
    o->tmp = NULL;
    return 0;
}

/* ---- the export ---------------------------------------------------------------------------------- */

int evgen_export(const evgen_exporter *exporter, const char *out, const char *const *traces, size_t n_traces,
                 const evgen_export_options *options, FILE *err)
{
    evgen_export_options opt;
    evgen_export_options_init(&opt);
    if (options)
        memcpy(&opt, options, options->size < sizeof opt ? options->size : sizeof opt);
    char why[512];
    char *error = NULL;

    /* The output first: refused before anything is read. */
    evgen_output file_out;
    dir_output dir_out;
    memset(&file_out, 0, sizeof file_out);
    memset(&dir_out, 0, sizeof dir_out);
    if (exporter->out_is_directory) {
        if (dir_output_open(&dir_out, out, why, sizeof why) != 0) {
            fprintf(err, "%s: %s\n", out, why);
            return 1;
        }
    } else {
        size_t n_inputs = n_traces + opt.n_also_read;
        const char **inputs = calloc(n_inputs + 1, sizeof *inputs);
        if (inputs) {
            memcpy(inputs, traces, n_traces * sizeof *inputs);
            if (opt.n_also_read)
                memcpy(inputs + n_traces, opt.also_read, opt.n_also_read * sizeof *inputs);
        }
        int opened = inputs ? evgen_output_open(&file_out, out, inputs, n_inputs, &error) : -1;
        free(inputs);
        if (opened != 0) {
            fprintf(err, "%s: %s\n", out, error ? error : "out of memory");
            free(error);
            return 1;
        }
    }

    int status = 0;
    evgen_reader **readers = calloc(n_traces + 1, sizeof *readers);
    uint64_t total_events = 0, total_size = 0;
    if (!readers) {
        fprintf(err, "%s: out of memory\n", out);
        status = 1;
    }
    for (size_t i = 0; !status && i < n_traces; i++) {
        readers[i] = evgen_reader_open_with(traces[i], opt.reader, &error);
        if (!readers[i]) {
            fprintf(err, "%s: %s\n", traces[i], error ? error : "out of memory");
            free(error);
            error = NULL;
            status = 1;
            break;
        }
        evgen_reader_status(readers[i], NULL); /* validation finished first: exports use the threads' table */
        total_events += readers[i]->total_events;
        total_size += evgen_reader_file_size(readers[i]);
    }

    FILE *f = NULL;
    if (!status && !exporter->out_is_directory) {
        f = fdopen(file_out.fd, "wb");
        if (!f) {
            fprintf(err, "%s: cannot write %s: %s\n", out, file_out.tmp, strerror(errno));
            status = 1;
        } else {
            file_out.fd = -1; /* the stream's now */
            setvbuf(f, NULL, _IOFBF, 1u << 20);
        }
    }

    if (!status) {
        evgen_progress progress;
        evgen_progress_init(&progress, err, n_traces == 1 ? traces[0] : "export", total_events, total_size,
                            opt.progress, -1);
        evgen_export_run run = {exporter, out, dir_out.tmp, f, n_traces, traces, readers, err, &progress};
        for (size_t i = 0; i < n_traces; i++)
            evgen_reader_rewind(readers[i], EVGEN_ORDER_FILE);
        int rc = exporter->write(&run);
        evgen_progress_end(&progress);
        if (f) {
            if ((ferror(f) || fclose(f) != 0) && rc == 0) {
                fprintf(err, "%s: cannot write %s: %s\n", out, file_out.tmp, strerror(errno ? errno : EIO));
                rc = -1;
            }
            f = NULL;
        }
        if (rc != 0) {
            status = 1;
        } else if (exporter->out_is_directory) {
            if (dir_output_commit(&dir_out, out, why, sizeof why) != 0) {
                fprintf(err, "%s: %s\n", out, why);
                status = 1;
            }
        } else if (evgen_output_commit(&file_out, &error) != 0) {
            fprintf(err, "%s: %s\n", out, error ? error : "out of memory");
            free(error);
            status = 1;
        }
    }
    if (f)
        fclose(f);
    if (exporter->out_is_directory)
        dir_output_discard(&dir_out);
    else
        evgen_output_discard(&file_out);

    /* The traces' problems, after everything readable was exported, as evgen dump reports them. */
    for (size_t i = 0; readers && i < n_traces && readers[i]; i++) {
        size_t n_problems;
        const evgen_read_problem *problems = evgen_reader_problems(readers[i], &n_problems);
        for (size_t k = 0; k < n_problems; k++)
            fprintf(err, "%s: offset %llu: %s\n", traces[i], (unsigned long long)problems[k].offset,
                    problems[k].message);
        if (n_problems || evgen_reader_status(readers[i], NULL) != EVGEN_READ_OK)
            status = 1;
        evgen_reader_close(readers[i]);
    }
    free(readers);
    return status;
}
