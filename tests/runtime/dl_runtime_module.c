/* dl_runtime_module.c — a shared library that holds a generated manifest and its own copy of
 * libevgen-runtime (the archive's symbols kept local), as a runtime that is itself a library and is
 * loaded with dlopen does: its thread pointer is initial-exec TLS in a dlopen'd object
 * (evgen/runtime_emit.h). dl_runtime_record writes `events` events to a file session at `path` from
 * a new thread whose first emit, the one that first touches the thread pointer, is in a signal
 * handler, then the rest from that thread; it returns the session's count of written events, or
 * -1. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "dlevents_runtime.h"
#include "evgen/runtime.h"

long dl_runtime_record(const char *path, uint64_t events);

static volatile sig_atomic_t handler_status = -1;

static void on_signal(int sig)
{
    (void)sig;
    handler_status = (sig_atomic_t)FireEtwGCCreateSegment(0);
}

static void *emit_thread(void *arg)
{
    uint64_t events = *(const uint64_t *)arg;
    raise(SIGUSR2); /* the thread's first emit */
    for (uint64_t k = 1; k < events; k++)
        if (FireEtwGCCreateSegment(k) != EVGEN_EMIT_OK)
            return (void *)1;
    return NULL;
}

long dl_runtime_record(const char *path, uint64_t events)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    if (events == 0 || sigaction(SIGUSR2, &sa, &old) != 0)
        return -1;
    evgen_session *s = evgen_session_open_file(path, NULL);
    long written = -1;
    if (s && evgen_session_enable(s, NULL, 255, ~0ull) == 0) {
        pthread_t t;
        void *failed = (void *)1;
        if (pthread_create(&t, NULL, emit_thread, &events) == 0)
            pthread_join(t, &failed);
        evgen_session_totals totals;
        if (evgen_session_close(s, &totals, NULL, NULL) == 0) {
            if (!failed && handler_status == EVGEN_EMIT_OK)
                written = (long)totals.written;
            evgen_session_totals_free(&totals);
        }
    } else if (s) {
        evgen_session_close(s, NULL, NULL, NULL);
    }
    sigaction(SIGUSR2, &old, NULL);
    return written;
}
