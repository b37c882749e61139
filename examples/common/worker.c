/* worker.c — a thread running one handed-over function at a time, the caller waiting for each. */
#include "worker.h"

#include <pthread.h>
#include <stdlib.h>

struct worker {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    void (*fn)(void *); /* the job to run, NULL when there is none */
    void *arg;
    int stop;
};

static void *worker_main(void *p)
{
    worker *w = p;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->fn && !w->stop)
            pthread_cond_wait(&w->changed, &w->lock);
        if (!w->fn)
            break;
        void (*fn)(void *) = w->fn;
        void *arg = w->arg;
        pthread_mutex_unlock(&w->lock);
        fn(arg);
        pthread_mutex_lock(&w->lock);
        w->fn = NULL;
        pthread_cond_broadcast(&w->changed);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

worker *worker_start(void)
{
    worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->changed, NULL);
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        pthread_cond_destroy(&w->changed);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return NULL;
    }
    return w;
}

void worker_run(worker *w, void (*fn)(void *), void *arg)
{
    pthread_mutex_lock(&w->lock);
    w->fn = fn;
    w->arg = arg;
    pthread_cond_broadcast(&w->changed);
    while (w->fn)
        pthread_cond_wait(&w->changed, &w->lock);
    pthread_mutex_unlock(&w->lock);
}

void worker_stop(worker *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stop = 1;
    pthread_cond_broadcast(&w->changed);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->changed);
    pthread_mutex_destroy(&w->lock);
    free(w);
}
