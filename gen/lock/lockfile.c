/* lockfile.c — reading and writing the lock file (format: docs/lockfile.md). */
#include "lock/lockfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

#define LOCK_FORMAT 1

char *evgen_lock_default_path(const char *manifest_path)
{
    const char *slash = strrchr(manifest_path, '/');
    const char *dot = strrchr(manifest_path, '.');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - manifest_path) : strlen(manifest_path);
    return evgen_xasprintf("%.*s.lock", (int)stem, manifest_path);
}

/* Provider names are free text: quoted, with \" and \\ escaped. */
static void append_quoted(evgen_strbuf *sb, const char *s)
{
    evgen_sb_putc(sb, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            evgen_sb_putc(sb, '\\');
        evgen_sb_putc(sb, *s);
    }
    evgen_sb_putc(sb, '"');
}

char *evgen_lock_render(const evgen_model *model)
{
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    const char *base = strrchr(model->manifest_path, '/');
    evgen_sb_printf(&sb,
                    "# evgen lock file for %s: the frozen layout of every shipped event version.\n"
                    "# Written by `evgen lock`, compared with the manifest by `evgen check`. Do not edit.\n"
                    "evgen-lock %d\n",
                    base ? base + 1 : model->manifest_path, LOCK_FORMAT);
    for (size_t i = 0; i < model->n_events; i++) {
        const evgen_model_event *e = &model->events[i];
        evgen_sb_printf(&sb, "\nevent %s id %llu provider ", e->name, (unsigned long long)e->id);
        append_quoted(&sb, model->providers[e->provider_index].name);
        evgen_sb_putc(&sb, '\n');
        for (size_t v = 0; v < e->n_versions; v++) {
            const evgen_model_version *ver = &e->versions[v];
            evgen_sb_printf(&sb, "  version %u%s\n", ver->version, ver->legacy ? " legacy" : "");
            for (size_t s = 0; s < ver->n_slots; s++) {
                const evgen_model_slot *slot = &ver->slots[s];
                char *sig = evgen_model_field_signature(model, slot->field);
                evgen_sb_printf(&sb, "    field %s %s @", slot->field->name, sig);
                if (slot->after >= 0)
                    evgen_sb_printf(&sb, "%s+", ver->slots[slot->after].field->name);
                evgen_sb_printf(&sb, "%u\n", slot->offset);
                free(sig);
            }
        }
    }
    return evgen_sb_take(&sb);
}

/* Splits a line into words in place: whitespace separates, a double-quoted word may hold spaces
 * and '#' (with \" and \\ escapes), and '#' outside quotes starts a comment. Returns the count
 * (at most max), or -1 for an unterminated quote. */
static int split_words(char *line, char **words, unsigned *cols, size_t max)
{
    size_t n = 0;
    char *p = line;
    while (n < max) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (!*p || *p == '#')
            break;
        cols[n] = (unsigned)(p - line) + 1;
        if (*p == '"') {
            char *out = ++p;
            words[n++] = out;
            while (*p && *p != '"') {
                if (*p == '\\' && p[1])
                    p++;
                *out++ = *p++;
            }
            if (*p != '"')
                return -1;
            p++;
            *out = '\0';
            continue;
        }
        words[n++] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '#')
            p++;
        if (*p == '#') {
            *p = '\0';
            break;
        }
        if (*p)
            *p++ = '\0';
    }
    return (int)n;
}

static bool parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno || v > max || s[0] == '-')
        return false;
    *out = v;
    return true;
}

void evgen_lock_free(evgen_lock *lock)
{
    for (size_t i = 0; i < lock->n_events; i++) {
        evgen_lock_event *e = &lock->events[i];
        for (size_t v = 0; v < e->n_versions; v++) {
            for (size_t f = 0; f < e->versions[v].n_fields; f++) {
                free(e->versions[v].fields[f].name);
                free(e->versions[v].fields[f].signature);
            }
            free(e->versions[v].fields);
        }
        free(e->versions);
        free(e->name);
        free(e->provider);
    }
    free(lock->events);
    free(lock->path);
    memset(lock, 0, sizeof *lock);
}

int evgen_lock_parse(const char *path, const char *text, evgen_lock *lock, evgen_diags *diags)
{
    memset(lock, 0, sizeof *lock);
    lock->path = evgen_xstrdup(path);
    char *copy = evgen_xstrdup(text);
    size_t errors_before = diags->n_errors;
    bool seen_header = false;
    unsigned line_no = 0;
    char *save = copy;
    while (save && diags->n_errors == errors_before) {
        char *line = save;
        char *nl = strchr(line, '\n');
        save = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        line_no++;
        char *w[8];
        unsigned col[8];
        int words = split_words(line, w, col, 8);
        if (words < 0) {
            evgen_model_loc at = {lock->path, line_no, 1};
            evgen_error(diags, &at, EVGEN_D_LOCK_SYNTAX, "unterminated quoted string");
            break;
        }
        size_t n = (size_t)words;
        if (n == 0)
            continue;
        evgen_model_loc loc = {lock->path, line_no, col[0]};
        unsigned long long num = 0;
        if (!seen_header) {
            if (n != 2 || strcmp(w[0], "evgen-lock") != 0 || !parse_uint(w[1], 1000, &num)) {
                evgen_error(diags, &loc, EVGEN_D_LOCK_SYNTAX, "expected 'evgen-lock %d' as the first line", LOCK_FORMAT);
            } else if (num != LOCK_FORMAT) {
                evgen_error(diags, &loc, EVGEN_D_LOCK_SYNTAX, "lock format %llu is not supported (this evgen reads %d)",
                            num, LOCK_FORMAT);
            }
            seen_header = true;
            continue;
        }
        if (strcmp(w[0], "event") == 0) {
            unsigned long long id;
            if (n != 6 || strcmp(w[2], "id") != 0 || strcmp(w[4], "provider") != 0 ||
                !parse_uint(w[3], 0xFFFFFFFFull, &id)) {
                evgen_error(diags, &loc, EVGEN_D_LOCK_SYNTAX, "expected 'event NAME id N provider PROVIDER'");
                break;
            }
            evgen_lock_event *e = EVGEN_PUSH(lock->events, lock->n_events);
            e->name = evgen_xstrdup(w[1]);
            e->id = id;
            e->provider = evgen_xstrdup(w[5]);
            e->loc = loc;
        } else if (strcmp(w[0], "version") == 0) {
            bool legacy = n == 3 && strcmp(w[2], "legacy") == 0;
            if (!lock->n_events || (n != 2 && !legacy) || !parse_uint(w[1], 255, &num)) {
                evgen_error(diags, &loc, EVGEN_D_LOCK_SYNTAX, "expected 'version N [legacy]' inside an event");
                break;
            }
            evgen_lock_event *e = &lock->events[lock->n_events - 1];
            evgen_lock_version *v = EVGEN_PUSH(e->versions, e->n_versions);
            v->version = (unsigned)num;
            v->legacy = legacy;
            v->loc = loc;
        } else if (strcmp(w[0], "field") == 0) {
            evgen_lock_event *e = lock->n_events ? &lock->events[lock->n_events - 1] : NULL;
            if (!e || !e->n_versions || n != 4 || w[3][0] != '@') {
                evgen_error(diags, &loc, EVGEN_D_LOCK_SYNTAX, "expected 'field NAME TYPE @OFFSET' inside a version");
                break;
            }
            evgen_lock_version *v = &e->versions[e->n_versions - 1];
            evgen_lock_field *f = EVGEN_PUSH(v->fields, v->n_fields);
            f->name = evgen_xstrdup(w[1]);
            f->signature = evgen_xstrdup(w[2]);
            f->loc = loc;
        } else {
            evgen_error(diags, &loc, EVGEN_D_LOCK_SYNTAX, "unexpected '%s'", w[0]);
        }
    }
    if (!seen_header && diags->n_errors == errors_before) {
        evgen_model_loc loc = {lock->path, 1, 1};
        evgen_error(diags, &loc, EVGEN_D_LOCK_SYNTAX, "empty lock file");
    }
    free(copy);
    if (diags->n_errors > errors_before) {
        evgen_lock_free(lock);
        return -1;
    }
    return 0;
}
