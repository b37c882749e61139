/* compat_check.c — an event read through a generated reader against the deterministic values of
 * gen/golden_values.h, field by field, with the field list of the trace's own metadata. */
#include "compat_check.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "golden_values.h"

#define MAX_FIELDS 64

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

static unsigned kind_size(uint8_t kind, uint8_t pointer_size)
{
    static const uint8_t sizes[18] = {0, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 1, 4, 16, 0, 0, 0, 0};
    return kind == 14 ? pointer_size : kind < 18 ? sizes[kind] : 0;
}

/* What a scalar accessor must return for the derived value `v` stored in `n` bytes. */
static uint64_t expected_bits(uint8_t kind, uint64_t v, unsigned n)
{
    if (kind == 9 || kind == 10) { /* floats: the accessor's value as a double */
        double d = kind == 9 ? (double)(float)evgen_golden_real(v) : evgen_golden_real(v);
        uint64_t bits;
        memcpy(&bits, &d, 8);
        return bits;
    }
    if (kind == 11 || kind == 12)
        return v & 1;
    uint64_t truncated = n >= 8 ? v : v & ((1ull << (8 * n)) - 1);
    if (kind >= 5 && kind <= 8 && n < 8 && (truncated >> (8 * n - 1)) & 1)
        truncated |= ~0ull << (8 * n); /* signed fields come back sign-extended */
    return truncated;
}

int compat_check_event(const evgen_event *ev, evgen_read_all_fn read_all)
{
    evgen_read_value values[MAX_FIELDS];
    int n = read_all(ev, values, MAX_FIELDS);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        const evgen_read_value *r = &values[i];
        uint32_t index;
        const evgen_trace_field *f = trace_field(ev, r->field, &index);
        if (!f) { /* a field of another version */
            if (r->present)
                fail_msg("%s v%u: %s is present though the version has no such field", ev->info->name, ev->version,
                         r->field);
            continue;
        }
        if (!r->present)
            fail_msg("%s v%u: %s is absent", ev->info->name, ev->version, r->field);
        uint64_t v = evgen_golden_value(ev->info->name, ev->version, r->field);
        if (f->is_array) {
            uint32_t count = evgen_golden_count(ev->info->name, ev->version, ev->layout->fields[f->count_field].name);
            if (r->length != count)
                fail_msg("%s v%u: %s has %u elements, %u fired", ev->info->name, ev->version, r->field, r->length, count);
        } else if (f->kind == 15 || f->kind == 16) {
            size_t length = evgen_golden_string_length(v);
            if (r->length != length)
                fail_msg("%s v%u: %s has %u code units, %zu fired", ev->info->name, ev->version, r->field, r->length,
                         length);
        } else if (f->kind == 13) {
            uint8_t bytes[16];
            for (size_t k = 0; k < 16; k++)
                bytes[k] = evgen_golden_byte(v, k + 3);
            assert_true(r->bits == digest(bytes, 16));
        } else {
            if (is_count_field(ev, index))
                v = evgen_golden_count(ev->info->name, ev->version, r->field);
            uint64_t want = expected_bits(f->kind, v, kind_size(f->kind, ev->pointer_size));
            if (r->bits != want)
                fail_msg("%s v%u: %s is 0x%llx, 0x%llx fired", ev->info->name, ev->version, r->field,
                         (unsigned long long)r->bits, (unsigned long long)want);
        }
    }
    return n;
}
