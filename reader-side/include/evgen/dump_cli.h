/* evgen/dump_cli.h — `evgen dump`'s command line in pieces, for a program that parses it in a
 * getopt_long loop of its own beside options of its own (the evgen CLI adds the manifests of
 * .nettrace files), and the usage-error conventions every evgen command shares.
 * evgen_dump_main (evgen/dump.h) is that loop with no additions. Not thread-safe (getopt). */
#ifndef EVGEN_DUMP_CLI_H
#define EVGEN_DUMP_CLI_H

#include <getopt.h>

#include "evgen/dump.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The values getopt_long returns for dump's long options; a caller's own options use values from
 * EVGEN_DUMP_OPT_END on (or characters). */
enum {
    EVGEN_DUMP_OPT_JSON = 0x100,
    EVGEN_DUMP_OPT_STATS,
    EVGEN_DUMP_OPT_EVENT,
    EVGEN_DUMP_OPT_FROM,
    EVGEN_DUMP_OPT_TO,
    EVGEN_DUMP_OPT_ORDER,
    EVGEN_DUMP_OPT_STACKS,
    EVGEN_DUMP_OPT_END
};

/* dump's long options, ended by an all-zero entry (--help included, as 'h'). */
extern const struct option evgen_dump_long_options[];
extern const size_t evgen_dump_n_long_options; /* not counting the all-zero entry */

/* The state of one parse. */
typedef struct evgen_dump_cli {
    evgen_dump_options options;
    const char *trace;
    const char **events; /* the --event names (the strings are the arguments') */
    int help;            /* -h or --help was given */
} evgen_dump_cli;

/* Prepares a parse of at most `argc` arguments. Returns 0, or -1 if out of memory. */
int evgen_dump_cli_init(evgen_dump_cli *cli, int argc);
void evgen_dump_cli_free(evgen_dump_cli *cli);

/* Takes one result of getopt_long (an option's value and its argument, or 1 and an operand, the
 * optstring starting with "-"). Returns 1 if it was dump's, 0 if not, 2 after printing a usage
 * error (a bad value, a second trace). */
int evgen_dump_cli_take(evgen_dump_cli *cli, int opt, const char *arg);

/* After the loop: the usage errors of the options taken together (no trace; --from after --to).
 * Returns 0, or 2 after printing the usage error. */
int evgen_dump_cli_check(const evgen_dump_cli *cli);

/* After the loop: dumps the trace to stdout (problems on stderr) and returns the exit status; 2
 * after a usage error (evgen_dump_cli_check). */
int evgen_dump_cli_run(evgen_dump_cli *cli, const evgen_reader_options *reader);

/* The conventions of evgen's commands (GNU style): a usage error is one line on stderr,
 * "evgen COMMAND: MESSAGE", then "Try 'evgen COMMAND --help'."; it returns 2, the status of
 * usage errors. `command` NULL: "evgen: MESSAGE" and "Try 'evgen --help'.". */
int evgen_cli_usage_error(const char *command, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The usage error for getopt_long's '?' or ':' (the optstring starting with "-:" or "+:", opterr
 * 0): names the unknown option, or the option whose value is missing or not allowed. `argv` and
 * `optind` as getopt_long left them. Returns 2. */
int evgen_cli_option_error(const char *command, int opt, char *const argv[]);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_DUMP_CLI_H */
