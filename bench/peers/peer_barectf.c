/* peer_barectf.c — barectf 3 in the peers' comparison: the tracing function barectf generates
 * from barectf.yaml (packed GCHeapStats v2), with the platform a program supplies: a 64 KiB packet
 * buffer, CLOCK_MONOTONIC as the clock, and each full packet fwritten to DIR/stream, so that DIR
 * (with barectf's metadata copied beside it by run.sh) is a CTF trace babeltrace2 reads. Timed from
 * the first event until the last packet is written and the file closed.
 * Usage: peer_barectf EVENTS DIR */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "peer_barectf.h"
#include "peer_timing.h"

enum { PACKET_SIZE = 65536 };

typedef struct platform {
    struct peer_gc_ctx ctx;
    FILE *stream;
    int write_failed;
} platform;

static uint64_t clock_value(void *data)
{
    (void)data;
    return peer_monotonic_ns();
}

static int backend_is_full(void *data)
{
    (void)data;
    return 0;
}

static void open_packet(void *data)
{
    platform *p = data;
    peer_gc_open_packet(&p->ctx);
}

static void close_packet(void *data)
{
    platform *p = data;
    peer_gc_close_packet(&p->ctx);
    size_t size = peer_packet_buf_size(&p->ctx);
    if (fwrite(peer_packet_buf(&p->ctx), 1, size, p->stream) != size)
        p->write_failed = 1;
}

int main(int argc, char **argv)
{
    static const char usage[] = "peer_barectf EVENTS DIR";
    static uint8_t packet[PACKET_SIZE];
    static platform p;
    if (argc != 3) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    long events = peer_events_arg(argv[1], usage);
    char path[4096];
    snprintf(path, sizeof path, "%s/stream", argv[2]);
    p.stream = fopen(path, "wb");
    if (!p.stream) {
        perror(path);
        return 1;
    }
    struct peer_platform_callbacks callbacks = {clock_value, backend_is_full, open_packet, close_packet};
    peer_init(&p.ctx, packet, PACKET_SIZE, callbacks, &p);

    peer_mark start = peer_mark_now();
    open_packet(&p);
    for (long i = 0; i < events; i++)
        peer_gc_trace_GCHeapStats(&p.ctx, BENCH_GC_HEAP_STATS_VALUES(i));
    if (peer_packet_is_open(&p.ctx) && !peer_packet_is_empty(&p.ctx))
        close_packet(&p);
    if (fclose(p.stream) != 0 || p.write_failed) {
        perror(path);
        return 1;
    }
    peer_mark end = peer_mark_now();
    uint32_t discarded = peer_discarded_event_records_count(&p.ctx);
    if (discarded) {
        fprintf(stderr, "peer_barectf: %u events discarded\n", (unsigned)discarded);
        return 1;
    }
    peer_report("barectf", events, start, end, 0);
    return 0;
}
