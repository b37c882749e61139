/* progress.h — the progress bar of the commands that read a whole trace (dump, convert, export): a
 * percentage of the events read, on a terminal only, for inputs of at least EVGEN_PROGRESS_MIN_SIZE
 * bytes; one compare per event, the line redrawn when the percentage changes and erased at the
 * end. Not installed. */
#ifndef EVGEN_READER_PROGRESS_H
#define EVGEN_READER_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

/* Smaller inputs read too fast for a bar to help. */
#define EVGEN_PROGRESS_MIN_SIZE (64ull << 20)

typedef struct evgen_progress {
    FILE *err;
    const char *label; /* the input's path, or what is being done */
    uint64_t total;    /* events in all */
    uint64_t done;
    uint64_t next;     /* `done` at which the bar moves next: UINT64_MAX when off */
    int shown;         /* the percentage on screen, -1 if none */
} evgen_progress;

/* Prepares a bar over `total` events, shown only if `wanted`, `input_size` is at least
 * EVGEN_PROGRESS_MIN_SIZE and `err` is a terminal (and `out_fd`, when >= 0, is not: a dump to the
 * terminal shows its events instead). */
void evgen_progress_init(evgen_progress *p, FILE *err, const char *label, uint64_t total, uint64_t input_size,
                         int wanted, int out_fd);

/* Redraws the bar; called by evgen_progress_step when `done` reaches `next`. */
void evgen_progress_update(evgen_progress *p);

/* One more event read. */
static inline void evgen_progress_step(evgen_progress *p)
{
    if (++p->done >= p->next)
        evgen_progress_update(p);
}

/* Erases the bar (if it was shown). */
void evgen_progress_end(evgen_progress *p);

#endif /* EVGEN_READER_PROGRESS_H */
