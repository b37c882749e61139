/* dump.c — `evgen dump`: every event as a text or JSON line decoded from the trace's metadata,
 * written through a large buffer with hand-rolled number formatting and nothing allocated per
 * event (each version's line head and field prefixes are rendered once); --stats; the trace's
 * problems on stderr; a progress bar on a terminal. */
#include "evgen/dump.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convert_internal.h" /* the raw types of evgen convert */
#include "core.h"
#include "evgen/wire_bytes.h"
#include "evgen/wire_format.h"
#include "evgen/wire_kinds.h"

/* Was the file a .nettrace one? Its header and statistics say which container they describe. */
static int is_nettrace(const evgen_reader *rd)
{
    return rd->header.container == EVGEN_CONTAINER_NETTRACE;
}

#define OUT_SIZE (1u << 20)
#define ROOM 128 /* bytes one number, GUID or escape needs at most */
#define PROGRESS_MIN_SIZE (64ull << 20)

void evgen_dump_options_init(evgen_dump_options *o)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->order = EVGEN_ORDER_TIME;
    o->to_ns = UINT64_MAX;
    o->progress = 1;
}

/* ---- the output buffer -------------------------------------------------------------------- */

typedef struct out {
    char *buf, *p, *end;
    int fd;
    int error; /* errno of the first failed write */
} out;

static void out_flush(out *o)
{
    const char *q = o->buf;
    while (q < o->p && !o->error) {
        ssize_t n = write(o->fd, q, (size_t)(o->p - q));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            o->error = n < 0 ? errno : EIO;
        else
            q += n;
    }
    o->p = o->buf;
}

/* At least `n` (<= OUT_SIZE) bytes of room at o->p. */
static inline char *room(out *o, size_t n)
{
    if ((size_t)(o->end - o->p) < n)
        out_flush(o);
    return o->p;
}

static void put(out *o, const char *s, size_t n)
{
    while (n) {
        if (o->p == o->end)
            out_flush(o);
        size_t k = (size_t)(o->end - o->p) < n ? (size_t)(o->end - o->p) : n;
        memcpy(o->p, s, k);
        o->p += k;
        s += k;
        n -= k;
    }
}

static void puts_(out *o, const char *s)
{
    put(o, s, strlen(s));
}

static inline void putc_(out *o, char c)
{
    if (o->p == o->end)
        out_flush(o);
    *o->p++ = c;
}

/* ---- numbers ------------------------------------------------------------------------------ */

static const char digits2[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";

/* Decimal digits of v (1 for 0): log10 from the bit length, corrected by one comparison. */
static inline unsigned decimal_length(uint64_t v)
{
    static const uint64_t p10[20] = {1ull,
                                     10ull,
                                     100ull,
                                     1000ull,
                                     10000ull,
                                     100000ull,
                                     1000000ull,
                                     10000000ull,
                                     100000000ull,
                                     1000000000ull,
                                     10000000000ull,
                                     100000000000ull,
                                     1000000000000ull,
                                     10000000000000ull,
                                     100000000000000ull,
                                     1000000000000000ull,
                                     10000000000000000ull,
                                     100000000000000000ull,
                                     1000000000000000000ull,
                                     10000000000000000000ull};
    v |= 1;
    unsigned t = ((64u - (unsigned)__builtin_clzll(v)) * 1233u) >> 12;
    return t + (v >= p10[t]);
}

static inline char *fmt_u64(char *w, uint64_t v)
{
    unsigned n = decimal_length(v);
    char *t = w + n;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        t -= 2;
        t[0] = digits2[2 * r];
        t[1] = digits2[2 * r + 1];
    }
    if (v >= 10) {
        t[-2] = digits2[2 * v];
        t[-1] = digits2[2 * v + 1];
    } else {
        t[-1] = (char)('0' + v);
    }
    return w + n;
}

static inline char *fmt_i64(char *w, int64_t v)
{
    if (v < 0) {
        *w++ = '-';
        return fmt_u64(w, 0 - (uint64_t)v);
    }
    return fmt_u64(w, (uint64_t)v);
}

static const char hexdigits[] = "0123456789abcdef";

static char *fmt_hex(char *w, uint64_t v, int width)
{
    char tmp[16];
    int n = 0;
    do {
        tmp[n++] = hexdigits[v & 15];
        v >>= 4;
    } while (v || n < width);
    while (n)
        *w++ = tmp[--n];
    return w;
}

/* ---- strings ------------------------------------------------------------------------------ */

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_sequence(const uint8_t *s, size_t n)
{
    uint8_t c = s[0];
    if (c >= 0xC2 && c <= 0xDF)
        return n >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (n < 3 || (s[2] & 0xC0) != 0x80)
            return 0;
        uint8_t lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return s[1] >= lo && s[1] <= hi ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (n < 4 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
            return 0;
        uint8_t lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return s[1] >= lo && s[1] <= hi ? 4 : 0;
    }
    return 0;
}

/* An ASCII character, escaped for a quoted text or JSON string. */
static inline char *escape_ascii(char *w, unsigned c, int json)
{
    if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f) {
        *w++ = (char)c;
        return w;
    }
    *w++ = '\\';
    switch (c) {
    case '"':
    case '\\':
        *w++ = (char)c;
        return w;
    case '\n':
        *w++ = 'n';
        return w;
    case '\r':
        *w++ = 'r';
        return w;
    case '\t':
        *w++ = 't';
        return w;
    default:
        break;
    }
    if (json) {
        if (c == 0x7f) {
            w[-1] = 0x7f; /* JSON leaves DEL alone */
            return w;
        }
        memcpy(w, "u00", 3);
        w[3] = hexdigits[c >> 4];
        w[4] = hexdigits[c & 15];
        return w + 5;
    }
    *w++ = 'x';
    *w++ = hexdigits[c >> 4];
    *w++ = hexdigits[c & 15];
    return w;
}

static char *put_codepoint(char *w, uint32_t cp)
{
    if (cp < 0x800) {
        *w++ = (char)(0xC0 | (cp >> 6));
    } else {
        if (cp < 0x10000) {
            *w++ = (char)(0xE0 | (cp >> 12));
        } else {
            *w++ = (char)(0xF0 | (cp >> 18));
            *w++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        }
        *w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
    }
    *w++ = (char)(0x80 | (cp & 0x3F));
    return w;
}

/* A quoted string from UTF-8 bytes: invalid bytes become \xNN in text, U+FFFD in JSON. */
static void put_utf8(out *o, const uint8_t *s, size_t n, int json)
{
    putc_(o, '"');
    size_t i = 0;
    while (i < n) {
        char *w = room(o, 16);
        uint8_t c = s[i];
        if (c < 0x80) {
            o->p = escape_ascii(w, c, json);
            i++;
            continue;
        }
        size_t k = utf8_sequence(s + i, n - i);
        if (k) {
            memcpy(w, s + i, k);
            o->p = w + k;
            i += k;
        } else if (json) {
            memcpy(w, "\\ufffd", 6);
            o->p = w + 6;
            i++;
        } else {
            w[0] = '\\';
            w[1] = 'x';
            w[2] = hexdigits[c >> 4];
            w[3] = hexdigits[c & 15];
            o->p = w + 4;
            i++;
        }
    }
    putc_(o, '"');
}

/* A quoted string from UTF-16LE units: unpaired surrogates become U+FFFD. */
static void put_utf16(out *o, const uint8_t *s, size_t units, int json)
{
    putc_(o, '"');
    for (size_t i = 0; i < units; i++) {
        char *w = room(o, 16);
        uint32_t u = evgen_wire_le16(s + 2 * i), cp = u;
        if (u >= 0xD800 && u <= 0xDFFF) {
            uint32_t lo = i + 1 < units ? evgen_wire_le16(s + 2 * i + 2) : 0;
            if (u <= 0xDBFF && lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                i++;
            } else {
                cp = 0xFFFD;
            }
        }
        o->p = cp < 0x80 ? escape_ascii(w, cp, json) : put_codepoint(w, cp);
    }
    putc_(o, '"');
}

/* A name from the metadata, as a JSON string. */
static void put_json_string(out *o, const char *s)
{
    put_utf8(o, (const uint8_t *)s, strlen(s), 1);
}

/* ---- values ------------------------------------------------------------------------------- */

typedef struct dumper {
    out o;
    evgen_reader *rd;
    int json;
    unsigned pointer_size;
    /* per version serial: the line head (text " Name_Vn"; JSON up to "fields":{) and each
     * field's prefix (text " Field="; JSON "Field":), rendered once */
    char **head;
    size_t *head_len;
    char ***prefix;
    size_t **prefix_len;
    uint8_t *raw_type; /* per version serial: a raw type of evgen convert (printed as raw=) */
    const char *names[64]; /* JSON: enum constant names of this event's fields */
    uint32_t name_fields[64];
    size_t n_names;
} dumper;

static const char *enum_name(const evgen_trace_enum *en, int64_t v)
{
    for (uint32_t i = 0; i < en->n_consts; i++)
        if (en->consts[i].value == v)
            return en->consts[i].name;
    return NULL;
}

static int64_t sign_extend(uint64_t v, unsigned size)
{
    if (size < 8 && (v >> (8 * size - 1)) & 1)
        v |= ~(uint64_t)0 << (8 * size);
    return (int64_t)v;
}

static char *fmt_guid(char *w, const uint8_t *p)
{
    w = fmt_hex(w, evgen_wire_le32(p), 8);
    *w++ = '-';
    w = fmt_hex(w, evgen_wire_le16(p + 4), 4);
    *w++ = '-';
    w = fmt_hex(w, evgen_wire_le16(p + 6), 4);
    *w++ = '-';
    for (int i = 8; i < 16; i++) {
        if (i == 10)
            *w++ = '-';
        *w++ = hexdigits[p[i] >> 4];
        *w++ = hexdigits[p[i] & 15];
    }
    return w;
}

/* One fixed-size value of `kind` at p (its size known to fit). `name` receives the enum constant
 * of an enum value in JSON (NULL if none). */
static void put_scalar(dumper *d, unsigned kind, const uint8_t *p, const evgen_trace_enum *en, const char **name)
{
    out *o = &d->o;
    char *w = room(o, ROOM);
    unsigned size = evgen_wire_kind_size(kind, d->pointer_size);
    switch (evgen_wire_kind_class(kind)) {
    case EVGEN_WIRE_CLASS_UNSIGNED:
    case EVGEN_WIRE_CLASS_SIGNED: {
        int is_signed = evgen_wire_kind_is_signed(kind);
        uint64_t u = evgen_wire_load(p, size);
        int64_t s = is_signed ? sign_extend(u, size) : (int64_t)u;
        const char *constant = en ? enum_name(en, s) : NULL;
        if (constant && !d->json) { /* Reason=AllocSmall(0) */
            puts_(o, constant);
            w = room(o, ROOM);
            *w++ = '(';
            w = is_signed ? fmt_i64(w, s) : fmt_u64(w, u);
            *w++ = ')';
        } else {
            w = is_signed ? fmt_i64(w, s) : fmt_u64(w, u);
        }
        if (name)
            *name = constant;
        break;
    }
    case EVGEN_WIRE_CLASS_FLOAT: {
        double v;
        if (kind == EVGEN_WIRE_F32) {
            float f;
            memcpy(&f, p, 4);
            v = f;
        } else {
            memcpy(&v, p, 8);
        }
        if (d->json && !isfinite(v))
            w += snprintf(w, ROOM, "\"%s\"", isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
        else /* enough digits to read back the same value */
            w += snprintf(w, ROOM, kind == EVGEN_WIRE_F32 ? "%.9g" : "%.17g", v);
        break;
    }
    case EVGEN_WIRE_CLASS_BOOL: {
        uint64_t v = evgen_wire_load(p, size);
        if (v <= 1) {
            memcpy(w, v ? "true" : "false", 5);
            w += v ? 4 : 5;
        } else {
            w = fmt_u64(w, v);
        }
        break;
    }
    case EVGEN_WIRE_CLASS_GUID:
        if (d->json)
            *w++ = '"';
        w = fmt_guid(w, p);
        if (d->json)
            *w++ = '"';
        break;
    case EVGEN_WIRE_CLASS_POINTER:
        if (d->json)
            *w++ = '"';
        *w++ = '0';
        *w++ = 'x';
        w = fmt_hex(w, evgen_wire_load(p, size), 1);
        if (d->json)
            *w++ = '"';
        break;
    case EVGEN_WIRE_CLASS_UTF8:
    case EVGEN_WIRE_CLASS_UTF16:
    case EVGEN_WIRE_CLASS_STRUCT: /* not a scalar (nor a kind at all): never from checked metadata */
        *w++ = '?';
        break;
    }
    o->p = w;
}

static void put_array(dumper *d, const evgen_trace_field *fd, const evgen_trace_manifest *m, const uint8_t *p,
                      uint32_t size)
{
    out *o = &d->o;
    const evgen_trace_struct *st = fd->kind == EVGEN_WIRE_STRUCT ? &m->structs[fd->struct_index] : NULL;
    uint32_t elem = st ? st->stride : evgen_wire_kind_size(fd->kind, d->pointer_size);
    const evgen_trace_enum *en = fd->enum_index >= 0 ? &m->enums[fd->enum_index] : NULL;
    uint32_t count = elem ? size / elem : 0;
    putc_(o, '[');
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = p + (size_t)i * elem;
        if (i)
            putc_(o, ',');
        if (!st) {
            put_scalar(d, fd->kind, e, en, NULL);
            continue;
        }
        putc_(o, '{');
        for (uint32_t k = 0; k < st->n_members; k++) {
            const evgen_trace_member *mb = &st->members[k];
            if (k)
                putc_(o, ',');
            if (d->json) {
                put_json_string(o, mb->name);
                putc_(o, ':');
            } else {
                puts_(o, mb->name);
                putc_(o, '=');
            }
            put_scalar(d, mb->kind, e + mb->offset, mb->enum_index >= 0 ? &m->enums[mb->enum_index] : NULL, NULL);
        }
        putc_(o, '}');
    }
    putc_(o, ']');
}

static void put_field(dumper *d, const evgen_event *ev, uint32_t f, uint32_t off, uint32_t size)
{
    const evgen_trace_field *fd = &ev->layout->fields[f];
    const evgen_trace_manifest *m = ev->info->manifest;
    const uint8_t *p = ev->payload + off;
    evgen_wire_class cls = evgen_wire_kind_class(fd->kind);
    if (fd->is_array) {
        put_array(d, fd, m, p, size);
    } else if (cls == EVGEN_WIRE_CLASS_UTF8) {
        put_utf8(&d->o, p, size - 1, d->json);
    } else if (cls == EVGEN_WIRE_CLASS_UTF16) {
        put_utf16(&d->o, p, (size - 2) / 2, d->json);
    } else {
        const char *name = NULL;
        put_scalar(d, fd->kind, p, fd->enum_index >= 0 ? &m->enums[fd->enum_index] : NULL, d->json ? &name : NULL);
        if (name && d->n_names < sizeof d->names / sizeof d->names[0]) {
            d->names[d->n_names] = name;
            d->name_fields[d->n_names++] = f;
        }
    }
}

/* ---- lines -------------------------------------------------------------------------------- */

/* Renders text at setup (never per event) into a buffer of `capacity` bytes, through the same
 * output functions: the capacity covers the worst escaping, so nothing is flushed. */
static int render_begin(dumper *d, out *saved, size_t capacity)
{
    *saved = d->o;
    d->o.buf = d->o.p = calloc(1, capacity); /* zeroed: put_rendered copies whole 16-byte steps */
    d->o.end = d->o.buf ? d->o.buf + capacity : NULL;
    d->o.fd = -1;
    d->o.error = 0;
    return d->o.buf ? 0 : -1;
}

static int render_end(dumper *d, out *saved, char **text, size_t *len)
{
    int ok = !d->o.error;
    *len = (size_t)(d->o.p - d->o.buf);
    *text = d->o.buf;
    d->o = *saved;
    return ok ? 0 : -1;
}

static int prepare_version(dumper *d, const rd_version *v)
{
    const evgen_trace_event_info *info = v->info;
    out saved;
    uint32_t serial = v->serial;
    if (render_begin(d, &saved, 6 * (strlen(info->name) + strlen(info->provider)) + 2 * ROOM) != 0)
        return -1;
    if (d->json) {
        puts_(&d->o, ",\"event\":");
        put_json_string(&d->o, info->name);
        puts_(&d->o, ",\"provider\":");
        put_json_string(&d->o, info->provider);
        char *w = room(&d->o, ROOM);
        memcpy(w, ",\"id\":", 6);
        w = fmt_u64(w + 6, info->id);
        memcpy(w, ",\"version\":", 11);
        w = fmt_u64(w + 11, v->pub->version);
        memcpy(w, ",\"fields\":{", 11);
        d->o.p = w + 11;
    } else {
        putc_(&d->o, ' ');
        puts_(&d->o, info->name);
        char *w = room(&d->o, ROOM);
        memcpy(w, "_V", 2);
        d->o.p = fmt_u64(w + 2, v->pub->version);
    }
    if (render_end(d, &saved, &d->head[serial], &d->head_len[serial]) != 0)
        return -1;
    d->raw_type[serial] = (uint8_t)evgen_cv_is_raw_type(v->pub, info);
    uint32_t n = v->pub->n_fields;
    d->prefix[serial] = calloc(n + 1, sizeof **d->prefix);
    d->prefix_len[serial] = calloc(n + 1, sizeof **d->prefix_len);
    if (!d->prefix[serial] || !d->prefix_len[serial])
        return -1;
    for (uint32_t f = 0; f < n; f++) {
        if (render_begin(d, &saved, 6 * strlen(v->pub->fields[f].name) + ROOM) != 0)
            return -1;
        if (d->json) {
            if (f)
                putc_(&d->o, ',');
            put_json_string(&d->o, v->pub->fields[f].name);
            putc_(&d->o, ':');
        } else {
            putc_(&d->o, ' ');
            puts_(&d->o, v->pub->fields[f].name);
            putc_(&d->o, '=');
        }
        if (render_end(d, &saved, &d->prefix[serial][f], &d->prefix_len[serial][f]) != 0)
            return -1;
    }
    return 0;
}

static void free_prepared(dumper *d)
{
    for (size_t s = 0; d->head && s < d->rd->n_versions; s++) {
        free(d->head[s]);
        for (uint32_t f = 0; d->prefix[s] && f < d->rd->versions[s]->pub->n_fields; f++)
            free(d->prefix[s][f]);
        free(d->prefix[s]);
        free(d->prefix_len[s]);
    }
    free(d->head);
    free(d->head_len);
    free(d->prefix);
    free(d->prefix_len);
    free(d->raw_type);
}

static int prepare(dumper *d)
{
    size_t n = d->rd->n_versions;
    d->head = calloc(n + 1, sizeof *d->head);
    d->head_len = calloc(n + 1, sizeof *d->head_len);
    d->prefix = calloc(n + 1, sizeof *d->prefix);
    d->prefix_len = calloc(n + 1, sizeof *d->prefix_len);
    d->raw_type = calloc(n + 1, sizeof *d->raw_type);
    if (!d->head || !d->head_len || !d->prefix || !d->prefix_len || !d->raw_type)
        return -1;
    for (size_t s = 0; s < n; s++)
        if (prepare_version(d, d->rd->versions[s]) != 0)
            return -1;
    return 0;
}

/* Copies a rendered prefix: short ones in 16-byte steps (the rendered buffers have room to
 * spare, so reading past `n` stays inside them), with no call into the C library. */
static inline void put_rendered(out *o, const char *s, size_t n)
{
    if (n > 64) {
        put(o, s, n);
        return;
    }
    char *w = room(o, 80);
    for (size_t i = 0; i < n; i += 16)
        memcpy(w + i, s + i, 16);
    o->p = w + n;
}

/* Payload bytes from `off` on, in hex, as the member "raw" of "fields" (JSON) or raw=… (text);
 * `n`: the fields printed before it. */
static void put_raw(dumper *d, const evgen_event *ev, uint32_t off, uint32_t n)
{
    out *o = &d->o;
    /* JSON: a member of "fields", after the n fields printed before it (none: the first member). */
    puts_(o, !d->json ? " raw=" : n ? ",\"raw\":\"" : "\"raw\":\"");
    for (uint32_t i = off; i < ev->size; i++) {
        char *w = room(o, 2);
        w[0] = hexdigits[ev->payload[i] >> 4];
        w[1] = hexdigits[ev->payload[i] & 15];
        o->p = w + 2;
    }
    if (d->json)
        putc_(o, '"');
}

/* An event no manifest describes (.nettrace): the payload past the fields the trace describes, in
 * hex, so nothing is hidden. */
static void put_raw_tail(dumper *d, const evgen_event *ev, uint32_t n)
{
    uint32_t off = 0, size = 0;
    if (n && evgen_event_field(ev, n - 1, &off, &size))
        off += size;
    else if (n)
        return;
    if (off < ev->size)
        put_raw(d, ev, off, n);
}

static void dump_event(dumper *d, const evgen_event *ev)
{
    out *o = &d->o;
    const rd_version *v = evgen_rd_version_of(ev);
    char *w = room(o, ROOM);
    if (d->json) {
        memcpy(w, "{\"timestamp_ns\":", 16);
        w = fmt_u64(w + 16, ev->timestamp_ns);
        memcpy(w, ",\"thread\":", 10);
        w = fmt_u64(w + 10, ev->thread_id);
        if (ev->stream) { /* an event of a signal handler's nested stream; most have none */
            memcpy(w, ",\"stream\":", 10);
            w = fmt_u64(w + 10, ev->stream);
        }
    } else {
        w = fmt_u64(w, ev->timestamp_ns);
        *w++ = ' ';
        w = fmt_u64(w, ev->thread_id);
    }
    o->p = w;
    put_rendered(o, d->head[v->serial], d->head_len[v->serial]);
    d->n_names = 0;
    uint32_t n = ev->layout->n_fields, f;
    char *const *prefix = d->prefix[v->serial];
    const size_t *prefix_len = d->prefix_len[v->serial];
    if (d->raw_type[v->serial]) { /* evgen convert's copy of an undecoded payload: printed as one */
        uint32_t off = 0, size = 0;
        if (evgen_event_field(ev, 1, &off, &size) && size)
            put_raw(d, ev, off, 0);
        n = f = 0;
    }
    for (f = 0; f < n; f++) {
        /* Where the field is: the plan applied to the ends the event holds (evgen_rd_locate, inline). */
        const rd_field *pl = &v->plan[f];
        uint32_t off, size;
        if (pl->after > ev->n_variable || (pl->step != RD_STEP_FIXED && pl->var >= ev->n_variable)) {
            if (!evgen_event_field(ev, f, &off, &size))
                break;
        } else if (!evgen_rd_locate(pl, ev->variable_end, ev->size, &off, &size)) {
            break;
        }
        put_rendered(o, prefix[f], prefix_len[f]);
        const evgen_trace_field *fd = &ev->layout->fields[f];
        if (!fd->is_array && fd->enum_index < 0 &&
            evgen_wire_kind_class(fd->kind) == EVGEN_WIRE_CLASS_UNSIGNED) { /* the common case */
            w = room(o, ROOM);
            o->p = fmt_u64(w, evgen_wire_load(ev->payload + off, size));
        } else {
            put_field(d, ev, f, off, size);
        }
    }
    if (f == n && ev->info->unbound && !d->raw_type[v->serial])
        put_raw_tail(d, ev, n);
    if (!d->json) {
        if (f < n) { /* the payload ends before this field: it and the rest are left out */
            puts_(o, " <truncated at ");
            puts_(o, ev->layout->fields[f].name);
            putc_(o, '>');
        }
        putc_(o, '\n');
        return;
    }
    putc_(o, '}');
    if (d->n_names) {
        puts_(o, ",\"names\":{");
        for (size_t i = 0; i < d->n_names; i++) {
            if (i)
                putc_(o, ',');
            put_json_string(o, ev->layout->fields[d->name_fields[i]].name);
            putc_(o, ':');
            put_json_string(o, d->names[i]);
        }
        putc_(o, '}');
    }
    if (f < n) {
        puts_(o, ",\"truncated\":");
        put_json_string(o, ev->layout->fields[f].name);
    }
    w = room(o, 2);
    w[0] = '}';
    w[1] = '\n';
    o->p = w + 2;
}

/* ---- --stats ------------------------------------------------------------------------------ */

typedef struct stat_entry {
    uint64_t count, bytes;
} stat_entry;

static const char *status_name(evgen_read_status s)
{
    switch (s) {
    case EVGEN_READ_OK:
        return "ok";
    case EVGEN_READ_CORRUPT:
        return "corrupt";
    case EVGEN_READ_TRUNCATED:
        return "truncated";
    }
    return "?";
}

static void put_u64(out *o, uint64_t v)
{
    char *w = room(o, ROOM);
    o->p = fmt_u64(w, v);
}

/* Right-aligned in `width` columns. */
static void put_u64_col(out *o, uint64_t v, int width)
{
    char num[24];
    int n = (int)(fmt_u64(num, v) - num);
    char *w = room(o, ROOM);
    for (; n < width; width--)
        *w++ = ' ';
    memcpy(w, num, (size_t)n);
    o->p = w + n;
}

static const char *clock_name(unsigned kind)
{
    return kind == EVGEN_WIRE_CLOCK_MONOTONIC ? "monotonic" : kind == EVGEN_WIRE_CLOCK_TSC ? "tsc" : "qpc";
}

static void stats_text(dumper *d, const char *path, const stat_entry *by_version, const stat_entry *by_thread)
{
    out *o = &d->o;
    const evgen_reader *rd = d->rd;
    const evgen_trace_header *h = &rd->header;
    char line[512];
    snprintf(line, sizeof line,
             "trace: %s\n  %llu bytes, %sformat %u, pointer size %u, clock %s at %llu Hz, process %u\n", path,
             (unsigned long long)rd->size, is_nettrace(rd) ? "nettrace " : "", h->format_version, h->pointer_size,
             clock_name(h->clock_kind), (unsigned long long)h->clock_frequency, h->process_id);
    puts_(o, line);
    puts_(o, "events:\n         count          bytes  event\n");
    uint64_t events = 0, bytes = 0;
    for (size_t s = 0; s < rd->n_versions; s++) {
        if (!by_version[s].count)
            continue;
        const rd_version *v = rd->versions[s];
        put_u64_col(o, by_version[s].count, 14);
        put_u64_col(o, by_version[s].bytes, 15);
        puts_(o, "  ");
        puts_(o, v->info->name);
        puts_(o, "_V");
        put_u64(o, v->pub->version);
        puts_(o, " (");
        puts_(o, v->info->provider);
        puts_(o, ")\n");
        events += by_version[s].count;
        bytes += by_version[s].bytes;
    }
    /* An end block (.evtrace) has the writer's own totals; a .nettrace file's end has none, and
     * its dropped events are the sequence-number gaps. */
    int end_totals = rd->has_end && !is_nettrace(rd);
    puts_(o, end_totals ? "threads:\n        thread         events        dropped    end: written        dropped"
                          "        too big\n"
                        : is_nettrace(rd) ? "threads:\n        thread         events           lost\n"
                                 : "threads:\n        thread         events        dropped\n");
    uint64_t dropped = 0, dropped_end = 0, too_big = 0;
    for (size_t t = 0; t < rd->n_threads; t++) {
        const evgen_reader_thread *th = &rd->threads[t];
        put_u64_col(o, th->thread_id, 14);
        put_u64_col(o, by_thread[t].count, 15);
        put_u64_col(o, th->dropped, 15);
        if (end_totals) {
            put_u64_col(o, th->written_end, 18);
            put_u64_col(o, th->dropped_end, 15);
            put_u64_col(o, th->too_big_end, 15);
        }
        putc_(o, '\n');
        dropped += th->dropped;
        dropped_end += th->dropped_end;
        too_big += th->too_big_end;
    }
    if (is_nettrace(rd))
        snprintf(line, sizeof line, "totals: %llu events, %llu payload bytes, %llu lost (sequence gaps), %zu threads\n",
                 (unsigned long long)events, (unsigned long long)bytes, (unsigned long long)dropped, rd->n_threads);
    else
        snprintf(line, sizeof line,
                 "totals: %llu events, %llu payload bytes, %llu dropped%s, %llu too big, %zu threads\n",
                 (unsigned long long)events, (unsigned long long)bytes,
                 (unsigned long long)(rd->has_end ? dropped_end : dropped), rd->has_end ? "" : " (blocks' counts)",
                 (unsigned long long)too_big, rd->n_threads);
    puts_(o, line);
    uint64_t at;
    evgen_read_status st = evgen_reader_status(rd, &at);
    snprintf(line, sizeof line, "status: %s%s", status_name(st), st == EVGEN_READ_TRUNCATED ? " at offset " : "");
    puts_(o, line);
    if (st == EVGEN_READ_TRUNCATED)
        put_u64(o, at);
    puts_(o, is_nettrace(rd) ? (rd->has_end ? ", end of stream found\n" : ", no end of stream\n")
                    : rd->has_end ? ", end block found\n" : ", no end block\n");
    snprintf(line, sizeof line, "problems: %zu\n", rd->n_problems);
    puts_(o, line);
    for (size_t i = 0; i < rd->n_problems; i++) {
        puts_(o, "  offset ");
        put_u64(o, rd->problems[i].offset);
        puts_(o, ": ");
        puts_(o, rd->problems[i].message);
        putc_(o, '\n');
    }
}

static void json_key_u64(out *o, const char *key, uint64_t v, int comma)
{
    if (comma)
        putc_(o, ',');
    put_json_string(o, key);
    putc_(o, ':');
    put_u64(o, v);
}

static void stats_json(dumper *d, const char *path, const stat_entry *by_version, const stat_entry *by_thread)
{
    out *o = &d->o;
    const evgen_reader *rd = d->rd;
    const evgen_trace_header *h = &rd->header;
    puts_(o, "{\"trace\":");
    put_json_string(o, path);
    json_key_u64(o, "file_size", rd->size, 1);
    puts_(o, ",\"container\":");
    put_json_string(o, is_nettrace(rd) ? "nettrace" : "evtrace");
    json_key_u64(o, "format_version", h->format_version, 1);
    json_key_u64(o, "pointer_size", h->pointer_size, 1);
    json_key_u64(o, "clock_kind", h->clock_kind, 1);
    json_key_u64(o, "clock_frequency", h->clock_frequency, 1);
    json_key_u64(o, "start_unix_ns", h->start_unix_ns, 1);
    json_key_u64(o, "process_id", h->process_id, 1);
    puts_(o, ",\"events\":[");
    uint64_t events = 0, bytes = 0;
    int first = 1;
    for (size_t s = 0; s < rd->n_versions; s++) {
        if (!by_version[s].count)
            continue;
        const rd_version *v = rd->versions[s];
        puts_(o, first ? "{\"event\":" : ",{\"event\":");
        first = 0;
        put_json_string(o, v->info->name);
        puts_(o, ",\"provider\":");
        put_json_string(o, v->info->provider);
        json_key_u64(o, "version", v->pub->version, 1);
        json_key_u64(o, "count", by_version[s].count, 1);
        json_key_u64(o, "bytes", by_version[s].bytes, 1);
        putc_(o, '}');
        events += by_version[s].count;
        bytes += by_version[s].bytes;
    }
    puts_(o, "],\"threads\":[");
    uint64_t dropped = 0, dropped_end = 0, too_big = 0;
    for (size_t t = 0; t < rd->n_threads; t++) {
        const evgen_reader_thread *th = &rd->threads[t];
        puts_(o, t ? ",{" : "{");
        json_key_u64(o, "thread", th->thread_id, 0);
        json_key_u64(o, "events", by_thread[t].count, 1);
        json_key_u64(o, "dropped", th->dropped, 1);
        if (rd->has_end && !is_nettrace(rd)) {
            json_key_u64(o, "written_end", th->written_end, 1);
            json_key_u64(o, "dropped_end", th->dropped_end, 1);
            json_key_u64(o, "too_big_end", th->too_big_end, 1);
        }
        putc_(o, '}');
        dropped += th->dropped;
        dropped_end += th->dropped_end;
        too_big += th->too_big_end;
    }
    puts_(o, "],\"totals\":{");
    json_key_u64(o, "events", events, 0);
    json_key_u64(o, "bytes", bytes, 1);
    json_key_u64(o, "dropped", rd->has_end && !is_nettrace(rd) ? dropped_end : dropped, 1);
    json_key_u64(o, "too_big", too_big, 1);
    json_key_u64(o, "threads", rd->n_threads, 1);
    uint64_t at;
    evgen_read_status st = evgen_reader_status(rd, &at);
    puts_(o, "},\"has_end\":");
    puts_(o, rd->has_end ? "true" : "false");
    puts_(o, ",\"status\":");
    put_json_string(o, status_name(st));
    if (st == EVGEN_READ_TRUNCATED)
        json_key_u64(o, "truncated_at", at, 1);
    puts_(o, ",\"problems\":[");
    for (size_t i = 0; i < rd->n_problems; i++) {
        puts_(o, i ? ",{" : "{");
        json_key_u64(o, "offset", rd->problems[i].offset, 0);
        puts_(o, ",\"message\":");
        put_json_string(o, rd->problems[i].message);
        putc_(o, '}');
    }
    puts_(o, "]}\n");
}

/* ---- the dump ----------------------------------------------------------------------------- */

typedef struct progress {
    FILE *err;
    const char *path;
    int on;
    int shown; /* the percentage on screen, -1 if none */
} progress;

/* Shows the percentage `done` of `total` is; returns the count at which the next one starts. */
static uint64_t progress_update(progress *p, uint64_t done, uint64_t total)
{
    int pct = total ? (int)(done * 100 / total) : 100;
    if (pct != p->shown) {
        p->shown = pct;
        char bar[41];
        int full = pct * 40 / 100;
        for (int i = 0; i < 40; i++)
            bar[i] = i < full ? '#' : '.';
        bar[40] = '\0';
        fprintf(p->err, "\r%s [%s] %3d%%", p->path, bar, pct);
        fflush(p->err);
    }
    return pct >= 100 ? UINT64_MAX : ((uint64_t)(pct + 1) * total + 99) / 100;
}

static void progress_end(progress *p)
{
    if (p->shown >= 0) {
        fputs("\r\033[K", p->err); /* erase the line */
        fflush(p->err);
    }
}

int evgen_dump(const char *path, const evgen_dump_options *options, int out_fd, FILE *err)
{
    evgen_dump_options opt;
    evgen_dump_options_init(&opt);
    if (options)
        memcpy(&opt, options, options->size < sizeof opt ? options->size : sizeof opt);

    char *error = NULL;
    evgen_reader *rd = evgen_reader_open_with(path, opt.reader, &error);
    if (!rd) {
        fprintf(err, "%s: %s\n", path, error ? error : "cannot open");
        free(error);
        return 1;
    }
    int status = 0;
    dumper d;
    memset(&d, 0, sizeof d);
    d.rd = rd;
    d.json = opt.json;
    d.pointer_size = rd->header.pointer_size;
    d.o.fd = out_fd;
    d.o.buf = d.o.p = malloc(OUT_SIZE);
    d.o.end = d.o.buf ? d.o.buf + OUT_SIZE : NULL;
    uint8_t *keep = NULL; /* by event index: the --event filter */
    stat_entry *by_version = NULL, *by_thread = NULL;
    if (!d.o.buf || prepare(&d) != 0) {
        fprintf(err, "%s: out of memory\n", path);
        status = 1;
        goto done;
    }
    if (opt.n_events) {
        keep = calloc(rd->n_events + 1, 1);
        if (!keep) {
            fprintf(err, "%s: out of memory\n", path);
            status = 1;
            goto done;
        }
        for (size_t i = 0; i < opt.n_events; i++) {
            int found = 0;
            for (size_t e = 0; e < rd->n_events; e++)
                if (strcmp(rd->events[e]->pub.name, opt.events[i]) == 0)
                    keep[e] = 1, found = 1;
            if (!found) {
                fprintf(err, "%s: no event named '%s' in the trace's metadata\n", path, opt.events[i]);
                status = 1;
            }
        }
        if (status)
            goto done;
    }
    if (opt.stats) {
        by_version = calloc(rd->n_versions + 1, sizeof *by_version);
        by_thread = calloc(rd->n_threads + 1, sizeof *by_thread);
        if (!by_version || !by_thread) {
            fprintf(err, "%s: out of memory\n", path);
            status = 1;
            goto done;
        }
    }

    progress pr = {err, path, 0, -1};
    pr.on = opt.progress && rd->size >= PROGRESS_MIN_SIZE && isatty(fileno(err)) && !isatty(out_fd);
    uint64_t n_read = 0, total = rd->total_events, next_progress = pr.on ? 0 : UINT64_MAX;
    size_t thread_hint = 0;
    evgen_event ev;
    evgen_reader_rewind(rd, opt.order == EVGEN_ORDER_FILE ? EVGEN_ORDER_FILE : EVGEN_ORDER_TIME);
    while (evgen_reader_next(rd, &ev)) {
        if (++n_read >= next_progress) /* one compare per event; the bar moves by whole percents */
            next_progress = progress_update(&pr, n_read, total);
        if ((keep && !keep[ev.info->index]) || ev.timestamp_ns < opt.from_ns || ev.timestamp_ns > opt.to_ns)
            continue;
        if (!opt.stats) {
            dump_event(&d, &ev);
            if (d.o.error)
                break;
            continue;
        }
        stat_entry *sv = &by_version[evgen_rd_version_of(&ev)->serial];
        sv->count++;
        sv->bytes += ev.size;
        if (rd->threads[thread_hint].thread_id != ev.thread_id)
            thread_hint = evgen_rd_thread_find(rd, ev.thread_id);
        by_thread[thread_hint].count++;
    }
    progress_end(&pr);
    if (opt.stats && !d.o.error) {
        if (opt.json)
            stats_json(&d, path, by_version, by_thread);
        else
            stats_text(&d, path, by_version, by_thread);
    }
    out_flush(&d.o);
    if (d.o.error) {
        fprintf(err, "%s: cannot write the output: %s\n", path, strerror(d.o.error));
        status = 1;
    }
    for (size_t i = 0; i < rd->n_problems; i++)
        fprintf(err, "%s: offset %llu: %s\n", path, (unsigned long long)rd->problems[i].offset,
                rd->problems[i].message);
    if (rd->n_problems)
        status = 1;

done:
    free(by_version);
    free(by_thread);
    free(keep);
    free_prepared(&d);
    free(d.o.buf);
    evgen_reader_close(rd);
    return status;
}
