/* script.c — scripted traces for the example tests: memory sessions and file surgery. */
#include "script.h"

#include <stdio.h>
#include <stdlib.h>

#include "evgen/runtime.h"
#include "gcevents_runtime.h"

uint8_t *script_record(void (*body)(void *), void *arg, size_t *size)
{
    evgen_session *s = evgen_session_open_memory(NULL);
    if (!s) {
        perror("evgen_session_open_memory");
        abort();
    }
    if (evgen_session_enable(s, "Microsoft-Windows-DotNETRuntime", GCEventLevel_Verbose, ~0ull) != 0 ||
        evgen_session_enable(s, "Microsoft-Windows-DotNETRuntimePrivate", GCEventLevel_Verbose, ~0ull) != 0) {
        perror("evgen_session_enable");
        abort();
    }
    body(arg);
    evgen_session_totals totals;
    uint8_t *data = NULL;
    if (evgen_session_close(s, &totals, &data, size) != 0 || !data || totals.dropped || totals.too_big) {
        fprintf(stderr, "script_record: the session failed or lost events\n");
        abort();
    }
    evgen_session_totals_free(&totals);
    return data;
}

void script_write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        abort();
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *data = malloc(cap);
    for (size_t got; data && (got = fread(data + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap)
            data = realloc(data, cap *= 2);
    }
    fclose(f);
    if (!data)
        abort();
    *size = n;
    return data;
}

size_t script_file_size(const char *path)
{
    size_t size = 0;
    free(read_all(path, &size));
    return size;
}

void script_cut_file(const char *path, const char *out, size_t size)
{
    size_t n = 0;
    uint8_t *data = read_all(path, &n);
    script_write_file(out, data, size < n ? size : n);
    free(data);
}

void script_flip_byte(const char *path, const char *out, size_t offset)
{
    size_t n = 0;
    uint8_t *data = read_all(path, &n);
    if (offset < n)
        data[offset] ^= 0xff;
    script_write_file(out, data, n);
    free(data);
}
