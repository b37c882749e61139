/* worker.h — a thread that runs functions handed to it, one at a time, while the caller waits: how
 * the simulated GC fires its background GC thread's events from a thread of their own, and how
 * tests script events on several threads in an exact order. */
#ifndef EXAMPLE_WORKER_H
#define EXAMPLE_WORKER_H

typedef struct worker worker;

/* Starts the thread; NULL if it cannot. */
worker *worker_start(void);
/* Runs fn(arg) on the worker's thread and returns once it has returned. */
void worker_run(worker *w, void (*fn)(void *), void *arg);
/* Ends the thread (its exit hands its trace buffer to the session) and frees the worker. */
void worker_stop(worker *w);

#endif /* EXAMPLE_WORKER_H */
