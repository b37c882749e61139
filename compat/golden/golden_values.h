/* golden_values.h — the deterministic values golden traces and generated test harnesses hold:
 * every field's value is derived from (event, version, field name) alone, so a test can check
 * any trace, of any age, without knowing how it was written. */
#ifndef EVGEN_GEN_GOLDEN_VALUES_H
#define EVGEN_GEN_GOLDEN_VALUES_H

#include <stddef.h>
#include <stdint.h>

/* The value of a scalar field (truncated to the field's size on the wire). */
uint64_t evgen_golden_value(const char *event, unsigned version, const char *field);
/* An array's element count (its count field's value): 0 to 3. */
uint32_t evgen_golden_count(const char *event, unsigned version, const char *count_field);
/* A string field's length in characters (UTF-8 bytes or UTF-16 units): 0, 5 or 300. */
size_t evgen_golden_string_length(uint64_t value);
/* Character i of a string: ASCII letters, with one non-ASCII UTF-16 unit every 11. */
char evgen_golden_utf8_char(uint64_t value, size_t i);
uint16_t evgen_golden_utf16_unit(uint64_t value, size_t i);
/* Byte i of an array's elements, or of a GUID (i + 3). */
uint8_t evgen_golden_byte(uint64_t value, size_t i);
/* Member `member` of element `element` of an array of a variable struct whose own golden value is
 * `array_value`: every member a scalar value of its own, a string's too (docs/format.md). */
uint64_t evgen_golden_member_value(uint64_t array_value, uint32_t element, uint32_t member);
/* A float field: (value % 1000000) / 4, exact in float and double. */
double evgen_golden_real(uint64_t value);

/* Each class of evgen/wire_kinds.h interpreted once, for the writer of golden traces
 * (gen/backends/golden.c) and their checker (compat/src/check_event.c). */

/* The wire bytes of a scalar field (not an array) of `kind`, `size` bytes wide (its wire size;
 * strings: ignored), holding the golden value `v`, handed to `put` piece by piece: floats as
 * evgen_golden_real, bools as 0/1, strings with their terminator, GUIDs as bytes 3..18. */
void evgen_golden_scalar(unsigned kind, unsigned size, uint64_t v, void (*put)(void *ctx, const void *p, size_t n),
                         void *ctx);
/* What a scalar accessor returns for the golden value `v` of `kind` stored in `size` bytes: the
 * bits of a double for floats, 0/1 for bools, integers truncated and sign-extended as their kind. */
uint64_t evgen_golden_expected_bits(unsigned kind, uint64_t v, unsigned size);

#endif /* EVGEN_GEN_GOLDEN_VALUES_H */
