/* golden_set.c — reads golden traces to learn which event versions they hold. Kept apart from the
 * model: it includes the reader's API. */
#include "backends/golden_set.h"

#include <stdlib.h>
#include <string.h>

#include "evgen/reader.h"
#include "model/util.h"

bool evgen_golden_holds(const evgen_golden_set *set, const char *event, unsigned version)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->pairs[i].version == version && strcmp(set->pairs[i].event, event) == 0)
            return true;
    return false;
}

int evgen_golden_list(const char *path, evgen_golden_set *set)
{
    evgen_reader *r = evgen_reader_open(path, NULL);
    if (!r)
        return -1;
    unsigned format = evgen_reader_header(r)->format_version;
    if (format > set->newest_format)
        set->newest_format = format;
    evgen_event ev;
    while (evgen_reader_next(r, &ev)) {
        if (evgen_golden_holds(set, ev.info->name, ev.version))
            continue;
        evgen_golden_pair *p = EVGEN_PUSH(set->pairs, set->count);
        p->event = evgen_xstrdup(ev.info->name);
        p->version = ev.version;
    }
    evgen_reader_close(r);
    return 0;
}

void evgen_golden_set_free(evgen_golden_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        free(set->pairs[i].event);
    free(set->pairs);
    set->pairs = NULL;
    set->count = 0;
    set->newest_format = 0;
}
