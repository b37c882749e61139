/* ctf_stream.c — the CTF data streams: one file per thread (per nesting level of an .evtrace
 * thread), its events in packets of at most CTF_PACKET_LIMIT bytes, each packet's header and
 * context, and the thread's lost events as the events_discarded of its last packet
 * (docs/export-ctf.md, "Data streams"). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctf_internal.h"

void ctf_streams_init(ctf_streams *s, evgen_export_run *run, const uint8_t uuid[16])
{
    memset(s, 0, sizeof *s);
    s->run = run;
    s->max_ticks = UINT64_MAX;
    memcpy(s->uuid, uuid, 16);
}

void ctf_streams_free(ctf_streams *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->items[i].path);
        evgen_wire_buf_free(&s->items[i].body);
    }
    free(s->items);
    free(s->hash);
    memset(s, 0, sizeof *s);
}

static size_t slot_of(uint64_t thread_id, uint32_t nested, size_t cap)
{
    uint64_t h = (thread_id ^ ((uint64_t)nested << 56)) * 0x9E3779B97F4A7C15u;
    return (size_t)(h >> 17) & (cap - 1);
}

static int rehash(ctf_streams *s, size_t cap)
{
    size_t *hash = calloc(cap, sizeof *hash);
    if (!hash)
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        size_t k = slot_of(s->items[i].thread_id, s->items[i].nested, cap);
        while (hash[k])
            k = (k + 1) & (cap - 1);
        hash[k] = i + 1;
    }
    free(s->hash);
    s->hash = hash;
    s->hash_cap = cap;
    return 0;
}

ctf_stream *ctf_stream_of(ctf_streams *s, const evgen_reader *rd, uint64_t thread_id, uint32_t nested)
{
    if (s->hash_cap) {
        for (size_t k = slot_of(thread_id, nested, s->hash_cap); s->hash[k]; k = (k + 1) & (s->hash_cap - 1)) {
            ctf_stream *st = &s->items[s->hash[k] - 1];
            if (st->thread_id == thread_id && st->nested == nested)
                return st;
        }
    }
    if ((s->n + 1) * 2 > s->hash_cap && rehash(s, s->hash_cap ? 2 * s->hash_cap : 64) != 0)
        return NULL;
    if (evgen_rd_grow((void **)&s->items, &s->cap, s->n + 1, sizeof *s->items) != 0)
        return NULL;
    if (!s->next_instance)
        s->next_instance = rd->n_threads;
    ctf_stream *st = &s->items[s->n];
    memset(st, 0, sizeof *st);
    st->thread_id = thread_id;
    st->nested = nested;
    size_t index = evgen_rd_thread_find(rd, thread_id);
    st->instance = nested == 0 && index != RD_NONE ? index : s->next_instance++;
    char name[64];
    if (nested)
        snprintf(name, sizeof name, "thread-%llu-stream-%u", (unsigned long long)thread_id, nested);
    else
        snprintf(name, sizeof name, "thread-%llu", (unsigned long long)thread_id);
    st->path = evgen_export_path(s->run, name);
    if (!st->path)
        return NULL;
    size_t k = slot_of(thread_id, nested, s->hash_cap);
    while (s->hash[k])
        k = (k + 1) & (s->hash_cap - 1);
    s->hash[k] = ++s->n;
    return st;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Appends the open packet (possibly empty) to the stream's file with `discarded` as its
 * events_discarded, and starts the next one. */
static int write_packet(ctf_streams *s, ctf_stream *st, uint64_t discarded)
{
    uint8_t head[CTF_PACKET_HEADER_SIZE + CTF_PACKET_CONTEXT_SIZE];
    uint64_t bits = (uint64_t)(sizeof head + st->body.len) * 8;
    if (!st->events)
        st->begin = st->end = st->last;
    evgen_wire_put_le32(head, CTF_MAGIC);
    memcpy(head + 4, s->uuid, 16);
    evgen_wire_put_le32(head + 20, 0); /* stream_id: the one stream class */
    evgen_wire_put_le64(head + 24, st->instance);
    uint8_t *c = head + CTF_PACKET_HEADER_SIZE;
    evgen_wire_put_le64(c, st->begin);
    evgen_wire_put_le64(c + 8, st->end);
    evgen_wire_put_le64(c + 16, bits); /* content_size */
    evgen_wire_put_le64(c + 24, bits); /* packet_size: no padding after the content */
    evgen_wire_put_le64(c + 32, st->packets);
    evgen_wire_put_le64(c + 40, discarded);
    evgen_wire_put_le64(c + 48, st->thread_id);
    evgen_wire_put_le32(c + 56, st->nested);
    int fd = open(st->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    int ok = fd >= 0 && write_all(fd, head, sizeof head) == 0 && write_all(fd, st->body.data, st->body.len) == 0;
    int error = errno;
    if (fd >= 0 && close(fd) != 0 && ok) {
        ok = 0;
        error = errno;
    }
    if (!ok) {
        evgen_export_error(s->run, "cannot write %s: %s", st->path, strerror(error));
        return -1;
    }
    st->body.len = 0;
    st->events = 0;
    st->packets++;
    return 0;
}

int ctf_stream_event(ctf_streams *s, ctf_stream *st, uint32_t id, uint64_t ticks, const uint8_t *fields, size_t n)
{
    size_t head = CTF_PACKET_HEADER_SIZE + CTF_PACKET_CONTEXT_SIZE;
    if (st->events && st->body.len + CTF_EVENT_HEADER_SIZE + n > CTF_PACKET_LIMIT - head &&
        write_packet(s, st, 0) != 0)
        return -1;
    if (ticks > s->max_ticks) { /* a time babeltrace2 cannot hold (a corrupt timestamp) */
        ticks = s->max_ticks;
        s->beyond++;
    }
    /* A stream's timestamps never go back (babeltrace2 refuses it): an event the thread's clock put
     * before its predecessor is written at its predecessor's time. */
    if ((st->packets || st->events) && ticks < st->last) {
        ticks = st->last;
        s->clamped++;
    }
    uint8_t eh[CTF_EVENT_HEADER_SIZE];
    evgen_wire_put_le32(eh, id);
    evgen_wire_put_le64(eh + 4, ticks);
    evgen_wire_buf_raw(&st->body, eh, sizeof eh);
    evgen_wire_buf_raw(&st->body, fields, n);
    if (st->body.failed) {
        evgen_export_error(s->run, "out of memory");
        return -1;
    }
    if (!st->events)
        st->begin = ticks;
    st->end = st->last = ticks;
    st->events++;
    return 0;
}

int ctf_streams_finish(ctf_streams *s, const evgen_reader *rd)
{
    size_t n_threads;
    int has_end;
    const evgen_reader_thread *threads = evgen_reader_threads(rd, &n_threads, &has_end);
    for (size_t i = 0; i < n_threads; i++) {
        const evgen_reader_thread *t = &threads[i];
        uint64_t lost = (t->dropped > t->dropped_end ? t->dropped : t->dropped_end) + t->too_big_end;
        if (!lost)
            continue;
        ctf_stream *st = ctf_stream_of(s, rd, t->thread_id, 0);
        if (!st) {
            evgen_export_error(s->run, "out of memory");
            return -1;
        }
        if (!st->packets && !st->events) /* no event: its packets at the trace's start */
            st->last = rd->header.start_ticks < s->max_ticks ? rd->header.start_ticks : s->max_ticks;
        st->discarded = lost;
    }
    for (size_t i = 0; i < s->n; i++) {
        ctf_stream *st = &s->items[i];
        if (st->events && write_packet(s, st, 0) != 0)
            return -1;
        if (!st->discarded)
            continue;
        /* babeltrace2 reports the growth of events_discarded from one packet to the next. */
        if (!st->packets && write_packet(s, st, 0) != 0)
            return -1;
        if (write_packet(s, st, st->discarded) != 0)
            return -1;
    }
    return 0;
}
