/* main.c — the `evgen` command line: a thin layer over the generator library (pipeline.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "generate.h"
#include "golden.h"
#include "lock_model.h"
#include "pipeline.h"
#include "reader_api.h"
#include "trace_manifests.h"
#include "util.h"

#include "evgen/convert.h" /* after reader_api.h, which includes evgen/reader.h first */

enum { EXIT_OK = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: evgen COMMAND MANIFEST [options]\n"
    "       evgen dump TRACE [options]\n"
    "       evgen convert IN OUT.evtrace [options]\n"
    "\n"
    "commands:\n"
    "  describe MANIFEST [--json]   print every event and version with each field's type, size, offset\n"
    "  check MANIFEST               compare the manifest with its lock file; report breaking changes\n"
    "  lock MANIFEST                freeze every version of every event into the lock file\n"
    "  gen MANIFEST -o DIR          write DIR/NAME_runtime.h/.c and NAME_reader.h/.c (with --lock: check first)\n"
    "  dump TRACE [--json] [--stats] [--event NAME]... [--from NS] [--to NS] [--order time|file]\n"
    "       [--manifest FILE]...    print a trace's events, one line each (evgen dump --help)\n"
    "  convert IN OUT.evtrace [--manifest FILE]...\n"
    "                               rewrite a trace as an .evtrace file (evgen convert --help)\n"
    "  --version                    print evgen's version\n"
    "\n"
    "options:\n"
    "  --lock PATH                  the lock file (default: the manifest's path with .lock)\n"
    "  --traces DIR                 lock: also record a golden trace of the versions DIR's traces lack\n"
    "  --from-lock LOCK             gen: instead of a manifest, the reader side of what LOCK froze\n"
    "  -o DIR                       gen: the output directory (it must exist)\n"
    "  --name NAME                  gen: the prefix of files and symbols (default: the manifest's name)\n"
    "  --quiet                      gen: do not list the files written\n"
    "  --depfile PATH               gen: also write a Make-style depfile of the manifest's inputs\n"
    "  --tests                      gen: also the test harnesses NAME_fire_all.c and NAME_read_all.c\n"
    "  -I DIR, -D NAME[=VALUE], -U NAME, -isystem DIR, -include FILE, --target=TRIPLE, --sysroot=DIR\n"
    "                               passed to the C compiler that reads the manifest\n";

/* What `evgen dump` takes beyond reader-side/src/dump_cli.c's options: the manifests of .nettrace
 * files. Printed after its usage text. */
static const char dump_manifest_usage[] =
    "\n"
    "manifests (.nettrace files, whose events carry no field descriptions):\n"
    "  --manifest FILE    bind the trace's events to FILE's by (provider, event id) (repeatable);\n"
    "                     without it, a .nettrace file is read with evgen's manifest/" EVGEN_DEFAULT_MANIFEST "\n"
    "  -I DIR, -D NAME[=VALUE], -U NAME\n"
    "                     passed to the C compiler that reads the manifests\n";

typedef struct cli {
    const char *command;
    const char *manifest;
    const char *lock_path;
    const char *out_dir;
    const char *name;
    const char *traces;
    const char *from_lock;
    const char *depfile;
    bool json;
    bool quiet;
    bool tests;
    const char **clang_args;
    size_t n_clang_args;
    char *owned[4]; /* arguments rewritten here, freed at exit */
    size_t n_owned;
} cli;

static int usage_error(const char *fmt, const char *arg)
{
    fputs("evgen: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    fputs(usage_text, stderr);
    return EXIT_USAGE;
}

/* Compiler options that take their value as the next argument when not attached. */
static bool is_clang_option_with_value(const char *a)
{
    return strcmp(a, "-I") == 0 || strcmp(a, "-D") == 0 || strcmp(a, "-U") == 0 || strcmp(a, "-isystem") == 0 ||
           strcmp(a, "-include") == 0 || strcmp(a, "--sysroot") == 0 || strcmp(a, "-target") == 0;
}

static int parse_cli(int argc, char **argv, cli *c)
{
    memset(c, 0, sizeof *c);
    c->clang_args = evgen_xcalloc((size_t)argc * 2 + 1, sizeof *c->clang_args);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--json") == 0) {
            c->json = true;
        } else if (strcmp(a, "--quiet") == 0) {
            c->quiet = true;
        } else if (strcmp(a, "--tests") == 0) {
            c->tests = true;
        } else if (strcmp(a, "--from-lock") == 0) {
            if (++i >= argc)
                return usage_error("%s needs a lock file", a);
            c->from_lock = argv[i];
        } else if (strcmp(a, "--traces") == 0) {
            if (++i >= argc)
                return usage_error("%s needs a directory", a);
            c->traces = argv[i];
        } else if (strcmp(a, "--lock") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "--name") == 0 ||
                   strcmp(a, "--depfile") == 0) {
            if (++i >= argc)
                return usage_error("%s needs a value", a);
            if (strcmp(a, "--lock") == 0)
                c->lock_path = argv[i];
            else if (strcmp(a, "-o") == 0)
                c->out_dir = argv[i];
            else if (strcmp(a, "--depfile") == 0)
                c->depfile = argv[i];
            else
                c->name = argv[i];
        } else if (strcmp(a, "--target") == 0) {
            /* libclang takes only the joined spelling of this one */
            if (++i >= argc)
                return usage_error("%s needs a value", a);
            c->clang_args[c->n_clang_args++] = c->owned[c->n_owned++] = evgen_xasprintf("--target=%s", argv[i]);
        } else if (is_clang_option_with_value(a)) {
            if (++i >= argc)
                return usage_error("%s needs a value", a);
            c->clang_args[c->n_clang_args++] = a;
            c->clang_args[c->n_clang_args++] = argv[i];
        } else if (strncmp(a, "-I", 2) == 0 || strncmp(a, "-D", 2) == 0 || strncmp(a, "-U", 2) == 0 ||
                   strncmp(a, "-isystem", 8) == 0 || strncmp(a, "--target=", 9) == 0 ||
                   strncmp(a, "--sysroot=", 10) == 0) {
            c->clang_args[c->n_clang_args++] = a;
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("unknown option '%s'", a);
        } else if (!c->command) {
            c->command = a;
        } else if (!c->manifest) {
            c->manifest = a;
        } else {
            return usage_error("unexpected argument '%s'", a);
        }
    }
    if (!c->command)
        return usage_error("%s", "no command given");
    if (strcmp(c->command, "describe") != 0 && strcmp(c->command, "check") != 0 && strcmp(c->command, "lock") != 0 &&
        strcmp(c->command, "gen") != 0)
        return usage_error("unknown command '%s'", c->command);
    if (!c->manifest && !(c->from_lock && strcmp(c->command, "gen") == 0))
        return usage_error("'%s' needs a manifest", c->command);
    if (c->from_lock && (c->manifest || strcmp(c->command, "gen") != 0))
        return usage_error("%s", "--from-lock replaces the manifest of gen: evgen gen --from-lock LOCK -o DIR --name NAME");
    if (c->from_lock && !c->name)
        return usage_error("%s", "gen --from-lock needs --name NAME");
    if (strcmp(c->command, "gen") == 0 && !c->out_dir)
        return usage_error("%s", "gen needs an output directory: -o DIR");
    return EXIT_OK;
}

static size_t count_versions(const evgen_model *model)
{
    size_t n = 0;
    for (size_t i = 0; i < model->n_events; i++)
        n += model->events[i].n_versions;
    return n;
}

/* Lists the versions the manifest has and the lock does not: what `evgen lock` would freeze
 * (the first MAX_LISTED of them by name). */
#define MAX_LISTED 8

static char *unlocked_versions(const evgen_model *model, const evgen_lock *lock, size_t *count)
{
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    *count = 0;
    for (size_t i = 0; i < model->n_events; i++) {
        const evgen_event *e = &model->events[i];
        const evgen_lock_event *le = NULL;
        for (size_t j = 0; lock && j < lock->n_events; j++)
            if (strcmp(lock->events[j].name, e->name) == 0)
                le = &lock->events[j];
        for (size_t v = 0; v < e->n_versions; v++) {
            bool locked = false;
            for (size_t k = 0; le && k < le->n_versions; k++)
                locked = locked || le->versions[k].version == e->versions[v].version;
            if (locked)
                continue;
            if (*count < MAX_LISTED)
                evgen_sb_printf(&sb, "%s%s v%u", *count ? ", " : "", e->name, e->versions[v].version);
            (*count)++;
        }
    }
    if (*count > MAX_LISTED)
        evgen_sb_printf(&sb, " and %zu more", *count - MAX_LISTED);
    return evgen_sb_take(&sb);
}

/* `evgen lock --traces DIR`: a golden trace of every locked version DIR's traces lack, and beside
 * it a snapshot of the lock. */
static int record_golden(const cli *c, const evgen_model *model, const char *lock_path, evgen_diags *diags)
{
    char *name = c->name ? evgen_xstrdup(c->name) : evgen_default_name(c->manifest);
    unsigned number = 0;
    int rc = evgen_golden_record(model, name, c->traces, &number, diags);
    if (rc == 0 && number) {
        /* The lock as it was when this golden trace was recorded: the readers of that day can be
         * generated from it again (evgen gen --from-lock), to read today's traces. */
        char *snapshot = evgen_xasprintf("%s/%s-%04u.lock", c->traces, name, number);
        char *text = evgen_read_file(lock_path, NULL);
        if (!text || evgen_write_file_atomic(snapshot, text, strlen(text)) != 0) {
            evgen_error(diags, NULL, EVGEN_D_IO, "cannot write '%s'", snapshot);
            rc = -1;
        }
        free(text);
        free(snapshot);
    }
    free(name);
    return rc;
}

/* `evgen gen`: with --lock, the lock's checks first; then every generated file. */
static int run_gen(const cli *c, const evgen_model *model, evgen_diags *diags)
{
    if (c->lock_path) {
        evgen_lock lock;
        int lrc = evgen_load_lock(c->lock_path, &lock, diags);
        if (lrc == 1)
            evgen_error(diags, NULL, EVGEN_D_LOCK_MISSING, "lock file '%s' does not exist", c->lock_path);
        bool ok = lrc == 0 && evgen_compat_check(model, &lock, EVGEN_COMPAT_CHECK, diags) == 0;
        evgen_lock_free(&lock);
        if (!ok)
            return EXIT_ERRORS;
    }
    if (c->name && !evgen_valid_name(c->name)) {
        evgen_error(diags, NULL, EVGEN_D_USAGE, "--name '%s' is not a C identifier: it prefixes generated symbols",
                    c->name);
        return EXIT_USAGE;
    }
    char *name = c->name ? evgen_xstrdup(c->name) : evgen_default_name(c->manifest);
    evgen_generate_options options = {.out_dir = c->out_dir,
                                      .name = name,
                                      .quiet = c->quiet,
                                      .tests = c->tests,
                                      .depfile = c->depfile,
                                      .lock_path = c->lock_path,
                                      .reader_only = false};
    int rc = evgen_generate(model, &options, diags);
    free(name);
    return rc == 0 ? EXIT_OK : EXIT_ERRORS;
}

/* `evgen gen --from-lock LOCK`: the reader side of the manifest as that lock froze it. */
static int run_gen_from_lock(const cli *c, evgen_diags *diags)
{
    evgen_lock lock;
    int lrc = evgen_load_lock(c->from_lock, &lock, diags);
    if (lrc == 1)
        evgen_error(diags, NULL, EVGEN_D_LOCK_MISSING, "lock file '%s' does not exist", c->from_lock);
    if (lrc != 0)
        return EXIT_ERRORS;
    evgen_model model;
    evgen_model_init(&model);
    int status = EXIT_ERRORS;
    if (evgen_model_from_lock(&lock, &model, diags) == 0) {
        evgen_generate_options options = {.out_dir = c->out_dir,
                                          .name = c->name,
                                          .quiet = c->quiet,
                                          .tests = c->tests,
                                          .depfile = NULL,
                                          .lock_path = NULL,
                                          .reader_only = true};
        status = evgen_generate(&model, &options, diags) == 0 ? EXIT_OK : EXIT_ERRORS;
    }
    evgen_model_free(&model);
    evgen_lock_free(&lock);
    return status;
}

static int run(const cli *c, evgen_diags *diags)
{
    if (c->from_lock)
        return run_gen_from_lock(c, diags);
    evgen_frontend_options opts = {c->manifest, c->clang_args, c->n_clang_args, NULL};
    evgen_model model;
    evgen_model_init(&model);
    int status = EXIT_OK;
    char *lock_path = c->lock_path ? evgen_xstrdup(c->lock_path) : evgen_lock_default_path(c->manifest);
    evgen_lock lock;
    memset(&lock, 0, sizeof lock);

    if (evgen_load_manifest(&opts, &model, diags) != 0) {
        status = EXIT_ERRORS;
    } else if (strcmp(c->command, "gen") == 0) {
        status = run_gen(c, &model, diags);
    } else if (strcmp(c->command, "describe") == 0) {
        char *out = c->json ? evgen_describe_json(&model) : evgen_describe_text(&model);
        fputs(out, stdout);
        free(out);
    } else {
        int lrc = evgen_load_lock(lock_path, &lock, diags);
        bool is_lock = strcmp(c->command, "lock") == 0;
        if (lrc < 0) {
            status = EXIT_ERRORS;
        } else if (lrc == 1 && !is_lock) {
            evgen_error(diags, NULL, EVGEN_D_LOCK_MISSING, "lock file '%s' does not exist", lock_path);
            evgen_note(diags, NULL, "run `evgen lock %s` to freeze the manifest's versions", c->manifest);
            status = EXIT_ERRORS;
        } else if (evgen_compat_check(&model, &lock, is_lock ? EVGEN_COMPAT_LOCK : EVGEN_COMPAT_CHECK, diags) != 0) {
            status = EXIT_ERRORS;
        } else {
            size_t n_new = 0;
            char *fresh = unlocked_versions(&model, lrc == 0 ? &lock : NULL, &n_new);
            if (is_lock) {
                char *text = evgen_lock_render(&model);
                char *old = evgen_read_file(lock_path, NULL);
                if (!old || strcmp(old, text) != 0) {
                    if (evgen_write_file_atomic(lock_path, text, strlen(text)) != 0) {
                        evgen_error(diags, NULL, EVGEN_D_IO, "cannot write lock file '%s'", lock_path);
                        status = EXIT_ERRORS;
                    }
                }
                if (status == EXIT_OK)
                    printf("evgen lock: %s: %zu events, %zu versions locked%s%s\n", lock_path, model.n_events,
                           count_versions(&model), n_new ? "; newly locked: " : "; nothing new", fresh);
                if (status == EXIT_OK && c->traces && record_golden(c, &model, lock_path, diags) != 0)
                    status = EXIT_ERRORS;
                free(old);
                free(text);
            } else {
                printf("evgen check: %s matches %s (%zu events, %zu versions)%s%s\n", c->manifest, lock_path,
                       model.n_events, count_versions(&model), n_new ? "; not yet locked: " : "", fresh);
            }
            free(fresh);
        }
    }
    evgen_lock_free(&lock);
    free(lock_path);
    evgen_model_free(&model);
    return status;
}

/* The options of `evgen dump` that take a value, as dump_cli.c parses them: their value is not the
 * trace. */
static bool dump_option_with_value(const char *a)
{
    return strcmp(a, "--event") == 0 || strcmp(a, "--from") == 0 || strcmp(a, "--to") == 0 ||
           strcmp(a, "--order") == 0;
}

/* A usage error of `evgen COMMAND`: the message, then the command's usage and the manifest options. */
static int trace_usage_error(const char *command, const char *usage, const char *fmt, const char *arg)
{
    fprintf(stderr, "evgen %s: error: ", command);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    fputs(usage, stderr);
    fputs(dump_manifest_usage, stderr);
    return EXIT_USAGE;
}

/* The manifest options of `evgen dump` and `evgen convert`: --manifest FILE (or =FILE), and the
 * compiler's -I, -D and -U, with their value attached or next. */
typedef struct manifest_args {
    const char **paths, **clang_args;
    size_t n_paths, n_clang_args;
} manifest_args;

static void manifest_args_init(manifest_args *m, int argc)
{
    m->paths = evgen_xcalloc((size_t)argc + 1, sizeof *m->paths);
    m->clang_args = evgen_xcalloc((size_t)argc * 2 + 1, sizeof *m->clang_args);
    m->n_paths = m->n_clang_args = 0;
}

static void manifest_args_free(manifest_args *m)
{
    free(m->paths);
    free(m->clang_args);
}

/* Takes argv[*i] if it is a manifest option (and its value): 1; 0 if it is not one; -1 if its
 * value is missing (*missing names the option). */
static int manifest_args_take(manifest_args *m, int argc, char **argv, int *i, const char **missing)
{
    const char *a = argv[*i];
    if (strcmp(a, "--manifest") == 0 || strcmp(a, "-I") == 0 || strcmp(a, "-D") == 0 || strcmp(a, "-U") == 0) {
        if (*i + 1 >= argc) {
            *missing = a;
            return -1;
        }
        if (a[1] == '-') {
            m->paths[m->n_paths++] = argv[++*i];
        } else {
            m->clang_args[m->n_clang_args++] = a;
            m->clang_args[m->n_clang_args++] = argv[++*i];
        }
        return 1;
    }
    if (strncmp(a, "--manifest=", 11) == 0) {
        if (a[11] == '\0') {
            *missing = "--manifest";
            return -1;
        }
        m->paths[m->n_paths++] = a + 11;
        return 1;
    }
    if (strncmp(a, "-I", 2) == 0 || strncmp(a, "-D", 2) == 0 || strncmp(a, "-U", 2) == 0) {
        m->clang_args[m->n_clang_args++] = a;
        return 1;
    }
    return 0;
}

/* Loads the manifests `trace` is read with (trace_manifests.h): EXIT_OK or EXIT_ERRORS, diagnostics
 * printed. */
static int manifest_args_load(const manifest_args *m, const char *trace, const evgen_reader_manifest ***manifests,
                              size_t *n_manifests)
{
    evgen_diags diags;
    evgen_diags_init(&diags);
    int status = evgen_trace_manifests_load(m->paths, m->n_paths, trace, m->clang_args, m->n_clang_args, manifests,
                                            n_manifests, &diags) != 0
                     ? EXIT_ERRORS
                     : EXIT_OK;
    evgen_diags_print(&diags, stderr);
    evgen_diags_free(&diags);
    return status;
}

/* `evgen dump` (argv[0] is "dump"): takes out --manifest FILE and the compiler options, loads the
 * manifests the trace is read with (trace_manifests.h), and hands the rest to evgen_dump_main_with. */
static int run_dump(int argc, char **argv)
{
    char **rest = evgen_xcalloc((size_t)argc + 1, sizeof *rest);
    manifest_args m;
    manifest_args_init(&m, argc);
    int n_rest = 0;
    const char *trace = NULL, *missing = NULL;
    bool help = false;
    int status = EXIT_OK;
    rest[n_rest++] = argv[0];
    for (int i = 1; i < argc && status == EXIT_OK; i++) {
        const char *a = argv[i];
        int taken = manifest_args_take(&m, argc, argv, &i, &missing);
        if (taken < 0) {
            status = trace_usage_error("dump", evgen_dump_usage, "%s needs a value", missing);
        } else if (!taken) {
            /* dump_cli.c's own: note the trace (the first argument that is neither an option nor an
             * option's value) and whether help is asked for. */
            help = help || strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
            rest[n_rest++] = argv[i];
            if (dump_option_with_value(a) && i + 1 < argc)
                rest[n_rest++] = argv[++i];
            else if (!trace && (a[0] != '-' || a[1] == '\0'))
                trace = a;
        }
    }
    const evgen_reader_manifest **manifests = NULL;
    size_t n_manifests = 0;
    if (status == EXIT_OK && !help)
        status = manifest_args_load(&m, trace, &manifests, &n_manifests);
    if (status == EXIT_OK) {
        evgen_reader_options options = {manifests, n_manifests};
        status = evgen_dump_main_with(n_rest, rest, &options);
        if (help && status == EXIT_OK) {
            fputs(dump_manifest_usage, stdout);
        } else if (status == EXIT_USAGE) {
            fputs(dump_manifest_usage, stderr);
        }
    }
    evgen_trace_manifests_free(manifests, n_manifests);
    manifest_args_free(&m);
    free(rest);
    return status;
}

static const char convert_usage[] =
    "usage: evgen convert IN OUT.evtrace [--manifest FILE]... [-I DIR] [-D NAME[=VALUE]] [-U NAME]\n"
    "\n"
    "Rewrites the trace IN (.nettrace or .evtrace) as the .evtrace file OUT: every event with its thread,\n"
    "timestamp and payload, and metadata any .evtrace reader decodes (docs/convert.md). Exit status: 0;\n"
    "1 if IN cannot be read whole (what is readable is converted) or OUT cannot be written; 2: usage.\n";

static int convert_usage_error(const char *fmt, const char *arg)
{
    return trace_usage_error("convert", convert_usage, fmt, arg);
}

/* `evgen convert` (argv[0] is "convert"): IN, OUT, and the manifests as `evgen dump` takes them. */
static int run_convert(int argc, char **argv)
{
    manifest_args m;
    manifest_args_init(&m, argc);
    const char *in = NULL, *out = NULL, *missing = NULL;
    bool help = false;
    int status = EXIT_OK;
    for (int i = 1; i < argc && status == EXIT_OK && !help; i++) {
        const char *a = argv[i];
        int taken = strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 ? 0 : manifest_args_take(&m, argc, argv, &i, &missing);
        if (taken < 0)
            status = convert_usage_error("%s needs a value", missing);
        else if (taken)
            continue;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            help = true;
        else if (a[0] == '-' && a[1] != '\0')
            status = convert_usage_error("unknown option '%s'", a);
        else if (!in)
            in = a;
        else if (!out)
            out = a;
        else
            status = convert_usage_error("unexpected argument '%s'", a);
    }
    if (help) {
        fputs(convert_usage, stdout);
        fputs(dump_manifest_usage, stdout);
    } else if (status == EXIT_OK && !out) {
        status = convert_usage_error("%s", in ? "missing the output file OUT" : "missing the input trace IN");
    }
    const evgen_reader_manifest **manifests = NULL;
    size_t n_manifests = 0;
    if (status == EXIT_OK && !help) {
        status = manifest_args_load(&m, in, &manifests, &n_manifests);
        if (status == EXIT_OK) {
            evgen_reader_options options = {manifests, n_manifests};
            status = evgen_convert(in, out, &options, stderr) == 0 ? EXIT_OK : EXIT_ERRORS;
        }
    }
    evgen_trace_manifests_free(manifests, n_manifests);
    manifest_args_free(&m);
    return status;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("evgen %s\n", EVGEN_VERSION_STRING);
        return EXIT_OK;
    }
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0)) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    /* dump reads a trace, not a manifest: its own options (reader-side/src/dump_cli.c), and the
     * manifests of .nettrace files (run_dump). */
    if (argc >= 2 && strcmp(argv[1], "dump") == 0)
        return run_dump(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "convert") == 0)
        return run_convert(argc - 1, argv + 1);
    cli c;
    int status = parse_cli(argc, argv, &c);
    if (status == EXIT_OK) {
        evgen_diags diags;
        evgen_diags_init(&diags);
        status = run(&c, &diags);
        evgen_diags_print(&diags, stderr);
        evgen_diags_free(&diags);
    }
    free(c.clang_args);
    for (size_t i = 0; i < c.n_owned; i++)
        free(c.owned[i]);
    return status;
}
