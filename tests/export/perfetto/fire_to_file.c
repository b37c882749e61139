/* fire_to_file.c — writes a trace holding every version of every event of one manifest of
 * tests/manifests/good (FIRE_ALL: its generated harness, with deterministic values), for
 * check_perfetto.py to export: every kind, arrays, struct and variable-struct elements, enums,
 * GUIDs, strings, names that need escaping. usage: fire_to_file TRACE */
#include <stddef.h>
#include <stdio.h>

#include "evgen/runtime.h"

size_t FIRE_ALL(void);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s TRACE\n", argv[0]);
        return 2;
    }
    evgen_session *s = evgen_session_open_file(argv[1], NULL);
    if (!s || evgen_session_enable(s, NULL, 255, ~0ull) != 0) {
        perror(argv[1]);
        return 1;
    }
    size_t fired = FIRE_ALL();
    if (evgen_session_close(s, NULL, NULL, NULL) != 0) {
        perror(argv[1]);
        return 1;
    }
    printf("%zu event versions fired\n", fired);
    return 0;
}
