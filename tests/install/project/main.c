/* main.c — fires Request in both versions into a memory session and reads the trace back with
 * the generated reader, checking every value. Exit status 0 and "ok" when all is as fired. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_reader.h"
#include "app_runtime.h"
#include "evgen/reader.h"
#include "evgen/runtime.h"

static int failures;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "main.c:%d: check failed: %s\n", __LINE__, #cond);      \
            failures++;                                                             \
        }                                                                           \
    } while (0)

int main(void)
{
    evgen_session *session = evgen_session_open_memory(NULL);
    CHECK(session != NULL);
    if (!session)
        return 1;
    CHECK(evgen_session_enable(session, "Evgen-Install-Test", APP_LEVEL_INFORMATION, APP_KEYWORD_REQUESTS) == 0);
    CHECK(EventEnabledRequest());
    FIRE_EVENT(Request, 42, AppStatus_NotFound, 123456789012ull); /* the latest version, 1 */
    CHECK(FireEtwRequest_V0(43, AppStatus_Failed) == EVGEN_EMIT_OK);
    uint8_t *trace = NULL;
    size_t size = 0;
    CHECK(evgen_session_close(session, NULL, &trace, &size) == 0);

    char *error = NULL;
    evgen_reader *reader = evgen_reader_open_memory(trace, size, &error);
    if (!reader) {
        fprintf(stderr, "cannot read the trace: %s\n", error ? error : "?");
        free(error);
        free(trace);
        return 1;
    }
    evgen_event ev;
    int n = 0;
    while (evgen_reader_next(reader, &ev)) {
        if (!Request_is(&ev))
            continue;
        if (n == 0) {
            CHECK(ev.version == 1);
            CHECK(Request_Id(&ev) == 42);
            CHECK(Request_Status(&ev) == AppStatus_NotFound);
            CHECK(Request_has_Bytes(&ev));
            CHECK(Request_Bytes(&ev) == 123456789012ull);
        } else if (n == 1) {
            CHECK(ev.version == 0);
            CHECK(Request_Id(&ev) == 43);
            CHECK(Request_Status(&ev) == AppStatus_Failed);
            CHECK(!Request_has_Bytes(&ev));
            CHECK(Request_Bytes(&ev) == 0);
        }
        n++;
    }
    CHECK(n == 2);
    CHECK(evgen_reader_status(reader, NULL) == EVGEN_READ_OK);
    evgen_reader_close(reader);
    free(trace);
    if (failures)
        return 1;
    printf("ok: 2 Request events read back\n");
    return 0;
}
