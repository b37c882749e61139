/* fuzz.h — what the fuzz targets share: the libFuzzer entry points, a check that aborts (so that
 * libFuzzer and the replay runner both report a broken invariant as a crash), and the
 * input as text. docs/fuzzing.md describes the targets. */
#ifndef EVGEN_FUZZ_H
#define EVGEN_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry points; the replay runner (replay_main.c) calls them too. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant of evgen that the input must not break, whatever it holds. */
#define FUZZ_CHECK(cond) ((cond) ? (void)0 : evgen_fuzz_fail(__FILE__, __LINE__, #cond))
_Noreturn void evgen_fuzz_fail(const char *file, int line, const char *what);

/* The input as a NUL-terminated string (stopping at its first NUL byte, as the text parsers
 * would). Caller frees; out of memory aborts. */
char *evgen_fuzz_text(const uint8_t *data, size_t size);

#endif /* EVGEN_FUZZ_H */
