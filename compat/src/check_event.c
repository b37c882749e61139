/* check_event.c — an event read through a generated reader against the deterministic values of
 * compat/golden/golden_values.h, field by field, with the field list of the trace's own metadata. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "golden_values.h"
#include "evgen/compat_test.h"
#include "evgen/wire_kinds.h"

#define MAX_FIELDS 256

/* FNV-1a, as the read-all harnesses digest strings and GUIDs. */
static uint64_t digest(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static const evgen_trace_field *trace_field(const evgen_event *ev, const char *name, uint32_t *index)
{
    for (uint32_t i = 0; i < ev->layout->n_fields; i++) {
        if (strcmp(ev->layout->fields[i].name, name) == 0) {
            *index = i;
            return &ev->layout->fields[i];
        }
    }
    return NULL;
}

static int is_count_field(const evgen_event *ev, uint32_t index)
{
    for (uint32_t i = 0; i < ev->layout->n_fields; i++)
        if (ev->layout->fields[i].is_array && ev->layout->fields[i].count_field == (int32_t)index)
            return 1;
    return 0;
}

static int mismatch(char *why, size_t why_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_size, fmt, ap);
    va_end(ap);
    return EVGEN_COMPAT_MISMATCH;
}

/* One field the event's version has: present, with its golden value. */
static int check_field(const evgen_event *ev, const evgen_read_value *r, const evgen_trace_field *f, uint32_t index,
                       char *why, size_t why_size)
{
    const char *event = ev->info->name;
    if (!r->present)
        return mismatch(why, why_size, "%s v%u: %s is absent", event, ev->version, r->field);
    uint64_t v = evgen_golden_value(event, ev->version, r->field);
    if (f->is_array) {
        uint32_t count = evgen_golden_count(event, ev->version, ev->layout->fields[f->count_field].name);
        if (r->length != count)
            return mismatch(why, why_size, "%s v%u: %s has %u elements, %u were written", event, ev->version, r->field,
                            r->length, count);
    } else if (evgen_wire_kind_is_string(f->kind)) {
        size_t length = evgen_golden_string_length(v);
        if (r->length != length)
            return mismatch(why, why_size, "%s v%u: %s has %u code units, %zu were written", event, ev->version,
                            r->field, r->length, length);
    } else if (evgen_wire_kind_class(f->kind) == EVGEN_WIRE_CLASS_GUID) {
        uint8_t bytes[16];
        for (size_t k = 0; k < 16; k++)
            bytes[k] = evgen_golden_byte(v, k + 3);
        if (r->bits != digest(bytes, 16))
            return mismatch(why, why_size, "%s v%u: %s is not the GUID that was written", event, ev->version, r->field);
    } else {
        if (is_count_field(ev, index))
            v = evgen_golden_count(event, ev->version, r->field);
        uint64_t want = evgen_golden_expected_bits(f->kind, v, evgen_wire_kind_size(f->kind, ev->pointer_size));
        if (r->bits != want)
            return mismatch(why, why_size, "%s v%u: %s reads 0x%llx, 0x%llx was written", event, ev->version, r->field,
                            (unsigned long long)r->bits, (unsigned long long)want);
    }
    return 0;
}

int evgen_compat_check_event(const evgen_event *ev, evgen_read_all_fn read_all, char *why, size_t why_size)
{
    evgen_read_value values[MAX_FIELDS];
    int n = read_all(ev, values, MAX_FIELDS);
    if (n < 0)
        return EVGEN_COMPAT_UNKNOWN_EVENT;
    for (int i = 0; i < n && i < MAX_FIELDS; i++) {
        const evgen_read_value *r = &values[i];
        uint32_t index;
        const evgen_trace_field *f = trace_field(ev, r->field, &index);
        if (!f) { /* a field of another version */
            if (r->present)
                return mismatch(why, why_size, "%s v%u: %s is present though the version has no such field",
                                ev->info->name, ev->version, r->field);
            continue;
        }
        if (check_field(ev, r, f, index, why, why_size) != 0)
            return EVGEN_COMPAT_MISMATCH;
    }
    return n;
}
