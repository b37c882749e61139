/* field.c — an event's fields: the end of each variable-length field, computed once per event
 * from the version's lowered plan and bounded by the payload; generic field lookup; timestamps;
 * stack frames; UTF-16 to UTF-8. */
#include <string.h>

#include "core.h"
#include "evgen/wire_layout.h" /* evgen_wire_value_size */

uint32_t evgen_struct_element_size(const evgen_trace_struct *st, const uint8_t *p, uint32_t avail,
                                   unsigned pointer_size)
{
    if (!st->variable)
        return st->stride <= avail ? st->stride : 0;
    uint32_t at = 0;
    for (uint32_t j = 0; j < st->n_members; j++) {
        uint64_t n = evgen_wire_value_size(p + at, avail - at, st->members[j].kind, pointer_size);
        if (n == 0)
            return 0;
        at += (uint32_t)n; /* n <= avail - at */
    }
    return at;
}

int evgen_struct_member(const evgen_trace_struct *st, const uint8_t *element, uint32_t element_size,
                        unsigned pointer_size, uint32_t member, uint32_t *offset, uint32_t *size)
{
    if (member >= st->n_members)
        return 0;
    uint32_t at = 0;
    /* a fixed struct's member is at its own offset; a variable one's after the members before it */
    for (uint32_t j = st->variable ? 0 : member; j <= member; j++) {
        const evgen_trace_member *m = &st->members[j];
        if (!st->variable)
            at = m->offset;
        if (at > element_size)
            return 0;
        uint64_t n = evgen_wire_value_size(element + at, element_size - at, m->kind, pointer_size);
        if (n == 0)
            return 0;
        if (j == member) {
            *offset = at;
            *size = (uint32_t)n;
            return 1;
        }
        at += (uint32_t)n;
    }
    return 0;
}

void evgen_rd_variable_ends(const rd_version *v, const uint8_t *payload, uint32_t size, uint32_t *ends, uint32_t n)
{
    uint32_t prev = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (prev == UINT32_MAX) { /* everything after a field the payload does not hold */
            ends[k] = UINT32_MAX;
            continue;
        }
        const rd_field *pl = &v->plan[v->var_fields[k]];
        uint64_t start = (uint64_t)prev + pl->delta;
        uint32_t end = UINT32_MAX;
        if (start <= size) {
            const uint8_t *s = payload + start;
            uint32_t avail = size - (uint32_t)start;
            switch ((rd_step)pl->step) {
            case RD_STEP_UTF8Z: {
                const uint8_t *z = avail ? memchr(s, 0, avail) : NULL;
                if (z)
                    end = (uint32_t)(z - payload) + 1;
                break;
            }
            case RD_STEP_UTF16Z:
                for (uint32_t i = 0; i + 2 <= avail; i += 2)
                    if (s[i] == 0 && s[i + 1] == 0) {
                        end = (uint32_t)start + i + 2;
                        break;
                    }
                break;
            case RD_STEP_ARRAY:
            case RD_STEP_VAR_ARRAY: {
                /* The count field comes before the array: its start is known. */
                const rd_field *cp = &v->plan[pl->count_field];
                uint32_t base = cp->after ? ends[cp->after - 1] : 0;
                uint64_t cs = (uint64_t)base + cp->delta;
                if (base == UINT32_MAX || cs > size || cp->size > size - cs)
                    break;
                uint64_t count = evgen_wire_load(payload + cs, (unsigned)cp->size);
                if (evgen_wire_kind_is_signed(cp->count_kind) && (count >> (8 * cp->size - 1)) != 0)
                    break; /* negative */
                if (pl->step == RD_STEP_ARRAY) {
                    if (count <= avail / pl->elem)
                        end = (uint32_t)(start + count * pl->elem);
                    break;
                }
                /* Every element takes a byte at least (it holds a string): at most `avail` steps. */
                uint32_t at = 0;
                uint64_t i = 0;
                for (; i < count && at <= avail; i++) {
                    uint32_t e = evgen_struct_element_size(pl->vstruct, s + at, avail - at, pl->pointer_size);
                    if (e == 0)
                        break;
                    at += e;
                }
                if (i == count)
                    end = (uint32_t)start + at;
                break;
            }
            case RD_STEP_FIXED:
                break;
            }
        }
        ends[k] = prev = end;
    }
}

void evgen_rd_clock_init(evgen_reader *rd)
{
    evgen_reader_run *run = &rd->run;
    run->data = rd->data;
    run->pointer_size = rd->header.pointer_size;
    run->start_ticks = rd->header.start_ticks;
    uint64_t f = rd->header.clock_frequency, a = 1000000000u, b = f;
    if (f == 0) { /* no clock (a schema reader): never asked */
        run->ns_mul = run->ns_div = run->ns_max_ticks = 0;
        return;
    }
    uint64_t x = a, y = b; /* gcd(1e9, f), Euclid's */
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    a /= x;
    b /= x;
    /* d * 1e9 / f is d * ns_mul / ns_div exactly: one multiplication, and one division unless the
     * ticks are whole nanoseconds (ns_div 0, not 1: reader.h), while the product fits 64 bits (a 3
     * GHz TSC's 1e6 / 2994373 for 6,000 s of ticks). */
    run->ns_mul = a;
    run->ns_div = b == 1 ? 0 : b;
    run->ns_max_ticks = UINT64_MAX / a;
}

uint64_t evgen_rd_timestamp_ns_scaled(const evgen_reader *rd, uint64_t d)
{
    uint64_t f = rd->header.clock_frequency;
    /* d * 1e9 / f without overflow: q whole seconds and a remainder below f. */
    uint64_t q = d / f, r = d % f;
    if (q > UINT64_MAX / 1000000000u)
        return UINT64_MAX;
    uint64_t ns = q * 1000000000u, frac;
#ifdef __SIZEOF_INT128__
    frac = (uint64_t)((unsigned __int128)r * 1000000000u / f);
#else
    if (r <= UINT64_MAX / 1000000000u)
        frac = r * 1000000000u / f;
    else
        frac = (uint64_t)((long double)r * 1e9L / (long double)f);
#endif
    return ns > UINT64_MAX - frac ? UINT64_MAX : ns + frac;
}

/* Is `ev` an event of its reader (info and layout from its metadata, so its plan exists)? */
static int known_event(const evgen_event *ev)
{
    const evgen_reader *rd = ev ? ev->reader : NULL;
    return rd && ev->info && ev->info->index < rd->n_events && &rd->events[ev->info->index]->pub == ev->info &&
           ev->layout >= ev->info->versions && ev->layout < ev->info->versions + ev->info->n_versions;
}

void evgen_event_locate_variable(evgen_event *ev)
{
    if (!known_event(ev)) { /* nothing to locate them with: every variable field is absent */
        if (ev)
            ev->n_variable = 0;
        return;
    }
    const rd_version *v = evgen_rd_version_of(ev);
    uint32_t n = v->pub->n_variable < EVGEN_EVENT_MAX_VARIABLE ? v->pub->n_variable : EVGEN_EVENT_MAX_VARIABLE;
    ev->n_variable = (uint8_t)n;
    evgen_rd_variable_ends(v, ev->payload, ev->size, ev->variable_end, n);
}

int evgen_event_field(const evgen_event *ev, uint32_t index, uint32_t *offset, uint32_t *size)
{
    /* Only events this library filled carry a plan. */
    if (!known_event(ev) || index >= ev->layout->n_fields)
        return 0;
    const evgen_reader *rd = ev->reader;
    const rd_version *v = evgen_rd_version_of(ev);
    const rd_field *pl = &v->plan[index];
    const uint32_t *ends = ev->variable_end;
    uint32_t need = pl->step == RD_STEP_FIXED ? pl->after : pl->var + 1;
    if (need > ev->n_variable) { /* past the ends the event holds: compute them all */
        evgen_rd_variable_ends(v, ev->payload, ev->size, rd->scratch, v->pub->n_variable);
        ends = rd->scratch;
    }
    uint32_t off, n;
    if (!evgen_rd_locate(pl, ends, ev->size, &off, &n))
        return 0;
    if (offset)
        *offset = off;
    if (size)
        *size = n;
    return 1;
}

uint64_t evgen_event_stack_ip(const evgen_event *event, uint32_t i)
{
    if (!event || !event->stack || i >= event->stack_depth)
        return 0;
    return evgen_wire_load(event->stack + (size_t)i * event->pointer_size, event->pointer_size);
}

size_t evgen_utf16_to_utf8(evgen_utf16_view text, char *out, size_t capacity)
{
    size_t len = 0, written = 0;
    int full = 0;
    for (uint32_t i = 0; i < text.units; i++) {
        uint32_t u = evgen_wire_le16(text.data + 2 * (size_t)i), cp = u;
        if (u >= 0xD800 && u <= 0xDBFF && i + 1 < text.units) {
            uint32_t lo = evgen_wire_le16(text.data + 2 * (size_t)i + 2);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                i++;
            } else {
                cp = 0xFFFD;
            }
        } else if (u >= 0xD800 && u <= 0xDFFF) {
            cp = 0xFFFD;
        }
        char b[4];
        size_t n;
        if (cp < 0x80) {
            b[0] = (char)cp;
            n = 1;
        } else if (cp < 0x800) {
            b[0] = (char)(0xC0 | (cp >> 6));
            b[1] = (char)(0x80 | (cp & 0x3F));
            n = 2;
        } else if (cp < 0x10000) {
            b[0] = (char)(0xE0 | (cp >> 12));
            b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
            b[2] = (char)(0x80 | (cp & 0x3F));
            n = 3;
        } else {
            b[0] = (char)(0xF0 | (cp >> 18));
            b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
            b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
            b[3] = (char)(0x80 | (cp & 0x3F));
            n = 4;
        }
        /* Whole characters only: a truncated result is still valid UTF-8. */
        if (!full && written + n < capacity) {
            memcpy(out + written, b, n);
            written += n;
        } else {
            full = 1;
        }
        len += n;
    }
    if (capacity)
        out[written] = '\0';
    return len;
}

const char *evgen_trace_enum_name(const evgen_trace_enum *en, int64_t value)
{
    for (uint32_t i = 0; i < en->n_consts; i++)
        if (en->consts[i].value == value)
            return en->consts[i].name;
    return NULL;
}
