/* fire_values.c — the values NAME_fire_all() fires (evgen_test_*, declared by the fire-all
 * template): the deterministic golden values of compat/golden/golden_values.h, so that any reader
 * can check a trace written by the harness without knowing how it was written. Not thread-safe:
 * strings and arrays live in a ring of buffers, each valid for the next 63 calls. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "evgen/compat_test.h"
#include "evgen/manifest.h" /* evgen_guid */
#include "golden_values.h"

typedef uint16_t evgen_char16_units; /* evgen_char16 in C: UTF-16 code units */

const char *evgen_test_utf8(const char *event, unsigned version, const char *field);
const evgen_char16_units *evgen_test_utf16(const char *event, unsigned version, const char *field);
const void *evgen_test_array(const char *event, unsigned version, const char *field, uint32_t count,
                             size_t element_size);
void evgen_test_guid(evgen_guid *guid, const char *event, unsigned version, const char *field);
uint64_t evgen_test_member(const char *event, unsigned version, const char *field, uint32_t element, size_t member);
const char *evgen_test_member_utf8(const char *event, unsigned version, const char *field, uint32_t element,
                                   size_t member);
const evgen_char16_units *evgen_test_member_utf16(const char *event, unsigned version, const char *field,
                                                  uint32_t element, size_t member);
void evgen_test_member_guid(evgen_guid *guid, const char *event, unsigned version, const char *field,
                            uint32_t element, size_t member);

uint64_t evgen_test_value(const char *event, unsigned version, const char *field)
{
    return evgen_golden_value(event, version, field);
}

uint32_t evgen_test_count(const char *event, unsigned version, const char *field)
{
    return evgen_golden_count(event, version, field);
}

static size_t string_length(uint64_t v)
{
    return evgen_golden_string_length(v);
}

static uint16_t string_unit(uint64_t v, size_t i)
{
    return evgen_golden_utf16_unit(v, i);
}

#define RING 64 /* more than the variable-length arguments of one call */
static void *ring[RING];
static size_t ring_next;

static void *ring_buffer(size_t size)
{
    size_t i = ring_next++ % RING;
    free(ring[i]);
    ring[i] = calloc(1, size ? size : 1);
    return ring[i];
}

static const char *utf8_of(uint64_t v)
{
    size_t n = string_length(v);
    char *s = ring_buffer(n + 1);
    for (size_t i = 0; i < n; i++)
        s[i] = evgen_golden_utf8_char(v, i);
    return s;
}

static const evgen_char16_units *utf16_of(uint64_t v)
{
    size_t n = string_length(v);
    evgen_char16_units *s = ring_buffer(2 * (n + 1));
    for (size_t i = 0; i < n; i++)
        s[i] = string_unit(v, i);
    return s;
}

const char *evgen_test_utf8(const char *event, unsigned version, const char *field)
{
    return utf8_of(evgen_test_value(event, version, field));
}

const evgen_char16_units *evgen_test_utf16(const char *event, unsigned version, const char *field)
{
    return utf16_of(evgen_test_value(event, version, field));
}

uint64_t evgen_test_member(const char *event, unsigned version, const char *field, uint32_t element, size_t member)
{
    return evgen_golden_member_value(evgen_test_value(event, version, field), element, (uint32_t)member);
}

const char *evgen_test_member_utf8(const char *event, unsigned version, const char *field, uint32_t element,
                                   size_t member)
{
    return utf8_of(evgen_test_member(event, version, field, element, member));
}

const evgen_char16_units *evgen_test_member_utf16(const char *event, unsigned version, const char *field,
                                                  uint32_t element, size_t member)
{
    return utf16_of(evgen_test_member(event, version, field, element, member));
}

static uint8_t array_byte(uint64_t v, size_t i)
{
    return evgen_golden_byte(v, i);
}

const void *evgen_test_array(const char *event, unsigned version, const char *field, uint32_t count,
                             size_t element_size)
{
    uint64_t v = evgen_test_value(event, version, field);
    size_t n = (size_t)count * element_size;
    uint8_t *a = ring_buffer(n);
    for (size_t i = 0; i < n; i++)
        a[i] = array_byte(v, i);
    return a;
}

static void guid_of(evgen_guid *guid, uint64_t v)
{
    uint8_t bytes[16];
    for (size_t i = 0; i < 16; i++)
        bytes[i] = array_byte(v, i + 3);
    memcpy(guid, bytes, 16);
}

void evgen_test_guid(evgen_guid *guid, const char *event, unsigned version, const char *field)
{
    guid_of(guid, evgen_test_value(event, version, field));
}

void evgen_test_member_guid(evgen_guid *guid, const char *event, unsigned version, const char *field,
                            uint32_t element, size_t member)
{
    guid_of(guid, evgen_test_member(event, version, field, element, member));
}


void evgen_compat_fire_values_free(void)
{
    for (size_t i = 0; i < RING; i++) {
        free(ring[i]);
        ring[i] = NULL;
    }
}
