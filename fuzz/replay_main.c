/* replay_main.c — main() of a fuzz target built without libFuzzer (any compiler): runs
 * LLVMFuzzerTestOneInput once on each file named, and on each file of each directory named (in
 * name order; dot files skipped), so that ctest replays the seed corpus and the regression inputs
 * in every build, sanitized or not. A crash is the input's finding; exit status 0 after the last. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static size_t replayed;

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *grown = realloc(data, cap);
            if (!grown) {
                fprintf(stderr, "%s: out of memory\n", path);
                free(data);
                fclose(f);
                return -1;
            }
            data = grown;
        }
        size_t n = fread(data + size, 1, cap - size, f);
        size += n;
        if (n == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(data);
        return -1;
    }
    /* In a buffer of the input's exact size, as libFuzzer passes it: a read past its end is seen
     * by AddressSanitizer. */
    uint8_t *exact = malloc(size ? size : 1);
    if (!exact) {
        free(data);
        return -1;
    }
    if (size)
        memcpy(exact, data, size);
    free(data);
    fprintf(stderr, "replay %s (%zu bytes)\n", path, size);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    replayed++;
    return 0;
}

static int replay(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    struct dirent **entries = NULL;
    int n = scandir(path, &entries, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    int status = 0;
    for (int i = 0; i < n; i++) {
        if (entries[i]->d_name[0] != '.') {
            size_t len = strlen(path) + strlen(entries[i]->d_name) + 2;
            char *child = malloc(len);
            if (!child || snprintf(child, len, "%s/%s", path, entries[i]->d_name) < 0 || replay(child) != 0)
                status = -1;
            free(child);
        }
        free(entries[i]);
    }
    free(entries);
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    LLVMFuzzerInitialize(&argc, &argv);
    int status = 0;
    for (int i = 1; i < argc; i++)
        if (replay(argv[i]) != 0)
            status = 1;
    printf("%s: %zu inputs replayed\n", argv[0], replayed);
    return status;
}
