/* main.c — the `evgen` command line: a thin layer over the generator library (pipeline.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/describe.h"
#include "backends/generate.h"
#include "backends/golden.h"
#include "cli/cli.h"
#include "cli/pipeline.h"
#include "cli/trace_manifests.h"
#include "lock/against.h"
#include "lock/lock_model.h"
#include "model/outputs.h"
#include "model/util.h"

#include "evgen/convert.h"
#include "evgen/dump_cli.h"
#include "evgen/export.h"
#include "evgen/reader.h"

enum { EXIT_OK = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2 };

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
        const evgen_model_event *e = &model->events[i];
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

/* `evgen gen`: with --lock, the lock's checks first; then every generated file. */
static int run_gen(const evgen_cli *c, const evgen_model *model, evgen_diags *diags)
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
                                      .sql = c->sql,
                                      .depfile = c->depfile,
                                      .lock_path = c->lock_path,
                                      .reader_only = false};
    int rc = evgen_generate(model, &options, diags);
    free(name);
    return rc == 0 ? EXIT_OK : EXIT_ERRORS;
}

/* `evgen gen --from-lock LOCK`: the reader side of the manifest as that lock froze it. */
static int run_gen_from_lock(const evgen_cli *c, evgen_diags *diags)
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
                                          .sql = c->sql,
                                          .depfile = NULL,
                                          .lock_path = NULL,
                                          .reader_only = true};
        status = evgen_generate(&model, &options, diags) == 0 ? EXIT_OK : EXIT_ERRORS;
    }
    evgen_model_free(&model);
    evgen_lock_free(&lock);
    return status;
}

/* `evgen check --against REV`: the manifest against the lock as REV holds it (against.h). */
static int check_against(const evgen_cli *c, const evgen_model *model, const char *lock_path, evgen_diags *diags)
{
    char *text = NULL, *origin = NULL;
    int rc = evgen_against_fetch(c->against, lock_path, &text, &origin, diags);
    int status = rc < 0 ? EXIT_ERRORS : EXIT_OK;
    if (rc == 1) {
        printf("evgen check: %s does not exist at %s: every event of %s is new since\n", lock_path, c->against,
               c->manifest);
    } else if (rc == 0) {
        evgen_lock old;
        if (evgen_lock_parse(origin, text, &old, diags) != 0 ||
            evgen_compat_check(model, &old, EVGEN_COMPAT_CHECK, diags) != 0)
            status = EXIT_ERRORS;
        else
            printf("evgen check: %s keeps every version %s locked\n", c->manifest, origin);
        evgen_lock_free(&old);
    }
    free(text);
    free(origin);
    return status;
}

/* `evgen lock`: the checks, then the lock file rewritten if it changes, and with --traces DIR a
 * golden trace of every locked version DIR's traces lack and beside it a snapshot of the lock (the
 * lock of the day it was recorded: that day's readers can be generated from it again, evgen gen
 * --from-lock, to read today's traces). All are written, or none (outputs.h). */
static int write_lock(const evgen_cli *c, const evgen_model *model, const char *lock_path, const char *fresh,
                      size_t n_new, evgen_diags *diags)
{
    char *text = evgen_lock_render(model);
    evgen_outset set;
    evgen_outset_init(&set);
    evgen_outset_input(&set, c->manifest);
    for (size_t i = 0; i < model->n_included_files; i++)
        evgen_outset_input(&set, model->included_files[i]);
    int status = evgen_outset_add_text(&set, lock_path, text, diags) == 0 ? EXIT_OK : EXIT_ERRORS;
    char *name = c->name ? evgen_xstrdup(c->name) : evgen_default_name(c->manifest);
    unsigned number = 0;
    size_t n_golden = 0;
    if (status == EXIT_OK && c->traces &&
        evgen_golden_record(model, name, c->traces, &set, &number, &n_golden, diags) != 0)
        status = EXIT_ERRORS;
    if (status == EXIT_OK && number) {
        char *snapshot = evgen_xasprintf("%s/%s-%04u.lock", c->traces, name, number);
        if (evgen_outset_add_text(&set, snapshot, text, diags) != 0)
            status = EXIT_ERRORS;
        free(snapshot);
    }
    if (status == EXIT_OK && evgen_outset_commit(&set, diags) != 0)
        status = EXIT_ERRORS;
    if (status == EXIT_OK) {
        printf("evgen lock: %s: %zu events, %zu versions locked%s%s\n", lock_path, model->n_events,
               count_versions(model), n_new ? "; newly locked: " : "; nothing new", fresh);
        if (number)
            printf("evgen lock: golden trace %s/%s-%04u.evtrace: %zu event versions\n", c->traces, name, number,
                   n_golden);
    }
    evgen_outset_free(&set);
    free(name);
    free(text);
    return status;
}

/* `evgen check` and `evgen lock`: the manifest against its lock file (with --against, against the
 * lock at a revision too; then a missing lock file is no error: the manifest may be new). */
static int run_check_or_lock(const evgen_cli *c, const evgen_model *model, evgen_diags *diags)
{
    char *lock_path = c->lock_path ? evgen_xstrdup(c->lock_path) : evgen_lock_default_path(c->manifest);
    bool is_lock = c->command == EVGEN_CLI_LOCK;
    evgen_lock lock;
    int lrc = evgen_load_lock(lock_path, &lock, diags);
    int status = EXIT_OK;
    if (lrc < 0) {
        status = EXIT_ERRORS;
    } else if (lrc == 1 && !is_lock && !c->against) {
        evgen_error(diags, NULL, EVGEN_D_LOCK_MISSING, "lock file '%s' does not exist", lock_path);
        evgen_note(diags, NULL, "run `evgen lock %s` to freeze the manifest's versions", c->manifest);
        status = EXIT_ERRORS;
    } else if (evgen_compat_check(model, &lock, is_lock ? EVGEN_COMPAT_LOCK : EVGEN_COMPAT_CHECK, diags) != 0) {
        status = EXIT_ERRORS;
    } else {
        size_t n_new = 0;
        char *fresh = unlocked_versions(model, lrc == 0 ? &lock : NULL, &n_new);
        if (is_lock)
            status = write_lock(c, model, lock_path, fresh, n_new, diags);
        /* after the current lock's check only: its errors would be reported twice */
        if (status == EXIT_OK && c->against)
            status = check_against(c, model, lock_path, diags);
        if (status == EXIT_OK && !is_lock && lrc == 0)
            printf("evgen check: %s matches %s (%zu events, %zu versions)%s%s\n", c->manifest, lock_path,
                   model->n_events, count_versions(model), n_new ? "; not yet locked: " : "", fresh);
        free(fresh);
    }
    evgen_lock_free(&lock);
    free(lock_path);
    return status;
}

static int run(const evgen_cli *c, evgen_diags *diags)
{
    if (c->from_lock)
        return run_gen_from_lock(c, diags);
    evgen_frontend_options opts = {c->manifest, c->clang_args, c->n_clang_args, NULL, c->lock_path};
    evgen_model model;
    evgen_model_init(&model);
    int status = EXIT_OK;
    if (evgen_load_manifest(&opts, &model, diags) != 0) {
        status = EXIT_ERRORS;
    } else if (c->command == EVGEN_CLI_GEN) {
        status = run_gen(c, &model, diags);
    } else if (c->command == EVGEN_CLI_DESCRIBE) {
        char *out = c->json ? evgen_describe_json(&model) : evgen_describe_text(&model);
        fputs(out, stdout);
        free(out);
    } else {
        status = run_check_or_lock(c, &model, diags);
    }
    evgen_model_free(&model);
    return status;
}

/* Loads the manifests `trace` is read with (trace_manifests.h): EXIT_OK or EXIT_ERRORS, diagnostics
 * printed. */
static int load_trace_manifests(const evgen_trace_cli *t, const char *trace, const evgen_reader_manifest ***manifests,
                                size_t *n_manifests)
{
    evgen_diags diags;
    evgen_diags_init(&diags);
    int status = evgen_trace_manifests_load(t->paths, t->n_paths, trace, t->clang_args, t->n_clang_args, manifests,
                                            n_manifests, &diags) != 0
                     ? EXIT_ERRORS
                     : EXIT_OK;
    evgen_diags_print(&diags, stderr);
    evgen_diags_free(&diags);
    return status;
}

/* `evgen dump` (argv[0] is "dump"): dump's own options (reader-side/tools/dump_cli.c) and the
 * manifests of .nettrace files (cli.c), loaded before the trace is dumped. */
static int run_dump(int argc, char **argv)
{
    evgen_dump_cli dump;
    if (evgen_dump_cli_init(&dump, argc) != 0)
        return EXIT_ERRORS;
    evgen_trace_cli t;
    int status = evgen_cli_parse_dump(argc, argv, &t, &dump);
    const evgen_reader_manifest **manifests = NULL;
    size_t n_manifests = 0;
    if (status == EVGEN_CLI_RUN && (t.help || dump.help)) {
        evgen_cli_print_help(EVGEN_CLI_DUMP);
        status = EXIT_OK;
    } else if (status == EVGEN_CLI_RUN && t.version) {
        evgen_cli_print_version();
        status = EXIT_OK;
    } else if (status == EVGEN_CLI_RUN && evgen_dump_cli_check(&dump) != 0) {
        status = EXIT_USAGE; /* before any manifest is read */
    } else if (status == EVGEN_CLI_RUN) {
        status = load_trace_manifests(&t, dump.trace, &manifests, &n_manifests);
        evgen_reader_options options = {manifests, n_manifests};
        if (status == EXIT_OK)
            status = evgen_dump_cli_run(&dump, &options);
    }
    evgen_trace_manifests_free(manifests, n_manifests);
    evgen_trace_cli_free(&t);
    evgen_dump_cli_free(&dump);
    return status;
}

/* `evgen convert` (argv[0] is "convert"): IN, OUT, and the manifests as `evgen dump` takes them. */
static int run_convert(int argc, char **argv)
{
    evgen_trace_cli t;
    int status = evgen_cli_parse_convert(argc, argv, &t);
    const evgen_reader_manifest **manifests = NULL;
    size_t n_manifests = 0;
    if (status == EVGEN_CLI_RUN) {
        status = load_trace_manifests(&t, t.in, &manifests, &n_manifests);
        evgen_reader_options options = {manifests, n_manifests};
        if (status == EXIT_OK)
            status = evgen_convert_format(t.in, t.out, &options, t.format_version, t.paths, t.n_paths, stderr) == 0
                         ? EXIT_OK
                         : EXIT_ERRORS;
    }
    evgen_trace_manifests_free(manifests, n_manifests);
    evgen_trace_cli_free(&t);
    return status;
}

/* `evgen export` (argv[0] is "export"): --FORMAT OUT, the traces, and the manifests as `evgen dump`
 * takes them (with none given, evgen's own when a trace is a .nettrace file). */
static int run_export(int argc, char **argv)
{
    evgen_trace_cli t;
    int status = evgen_cli_parse_export(argc, argv, &t);
    const evgen_reader_manifest **manifests = NULL;
    size_t n_manifests = 0;
    bool run = status == EVGEN_CLI_RUN;
    if (run) {
        const char *nettrace = NULL;
        for (size_t i = 0; i < t.n_traces && !nettrace; i++)
            if (evgen_is_nettrace(t.traces[i]))
                nettrace = t.traces[i];
        status = load_trace_manifests(&t, nettrace, &manifests, &n_manifests);
    }
    if (run && status == EXIT_OK) {
        evgen_reader_options reader = {manifests, n_manifests};
        evgen_export_options options;
        evgen_export_options_init(&options);
        options.progress = !t.no_progress;
        options.reader = &reader;
        options.also_read = t.paths;
        options.n_also_read = t.n_paths;
        status = evgen_export(t.exporter, t.export_out, t.traces, t.n_traces, &options, stderr) == 0 ? EXIT_OK
                                                                                                    : EXIT_ERRORS;
    }
    evgen_trace_manifests_free(manifests, n_manifests);
    evgen_trace_cli_free(&t);
    return status;
}

/* describe, check, lock, gen (argv[0] is the command). */
static int run_manifest_command(evgen_cli_command command, int argc, char **argv)
{
    evgen_cli c;
    int status = evgen_cli_parse(command, argc, argv, &c);
    if (status == EVGEN_CLI_RUN) {
        evgen_diags diags;
        evgen_diags_init(&diags);
        status = run(&c, &diags);
        evgen_diags_print(&diags, stderr);
        evgen_diags_free(&diags);
    }
    evgen_cli_free(&c);
    return status;
}

/* `evgen help [COMMAND]`. */
static int run_help(int argc, char **argv)
{
    if (argc > 2)
        return evgen_cli_usage_error(NULL, "unexpected argument '%s': help takes one command", argv[2]);
    int command = argc == 2 ? evgen_cli_find(argv[1]) : -1;
    if (argc == 2 && command < 0 && strcmp(argv[1], "help") != 0)
        return evgen_cli_usage_error(NULL, "no command '%s' to help with", argv[1]);
    evgen_cli_print_help(command);
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return evgen_cli_usage_error(NULL, "missing the command");
    const char *first = argv[1];
    if (strcmp(first, "-h") == 0 || strcmp(first, "--help") == 0 || strcmp(first, "help") == 0)
        return run_help(argc - 1, argv + 1);
    if (strcmp(first, "-V") == 0 || strcmp(first, "--version") == 0) {
        if (argc > 2)
            return evgen_cli_usage_error(NULL, "unexpected argument '%s' after %s", argv[2], first);
        evgen_cli_print_version();
        return EXIT_OK;
    }
    int command = evgen_cli_find(first);
    if (command < 0 && first[0] == '-')
        return evgen_cli_usage_error(NULL, "unknown option '%s'", first);
    if (command < 0)
        return evgen_cli_usage_error(NULL, "unknown command '%s'", first);
    if (command == EVGEN_CLI_DUMP)
        return run_dump(argc - 1, argv + 1);
    if (command == EVGEN_CLI_CONVERT)
        return run_convert(argc - 1, argv + 1);
    if (command == EVGEN_CLI_EXPORT)
        return run_export(argc - 1, argv + 1);
    return run_manifest_command((evgen_cli_command)command, argc - 1, argv + 1);
}
