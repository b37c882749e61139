/* fuzz_util.c — the helpers every fuzz target uses (fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

_Noreturn void evgen_fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, what);
    abort();
}

char *evgen_fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    if (size)
        memcpy(text, data, size);
    text[size] = '\0';
    return text;
}
