/* golden_set.h — which event versions a set of golden traces holds (read with libevgen-reader). */
#ifndef EVGEN_GEN_GOLDEN_SET_H
#define EVGEN_GEN_GOLDEN_SET_H

#include <stdbool.h>
#include <stddef.h>

typedef struct evgen_golden_pair {
    char *event;
    unsigned version;
} evgen_golden_pair;

typedef struct evgen_golden_set {
    evgen_golden_pair *pairs;
    size_t count;
    unsigned newest_format; /* the newest container format version of the traces listed (0: none) */
} evgen_golden_set;

/* Adds the (event, version) pairs of every event in the trace at `path`, and its container format
 * version. Returns 0, or -1 if the trace cannot be opened (a damaged trace adds what it holds and
 * returns 0). */
int evgen_golden_list(const char *path, evgen_golden_set *set);
bool evgen_golden_holds(const evgen_golden_set *set, const char *event, unsigned version);
void evgen_golden_set_free(evgen_golden_set *set);

#endif /* EVGEN_GEN_GOLDEN_SET_H */
