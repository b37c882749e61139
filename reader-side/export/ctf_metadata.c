/* ctf_metadata.c — the CTF 1.8 trace's TSDL metadata: the types, the trace and its packet header,
 * the environment, the clock (its offset from the Unix epoch computed without overflow), the one
 * stream class, the enumerations the fields use, and every event class with its fields
 * (docs/export-ctf.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_internal.h"

/* ---- the clock ----------------------------------------------------------------------------------- */

int ctf_clock_offset(const evgen_trace_header *h, int64_t *offset_s, uint64_t *offset)
{
    const uint64_t billion = 1000000000u, f = h->clock_frequency;
    if (f == 0)
        return -1;
    /* start_unix_ns = S s + N ns; start_ticks = T s + R ticks. The offset is S - T seconds plus
     * N ns as ticks (rounded to the nearest) minus R ticks. N * f / 1e9 is computed as
     * N * (f / 1e9) + N * (f % 1e9) / 1e9, each part within 64 bits. */
    uint64_t S = h->start_unix_ns / billion, N = h->start_unix_ns % billion;
    uint64_t T = h->start_ticks / f, R = h->start_ticks % f;
    uint64_t cycles = N * (f / billion) + (N * (f % billion) + billion / 2) / billion;
    if (T > (uint64_t)INT64_MAX / 2)
        return -1;
    int64_t seconds = (int64_t)S - (int64_t)T; /* S < 2^35: no overflow */
    if (cycles >= f) {
        cycles -= f;
        seconds++;
    }
    if (cycles >= R) {
        cycles -= R;
    } else {
        if (seconds == INT64_MIN)
            return -1;
        cycles = cycles + (f - R);
        seconds--;
    }
    /* babeltrace2 turns offset_s into nanoseconds from the origin in 64 bits, with a second to spare. */
    if (seconds <= INT64_MIN / (int64_t)billion - 1 || seconds >= INT64_MAX / (int64_t)billion - 1)
        return -1;
    *offset_s = seconds;
    *offset = cycles;
    return 0;
}

uint64_t ctf_clock_max_ticks(const evgen_trace_header *h, int64_t offset_s)
{
    /* babeltrace2 adds a timestamp's nanoseconds to the offset's in 64 signed bits: what is left
     * above the offset, less a second for its rounding and the offset's cycles, in ticks. */
    const uint64_t billion = 1000000000u, f = h->clock_frequency;
    uint64_t room = (uint64_t)INT64_MAX - (offset_s > 0 ? (uint64_t)offset_s * billion : 0);
    uint64_t seconds = room / billion - 2;
    return seconds > UINT64_MAX / f ? UINT64_MAX : seconds * f;
}

static const char *clock_name(uint8_t kind)
{
    return kind == 1 ? "monotonic" : kind == 2 ? "tsc" : "qpc";
}

static const char *clock_description(uint8_t kind)
{
    return kind == 1   ? "CLOCK_MONOTONIC of the traced process (nanoseconds)"
           : kind == 2 ? "the CPU's time-stamp counter"
                       : "the .NET runtime's QueryPerformanceCounter ticks";
}

/* ---- enumerations -------------------------------------------------------------------------------- */

typedef struct meta {
    FILE *f;
    const ctf_metadata_in *in;
    uint16_t **enum_kinds; /* per manifest, per enum: a bit per integer kind it is declared for */
    int oom;
} meta;

static size_t manifest_index(const evgen_reader *rd, const evgen_trace_manifest *m)
{
    for (size_t i = 0; i < rd->n_manifests; i++)
        if (rd->manifests[i] == m)
            return i;
    return 0; /* never: every event's manifest is the reader's */
}

/* Does enum constant `value` fit an integer of `kind`? As dump matches them: an unsigned value
 * against the constant read as int64 (so any constant for uint64), a signed one sign-extended. */
static int const_fits(int64_t value, unsigned kind)
{
    unsigned bits = 8 * evgen_wire_kind_size(kind, 8);
    if (evgen_wire_kind_is_signed(kind))
        return bits == 64 || (value >= -((int64_t)1 << (bits - 1)) && value < ((int64_t)1 << (bits - 1)));
    return bits == 64 || (value >= 0 && value < ((int64_t)1 << bits));
}

/* Is the field declared with its enum: an integer kind, and a constant that fits it? */
static int enum_used(const evgen_trace_manifest *m, int32_t enum_index, unsigned kind)
{
    if (enum_index < 0 || (uint32_t)enum_index >= m->n_enums || !evgen_wire_kind_is_integer(kind))
        return 0;
    const evgen_trace_enum *en = &m->enums[enum_index];
    for (uint32_t i = 0; i < en->n_consts; i++)
        if (const_fits(en->consts[i].value, kind))
            return 1;
    return 0;
}

static void put_ident(FILE *f, const char *s)
{
    for (; *s; s++) {
        char c = *s;
        putc((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_', f);
    }
}

/* The tag of enum `e` of manifest `mi` declared for `kind`: m0_GCReason_uint32. */
static void put_enum_tag(FILE *f, size_t mi, const evgen_trace_enum *en, unsigned kind)
{
    fprintf(f, "m%zu_", mi);
    put_ident(f, en->name);
    fprintf(f, "_%s", evgen_wire_kind_info_of(kind)->spelling);
}

static void mark_enum(meta *x, const evgen_trace_manifest *m, int32_t enum_index, unsigned kind)
{
    if (enum_used(m, enum_index, kind))
        x->enum_kinds[manifest_index(x->in->rd, m)][enum_index] |= (uint16_t)(1u << kind);
}

static void mark_class_enums(meta *x, const ctf_class *cls)
{
    const evgen_trace_version *v = cls->version->pub;
    const evgen_trace_manifest *m = cls->version->info->manifest;
    for (uint32_t f = 0; f < cls->n_fields; f++) {
        const evgen_trace_field *fd = &v->fields[f];
        if (fd->kind != EVGEN_WIRE_STRUCT) {
            mark_enum(x, m, fd->enum_index, fd->kind);
            continue;
        }
        const evgen_trace_struct *st = &m->structs[fd->struct_index];
        for (uint32_t k = 0; k < st->n_members; k++)
            mark_enum(x, m, st->members[k].enum_index, st->members[k].kind);
    }
}

static void put_enums(meta *x)
{
    const evgen_reader *rd = x->in->rd;
    for (size_t mi = 0; mi < rd->n_manifests; mi++) {
        const evgen_trace_manifest *m = rd->manifests[mi];
        for (uint32_t e = 0; e < m->n_enums; e++) {
            for (unsigned kind = 1; kind <= EVGEN_WIRE_KIND_LAST; kind++) {
                if (!(x->enum_kinds[mi][e] & (1u << kind)))
                    continue;
                const evgen_trace_enum *en = &m->enums[e];
                fputs("enum ", x->f);
                put_enum_tag(x->f, mi, en, kind);
                fprintf(x->f, " : %s_t {", evgen_wire_kind_info_of(kind)->spelling);
                int first = 1;
                for (uint32_t i = 0; i < en->n_consts; i++) {
                    const evgen_trace_enum_const *c = &en->consts[i];
                    int repeated = 0; /* the same name and value twice: once */
                    for (uint32_t j = 0; j < i && !repeated; j++)
                        repeated = en->consts[j].value == c->value && strcmp(en->consts[j].name, c->name) == 0;
                    if (repeated || !const_fits(c->value, kind))
                        continue;
                    fputs(first ? "\n\t" : ",\n\t", x->f);
                    first = 0;
                    ctf_put_literal(x->f, c->name);
                    if (evgen_wire_kind_is_signed(kind))
                        fprintf(x->f, " = %" PRId64, c->value);
                    else
                        fprintf(x->f, " = %" PRIu64, (uint64_t)c->value);
                }
                fputs("\n};\n\n", x->f);
            }
        }
    }
}

/* ---- event classes ------------------------------------------------------------------------------- */

/* The type of a value of `kind` (not a struct). */
static void put_type(meta *x, const evgen_trace_manifest *m, int32_t enum_index, unsigned kind)
{
    if (enum_used(m, enum_index, kind)) {
        fputs("enum ", x->f);
        put_enum_tag(x->f, manifest_index(x->in->rd, m), &m->enums[enum_index], kind);
    } else if (evgen_wire_kind_is_string(kind)) {
        fputs("string", x->f);
    } else {
        fprintf(x->f, "%s_t", evgen_wire_kind_info_of(kind)->spelling);
    }
}

/* "\t" x depth */
static void indent(FILE *f, int depth)
{
    for (int i = 0; i < depth; i++)
        putc('\t', f);
}

/* A uint32 length of its own before sequence `shown` (shown name): its TSDL name, claimed. */
static char *claim_length(meta *x, ctf_names *names)
{
    const char *seq = names->shown[names->n - 1];
    size_t n = strlen(seq);
    char *length = malloc(n + 16);
    if (!length) {
        x->oom = 1;
        return NULL;
    }
    snprintf(length, n + 16, "_%s_length", seq);
    char *tsdl = ctf_names_claim(names, length);
    free(length);
    return tsdl;
}

static void put_struct_type(meta *x, const evgen_trace_manifest *m, const evgen_trace_struct *st, int depth)
{
    ctf_names names = {0};
    fputs("struct {\n", x->f);
    for (uint32_t k = 0; k < st->n_members; k++) {
        const evgen_trace_member *mb = &st->members[k];
        char *name = ctf_names_claim(&names, mb->name);
        indent(x->f, depth + 1);
        put_type(x, m, mb->enum_index, mb->kind);
        fprintf(x->f, " %s;\n", name ? name : "_");
        free(name);
    }
    indent(x->f, depth);
    fputc('}', x->f);
    if (names.oom)
        x->oom = 1;
    ctf_names_free(&names);
}

static void put_class_name(FILE *f, const ctf_classes *classes, const ctf_class *cls)
{
    const evgen_trace_event_info *info = cls->version->info;
    const char *field = cls->truncated_at >= 0 ? cls->version->pub->fields[cls->truncated_at].name : "";
    size_t n = strlen(info->provider) + strlen(info->name) + strlen(field) + 64;
    char *name = malloc(n);
    if (!name) {
        ctf_put_literal(f, info->name);
        return;
    }
    int at = 0;
    if (classes->qualified[info->index])
        at = snprintf(name, n, "%s:", info->provider);
    at += snprintf(name + at, n - (size_t)at, "%s_V%" PRIu32, info->name, cls->version->pub->version);
    if (cls->truncated_at >= 0)
        snprintf(name + at, n - (size_t)at, "_truncated_%s", field);
    else if (cls->raw)
        snprintf(name + at, n - (size_t)at, "_raw");
    ctf_put_literal(f, name);
    free(name);
}

/* ETW's levels (1 critical .. 5 verbose) as CTF's (syslog's, then debug levels); 0 (log always)
 * and others have none. */
static int ctf_loglevel(uint8_t level)
{
    static const int map[] = {-1, 2, 3, 4, 6, 14};
    return level < sizeof map / sizeof map[0] ? map[level] : -1;
}

static void put_class(meta *x, size_t id, const ctf_class *cls)
{
    FILE *f = x->f;
    const evgen_trace_version *v = cls->version->pub;
    const evgen_trace_manifest *m = cls->version->info->manifest;
    fputs("event {\n\tname = ", f);
    put_class_name(f, x->in->classes, cls);
    fprintf(f, ";\n\tid = %zu;\n\tstream_id = 0;\n", id);
    int level = ctf_loglevel(v->level);
    if (level >= 0)
        fprintf(f, "\tloglevel = %d;\n", level);
    if (cls->n_fields == 0 && !cls->raw) {
        fputs("};\n\n", f);
        return;
    }
    fputs("\tfields := struct {\n", f);
    ctf_names names = {0};
    char **tsdl = calloc(cls->n_fields + 1, sizeof *tsdl);
    if (!tsdl)
        x->oom = 1;
    for (uint32_t i = 0; tsdl && i < cls->n_fields; i++) {
        const evgen_trace_field *fd = &v->fields[i];
        tsdl[i] = ctf_names_claim(&names, fd->name);
        if (!tsdl[i])
            break;
        if (!fd->is_array) {
            fputs("\t\t", f);
            put_type(x, m, fd->enum_index, fd->kind);
            fprintf(f, " %s;\n", tsdl[i]);
            continue;
        }
        const char *length = fd->count_field >= 0 && tsdl[fd->count_field] ? tsdl[fd->count_field] : "_";
        char *own = NULL;
        if (ctf_field_has_own_length(v, i)) {
            own = claim_length(x, &names);
            fprintf(f, "\t\tuint32_t %s;\n", own ? own : "_");
            length = own ? own : "_";
        }
        fputs("\t\t", f);
        if (fd->kind == EVGEN_WIRE_STRUCT)
            put_struct_type(x, m, &m->structs[fd->struct_index], 2);
        else
            put_type(x, m, fd->enum_index, fd->kind);
        fprintf(f, " %s[%s];\n", tsdl[i], length);
        free(own);
    }
    if (cls->raw) {
        char *raw = ctf_names_claim(&names, "raw");
        char *length = raw ? claim_length(x, &names) : NULL;
        fprintf(f, "\t\tuint32_t %s;\n\t\tuint8_t %s[%s];\n", length ? length : "_", raw ? raw : "_",
                length ? length : "_");
        free(raw);
        free(length);
    }
    fputs("\t};\n};\n\n", f);
    for (uint32_t i = 0; tsdl && i < cls->n_fields; i++)
        free(tsdl[i]);
    free(tsdl);
    if (names.oom)
        x->oom = 1;
    ctf_names_free(&names);
}

/* ---- the file ------------------------------------------------------------------------------------ */

/* An environment value: an integer, or a string when it does not fit TSDL's signed 64 bits. */
static void put_env_u64(FILE *f, const char *key, uint64_t value)
{
    if (value <= (uint64_t)INT64_MAX)
        fprintf(f, "\t%s = %" PRIu64 ";\n", key, value);
    else
        fprintf(f, "\t%s = \"%" PRIu64 "\";\n", key, value);
}

static void put_preamble(meta *x)
{
    FILE *f = x->f;
    const ctf_metadata_in *in = x->in;
    const evgen_trace_header *h = evgen_reader_header(in->rd);
    const uint8_t *u = in->uuid;
    char uuid[40];
    snprintf(uuid, sizeof uuid, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    fputs("/* CTF 1.8 */\n\n", f);
    fputs("/* Written by evgen export --ctf (docs/export-ctf.md). */\n\n", f);
    static const char *const ints[] = {"uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"};
    for (unsigned i = 0; i < 8; i++)
        fprintf(f, "typealias integer { size = %u; align = 8; signed = %s; } := %s_t;\n", 8u << (i % 4),
                i < 4 ? "false" : "true", ints[i]);
    fprintf(f,
            "typealias integer { size = %u; align = 8; signed = false; base = 16; } := ptr_t;\n"
            "typealias floating_point { exp_dig = 8; mant_dig = 24; align = 8; byte_order = le; } := float32_t;\n"
            "typealias floating_point { exp_dig = 11; mant_dig = 53; align = 8; byte_order = le; } := float64_t;\n"
            "typealias enum : uint8_t { \"false\" = 0, \"true\" = 1 } := bool8_t;\n"
            "typealias enum : uint32_t { \"false\" = 0, \"true\" = 1 } := bool32_t;\n"
            "typealias string { encoding = UTF8; } := guid_t;\n\n",
            8u * h->pointer_size);
    fprintf(f,
            "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n\tbyte_order = le;\n"
            "\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n\t\tuint32_t stream_id;\n"
            "\t\tuint64_t stream_instance_id;\n\t};\n};\n\n",
            uuid);
    fputs("env {\n\ttracer_name = \"evgen\";\n\ttrace_name = ", f);
    ctf_put_literal(f, in->trace_name);
    fprintf(f, ";\n\tcontainer = \"%s\";\n", h->container == EVGEN_CONTAINER_NETTRACE ? "nettrace" : "evtrace");
    put_env_u64(f, "container_version", h->format_version);
    put_env_u64(f, "pointer_size", h->pointer_size);
    put_env_u64(f, "process_id", h->process_id);
    if (h->cpu_count)
        put_env_u64(f, "cpu_count", h->cpu_count);
    put_env_u64(f, "clock_kind", h->clock_kind);
    put_env_u64(f, "clock_frequency", h->clock_frequency);
    put_env_u64(f, "start_ticks", h->start_ticks);
    put_env_u64(f, "start_unix_ns", h->start_unix_ns);
    fputs("};\n\n", f);
    fprintf(f,
            "clock {\n\tname = %s;\n\tdescription = \"%s\";\n\tfreq = %" PRIu64 ";\n\tprecision = 1;\n"
            "\toffset_s = %" PRId64 ";\n\toffset = %" PRIu64 ";\n\tabsolute = true;\n};\n\n",
            clock_name(h->clock_kind), clock_description(h->clock_kind), h->clock_frequency, in->offset_s,
            in->offset);
    fprintf(f, "typealias integer { size = 64; align = 8; signed = false; map = clock.%s.value; } := ticks_t;\n\n",
            clock_name(h->clock_kind));
    fputs("stream {\n\tid = 0;\n"
          "\tpacket.context := struct {\n\t\tticks_t timestamp_begin;\n\t\tticks_t timestamp_end;\n"
          "\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n\t\tuint64_t packet_seq_num;\n"
          "\t\tuint64_t events_discarded;\n\t\tuint64_t thread_id;\n\t\tuint32_t _stream;\n\t};\n"
          "\tevent.header := struct {\n\t\tuint32_t id;\n\t\tticks_t timestamp;\n\t};\n};\n\n",
          f);
}

int ctf_metadata_write(FILE *f, const ctf_metadata_in *in)
{
    const evgen_reader *rd = in->rd;
    const ctf_classes *classes = in->classes;
    meta x = {f, in, calloc(rd->n_manifests + 1, sizeof *x.enum_kinds), 0};
    if (!x.enum_kinds)
        return -1;
    for (size_t mi = 0; mi < rd->n_manifests && !x.oom; mi++)
        if (!(x.enum_kinds[mi] = calloc(rd->manifests[mi]->n_enums + 1, sizeof **x.enum_kinds)))
            x.oom = 1;
    if (!x.oom) {
        put_preamble(&x);
        for (size_t id = 0; id < classes->n; id++)
            if (ctf_class_listed(classes, id))
                mark_class_enums(&x, &classes->items[id]);
        put_enums(&x);
        for (size_t id = 0; id < classes->n && !x.oom; id++)
            if (ctf_class_listed(classes, id))
                put_class(&x, id, &classes->items[id]);
    }
    for (size_t mi = 0; mi < rd->n_manifests; mi++)
        free(x.enum_kinds[mi]);
    free(x.enum_kinds);
    return x.oom ? -1 : 0;
}
