/* rt_helpers.c — shared helpers of the runtime tests (see rt_helpers.h). */
#include "rt_helpers.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_support.h"

evgen_session_options rt_options(uint32_t buffer_size, uint32_t buffer_count, uint32_t max_payload,
                                 evgen_when_full when_full)
{
    evgen_session_options o;
    evgen_session_options_init(&o);
    o.buffer_size = buffer_size;
    o.buffer_count = buffer_count;
    o.max_payload = max_payload;
    o.when_full = when_full;
    return o;
}

char *rt_path(const char *name)
{
    char *dir = evgen_test_tempdir();
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    snprintf(path, n, "%s/%s", dir, name);
    free(dir);
    return path;
}

void rt_path_free(char *path)
{
    if (!path)
        return;
    unlink(path);
    char *slash = strrchr(path, '/');
    if (slash) {
        *slash = 0;
        evgen_test_rmtree(path);
    }
    free(path);
}

uint8_t *rt_parse_file(const char *path, tp_trace *trace, tp_records *records, int *rc)
{
    size_t size = 0;
    uint8_t *data = tp_read_file(path, &size);
    if (!data) {
        memset(trace, 0, sizeof *trace);
        *rc = -1;
        return NULL;
    }
    *rc = tp_parse(data, size, records ? tp_collect : NULL, records, trace);
    if (*rc != 0)
        fprintf(stderr, "parse error: %s\n", trace->error);
    return data;
}

uint64_t rt_file_records(const char *path, int *has_end)
{
    tp_trace t;
    int rc;
    uint8_t *data = rt_parse_file(path, &t, NULL, &rc);
    assert_int_equal(rc, 0);
    uint64_t n = t.n_records;
    *has_end = t.has_end;
    tp_free(&t);
    free(data);
    return n;
}

void rt_kill_once_grown(int pid, const char *path, uint64_t size)
{
    struct stat st;
    int grown = 0, status;
    for (int i = 0; i < 60000 && !grown; i++) {
        if (stat(path, &st) == 0 && (uint64_t)st.st_size > size)
            grown = 1;
        else if (waitpid(pid, &status, WNOHANG) == pid)
            break; /* the child died on its own */
        else
            nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    kill(pid, SIGKILL);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(grown);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

static int same_str(const char *got, const char *want, const char *what)
{
    if (strcmp(got, want ? want : "") == 0)
        return 1;
    fprintf(stderr, "metadata: %s is \"%s\", expected \"%s\"\n", what, got, want ? want : "");
    return 0;
}

static int same_u(uint64_t got, uint64_t want, const char *what)
{
    if (got == want)
        return 1;
    fprintf(stderr, "metadata: %s is %llu, expected %llu\n", what, (unsigned long long)got, (unsigned long long)want);
    return 0;
}

int rt_metadata_matches(const tp_manifest *g, const evgen_manifest_desc *w, unsigned pointer_size)
{
    (void)pointer_size;
    if (!same_u(g->first_type, w->type_base, "first_type") || !same_str(g->name, w->name, "name") ||
        !same_u(g->n_providers, w->n_providers, "n_providers") || !same_u(g->n_enums, w->n_enums, "n_enums") ||
        !same_u(g->n_structs, w->n_structs, "n_structs") || !same_u(g->n_events, w->n_events, "n_events"))
        return 0;
    for (size_t i = 0; i < g->n_providers; i++)
        if (!same_str(g->providers[i], w->providers[i], "provider"))
            return 0;
    for (size_t i = 0; i < g->n_enums; i++) {
        const tp_enum *ge = &g->enums[i];
        const evgen_enum_desc *we = &w->enums[i];
        if (!same_str(ge->name, we->name, "enum") || !same_u(ge->n_consts, we->n_consts, "n_consts"))
            return 0;
        for (size_t k = 0; k < ge->n_consts; k++)
            if (!same_str(ge->consts[k].name, we->consts[k].name, "enum const") ||
                !same_u((uint64_t)ge->consts[k].value, (uint64_t)we->consts[k].value, "enum value"))
                return 0;
    }
    for (size_t i = 0; i < g->n_structs; i++) {
        const tp_struct *gs = &g->structs[i];
        const evgen_struct_desc *ws = &w->structs[i];
        if (!same_str(gs->name, ws->name, "struct") || !same_u(gs->stride, ws->stride, "stride") ||
            !same_u(gs->n_members, ws->n_members, "n_members"))
            return 0;
        for (size_t k = 0; k < gs->n_members; k++) {
            const evgen_member_desc *wm = &ws->members[k];
            if (!same_str(gs->members[k].name, wm->name, "member") || !same_u(gs->members[k].kind, wm->kind, "kind") ||
                !same_u(gs->members[k].offset, wm->offset, "offset") ||
                !same_u(gs->members[k].enum_plus1, (uint64_t)(wm->enum_index + 1), "member enum"))
                return 0;
        }
    }
    for (size_t i = 0; i < g->n_events; i++) {
        const tp_event *ge = &g->events[i];
        const evgen_event_desc *we = &w->events[i];
        if (!same_str(ge->name, we->name, "event") || !same_u(ge->provider, we->provider, "provider index") ||
            !same_u(ge->id, we->id, "id") || !same_u(ge->level, we->level, "level") ||
            !same_u(ge->keywords, we->keywords, "keywords") || !same_u(ge->n_versions, we->n_versions, "n_versions"))
            return 0;
        for (size_t v = 0; v < ge->n_versions; v++) {
            const tp_version *gv = &ge->versions[v];
            const evgen_version_desc *wv = &we->versions[v];
            if (!same_u(gv->version, wv->version, "version") ||
                !same_u(gv->flags, wv->flags & EVGEN_VERSION_LEGACY, "version flags") ||
                !same_u(gv->n_fields, wv->n_fields, "n_fields"))
                return 0;
            for (size_t f = 0; f < gv->n_fields; f++) {
                const tp_field *gf = &gv->fields[f];
                const evgen_field_desc *wf = &wv->fields[f];
                int array = (wf->flags & EVGEN_FIELD_ARRAY) != 0;
                if (!same_str(gf->name, wf->name, "field") || !same_u(gf->kind, wf->kind, "field kind") ||
                    !same_u(gf->flags, wf->flags, "field flags") ||
                    !same_u(gf->enum_plus1, (uint64_t)(wf->enum_index + 1), "field enum") ||
                    !same_u(gf->struct_plus1, (uint64_t)(wf->struct_index + 1), "field struct") ||
                    !same_u(gf->count_plus1, array ? (uint64_t)(wf->count_field + 1) : 0, "count field"))
                    return 0;
            }
        }
    }
    return 1;
}

uint64_t rt_gettid(void)
{
    return (uint64_t)syscall(SYS_gettid);
}

void rt_vec_le(rt_vec *v, uint64_t value, int bytes)
{
    for (int i = 0; i < bytes; i++)
        v->data[v->len++] = (uint8_t)(value >> (8 * i));
}

void rt_vec_raw(rt_vec *v, const void *p, size_t n)
{
    memcpy(v->data + v->len, p, n);
    v->len += n;
}

void rt_close_and_parse(evgen_session *s, rt_closed *c)
{
    memset(c, 0, sizeof *c);
    assert_int_equal(evgen_session_close(s, &c->totals, &c->trace, &c->size), 0);
    if (tp_parse(c->trace, c->size, tp_collect, &c->records, &c->parsed) != 0)
        fail_msg("trace does not parse: %s", c->parsed.error);
}

void rt_closed_free(rt_closed *c)
{
    tp_records_free(&c->records);
    tp_free(&c->parsed);
    evgen_session_totals_free(&c->totals);
    free(c->trace);
}

const tp_event *rt_record_event(const rt_closed *c, const tp_record *r, uint64_t *version)
{
    const tp_type *t = &c->parsed.types[r->type];
    const tp_event *e = &c->parsed.manifests[t->manifest].events[t->event];
    *version = e->versions[t->version].version;
    return e;
}
