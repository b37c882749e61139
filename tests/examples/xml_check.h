/* xml_check.h — a small XML well-formedness checker for the SVG the report writes: one root
 * element, balanced and properly nested tags, quoted attributes without '<', known entities. */
#ifndef EXAMPLE_TEST_XML_CHECK_H
#define EXAMPLE_TEST_XML_CHECK_H

#include <stddef.h>

typedef struct xml_counts {
    char root[32];
    size_t elements;
    size_t polylines, texts, lines;
} xml_counts;

/* Returns 0 if `text` is well-formed (filling `counts`), or -1 and a message in `error`. */
int xml_check(const char *text, xml_counts *counts, char *error, size_t error_size);

#endif /* EXAMPLE_TEST_XML_CHECK_H */
