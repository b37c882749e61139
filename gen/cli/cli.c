/* cli.c — evgen's command line: every command's options as getopt_long tables, its help text, and
 * the parse into evgen_cli / evgen_trace_cli, usage errors GNU style (evgen/dump_cli.h). */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pipeline.h"
#include "cli/trace_manifests.h"
#include "model/util.h"

#include "evgen/dump_cli.h"
#include "evgen/export.h"

static const char *const command_names[EVGEN_CLI_N_COMMANDS] = {"describe", "check", "lock",
                                                                 "gen",      "dump",  "convert", "export"};

static const char general_usage[] =
    "usage: evgen COMMAND [ARGS] [options]\n"
    "       evgen help [COMMAND]\n"
    "\n"
    "commands:\n"
    "  describe MANIFEST [--json]   print every event and version with each field's type, size, offset\n"
    "  check MANIFEST               compare the manifest with its lock file (and a git revision's);\n"
    "                               report breaking changes\n"
    "  lock MANIFEST                freeze every version of every event into the lock file\n"
    "  gen MANIFEST -o DIR          write DIR/NAME_runtime.h/.c and NAME_reader.h/.c\n"
    "  dump TRACE [--json] [--manifest FILE]...\n"
    "                               print a trace's events, one line each\n"
    "  convert IN OUT.evtrace       rewrite a trace as an .evtrace file\n"
    "  export --ctf DIR | --perfetto FILE.json | --sql DIR  TRACE...\n"
    "                               write a trace for babeltrace2 and Trace Compass, the Perfetto UI,\n"
    "                               or a database\n"
    "  help [COMMAND]               this text, or the options of COMMAND\n"
    "\n"
    "options:\n"
    "  -h, --help                   this text\n"
    "  -V, --version                print evgen's version\n"
    "\n"
    "'evgen COMMAND --help' lists the options of COMMAND; 'man evgen' describes them all.\n"
    "Exit status: 0 on success, 1 on errors (reported compiler-style), 2 for a usage error.\n";

/* The options every manifest command passes to the C compiler, and those of every command. */
#define COMPILER_HELP                                                                                      \
    "  -I DIR, -D NAME[=VALUE], -U NAME, -isystem DIR, -include FILE, --target=TRIPLE, --sysroot=DIR\n"    \
    "                      passed to the C compiler that reads the manifest\n"
#define COMMON_HELP                                                                                        \
    "  -h, --help          this text\n"                                                                    \
    "  -V, --version       print evgen's version\n"

static const char describe_help[] =
    "usage: evgen describe MANIFEST [options]\n"
    "\n"
    "Prints every event of MANIFEST and, for each version, every field with its type, size and offset.\n"
    "\n"
    "options:\n"
    "  --json              the same as one JSON document (docs/describe-json.md)\n" COMPILER_HELP COMMON_HELP;

static const char check_help[] =
    "usage: evgen check MANIFEST [options]\n"
    "\n"
    "Compares MANIFEST with its lock file: a field of a locked version inserted, removed, reordered or\n"
    "retyped, a changed event id or a reused name is an error at the manifest line; new versions and new\n"
    "events are fine. Exit status: 0 if it matches, 1 on errors, 2 for a usage error.\n"
    "\n"
    "options:\n"
    "  --lock PATH         the lock file (default: MANIFEST's path with .lock)\n"
    "  --against REV       also compare MANIFEST with the lock as it was at the git revision REV (or in\n"
    "                      the lock file REV): an edit of a shipped version fails even if the lock was\n"
    "                      edited too; a lock REV does not hold is a new manifest, which passes\n" COMPILER_HELP
        COMMON_HELP;

static const char lock_help[] =
    "usage: evgen lock MANIFEST [options]\n"
    "\n"
    "Checks MANIFEST as `evgen check` does, then freezes every version of every event into the lock\n"
    "file (rewritten only when it changes). The lock file, and with --traces the golden trace and its\n"
    "snapshot, are written all or none; each must be a new or regular file (a symbolic link: the file it\n"
    "points to), never a FIFO, device or directory, nor the manifest.\n"
    "\n"
    "options:\n"
    "  --lock PATH         the lock file (default: MANIFEST's path with .lock)\n"
    "  --traces DIR        also record in DIR a golden trace of the versions DIR's traces lack (all of\n"
    "                      them when none of DIR's traces is in the container format this evgen\n"
    "                      writes), and a snapshot of the lock beside it\n"
    "  --name NAME         the golden traces' name (default: the manifest's file name)\n" COMPILER_HELP COMMON_HELP;

static const char gen_help[] =
    "usage: evgen gen MANIFEST -o DIR [options]\n"
    "       evgen gen --from-lock LOCK -o DIR --name NAME [options]\n"
    "\n"
    "Writes DIR/NAME_runtime.h, NAME_runtime.c, NAME_reader.h and NAME_reader.c (docs/codegen.md).\n"
    "They and the depfile are written all or none, each only if its content changes; each must be a new\n"
    "or regular file (a symbolic link: the file it points to), never a FIFO, device or directory, nor an\n"
    "input (the manifest, a header it includes, the lock).\n"
    "\n"
    "options:\n"
    "  -o DIR              the output directory (it must exist)\n"
    "  --name NAME         the prefix of files and symbols (default: the manifest's file name)\n"
    "  --lock PATH         check the manifest against this lock file first, as `evgen check` does\n"
    "  --from-lock LOCK    instead of a manifest, the reader side of what LOCK froze\n"
    "  --tests             also the test harnesses NAME_fire_all.c and NAME_read_all.c\n"
    "  --sql               also NAME.sql, the SQL schema of the manifest's events, as `evgen export\n"
    "                      --sql` fills it (docs/fleet.md)\n"
    "  --depfile PATH      also write a Make-style depfile of the manifest's inputs\n"
    "  --quiet             do not list the files written\n" COMPILER_HELP COMMON_HELP;

/* What `evgen dump` and `evgen convert` take beyond dump's own options: the manifests of .nettrace
 * files. */
static const char trace_manifest_help[] =
    "\n"
    "manifests (.nettrace files, whose events carry no field descriptions):\n"
    "  --manifest FILE    bind the trace's events to FILE's by (provider, event id) (repeatable);\n"
    "                     without it, a .nettrace file is read with evgen's manifest/" EVGEN_DEFAULT_MANIFEST "\n"
    "  -I DIR, -D NAME[=VALUE], -U NAME\n"
    "                     passed to the C compiler that reads the manifests\n"
    "\n"
    "  -V, --version      print evgen's version\n";

static const char convert_help[] =
    "usage: evgen convert IN OUT.evtrace [options]\n"
    "\n"
    "Rewrites the trace IN (.nettrace or .evtrace) as the .evtrace file OUT: every event with its thread,\n"
    "timestamp and payload, and metadata any .evtrace reader decodes (docs/convert.md). OUT must be a new\n"
    "or regular file (a symbolic link: the file it points to), never a FIFO, device or directory, nor IN\n"
    "or a manifest. Exit status: 0; 1 if IN cannot be read whole (what is readable is converted) or OUT\n"
    "cannot be written; 2: usage.\n"
    "\n"
    "options:\n"
    "  --format-version N write OUT in .evtrace format N: 2, the newest (default), or 1, which every\n"
    "                     evgen reads (docs/format.md, \"Versions\")\n"
    "  -h, --help         this text\n";

static const char export_help[] =
    "usage: evgen export --FORMAT OUT TRACE... [options]\n"
    "\n"
    "Writes the traces (.evtrace or .nettrace) in FORMAT for the tools people read traces with, from\n"
    "each trace's own metadata. OUT is written whole or not at all: a file must be new or a regular file\n"
    "(never a trace or a manifest), a directory new or empty. Exit status: 0; 1 if a trace cannot be\n"
    "read whole (what is readable is exported) or OUT cannot be written; 2: usage.\n"
    "\n"
    "formats (one of):\n";

static const char export_options_help[] =
    "\n"
    "options:\n"
    "  --no-progress      no progress bar (shown on a terminal for traces of 64 MiB or more)\n"
    "  -h, --help         this text\n";

/* export's formats, from the table of exporters. */
static void print_export_help(void)
{
    fputs(export_help, stdout);
    for (const evgen_exporter *const *e = evgen_exporters; *e; e++) {
        char option[64];
        snprintf(option, sizeof option, "--%s %s", (*e)->name, (*e)->out_name);
        printf("  %-17s  %s%s\n", option, (*e)->summary, (*e)->several_traces ? " (several traces)" : "");
    }
    fputs(export_options_help, stdout);
    fputs(trace_manifest_help, stdout);
}

int evgen_cli_find(const char *name)
{
    for (int i = 0; i < EVGEN_CLI_N_COMMANDS; i++)
        if (strcmp(name, command_names[i]) == 0)
            return i;
    return -1;
}

const char *evgen_cli_name(evgen_cli_command command)
{
    return command_names[command];
}

void evgen_cli_print_help(int command)
{
    switch (command) {
    case EVGEN_CLI_DESCRIBE:
        fputs(describe_help, stdout);
        return;
    case EVGEN_CLI_CHECK:
        fputs(check_help, stdout);
        return;
    case EVGEN_CLI_LOCK:
        fputs(lock_help, stdout);
        return;
    case EVGEN_CLI_GEN:
        fputs(gen_help, stdout);
        return;
    case EVGEN_CLI_DUMP:
        fputs(evgen_dump_usage, stdout);
        fputs(trace_manifest_help, stdout);
        return;
    case EVGEN_CLI_CONVERT:
        fputs(convert_help, stdout);
        fputs(trace_manifest_help, stdout);
        return;
    case EVGEN_CLI_EXPORT:
        print_export_help();
        return;
    default:
        fputs(general_usage, stdout);
        return;
    }
}

void evgen_cli_print_version(void)
{
    printf("evgen %s\n", EVGEN_VERSION_STRING);
}

/* ---- describe, check, lock, gen ------------------------------------------------------------ */

enum {
    OPT_JSON = EVGEN_DUMP_OPT_END,
    OPT_LOCK,
    OPT_AGAINST,
    OPT_TRACES,
    OPT_NAME,
    OPT_FROM_LOCK,
    OPT_QUIET,
    OPT_DEPFILE,
    OPT_TESTS,
    OPT_TARGET,
    OPT_SYSROOT,
    OPT_ISYSTEM,
    OPT_INCLUDE,
    OPT_MANIFEST,
    OPT_SQL,
    OPT_NO_PROGRESS,
    OPT_FORMAT_VERSION,
    OPT_EXPORTER /* + the exporter's index */
};

#define ONLY(c) (1u << (c))
#define MANIFEST_COMMANDS (ONLY(EVGEN_CLI_DESCRIBE) | ONLY(EVGEN_CLI_CHECK) | ONLY(EVGEN_CLI_LOCK) | ONLY(EVGEN_CLI_GEN))

/* Every long option of the manifest commands, with the commands that take it. */
static const struct {
    struct option option;
    unsigned commands;
} manifest_options[] = {
    {{"json", no_argument, NULL, OPT_JSON}, ONLY(EVGEN_CLI_DESCRIBE)},
    {{"lock", required_argument, NULL, OPT_LOCK}, ONLY(EVGEN_CLI_CHECK) | ONLY(EVGEN_CLI_LOCK) | ONLY(EVGEN_CLI_GEN)},
    {{"against", required_argument, NULL, OPT_AGAINST}, ONLY(EVGEN_CLI_CHECK)},
    {{"traces", required_argument, NULL, OPT_TRACES}, ONLY(EVGEN_CLI_LOCK)},
    {{"name", required_argument, NULL, OPT_NAME}, ONLY(EVGEN_CLI_LOCK) | ONLY(EVGEN_CLI_GEN)},
    {{"from-lock", required_argument, NULL, OPT_FROM_LOCK}, ONLY(EVGEN_CLI_GEN)},
    {{"quiet", no_argument, NULL, OPT_QUIET}, ONLY(EVGEN_CLI_GEN)},
    {{"depfile", required_argument, NULL, OPT_DEPFILE}, ONLY(EVGEN_CLI_GEN)},
    {{"tests", no_argument, NULL, OPT_TESTS}, ONLY(EVGEN_CLI_GEN)},
    {{"sql", no_argument, NULL, OPT_SQL}, ONLY(EVGEN_CLI_GEN)},
    {{"target", required_argument, NULL, OPT_TARGET}, MANIFEST_COMMANDS},
    {{"sysroot", required_argument, NULL, OPT_SYSROOT}, MANIFEST_COMMANDS},
    {{"isystem", required_argument, NULL, OPT_ISYSTEM}, MANIFEST_COMMANDS},
    {{"include", required_argument, NULL, OPT_INCLUDE}, MANIFEST_COMMANDS},
    {{"help", no_argument, NULL, 'h'}, MANIFEST_COMMANDS},
    {{"version", no_argument, NULL, 'V'}, MANIFEST_COMMANDS},
};
#define N_MANIFEST_OPTIONS (sizeof manifest_options / sizeof manifest_options[0])

/* The long options of `command`, ended by an all-zero entry. Caller frees. */
static struct option *long_options_of(evgen_cli_command command)
{
    struct option *options = evgen_xcalloc(N_MANIFEST_OPTIONS + 1, sizeof *options);
    size_t n = 0;
    for (size_t i = 0; i < N_MANIFEST_OPTIONS; i++)
        if (manifest_options[i].commands & ONLY(command))
            options[n++] = manifest_options[i].option;
    return options;
}

static char *own(evgen_cli *c, char *s)
{
    c->owned[c->n_owned++] = s;
    return s;
}

/* clang spells -isystem, -include and -target with one dash, which getopt_long does not take for
 * long options. getopt_long_only would, but it would also take -json, -lock and abbreviations
 * such as -t for --tests, and read -isystemDIR (a spelling clang and evgen accept) as an unknown
 * option. So these spellings are rewritten into their GNU form (--isystem DIR, --isystem=DIR)
 * before getopt_long sees them, up to a "--". */
static void rewrite_single_dash(evgen_cli *c, int argc, char **argv)
{
    c->args = evgen_xcalloc((size_t)argc + 1, sizeof *c->args);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool done = i > 0 && strcmp(a, "--") == 0;
        if (i > 0 && !done && (strcmp(a, "-isystem") == 0 || strcmp(a, "-include") == 0 || strcmp(a, "-target") == 0))
            c->args[i] = own(c, evgen_xasprintf("-%s", a));
        else if (i > 0 && !done && strncmp(a, "-isystem", 8) == 0)
            c->args[i] = own(c, evgen_xasprintf("--isystem=%s", a + 8));
        else
            c->args[i] = argv[i];
        if (done) {
            for (int j = i + 1; j < argc; j++)
                c->args[j] = argv[j];
            return;
        }
    }
}

static void add_clang_args(evgen_cli *c, const char *a, const char *b)
{
    c->clang_args[c->n_clang_args++] = a;
    if (b)
        c->clang_args[c->n_clang_args++] = b;
}

/* Takes one option or operand of a manifest command. Returns EVGEN_CLI_RUN or a usage error's 2. */
static int take_manifest_option(evgen_cli *c, int opt, const char *arg)
{
    switch (opt) {
    case 1:
        if (c->manifest)
            return evgen_cli_usage_error(command_names[c->command], "unexpected argument '%s': one manifest only",
                                         arg);
        c->manifest = arg;
        break;
    case OPT_JSON: c->json = true; break;
    case OPT_LOCK: c->lock_path = arg; break;
    case OPT_AGAINST: c->against = arg; break;
    case OPT_TRACES: c->traces = arg; break;
    case OPT_NAME: c->name = arg; break;
    case OPT_FROM_LOCK: c->from_lock = arg; break;
    case OPT_QUIET: c->quiet = true; break;
    case OPT_DEPFILE: c->depfile = arg; break;
    case OPT_TESTS: c->tests = true; break;
    case OPT_SQL: c->sql = true; break;
    case 'o': c->out_dir = arg; break;
    case 'I': add_clang_args(c, "-I", arg); break;
    case 'D': add_clang_args(c, "-D", arg); break;
    case 'U': add_clang_args(c, "-U", arg); break;
    case OPT_ISYSTEM: add_clang_args(c, "-isystem", arg); break;
    case OPT_INCLUDE: add_clang_args(c, "-include", arg); break;
    /* libclang takes only the joined spelling of these */
    case OPT_TARGET: add_clang_args(c, own(c, evgen_xasprintf("--target=%s", arg)), NULL); break;
    case OPT_SYSROOT: add_clang_args(c, own(c, evgen_xasprintf("--sysroot=%s", arg)), NULL); break;
    default: return 2; /* getopt_long returns no other value for these tables */
    }
    return EVGEN_CLI_RUN;
}

/* What the operands and options must be together, once all are read. */
static int check_manifest_args(const evgen_cli *c)
{
    const char *cmd = command_names[c->command];
    bool gen = c->command == EVGEN_CLI_GEN;
    if (c->from_lock && c->manifest)
        return evgen_cli_usage_error(cmd, "--from-lock replaces the manifest: evgen gen --from-lock LOCK -o DIR --name NAME");
    if (!c->manifest && !c->from_lock)
        return evgen_cli_usage_error(cmd, "missing the manifest: evgen %s MANIFEST", cmd);
    if (c->from_lock && !c->name)
        return evgen_cli_usage_error(cmd, "--from-lock needs --name NAME");
    /* What --from-lock would silently ignore: it compiles no manifest. */
    if (c->from_lock && c->lock_path)
        return evgen_cli_usage_error(cmd, "--from-lock and --lock cannot be used together: there is no manifest to check");
    if (c->from_lock && c->depfile)
        return evgen_cli_usage_error(cmd, "--from-lock and --depfile cannot be used together: there is no manifest "
                                          "whose inputs to list");
    if (c->from_lock && c->n_clang_args)
        return evgen_cli_usage_error(cmd, "--from-lock and compiler options (%s) cannot be used together: no "
                                          "manifest is compiled", c->clang_args[0]);
    if (gen && !c->out_dir)
        return evgen_cli_usage_error(cmd, "missing the output directory: -o DIR");
    return EVGEN_CLI_RUN;
}

int evgen_cli_parse(evgen_cli_command command, int argc, char **argv, evgen_cli *c)
{
    memset(c, 0, sizeof *c);
    c->command = command;
    c->clang_args = evgen_xcalloc((size_t)argc * 2 + 1, sizeof *c->clang_args);
    c->owned = evgen_xcalloc((size_t)argc * 2 + 1, sizeof *c->owned);
    rewrite_single_dash(c, argc, argv);
    struct option *options = long_options_of(command);
    /* "-": operands come back in order as 1, wherever they are; ":": a missing value as ':' */
    const char *shorts = command == EVGEN_CLI_GEN ? "-:hVI:D:U:o:" : "-:hVI:D:U:";
    bool help = false, version = false;
    int status = EVGEN_CLI_RUN, opt;
    optind = 0; /* a fresh scan */
    opterr = 0;
    while (status == EVGEN_CLI_RUN && (opt = getopt_long(argc, c->args, shorts, options, NULL)) != -1) {
        if (opt == '?' || opt == ':')
            status = evgen_cli_option_error(command_names[command], opt, argv); /* as written: "-" keeps the order */
        else if (opt == 'h')
            help = true;
        else if (opt == 'V')
            version = true;
        else
            status = take_manifest_option(c, opt, optarg);
    }
    for (int i = optind; status == EVGEN_CLI_RUN && i < argc; i++) /* the operands after "--" */
        status = take_manifest_option(c, 1, c->args[i]);
    free(options);
    if (status == EVGEN_CLI_RUN && (help || version)) {
        if (help)
            evgen_cli_print_help((int)command);
        else
            evgen_cli_print_version();
        return 0;
    }
    return status == EVGEN_CLI_RUN ? check_manifest_args(c) : status;
}

void evgen_cli_free(evgen_cli *c)
{
    for (size_t i = 0; i < c->n_owned; i++)
        free(c->owned[i]);
    free(c->owned);
    free(c->clang_args);
    free(c->args);
}

/* ---- dump, convert --------------------------------------------------------------------------- */

/* dump's own table has --help: it takes the first two of these */
static const struct option trace_manifest_options[] = {
    {"manifest", required_argument, NULL, OPT_MANIFEST},
    {"version", no_argument, NULL, 'V'},
    {"help", no_argument, NULL, 'h'},
};
#define N_TRACE_MANIFEST_OPTIONS (sizeof trace_manifest_options / sizeof trace_manifest_options[0])

static void trace_cli_init(evgen_trace_cli *t, int argc)
{
    memset(t, 0, sizeof *t);
    t->paths = evgen_xcalloc((size_t)argc + 1, sizeof *t->paths);
    t->clang_args = evgen_xcalloc((size_t)argc * 2 + 1, sizeof *t->clang_args);
    t->traces = evgen_xcalloc((size_t)argc + 1, sizeof *t->traces);
}

void evgen_trace_cli_free(evgen_trace_cli *t)
{
    free(t->paths);
    free(t->clang_args);
    free(t->traces);
}

/* Takes a manifest option of dump or convert: 1, 0 if `opt` is not one, 2 after a usage error. */
static int take_trace_option(evgen_trace_cli *t, const char *command, int opt, const char *arg)
{
    switch (opt) {
    case OPT_MANIFEST:
        if (!arg[0])
            return evgen_cli_usage_error(command, "option '--manifest' needs a value");
        t->paths[t->n_paths++] = arg;
        return 1;
    case 'I':
    case 'D':
    case 'U':
        t->clang_args[t->n_clang_args++] = opt == 'I' ? "-I" : opt == 'D' ? "-D" : "-U";
        t->clang_args[t->n_clang_args++] = arg;
        return 1;
    case 'h':
        t->help = true;
        return 1;
    case 'V':
        t->version = true;
        return 1;
    default:
        return 0;
    }
}

int evgen_cli_parse_dump(int argc, char **argv, evgen_trace_cli *t, struct evgen_dump_cli *dump)
{
    trace_cli_init(t, argc);
    /* dump's own options (evgen/dump_cli.h), then --manifest and --version */
    struct option *options = evgen_xcalloc(evgen_dump_n_long_options + N_TRACE_MANIFEST_OPTIONS, sizeof *options);
    memcpy(options, evgen_dump_long_options, evgen_dump_n_long_options * sizeof *options);
    memcpy(options + evgen_dump_n_long_options, trace_manifest_options, 2 * sizeof *options);
    int status = EVGEN_CLI_RUN, opt;
    optind = 0;
    opterr = 0;
    while (status == EVGEN_CLI_RUN && (opt = getopt_long(argc, argv, "-:hVI:D:U:", options, NULL)) != -1) {
        int taken = opt == '?' || opt == ':' ? 0 : take_trace_option(t, "dump", opt, optarg);
        if (taken == 0 && opt != '?' && opt != ':')
            taken = evgen_dump_cli_take(dump, opt, optarg);
        if (taken == 0)
            status = evgen_cli_option_error("dump", opt, argv);
        else if (taken == 2)
            status = 2;
    }
    for (int i = optind; status == EVGEN_CLI_RUN && i < argc; i++)
        if (evgen_dump_cli_take(dump, 1, argv[i]) == 2)
            status = 2;
    free(options);
    return status;
}

static int take_convert_operand(evgen_trace_cli *t, const char *arg)
{
    if (!t->in)
        t->in = arg;
    else if (!t->out)
        t->out = arg;
    else
        return evgen_cli_usage_error("convert", "unexpected argument '%s': convert takes IN and OUT", arg);
    return 1;
}

/* convert --format-version N: 1, or 2 after a usage error. */
static int take_format_version(evgen_trace_cli *t, const char *arg)
{
    if ((arg[0] == '1' || arg[0] == '2') && arg[1] == '\0') {
        t->format_version = (unsigned)(arg[0] - '0');
        return 1;
    }
    return evgen_cli_usage_error("convert", "--format-version takes 1 or 2, not '%s'", arg);
}

int evgen_cli_parse_convert(int argc, char **argv, evgen_trace_cli *t)
{
    trace_cli_init(t, argc);
    struct option options[N_TRACE_MANIFEST_OPTIONS + 2];
    memcpy(options, trace_manifest_options, sizeof trace_manifest_options);
    options[N_TRACE_MANIFEST_OPTIONS] = (struct option){"format-version", required_argument, NULL, OPT_FORMAT_VERSION};
    memset(&options[N_TRACE_MANIFEST_OPTIONS + 1], 0, sizeof options[0]);
    int status = EVGEN_CLI_RUN, opt;
    optind = 0;
    opterr = 0;
    while (status == EVGEN_CLI_RUN && (opt = getopt_long(argc, argv, "-:hVI:D:U:", options, NULL)) != -1) {
        int taken = opt == 1                      ? take_convert_operand(t, optarg)
                    : opt == OPT_FORMAT_VERSION ? take_format_version(t, optarg)
                    : opt == '?' || opt == ':'  ? 0
                                                : take_trace_option(t, "convert", opt, optarg);
        if (taken == 0)
            status = evgen_cli_option_error("convert", opt, argv);
        else if (taken == 2)
            status = 2;
    }
    for (int i = optind; status == EVGEN_CLI_RUN && i < argc; i++)
        if (take_convert_operand(t, argv[i]) == 2)
            status = 2;
    if (status != EVGEN_CLI_RUN || t->help || t->version) {
        if (status == EVGEN_CLI_RUN)
            t->help ? evgen_cli_print_help(EVGEN_CLI_CONVERT) : evgen_cli_print_version();
        return status == EVGEN_CLI_RUN ? 0 : status;
    }
    if (!t->out)
        return evgen_cli_usage_error("convert", t->in ? "missing the output file: evgen convert IN OUT.evtrace"
                                                      : "missing the input trace: evgen convert IN OUT.evtrace");
    return EVGEN_CLI_RUN;
}

/* ---- export ---------------------------------------------------------------------------------- */

/* Takes an option or operand of export: 1, 0 if `opt` is none of its, 2 after a usage error. */
static int take_export_option(evgen_trace_cli *t, int opt, const char *arg)
{
    if (opt == 1) {
        t->traces[t->n_traces++] = arg;
        return 1;
    }
    if (opt == OPT_NO_PROGRESS) {
        t->no_progress = true;
        return 1;
    }
    if (opt >= OPT_EXPORTER) {
        const evgen_exporter *e = evgen_exporters[opt - OPT_EXPORTER];
        if (t->exporter)
            return evgen_cli_usage_error("export", "--%s and --%s: one format at a time", t->exporter->name, e->name);
        if (!arg[0])
            return evgen_cli_usage_error("export", "option '--%s' needs a value", e->name);
        t->exporter = e;
        t->export_out = arg;
        return 1;
    }
    return take_trace_option(t, "export", opt, arg);
}

int evgen_cli_parse_export(int argc, char **argv, evgen_trace_cli *t)
{
    trace_cli_init(t, argc);
    size_t n_exporters = 0;
    while (evgen_exporters[n_exporters])
        n_exporters++;
    struct option *options = evgen_xcalloc(N_TRACE_MANIFEST_OPTIONS + n_exporters + 2, sizeof *options);
    memcpy(options, trace_manifest_options, sizeof trace_manifest_options);
    size_t n = N_TRACE_MANIFEST_OPTIONS;
    options[n++] = (struct option){"no-progress", no_argument, NULL, OPT_NO_PROGRESS};
    for (size_t i = 0; i < n_exporters; i++)
        options[n++] = (struct option){evgen_exporters[i]->name, required_argument, NULL, OPT_EXPORTER + (int)i};
    int status = EVGEN_CLI_RUN, opt;
    optind = 0;
    opterr = 0;
    while (status == EVGEN_CLI_RUN && (opt = getopt_long(argc, argv, "-:hVI:D:U:", options, NULL)) != -1) {
        int taken = opt == '?' || opt == ':' ? 0 : take_export_option(t, opt, optarg);
        if (taken == 0)
            status = evgen_cli_option_error("export", opt, argv);
        else if (taken == 2)
            status = 2;
    }
    for (int i = optind; status == EVGEN_CLI_RUN && i < argc; i++)
        take_export_option(t, 1, argv[i]);
    free(options);
    if (status != EVGEN_CLI_RUN || t->help || t->version) {
        if (status == EVGEN_CLI_RUN)
            t->help ? evgen_cli_print_help(EVGEN_CLI_EXPORT) : evgen_cli_print_version();
        return status == EVGEN_CLI_RUN ? 0 : status;
    }
    if (!t->exporter) {
        evgen_strbuf formats;
        evgen_sb_init(&formats);
        for (size_t i = 0; i < n_exporters; i++)
            evgen_sb_printf(&formats, "%s--%s %s", i == 0 ? "" : i + 1 < n_exporters ? ", " : " or ",
                            evgen_exporters[i]->name, evgen_exporters[i]->out_name);
        char *list = evgen_sb_take(&formats);
        status = evgen_cli_usage_error("export", "missing the format: %s", list);
        free(list);
        return status;
    }
    if (!t->n_traces)
        return evgen_cli_usage_error("export", "missing the trace: evgen export --%s %s TRACE", t->exporter->name,
                                     t->exporter->out_name);
    if (t->n_traces > 1 && !t->exporter->several_traces)
        return evgen_cli_usage_error("export", "unexpected argument '%s': --%s exports one trace", t->traces[1],
                                     t->exporter->name);
    return EVGEN_CLI_RUN;
}
