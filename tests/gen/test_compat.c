/* test_compat.c — a manifest's compatibility test (built per manifest by evgen_add_manifest(...
 * GOLDEN dir) as NAME_compat): every version its lock file freezes is held by a golden trace of GOLDEN_DIR, and
 * every golden trace ever recorded there is read by today's generated reader with every field
 * equal to its deterministic value. Usage: NAME_compat GOLDEN_DIR LOCK_FILE */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compat_check.h"
#include "evgen/reader.h"

int READ_ALL(const evgen_event *ev, evgen_read_value *values, int capacity);

static const char *golden_dir, *lock_path;

typedef struct pair {
    char name[256];
    unsigned version;
} pair;

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, len = 0, n;
    char *text = malloc(cap);
    while ((n = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2)
            text = realloc(text, cap *= 2);
    }
    fclose(f);
    text[len] = '\0';
    return text;
}

/* The (event, version) pairs of a lock file: its "event NAME ..." and "version N" lines. */
static size_t locked_pairs(pair **out)
{
    char *text = read_text(lock_path);
    if (!text)
        fail_msg("cannot read the lock file %s", lock_path);
    size_t n = 0, cap = 64;
    pair *pairs = malloc(cap * sizeof *pairs);
    char event[256] = "";
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        unsigned version;
        if (sscanf(line, "event %255s", event) == 1)
            continue;
        if (sscanf(line, " version %u", &version) == 1) {
            if (n == cap)
                pairs = realloc(pairs, (cap *= 2) * sizeof *pairs);
            snprintf(pairs[n].name, sizeof pairs[n].name, "%s", event);
            pairs[n++].version = version;
        }
    }
    free(text);
    *out = pairs;
    return n;
}

typedef void (*trace_fn)(const char *path, void *context);

/* Calls `fn` for every .evtrace file of the golden directory; returns how many. */
static size_t each_golden_trace(trace_fn fn, void *context)
{
    DIR *d = opendir(golden_dir);
    if (!d)
        fail_msg("cannot open the golden trace directory %s", golden_dir);
    size_t n = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        size_t len = strlen(entry->d_name);
        if (len < 9 || strcmp(entry->d_name + len - 8, ".evtrace") != 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", golden_dir, entry->d_name);
        fn(path, context);
        n++;
    }
    closedir(d);
    return n;
}

typedef struct held {
    pair *pairs;
    size_t n;
    int *found;
} held;

static void mark_held(const char *path, void *context)
{
    held *h = context;
    evgen_reader *r = evgen_reader_open(path, NULL);
    if (!r)
        fail_msg("golden trace %s does not open", path);
    evgen_event ev;
    while (evgen_reader_next(r, &ev))
        for (size_t i = 0; i < h->n; i++)
            if (h->pairs[i].version == ev.version && strcmp(h->pairs[i].name, ev.info->name) == 0)
                h->found[i] = 1;
    evgen_reader_close(r);
}

static void test_every_locked_version_has_a_golden_trace(void **state)
{
    (void)state;
    held h;
    h.n = locked_pairs(&h.pairs);
    h.found = calloc(h.n ? h.n : 1, sizeof *h.found);
    each_golden_trace(mark_held, &h);
    size_t missing = 0;
    for (size_t i = 0; i < h.n; i++) {
        if (h.found[i])
            continue;
        fprintf(stderr, "no golden trace holds %s v%u: record it with `evgen lock MANIFEST --lock %s --traces %s`\n",
                h.pairs[i].name, h.pairs[i].version, lock_path, golden_dir);
        missing++;
    }
    printf("%zu locked versions, %zu without a golden trace\n", h.n, missing);
    free(h.found);
    free(h.pairs);
    assert_true(h.n > 0);
    assert_int_equal(missing, 0);
}

static void check_trace(const char *path, void *context)
{
    size_t *events = context;
    evgen_reader *r = evgen_reader_open(path, NULL);
    if (!r)
        fail_msg("golden trace %s does not open", path);
    if (evgen_reader_status(r, NULL) != EVGEN_READ_OK)
        fail_msg("golden trace %s is damaged", path);
    evgen_event ev;
    while (evgen_reader_next(r, &ev)) {
        if (compat_check_event(&ev, READ_ALL) < 0)
            fail_msg("%s: %s v%u is unknown to today's reader", path, ev.info->name, ev.version);
        (*events)++;
    }
    evgen_reader_close(r);
}

static void test_every_golden_trace_reads_with_todays_reader(void **state)
{
    (void)state;
    size_t events = 0;
    size_t traces = each_golden_trace(check_trace, &events);
    printf("%zu golden traces, %zu events, every field checked\n", traces, events);
    assert_true(traces > 0);
    assert_true(events > 0);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s GOLDEN_DIR LOCK_FILE\n", argv[0]);
        return 2;
    }
    golden_dir = argv[1];
    lock_path = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_locked_version_has_a_golden_trace),
        cmocka_unit_test(test_every_golden_trace_reads_with_todays_reader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
