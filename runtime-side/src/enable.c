/* enable.c — evgen_session_enable/disable: the session's rules, and the manifests' enabled
 * bytes computed from them (also for manifests registered later). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int same_provider(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The last rule naming the provider, or naming every provider, decides. */
static const rt_rule *rule_for(const evgen_session *s, const char *provider)
{
    for (size_t i = s->n_rules; i-- > 0;)
        if (!s->rules[i].provider || strcmp(s->rules[i].provider, provider) == 0)
            return &s->rules[i];
    return NULL;
}

/* The sessions whose rules record what has this level and these keywords: one bit per slot. */
static uint8_t sessions_for(const char *provider, uint8_t level, uint64_t keywords)
{
    uint8_t sessions = 0;
    for (unsigned slot = 0; slot < EVGEN_MAX_SESSIONS; slot++) {
        const evgen_session *s = evgen_rt.slots[slot];
        if (!s)
            continue;
        const rt_rule *r = rule_for(s, provider);
        if (r && r->on && level <= r->level && (keywords == 0 || (keywords & r->keywords) != 0))
            sessions |= (uint8_t)(1u << slot);
    }
    return sessions;
}

/* Under the lock: the enabled bytes, one bit per open session. An event's byte is set for the
 * sessions that record some version of it: by the event's level and keywords, or by those of a
 * version that has its own. A version's own byte is set for the sessions that record it. */
void evgen_rt_apply_rules(evgen_manifest_desc *m)
{
    for (uint32_t i = 0; i < m->n_events; i++) {
        const evgen_event_desc *e = evgen_rt_event(m, i);
        const char *provider = m->providers[e->provider] ? m->providers[e->provider] : "";
        uint8_t event_sessions = sessions_for(provider, e->level, e->keywords);
        uint8_t any = event_sessions;
        for (uint32_t v = 0; v < e->n_versions; v++) {
            const evgen_version_desc *ver = evgen_rt_version(e, v);
            int own = (ver->flags & EVGEN_VERSION_ATTRIBUTES) != 0;
            uint8_t sessions = own ? sessions_for(provider, ver->level, ver->keywords) : event_sessions;
            any |= sessions;
            if (ver->enabled)
                __atomic_store_n(&m->enabled[ver->enabled - 1], sessions, __ATOMIC_RELAXED);
        }
        __atomic_store_n(&m->enabled[i], any, __ATOMIC_RELAXED);
    }
}

void evgen_rt_apply_all(void)
{
    for (evgen_manifest_desc *m = evgen_rt.manifests; m; m = m->next)
        evgen_rt_apply_rules(m);
}

void evgen_rt_rules_free(evgen_session *s)
{
    for (size_t i = 0; i < s->n_rules; i++)
        free(s->rules[i].provider);
    free(s->rules);
    s->rules = NULL;
    s->n_rules = s->cap_rules = 0;
}

static int provider_known(const char *provider)
{
    for (const evgen_manifest_desc *m = evgen_rt.manifests; m; m = m->next)
        for (uint32_t i = 0; i < m->n_events; i++) {
            const char *p = m->providers[evgen_rt_event(m, i)->provider];
            if (p && strcmp(p, provider) == 0)
                return 1;
        }
    return 0;
}

/* A rule for `provider` replaces the earlier ones for it; a rule for every provider replaces
 * them all. */
static int add_rule(evgen_session *s, const char *provider, int on, uint8_t level, uint64_t keywords)
{
    rt_rule r = {NULL, on, level, keywords};
    if (provider && !(r.provider = strdup(provider)))
        return -1;
    if (s->n_rules == s->cap_rules) {
        size_t cap = s->cap_rules ? 2 * s->cap_rules : 4;
        rt_rule *rules = realloc(s->rules, cap * sizeof *rules);
        if (!rules) {
            free(r.provider);
            return -1;
        }
        s->rules = rules;
        s->cap_rules = cap;
    }
    size_t n = 0;
    for (size_t i = 0; i < s->n_rules; i++) {
        if (!provider || same_provider(s->rules[i].provider, provider))
            free(s->rules[i].provider);
        else
            s->rules[n++] = s->rules[i];
    }
    s->rules[n++] = r;
    s->n_rules = n;
    return 0;
}

static int set_rule(evgen_session *s, const char *provider, int on, uint8_t level, uint64_t keywords)
{
    if (!s) {
        errno = EINVAL;
        return -1;
    }
    int err = 0;
    evgen_rt_lock();
    if (!evgen_rt_session_is_open(s))
        err = EINVAL;
    else if (provider && !provider_known(provider))
        err = ENOENT;
    else if (!on && !provider)
        evgen_rt_rules_free(s);
    else if (add_rule(s, provider, on, level, keywords) != 0)
        err = ENOMEM;
    if (!err)
        evgen_rt_apply_all();
    evgen_rt_unlock();
    if (err) {
        errno = err;
        return -1;
    }
    return 0;
}

int evgen_session_enable(evgen_session *session, const char *provider, uint8_t level, uint64_t keywords)
{
    return set_rule(session, provider, 1, level, keywords);
}

int evgen_session_disable(evgen_session *session, const char *provider)
{
    return set_rule(session, provider, 0, 0, 0);
}
