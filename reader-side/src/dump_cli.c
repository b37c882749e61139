/* dump_cli.c — the command line of `evgen dump`: options parsed into evgen_dump_options. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evgen/dump.h"
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
    "  --to NS            only events at or before NS\n"
    "  --order time|file  merged across threads by timestamp (default), or as the file holds them\n"
    "  --stats            a summary instead: events and bytes per event, threads, totals, problems\n"
    "\n"
    "exit status: 0 when the whole trace was read, 1 if it has problems (reported on stderr after\n"
    "everything readable was printed) or cannot be read, 2 for a usage error\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("evgen dump: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    fputs(evgen_dump_usage, stderr);
    return 2;
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

int evgen_dump_main(int argc, char **argv)
{
    return evgen_dump_main_with(argc, argv, NULL);
}

int evgen_dump_main_with(int argc, char **argv, const evgen_reader_options *reader)
{
    evgen_dump_options opt;
    evgen_dump_options_init(&opt);
    opt.reader = reader;
    const char *trace = NULL;
    const char **events = calloc((size_t)argc + 1, sizeof *events);
    if (!events) {
        fputs("evgen dump: out of memory\n", stderr);
        return 1;
    }
    int status = 0;
    for (int i = 1; i < argc && !status; i++) {
        const char *a = argv[i];
        const char *value = NULL;
        /* --opt VALUE and --opt=VALUE */
        static const char *const with_value[] = {"--event", "--from", "--to", "--order"};
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++) {
            size_t n = strlen(with_value[k]);
            if (strncmp(a, with_value[k], n) == 0 && (a[n] == '\0' || a[n] == '=')) {
                if (a[n] == '=') {
                    value = a + n + 1;
                } else if (i + 1 < argc) {
                    value = argv[++i];
                } else {
                    status = usage_error("%s needs a value", with_value[k]);
                    break;
                }
                a = with_value[k];
            }
        }
        if (status)
            break;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(evgen_dump_usage, stdout);
            free(events);
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            opt.json = 1;
        } else if (strcmp(a, "--stats") == 0) {
            opt.stats = 1;
        } else if (strcmp(a, "--event") == 0) {
            events[opt.n_events++] = value;
        } else if (strcmp(a, "--from") == 0) {
            if (parse_ns(value, &opt.from_ns) != 0)
                status = usage_error("--from needs nanoseconds (a non-negative integer), not '%s'", value);
        } else if (strcmp(a, "--to") == 0) {
            if (parse_ns(value, &opt.to_ns) != 0)
                status = usage_error("--to needs nanoseconds (a non-negative integer), not '%s'", value);
        } else if (strcmp(a, "--order") == 0) {
            if (strcmp(value, "time") == 0)
                opt.order = EVGEN_ORDER_TIME;
            else if (strcmp(value, "file") == 0)
                opt.order = EVGEN_ORDER_FILE;
            else
                status = usage_error("--order is 'time' or 'file', not '%s'", value);
        } else if (a[0] == '-' && a[1] != '\0') {
            status = usage_error("unknown option '%s'", a);
        } else if (!trace) {
            trace = a;
        } else {
            status = usage_error("unexpected argument '%s': dump reads one trace", a);
        }
    }
    if (!status && !trace)
        status = usage_error("%s", "dump needs a trace file");
    if (!status) {
        opt.events = events;
        fflush(stdout);
        status = evgen_dump(trace, &opt, STDOUT_FILENO, stderr);
    }
    free(events);
    return status;
}
