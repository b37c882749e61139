/* reader_helpers.c — traces for the reader tests, a hand-made trace builder, block walking from
 * the spec, and programs run on pipes (see reader_helpers.h). */
#include "reader_helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "evgen/runtime.h"
#include "evgen/runtime_emit.h" /* EVGEN_MAX_RECORD_HEADER */
#include "trace_parse.h" /* tp_crc32: the spec's CRC-32C, independent of the reader's */

extern char **environ;

void rh_die(const char *what)
{
    fprintf(stderr, "reader test helper: %s\n", what);
    abort();
}

evgen_reader *rh_open_memory(const void *data, size_t size)
{
    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_memory(data, size, &error);
    if (!rd)
        fail_msg("cannot open: %s", error);
    return rd;
}

/* ---- traces from the runtime ------------------------------------------------------------- */

evgen_session *rh_open_session(uint32_t buffer_size)
{
    evgen_session_options opt;
    evgen_session_options_init(&opt);
    if (buffer_size) {
        opt.buffer_size = buffer_size;
        opt.max_payload = buffer_size - EVGEN_MAX_RECORD_HEADER;
    }
    evgen_session *s = evgen_session_open_memory(&opt);
    if (!s || evgen_session_enable(s, NULL, 255, ~0ull) != 0)
        rh_die("cannot open a memory session");
    return s;
}

void rh_close_session(evgen_session *s, rh_trace *out)
{
    out->data = NULL;
    out->size = 0;
    if (evgen_session_close(s, NULL, &out->data, &out->size) != 0 || !out->data)
        rh_die("cannot close the session");
}

void rh_record(size_t (*fire)(void), uint32_t buffer_size, rh_trace *out)
{
    evgen_session *s = rh_open_session(buffer_size);
    if (fire() == (size_t)-1)
        rh_die("the fire-all harness failed");
    rh_close_session(s, out);
}

/* ---- blocks, from the spec --------------------------------------------------------------- */

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    while (n--)
        v = (v << 8) | p[n];
    return v;
}

size_t rh_blocks(const uint8_t *data, size_t size, rh_block *out, size_t cap)
{
    size_t n = 0, off = 48;
    while (off + 48 <= size) {
        const uint8_t *h = data + off;
        size_t end = off + (size_t)le(h + 6, 2) + (size_t)le(h + 8, 4);
        if (memcmp(h, "EVBK", 4) != 0 || end > size)
            break;
        if (n < cap)
            out[n] = (rh_block){off, end, h[4], (uint32_t)le(h + 28, 4), le(h + 16, 8)};
        n++;
        off = end;
    }
    return n;
}

/* ---- hand-made traces -------------------------------------------------------------------- */

void rh_put(rh_bytes *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->data = realloc(b->data, b->cap);
        if (!b->data)
            rh_die("out of memory");
    }
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
}

void rh_le(rh_bytes *b, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint8_t byte = (uint8_t)(v >> (8 * i));
        rh_put(b, &byte, 1);
    }
}

void rh_varint(rh_bytes *b, uint64_t v)
{
    do {
        uint8_t byte = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v)
            byte |= 0x80;
        rh_put(b, &byte, 1);
    } while (v);
}

void rh_zigzag(rh_bytes *b, int64_t v)
{
    rh_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void rh_string(rh_bytes *b, const char *s)
{
    rh_varint(b, strlen(s));
    rh_put(b, s, strlen(s));
}

void rh_free(rh_bytes *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

void rh_file_header(rh_bytes *file, uint8_t clock_kind, uint64_t frequency)
{
    rh_file_header_version(file, 1, clock_kind, frequency);
}

void rh_file_header_version(rh_bytes *file, uint16_t version, uint8_t clock_kind, uint64_t frequency)
{
    size_t at = file->len;
    rh_put(file, "EVTRACE", 8);
    rh_le(file, version, 2);
    rh_le(file, 48, 2);
    rh_le(file, 8, 1);
    rh_le(file, clock_kind, 1);
    rh_le(file, 0, 2);
    rh_le(file, frequency, 8);
    rh_le(file, RH_START_TICKS, 8);
    rh_le(file, 1700000000000000000ull, 8);
    rh_le(file, 4242, 4);
    rh_le(file, tp_crc32(0, file->data + at, 44), 4);
}

void rh_append_block(rh_bytes *file, uint8_t type, uint64_t thread_id, uint32_t sequence, uint32_t count, uint32_t dropped,
              uint64_t base_ticks, const rh_bytes *payload)
{
    rh_append_stream_block(file, type, thread_id, 0, sequence, count, dropped, base_ticks, payload);
}

void rh_append_stream_block(rh_bytes *file, uint8_t type, uint64_t thread_id, uint32_t stream, uint32_t sequence,
                            uint32_t count, uint32_t dropped, uint64_t base_ticks, const rh_bytes *payload)
{
    rh_bytes h = {0};
    rh_put(&h, "EVBK", 4);
    rh_le(&h, type, 1);
    rh_le(&h, 0, 1);
    rh_le(&h, 48, 2);
    rh_le(&h, payload->len, 4);
    rh_le(&h, 0, 4); /* crc, below */
    rh_le(&h, thread_id, 8);
    rh_le(&h, sequence, 4);
    rh_le(&h, count, 4);
    rh_le(&h, dropped, 4);
    rh_le(&h, stream, 4);
    rh_le(&h, base_ticks, 8);
    uint32_t crc = tp_crc32(tp_crc32(0, h.data + 16, 32), payload->data, payload->len);
    for (int i = 0; i < 4; i++)
        h.data[12 + i] = (uint8_t)(crc >> (8 * i));
    rh_put(file, h.data, h.len);
    rh_put(file, payload->data, payload->len);
    rh_free(&h);
}

void rh_metadata(rh_bytes *file, uint64_t first_type, size_t n_events, const char *const *names,
                 const rh_field *const *fields, const size_t *n_fields)
{
    rh_bytes p = {0};
    rh_varint(&p, first_type);
    rh_string(&p, "hand");
    rh_varint(&p, 1);
    rh_string(&p, "Hand");
    rh_varint(&p, 0); /* enums */
    rh_varint(&p, 0); /* structs */
    rh_varint(&p, n_events);
    for (size_t e = 0; e < n_events; e++) {
        rh_string(&p, names[e]);
        rh_varint(&p, 0);     /* provider */
        rh_varint(&p, e + 1); /* id */
        rh_varint(&p, 4);     /* level */
        rh_varint(&p, 1);     /* keywords */
        rh_varint(&p, 1);     /* versions */
        rh_varint(&p, 1);     /* version 1 */
        rh_varint(&p, 0);     /* flags */
        rh_varint(&p, n_fields[e]);
        for (size_t f = 0; f < n_fields[e]; f++) {
            rh_string(&p, fields[e][f].name);
            rh_varint(&p, fields[e][f].kind);
            rh_varint(&p, fields[e][f].array);
            rh_varint(&p, 0);
            rh_varint(&p, 0);
            rh_varint(&p, fields[e][f].count_plus1);
        }
    }
    rh_append_block(file, 1, 0, 0, 0, 0, 0, &p);
    rh_free(&p);
}

void rh_end_block(rh_bytes *file, size_t n, const uint64_t *thread_ids, const uint64_t *written)
{
    rh_bytes p = {0};
    uint64_t total = 0;
    rh_varint(&p, n);
    for (size_t i = 0; i < n; i++) {
        rh_varint(&p, thread_ids[i]);
        rh_varint(&p, written[i]);
        rh_varint(&p, 0);
        rh_varint(&p, 0);
        total += written[i];
    }
    rh_varint(&p, total);
    rh_varint(&p, 0);
    rh_varint(&p, 0);
    rh_append_block(file, 3, 0, 0, 0, 0, 0, &p);
    rh_free(&p);
}

/* ---- files and programs ------------------------------------------------------------------ */

char *rh_write_file(const char *dir, const char *name, const void *data, size_t size)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        rh_die("cannot write a trace file");
    return path;
}

static void append(char **buf, size_t *len, size_t *cap, const char *p, size_t n)
{
    if (*len + n + 1 > *cap) {
        *cap = (*len + n + 1) * 2;
        *buf = realloc(*buf, *cap);
        if (!*buf)
            rh_die("out of memory");
    }
    memcpy(*buf + *len, p, n);
    *len += n;
    (*buf)[*len] = '\0';
}

int rh_run(const char *const argv[], char **out, size_t *out_len, char **err)
{
    int po[2], pe[2];
    if (pipe(po) != 0 || pipe(pe) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    posix_spawn_file_actions_addclose(&fa, po[0]);
    posix_spawn_file_actions_addclose(&fa, pe[0]);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    if (rc != 0) {
        close(po[0]);
        close(pe[0]);
        return -1;
    }
    size_t olen = 0, ocap = 0, elen = 0, ecap = 0;
    char *obuf = NULL, *ebuf = NULL;
    append(&obuf, &olen, &ocap, "", 0);
    append(&ebuf, &elen, &ecap, "", 0);
    struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    int open_fds = 2;
    char chunk[65536];
    while (open_fds) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(fds[i].fd, chunk, sizeof chunk);
            if (n > 0) {
                if (i == 0)
                    append(&obuf, &olen, &ocap, chunk, (size_t)n);
                else
                    append(&ebuf, &elen, &ecap, chunk, (size_t)n);
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
        rc = -1;
    else
        rc = WEXITSTATUS(status);
    if (out)
        *out = obuf;
    else
        free(obuf);
    if (out_len)
        *out_len = olen;
    if (err)
        *err = ebuf;
    else
        free(ebuf);
    return rc;
}
