/* fire_v3.c — a runtime's call site after the tutorial's edit: FIRE_EVENT(GCHeapStats, ...) now
 * fires version 3 and takes GenerationSize5 as its 17th argument. Fires it into a memory session
 * and reads it back with the generated reader; prints
 *
 *   fired GCHeapStats v3: GenerationSize5 = 5555, GenerationSize4 = 4444
 *
 * and exits with status 0 when the event reads back with those values. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "evgen/reader.h"
#include "evgen/runtime.h"
#include "gcevents_reader.h"
#include "gcevents_runtime.h"

int main(void)
{
    evgen_session *session = evgen_session_open_memory(NULL);
    if (!session || evgen_session_enable(session, "Microsoft-Windows-DotNETRuntime", 4, ~0ull) != 0) {
        fprintf(stderr, "cannot open a session\n");
        return 1;
    }
    FIRE_EVENT(GCHeapStats, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 4444, 16, 5555);
    uint8_t *trace = NULL;
    size_t size = 0;
    if (evgen_session_close(session, NULL, &trace, &size) != 0) {
        fprintf(stderr, "cannot close the session\n");
        return 1;
    }
    evgen_reader *reader = evgen_reader_open_memory(trace, size, NULL);
    evgen_event ev;
    int found = 0;
    while (reader && evgen_reader_next(reader, &ev)) {
        if (!GCHeapStats_is(&ev))
            continue;
        printf("fired GCHeapStats v%u: GenerationSize5 = %" PRIu64 ", GenerationSize4 = %" PRIu64 "\n", ev.version,
               (uint64_t)GCHeapStats_GenerationSize5(&ev), (uint64_t)GCHeapStats_GenerationSize4(&ev));
        found += ev.version == 3 && GCHeapStats_GenerationSize5(&ev) == 5555 &&
                 GCHeapStats_GenerationSize4(&ev) == 4444;
    }
    evgen_reader_close(reader);
    free(trace);
    return found == 1 ? 0 : 1;
}
