/* cli.h — evgen's command line: the commands, their options (getopt_long), help texts and usage
 * errors, GNU style (evgen/dump_cli.h). main.c runs what this parses. */
#ifndef EVGEN_GEN_CLI_H
#define EVGEN_GEN_CLI_H

#include <stdbool.h>
#include <stddef.h>

typedef enum evgen_cli_command {
    EVGEN_CLI_DESCRIBE,
    EVGEN_CLI_CHECK,
    EVGEN_CLI_LOCK,
    EVGEN_CLI_GEN,
    EVGEN_CLI_DUMP,
    EVGEN_CLI_CONVERT,
    EVGEN_CLI_EXPORT,
    EVGEN_CLI_N_COMMANDS
} evgen_cli_command;

/* What a parse asks for: run the command, or exit with this status (help or version printed:
 * 0; a usage error printed: 2). */
enum { EVGEN_CLI_RUN = -1 };

/* The command named `name`, or -1. */
int evgen_cli_find(const char *name);
/* A command's name. */
const char *evgen_cli_name(evgen_cli_command command);

/* Prints evgen's general usage (no command) or `evgen COMMAND --help` to stdout. */
void evgen_cli_print_help(int command);
/* Prints `evgen X.Y.Z` to stdout. */
void evgen_cli_print_version(void);

/* The arguments of describe, check, lock and gen. */
typedef struct evgen_cli {
    evgen_cli_command command;
    const char *manifest;
    const char *lock_path;
    const char *against;
    const char *out_dir;
    const char *name;
    const char *traces;
    const char *from_lock;
    const char *depfile;
    bool json, quiet, tests, sql;
    const char **clang_args; /* for the C compiler that reads the manifest */
    size_t n_clang_args;
    char **args;             /* argv, rewritten for getopt_long */
    char **owned;            /* strings allocated here */
    size_t n_owned;
} evgen_cli;

/* Parses `evgen COMMAND ARGS...` of a manifest command (argv[0] is COMMAND). Returns EVGEN_CLI_RUN
 * or an exit status (see above). Free *c with evgen_cli_free whatever it returns. */
int evgen_cli_parse(evgen_cli_command command, int argc, char **argv, evgen_cli *c);
void evgen_cli_free(evgen_cli *c);

/* The arguments of dump and convert beyond dump's own: the manifests .nettrace events are bound to
 * (--manifest FILE, repeatable) and the compiler options that read them (-I, -D, -U). */
typedef struct evgen_trace_cli {
    const char **paths, **clang_args;
    size_t n_paths, n_clang_args;
    const char *in, *out;    /* convert's operands */
    unsigned format_version; /* convert --format-version (0: the newest) */
    bool help, version;
    /* export's: the exporter its --NAME option chose (evgen/export.h), that option's value, the
     * traces, --no-progress */
    const struct evgen_exporter *exporter;
    const char *export_out;
    const char **traces;
    size_t n_traces;
    bool no_progress;
} evgen_trace_cli;

struct evgen_dump_cli;
/* Parses `evgen dump ARGS...` (argv[0] is "dump") into *t and *dump. Returns EVGEN_CLI_RUN, or 2
 * after a usage error. Help and version are left to the caller (t->help, t->version). */
int evgen_cli_parse_dump(int argc, char **argv, evgen_trace_cli *t, struct evgen_dump_cli *dump);
/* Parses `evgen convert ARGS...` (argv[0] is "convert"). Returns EVGEN_CLI_RUN or an exit status. */
int evgen_cli_parse_convert(int argc, char **argv, evgen_trace_cli *t);
/* Parses `evgen export ARGS...` (argv[0] is "export"). Returns EVGEN_CLI_RUN or an exit status. */
int evgen_cli_parse_export(int argc, char **argv, evgen_trace_cli *t);
void evgen_trace_cli_free(evgen_trace_cli *t);

#endif /* EVGEN_GEN_CLI_H */
