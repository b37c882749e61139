/* read_golden.c — reads golden traces with the reader generated from the tutorial's manifest
 * (GCHeapStats with GenerationSize5, since 3). For every GCHeapStats event, each generated
 * accessor, GCHeapStats_<Field>(ev) and GCHeapStats_has_<Field>(ev), is compared with the field
 * as the trace's own metadata places it (evgen_event_field): a field the event's version has must
 * read the same value, a field it lacks must be absent and read 0. Prints one line per
 * GCHeapStats event:
 *
 *   GCHeapStats v2: 16 fields, every accessor agrees with the trace; GenerationSize5 absent
 *   GCHeapStats v3: 17 fields, every accessor agrees with the trace; GenerationSize5 = 7959440056229783207
 *
 * and per trace the number of events read. Exit status 0 when every accessor agrees and every
 * trace reads whole. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evgen/reader.h"
#include "gcevents_reader.h"

#define GCHEAPSTATS_FIELDS(X)                                                                          \
    X(GenerationSize0) X(TotalPromotedSize0) X(GenerationSize1) X(TotalPromotedSize1) X(GenerationSize2) \
    X(TotalPromotedSize2) X(GenerationSize3) X(TotalPromotedSize3) X(FinalizationPromotedSize)          \
    X(FinalizationPromotedCount) X(PinnedObjectCount) X(SinkBlockCount) X(GCHandleCount) X(ClrInstanceID) \
    X(GenerationSize4) X(TotalPromotedSize4) X(GenerationSize5)

/* The field `name` of `ev`, little-endian, from the trace's description of the event's version.
 * Returns 1, or 0 if the version has no such field or the payload does not hold it. */
static int trace_value(const evgen_event *ev, const char *name, uint64_t *value)
{
    for (uint32_t i = 0; i < ev->layout->n_fields; i++) {
        if (strcmp(ev->layout->fields[i].name, name) != 0)
            continue;
        uint32_t offset, size;
        if (!evgen_event_field(ev, i, &offset, &size) || size > 8)
            return 0;
        uint64_t v = 0;
        for (uint32_t b = 0; b < size; b++)
            v |= (uint64_t)ev->payload[offset + b] << (8 * b);
        *value = v;
        return 1;
    }
    return 0;
}

/* Checks every accessor of one GCHeapStats event; returns the number of disagreements. */
static int check_heapstats(const evgen_event *ev)
{
    int bad = 0, present = 0;
    uint64_t tv;
#define CHECK(F)                                                                                        \
    {                                                                                                   \
        int has = GCHeapStats_has_##F(ev);                                                              \
        uint64_t value = (uint64_t)GCHeapStats_##F(ev);                                                 \
        int in_trace = trace_value(ev, #F, &tv);                                                        \
        if (has != in_trace || (has ? value != tv : value != 0)) {                                      \
            printf("GCHeapStats v%u: %s: accessor has=%d value=%" PRIu64 ", trace has=%d value=%" PRIu64 \
                   "\n",                                                                                \
                   ev->version, #F, has, value, in_trace, in_trace ? tv : 0);                           \
            bad++;                                                                                      \
        }                                                                                               \
        present += has;                                                                                 \
    }
    GCHEAPSTATS_FIELDS(CHECK)
#undef CHECK
    printf("GCHeapStats v%u: %d fields, every accessor %s the trace; GenerationSize5 ", ev->version, present,
           bad ? "does NOT agree with" : "agrees with");
    if (GCHeapStats_has_GenerationSize5(ev))
        printf("= %" PRIu64 "\n", (uint64_t)GCHeapStats_GenerationSize5(ev));
    else
        printf("absent\n");
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: read_golden TRACE...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        char *error = NULL;
        evgen_reader *reader = evgen_reader_open(argv[i], &error);
        if (!reader) {
            printf("%s: cannot open: %s\n", argv[i], error ? error : "?");
            free(error);
            bad++;
            continue;
        }
        printf("%s\n", argv[i]);
        evgen_event ev;
        size_t events = 0;
        while (evgen_reader_next(reader, &ev)) {
            events++;
            if (GCHeapStats_is(&ev))
                bad += check_heapstats(&ev);
        }
        if (evgen_reader_status(reader, NULL) != EVGEN_READ_OK) {
            printf("%s: not read whole\n", argv[i]);
            bad++;
        }
        printf("%zu events read\n", events);
        evgen_reader_close(reader);
    }
    return bad ? 1 : 0;
}
