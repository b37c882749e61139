/* compat_test.c — the driver of a manifest's NAME_compat test (evgen/compat_test.h): golden traces
 * against today's reader, versions against golden traces, today's trace against the oldest reader. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evgen/compat_test.h"
#include "evgen/runtime.h"

typedef struct results {
    unsigned passed, failed;
} results;

static void report(results *r, bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(ok ? "ok:   " : "FAIL: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    if (ok)
        r->passed++;
    else
        r->failed++;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("out of memory\n", stderr);
        exit(1);
    }
    return q;
}

static char *xstrdup(const char *s)
{
    return strcpy(xrealloc(NULL, strlen(s) + 1), s);
}

/* ---- sets of (event, version) ----------------------------------------------------------- */

typedef struct pair {
    char *event;
    unsigned version;
} pair;

typedef struct pair_set {
    pair *items;
    size_t count;
} pair_set;

static bool set_holds(const pair_set *s, const char *event, unsigned version)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->items[i].version == version && strcmp(s->items[i].event, event) == 0)
            return true;
    return false;
}

static void set_add(pair_set *s, const char *event, unsigned version)
{
    if (set_holds(s, event, version))
        return;
    s->items = xrealloc(s->items, (s->count + 1) * sizeof *s->items);
    s->items[s->count].event = xstrdup(event);
    s->items[s->count++].version = version;
}

static void set_free(pair_set *s)
{
    for (size_t i = 0; i < s->count; i++)
        free(s->items[i].event);
    free(s->items);
    s->items = NULL;
    s->count = 0;
}

/* The (event, version) pairs a lock file freezes: its "event NAME ..." and "  version N" lines
 * (docs/lockfile.md). Returns -1 if the file cannot be read. */
static int lock_versions(const char *path, pair_set *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *line = NULL, *event = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) != -1) {
        unsigned version;
        if (strncmp(line, "event ", 6) == 0) {
            free(event);
            event = xstrdup(line + 6);
            event[strcspn(event, " \n")] = '\0';
        } else if (event && sscanf(line, " version %u", &version) == 1) {
            set_add(out, event, version);
        }
    }
    free(event);
    free(line);
    fclose(f);
    return 0;
}

/* ---- the checks --------------------------------------------------------------------------- */

typedef struct context {
    const evgen_compat_harness *h;
    const char *golden_dir, *lock_path, *manifest;
    results results;
} context;

/* Every event of an open trace through `read_all`: checked events, unknown events, and the first
 * mismatch (why[0] != 0 then). */
typedef struct trace_read {
    size_t events, checked, unknown, mismatches;
    char why[512];
} trace_read;

static void read_trace(evgen_reader *reader, evgen_read_all_fn read_all, pair_set *held, trace_read *out)
{
    memset(out, 0, sizeof *out);
    evgen_event ev;
    char why[sizeof out->why];
    while (evgen_reader_next(reader, &ev)) {
        out->events++;
        if (held)
            set_add(held, ev.info->name, ev.version);
        int n = evgen_compat_check_event(&ev, read_all, why, sizeof why);
        if (n == EVGEN_COMPAT_UNKNOWN_EVENT) {
            out->unknown++;
        } else if (n == EVGEN_COMPAT_MISMATCH) {
            if (!out->mismatches++)
                snprintf(out->why, sizeof out->why, "%s", why);
        } else {
            out->checked++;
        }
    }
}

static int is_golden_trace(const struct dirent *entry)
{
    size_t len = strlen(entry->d_name);
    return len > 8 && strcmp(entry->d_name + len - 8, ".evtrace") == 0;
}

/* 2. Every golden trace reads with today's reader, every field equal to its golden value. */
static void check_golden_traces(context *c, pair_set *held)
{
    struct dirent **entries = NULL;
    int n = scandir(c->golden_dir, &entries, is_golden_trace, alphasort);
    if (n < 0) {
        report(&c->results, false, "cannot read the golden trace directory %s", c->golden_dir);
        return;
    }
    if (n == 0)
        report(&c->results, false, "%s holds no golden trace: record one with `evgen lock %s --lock %s --traces %s`",
               c->golden_dir, c->manifest, c->lock_path, c->golden_dir);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(c->golden_dir) + strlen(entries[i]->d_name) + 2;
        char *path = xrealloc(NULL, len);
        snprintf(path, len, "%s/%s", c->golden_dir, entries[i]->d_name);
        char *error = NULL;
        evgen_reader *reader = evgen_reader_open(path, &error);
        if (!reader) {
            report(&c->results, false, "golden trace %s does not open: %s", path, error ? error : "?");
            free(error);
        } else {
            trace_read r;
            read_trace(reader, c->h->read_all, held, &r);
            bool whole = evgen_reader_status(reader, NULL) == EVGEN_READ_OK;
            if (!whole)
                report(&c->results, false, "golden trace %s is damaged (evgen dump --stats %s says where)", path, path);
            else if (r.unknown)
                report(&c->results, false, "golden trace %s: %zu of its %zu events are unknown to today's reader of %s",
                       path, r.unknown, r.events, c->h->name);
            else if (r.mismatches)
                report(&c->results, false, "golden trace %s: %zu of its %zu events read other values than were written; first: %s",
                       path, r.mismatches, r.events, r.why);
            else
                report(&c->results, r.events > 0, "golden trace %s: %zu events, every field read by today's reader", path,
                       r.events);
            evgen_reader_close(reader);
        }
        free(path);
        free(entries[i]);
    }
    free(entries);
}

/* 1. Every version of today's manifest and of its lock is held by a golden trace. */
static void check_versions_held(context *c, const pair_set *today, const pair_set *held)
{
    pair_set locked = {NULL, 0};
    if (lock_versions(c->lock_path, &locked) != 0) {
        report(&c->results, false, "cannot read the lock file %s", c->lock_path);
        return;
    }
    size_t missing = 0, versions = 0;
    const pair_set *sets[2] = {&locked, today};
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < sets[s]->count; i++) {
            const pair *p = &sets[s]->items[i];
            if (s == 1 && set_holds(&locked, p->event, p->version))
                continue; /* listed once */
            versions++;
            if (set_holds(held, p->event, p->version))
                continue;
            missing++;
            printf("      %s v%u: %s, and no golden trace holds it\n", p->event, p->version,
                   s == 0 ? "locked" : "in today's manifest, not yet locked");
        }
    }
    if (missing)
        report(&c->results, false,
               "%zu of %zu event versions have no golden trace: record them with `evgen lock %s --lock %s --traces %s`",
               missing, versions, c->manifest, c->lock_path, c->golden_dir);
    else
        report(&c->results, versions > 0, "%zu event versions (locked and today's), each held by a golden trace", versions);
    set_free(&locked);
}

/* A trace written today by the generated runtime side, every event at every version, in memory. */
static int write_todays_trace(const evgen_compat_harness *h, uint8_t **trace, size_t *size, size_t *fired)
{
    evgen_session *s = evgen_session_open_memory(NULL);
    if (!s || evgen_session_enable(s, NULL, 255, ~0ull) != 0)
        return -1;
    *fired = h->fire_all();
    return evgen_session_close(s, NULL, trace, size);
}

/* Today's trace read by today's reader (round trip, and today's versions) and by the oldest. */
static void check_todays_trace(context *c, pair_set *today)
{
    uint8_t *trace = NULL;
    size_t size = 0, fired = 0;
    if (write_todays_trace(c->h, &trace, &size, &fired) != 0) {
        report(&c->results, false, "cannot write today's trace in memory");
        return;
    }
    const struct {
        evgen_read_all_fn read_all;
        const char *who;
    } readers[2] = {{c->h->read_all, "today's reader"}, {c->h->oldest_read_all, "the oldest lock's reader"}};
    for (int i = 0; i < 2 && readers[i].read_all; i++) {
        evgen_reader *reader = evgen_reader_open_memory(trace, size, NULL);
        if (!reader) {
            report(&c->results, false, "today's trace does not open");
            break;
        }
        trace_read r;
        read_trace(reader, readers[i].read_all, i == 0 ? today : NULL, &r);
        bool all = r.events == fired;
        if (r.mismatches || !all || r.checked == 0 || (i == 0 && r.unknown))
            report(&c->results, false, "today's trace (%zu events fired, %zu read) by %s%s%s: %zu checked, %zu unknown, %zu misread%s%s",
                   fired, r.events, readers[i].who, i ? " " : "", i ? c->h->oldest_lock : "", r.checked, r.unknown,
                   r.mismatches, r.mismatches ? "; first: " : "", r.why);
        else
            report(&c->results, true, "today's trace (%zu events) by %s%s%s: %zu checked field by field, %zu unknown to it",
                   fired, readers[i].who, i ? " " : "", i ? c->h->oldest_lock : "", r.checked, r.unknown);
        evgen_reader_close(reader);
    }
    if (!c->h->oldest_read_all)
        printf("      (no lock snapshot in %s yet: forward compatibility is checked once `evgen lock --traces` records one)\n",
               c->golden_dir);
    free(trace);
}

int evgen_compat_test_main(int argc, char **argv, const evgen_compat_harness *harness)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: %s GOLDEN_DIR LOCK_FILE [MANIFEST]\n", argc ? argv[0] : "compat");
        return 2;
    }
    context c = {harness, argv[1], argv[2], argc > 3 ? argv[3] : "MANIFEST", {0, 0}};
    printf("%s: compatibility of %s with the golden traces of %s\n", harness->name, c.lock_path, c.golden_dir);
    pair_set today = {NULL, 0}, held = {NULL, 0};
    check_todays_trace(&c, &today);
    check_golden_traces(&c, &held);
    check_versions_held(&c, &today, &held);
    set_free(&today);
    set_free(&held);
    evgen_compat_fire_values_free();
    printf("%u passed, %u failed\n", c.results.passed, c.results.failed);
    return c.results.failed ? 1 : 0;
}
