/* netperf.c — .netperf files, EventPipe's first container (NetPerf V1-V3), which .NET Core 2.1 and
 * 2.2 and the early .NET Core 3.0 previews wrote: recognised by their FastSerialization header and
 * refused with a message that names them. evgen reads .nettrace, the container every .NET since
 * .NET Core 3.0 writes; a .netperf file is read by TraceEvent (PerfView), which also rewrites it as
 * .nettrace (docs/nettrace.md). */
#include <string.h>

#include "nettrace.h"

/* The stream header of FastSerialization: the length 20, then "!FastSerialization.1". A .nettrace
 * file starts with "Nettrace" before it; a .netperf file starts with it. */
static const uint8_t netperf_magic[24] = {20, 0, 0, 0, '!', 'F', 'a', 's', 't', 'S', 'e', 'r',
                                          'i',  'a', 'l', 'i', 'z', 'a', 't', 'i', 'o', 'n', '.', '1'};

static int is_netperf(const uint8_t *data, size_t size)
{
    return size >= sizeof netperf_magic && memcmp(data, netperf_magic, sizeof netperf_magic) == 0;
}

static int open_netperf(evgen_reader *rd, const evgen_reader_options *options, char **why)
{
    (void)rd;
    (void)options;
    *why = evgen_rd_format("a .netperf file (EventPipe's NetPerf container, written by .NET Core 2.1, 2.2 and "
                           "early .NET Core 3.0 previews): evgen reads .nettrace, the container of .NET Core 3.0 "
                           "and later; PerfView (TraceEvent) reads .netperf and can save it as .nettrace");
    return -1;
}

static void rewind_netperf(evgen_reader *rd)
{
    (void)rd;
}

static int next_netperf(evgen_reader *rd, evgen_event *event)
{
    (void)rd;
    (void)event;
    return 0;
}

static void close_netperf(evgen_reader *rd)
{
    (void)rd;
}

const evgen_rd_format_ops evgen_rd_netperf_format = {
    is_netperf, open_netperf, rewind_netperf, next_netperf, close_netperf, NULL, /* nothing left lazily */
    0,
};
