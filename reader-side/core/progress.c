/* progress.c — the progress bar of dump, convert and export (progress.h). */
#include "progress.h"

#include <unistd.h>

#define BAR_WIDTH 40

void evgen_progress_init(evgen_progress *p, FILE *err, const char *label, uint64_t total, uint64_t input_size,
                         int wanted, int out_fd)
{
    p->err = err;
    p->label = label;
    p->total = total;
    p->done = 0;
    p->shown = -1;
    int on = wanted && err && input_size >= EVGEN_PROGRESS_MIN_SIZE && isatty(fileno(err)) &&
             (out_fd < 0 || !isatty(out_fd));
    p->next = on ? 0 : UINT64_MAX;
}

void evgen_progress_update(evgen_progress *p)
{
    /* several passes over one input may count past the total: the bar stays full */
    uint64_t done = p->done < p->total ? p->done : p->total;
    int pct = p->total ? (int)(done * 100 / p->total) : 100;
    if (pct != p->shown) {
        p->shown = pct;
        char bar[BAR_WIDTH + 1];
        int full = pct * BAR_WIDTH / 100;
        for (int i = 0; i < BAR_WIDTH; i++)
            bar[i] = i < full ? '#' : '.';
        bar[BAR_WIDTH] = '\0';
        fprintf(p->err, "\r%s [%s] %3d%%", p->label, bar, pct);
        fflush(p->err);
    }
    p->next = pct >= 100 ? UINT64_MAX : ((uint64_t)(pct + 1) * p->total + 99) / 100;
}

void evgen_progress_end(evgen_progress *p)
{
    if (p->shown >= 0) {
        fputs("\r\033[K", p->err); /* erase the line */
        fflush(p->err);
    }
    p->shown = -1;
    p->next = UINT64_MAX;
}
