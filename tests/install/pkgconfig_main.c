/* pkgconfig_main.c — one file built against the installed evgen with nothing but
 *   cc pkgconfig_main.c $(pkg-config --cflags --libs evgen-runtime evgen-reader)
 * (tests/install/test_install.c): a memory session opened and closed, its trace read back,
 * and the shared checksum. Prints "ok" and exits 0 when all works. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "evgen/crc32c.h"
#include "evgen/manifest.h"
#include "evgen/reader.h"
#include "evgen/runtime.h"

int main(void)
{
    if (evgen_crc32c(0, "123456789", 9) != 0xE3069283u) {
        fprintf(stderr, "evgen_crc32c: wrong checksum\n");
        return 1;
    }
    evgen_session *session = evgen_session_open_memory(NULL);
    uint8_t *trace = NULL;
    size_t size = 0;
    if (!session || evgen_session_close(session, NULL, &trace, &size) != 0 || !trace) {
        fprintf(stderr, "cannot write a trace in memory\n");
        return 1;
    }
    char *error = NULL;
    evgen_reader *reader = evgen_reader_open_memory(trace, size, &error);
    if (!reader) {
        fprintf(stderr, "cannot read the trace back: %s\n", error ? error : "?");
        return 1;
    }
    evgen_event ev;
    int events = 0;
    while (evgen_reader_next(reader, &ev))
        events++;
    int ok = events == 0 && evgen_reader_status(reader, NULL) == EVGEN_READ_OK;
    evgen_reader_close(reader);
    free(trace);
    if (!ok) {
        fprintf(stderr, "the empty trace did not read back empty\n");
        return 1;
    }
    printf("ok: %zu bytes of trace\n", size);
    return 0;
}
