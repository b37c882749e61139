/* dump_cli.c — the command line of `evgen dump`: getopt_long options parsed into evgen_dump_options,
 * and the usage-error conventions of evgen's commands (evgen/dump_cli.h). */
#define _GNU_SOURCE /* getopt_long */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evgen/dump.h"
#include "evgen/dump_cli.h"
#include "evgen/reader.h"

const char evgen_dump_usage[] =
    "usage: evgen dump TRACE [options]\n"
    "\n"
    "prints every event of TRACE, one line each: TIMESTAMP_NS THREAD Event_Vn Field=value ...\n"
    "\n"
    "options:\n"
    "  --json             one JSON object per line\n"
    "  --event NAME       only events named NAME (repeatable)\n"
    "  --from NS          only events at or after NS nanoseconds since the session opened\n"
    "  --to NS            only events at or before NS (not before --from)\n"
    "  --order time|file  merged across threads by timestamp (default), or as the file holds them\n"
    "  --stats            a summary instead: events and bytes per event, threads, totals, problems\n"
    "  --stacks           each event's stack (.nettrace), instruction pointers innermost first\n"
    "  -h, --help         this text\n"
    "\n"
    "exit status: 0 when the whole trace was read, 1 if it has problems (reported on stderr after\n"
    "everything readable was printed) or cannot be read, 2 for a usage error\n";

const struct option evgen_dump_long_options[] = {
    {"json", no_argument, NULL, EVGEN_DUMP_OPT_JSON},
    {"stats", no_argument, NULL, EVGEN_DUMP_OPT_STATS},
    {"event", required_argument, NULL, EVGEN_DUMP_OPT_EVENT},
    {"from", required_argument, NULL, EVGEN_DUMP_OPT_FROM},
    {"to", required_argument, NULL, EVGEN_DUMP_OPT_TO},
    {"order", required_argument, NULL, EVGEN_DUMP_OPT_ORDER},
    {"stacks", no_argument, NULL, EVGEN_DUMP_OPT_STACKS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
const size_t evgen_dump_n_long_options = sizeof evgen_dump_long_options / sizeof evgen_dump_long_options[0] - 1;

int evgen_cli_usage_error(const char *command, const char *format, ...)
{
    fprintf(stderr, "evgen%s%s: ", command ? " " : "", command ? command : "");
    va_list ap;
    va_start(ap, format);
    vfprintf(stderr, format, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'evgen%s%s --help'.\n", command ? " " : "", command ? command : "");
    return 2;
}

int evgen_cli_option_error(const char *command, int opt, char *const argv[])
{
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    /* a long option: "--name", or a single-dash spelling a caller rewrote into one (optopt is then
     * a long option's value, beyond characters) */
    if (strncmp(arg, "--", 2) == 0 || (optopt > 0xff && arg[0] == '-')) {
        /* getopt_long gives no name for a long option: the argument as written, up to '=' */
        int n = (int)strcspn(arg, "=");
        if (opt == ':')
            return evgen_cli_usage_error(command, "option '%.*s' needs a value", n, arg);
        if (arg[n] == '=' && optopt != 0)
            return evgen_cli_usage_error(command, "option '%.*s' takes no value", n, arg);
        return evgen_cli_usage_error(command, "unknown option '%.*s'", n, arg);
    }
    if (opt == ':')
        return evgen_cli_usage_error(command, "option '-%c' needs a value", optopt);
    return evgen_cli_usage_error(command, "unknown option '-%c'", optopt);
}

static int parse_ns(const char *s, uint64_t *out)
{
    if (!s[0] || s[0] == '-' || s[0] == '+')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int evgen_dump_cli_init(evgen_dump_cli *cli, int argc)
{
    memset(cli, 0, sizeof *cli);
    evgen_dump_options_init(&cli->options);
    cli->events = calloc((size_t)argc + 1, sizeof *cli->events);
    return cli->events ? 0 : -1;
}

void evgen_dump_cli_free(evgen_dump_cli *cli)
{
    free(cli->events);
    cli->events = NULL;
}

int evgen_dump_cli_take(evgen_dump_cli *cli, int opt, const char *arg)
{
    evgen_dump_options *o = &cli->options;
    switch (opt) {
    case 1:
        if (cli->trace)
            return evgen_cli_usage_error("dump", "unexpected argument '%s': dump reads one trace", arg);
        cli->trace = arg;
        return 1;
    case 'h':
        cli->help = 1;
        return 1;
    case EVGEN_DUMP_OPT_JSON:
        o->json = 1;
        return 1;
    case EVGEN_DUMP_OPT_STATS:
        o->stats = 1;
        return 1;
    case EVGEN_DUMP_OPT_STACKS:
        o->stacks = 1;
        return 1;
    case EVGEN_DUMP_OPT_EVENT:
        cli->events[o->n_events++] = arg;
        return 1;
    case EVGEN_DUMP_OPT_FROM:
    case EVGEN_DUMP_OPT_TO:
        if (parse_ns(arg, opt == EVGEN_DUMP_OPT_FROM ? &o->from_ns : &o->to_ns) != 0)
            return evgen_cli_usage_error("dump", "%s needs nanoseconds (a non-negative integer), not '%s'",
                                         opt == EVGEN_DUMP_OPT_FROM ? "--from" : "--to", arg);
        return 1;
    case EVGEN_DUMP_OPT_ORDER:
        if (strcmp(arg, "time") == 0)
            o->order = EVGEN_ORDER_TIME;
        else if (strcmp(arg, "file") == 0)
            o->order = EVGEN_ORDER_FILE;
        else
            return evgen_cli_usage_error("dump", "--order is 'time' or 'file', not '%s'", arg);
        return 1;
    default:
        return 0;
    }
}

int evgen_dump_cli_check(const evgen_dump_cli *cli)
{
    if (!cli->trace)
        return evgen_cli_usage_error("dump", "dump needs a trace file");
    if (cli->options.from_ns > cli->options.to_ns)
        return evgen_cli_usage_error("dump", "--from %llu is after --to %llu: no event can match",
                                     (unsigned long long)cli->options.from_ns, (unsigned long long)cli->options.to_ns);
    return 0;
}

int evgen_dump_cli_run(evgen_dump_cli *cli, const evgen_reader_options *reader)
{
    if (cli->help) {
        fputs(evgen_dump_usage, stdout);
        return 0;
    }
    int usage = evgen_dump_cli_check(cli);
    if (usage)
        return usage;
    cli->options.events = cli->events;
    cli->options.reader = reader;
    fflush(stdout);
    return evgen_dump(cli->trace, &cli->options, STDOUT_FILENO, stderr);
}

int evgen_dump_main(int argc, char **argv)
{
    return evgen_dump_main_with(argc, argv, NULL);
}

int evgen_dump_main_with(int argc, char **argv, const evgen_reader_options *reader)
{
    evgen_dump_cli cli;
    if (evgen_dump_cli_init(&cli, argc) != 0) {
        fputs("evgen dump: out of memory\n", stderr);
        return 1;
    }
    int status = 0, opt;
    optind = 0; /* a fresh scan, whatever parsed before */
    opterr = 0;
    /* "-": operands come back in order as option 1; ":": a missing value is reported as ':' */
    while (!status && (opt = getopt_long(argc, argv, "-:h", evgen_dump_long_options, NULL)) != -1) {
        int taken = opt == '?' || opt == ':' ? 0 : evgen_dump_cli_take(&cli, opt, optarg);
        if (taken == 0)
            status = evgen_cli_option_error("dump", opt, argv);
        else if (taken == 2)
            status = 2;
    }
    for (int i = optind; !status && i < argc; i++) /* the operands after "--" */
        if (evgen_dump_cli_take(&cli, 1, argv[i]) == 2)
            status = 2;
    if (!status)
        status = evgen_dump_cli_run(&cli, reader);
    evgen_dump_cli_free(&cli);
    return status;
}
