/* writer_dio.c — the writer thread of a file session opened with EVGEN_BLOCK_WRITER_DIRECT_IO.
 *
 * Why. Through the page cache every byte of the trace is copied once more by a CPU (write(2), or
 * the faults of a shared mapping), which costs about as much as emitting the event
 * (docs/performance.md). With O_DIRECT the device reads the bytes from our buffers itself; what a
 * direct write costs the CPU is mostly a fixed price per system call (tens of microseconds here,
 * bench/file_paths_bench), so the writer gathers many blocks, a megabyte or more, into one
 * pwritev(2). The emitting threads checksum their blocks when they seal them (quiesce.c), while the
 * bytes are in their cache; this thread never reads a payload.
 *
 * How. O_DIRECT wants the memory, the file offset and the length of each piece aligned (`align`,
 * from statx's STATX_DIOALIGN). An events block's payload lies aligned in its pool buffer
 * (session.c), so its aligned part is written in place. What lies between two such parts is
 * copied into a small bounce piece: the last bytes of the payload before (less than `align`), then
 * the next block's 48-byte header, then zeros up to the next aligned offset, where its payload
 * starts. The zeros belong to that block's header (header_size = 48 + padding): every evgen reader,
 * of every format version, skips the header bytes past the 48 it knows, so the trace stays in the
 * format readers already read. Small blocks (metadata, the end block, a flushed partial buffer) are
 * copied whole into the bounce piece.
 *
 * The bytes past the last aligned offset wait for the next batch (they are written again, in front
 * of it). When no block follows within LINGER_MS, or a flush or close asks, they are written
 * through the page cache (the session's ordinary descriptor), so a block handed over is whole in
 * the file a few milliseconds later, and at once when flush or close returns. A file system
 * without O_DIRECT gets the same gathering through the page cache (align 1: no padding).
 *
 * Adaptive sessions (EVGEN_BLOCK_WRITER_ADAPTIVE, and AUTO's file sessions that wait). When the
 * emitters wait for buffers long enough, or the file takes no O_DIRECT (emitters_outran_disk), this
 * thread writes what it holds, its tail through the page cache, stops writing with O_DIRECT and
 * hands the writing over: it returns to writer.c's loop, which writes each block handed to it at a
 * place reserved in the file (sink.c), and each emitter writes its own full blocks through the page
 * cache (direct.c), as an EVGEN_BLOCK_WRITER_EMITTER session's do. Never both kinds of write at
 * once: a direct write holds the file's inode lock until the device has the bytes, and a buffered
 * write waits for that lock (docs/performance-log.md, ninth round). The page cache then absorbs
 * what the disk could not, at the price of a copy. Once the burst is over (evgen_rt_dio_burst_over),
 * writer.c's loop takes the writing back: no thread places blocks any more, what they placed is
 * written, and this thread goes on from the file's end (evgen_rt_dio_take_back), the aligned piece
 * it lies in read back from the file; a later burst hands it over again.
 *
 * A stream's blocks must lie in the file in the order it made them. Before the hand-over this
 * thread places them in queue order; after it, a block takes its place when it is handed over or
 * written. A stream whose blocks still wait in the queue unplaced (rt_stream.unplaced) hands its
 * next ones over too, unplaced, until this thread has placed them all (evgen_rt_placed).
 *
 * `done` counts a block when its last byte is in the file (or it is lost): what flush waits for. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "internal.h"

enum {
    LINGER_MS = 2,                 /* how long blocks or a tail wait for more before they are written */
    BATCH_MIN = 1 << 20,           /* bytes a batch waits for (less when the pool is small) */
    BATCH_MAX = 16 << 20,          /* bytes a batch takes at most */
    BATCH_MAX_ADAPTIVE = 2 << 20,  /* adaptive: less, so that it looks at the emitters' waits often */
    IOV_PER_CALL = 1024,           /* pwritev's limit (IOV_MAX on Linux) */
    ADAPT_WINDOW_MS = 5,           /* adaptive: the window emitters' waits are summed over */
    ADAPT_WAITED_PERCENT = 50,     /* adaptive: the share of each emitter's time spent waiting... */
    ADAPT_WINDOWS = 4,             /* ...in this many windows in a row, that hands the writing over */
    ADAPT_THREADS_MAX = 8,         /* adaptive: emitters told apart in a window (more count as this) */
    BACK_WINDOW_MS = 25,           /* handed over: the window the emitters' bytes are summed over */
    BACK_WINDOWS = 4,              /* handed over: quiet windows in a row that take the writing back */
    BACK_DISK_SAMPLE = 4 << 20     /* bytes written with O_DIRECT before the disk's speed is known */
};

/* A block placed in the file: enough to count it done or lost once its bytes are (or are not). */
typedef struct placed {
    rt_buffer info;     /* type, thread, events only: for evgen_rt_count_lost */
    uint64_t end;       /* file offset just past its last byte */
    uint32_t file_size; /* its bytes in the file, padding included */
} placed;

typedef struct rt_dio {
    uint32_t align;      /* of memory, offsets and lengths for O_DIRECT; 1 through the page cache */
    uint64_t at;         /* aligned file offset of tail[0]: every byte before it is written */
    uint8_t *tail;       /* the file's bytes from `at` on, fewer than `align` (aligned memory) */
    size_t tail_len;
    size_t tail_in_file; /* of them, already written through the page cache */
    uint64_t tail_since; /* when the tail got bytes not in the file (monotonic ns) */
    placed *waiting;     /* blocks whose last bytes are in the tail */
    size_t n_waiting, cap_waiting;
    rt_buffer **batch;   /* blocks taken off the queue, not written yet */
    size_t n_batch, cap_batch;
    uint64_t batch_bytes, batch_since, batch_min;
    uint64_t taken_bytes; /* of s->q_bytes, what the writer took off the queue */
    uint32_t flush_seen;
    uint64_t window_since;    /* adaptive: when the current window began (monotonic ns) */
    uint64_t window_waited;   /* adaptive: s->waited_ns when it began */
    uint64_t window_threads[ADAPT_THREADS_MAX]; /* adaptive: the threads whose blocks came in it */
    unsigned n_window_threads;
    unsigned windows_waited;  /* adaptive: windows in a row in which emitters waited that much */
    uint64_t disk_bytes, disk_ns; /* written with O_DIRECT, and the time its pwritev calls took */
    uint64_t back_since;      /* handed over: when the current window began (monotonic ns) */
    uint64_t back_end, back_write_ns; /* handed over: s->file_end and s->own_write_ns then */
    unsigned windows_quiet;   /* handed over: windows in a row in which the emitters were quiet */
    int readable;             /* dio_fd reads too: the writing can be taken back (the aligned piece
                               * the file's end lies in is read back with it) */
} rt_dio;

/* What O_DIRECT needs on this file: the larger of its memory and offset alignments, or 0 (the
 * page cache) when the file system does not say. tmpfs says nothing and takes O_DIRECT as an
 * ordinary write (padding for nothing); so do kernels before 6.1, which have no STATX_DIOALIGN. */
static uint32_t dio_alignment(int fd)
{
    struct statx stx;
    memset(&stx, 0, sizeof stx);
    if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) != 0 || !(stx.stx_mask & STATX_DIOALIGN))
        return 0;
    if (stx.stx_dio_offset_align == 0 || stx.stx_dio_mem_align == 0)
        return 0;
    return stx.stx_dio_mem_align > stx.stx_dio_offset_align ? stx.stx_dio_mem_align : stx.stx_dio_offset_align;
}

/* Test hook (tests/runtime): 0 asks statx; 1 writes through the page cache; another power of two
 * is taken as the file system's O_DIRECT alignment (one below the device's makes the kernel refuse
 * the first write with EINVAL, and the session go on through the page cache). */
static uint32_t forced_align;

void evgen_rt_dio_force_align(uint32_t align)
{
    __atomic_store_n(&forced_align, align, __ATOMIC_RELAXED);
}

/* The alignment to write FD's file with: the forced one, else statx's, when it is a power of two
 * that a payload's place in its pool buffer (aligned to EVGEN_RT_DIO_MAX_ALIGN, session.c) meets;
 * else 1, the page cache. */
static uint32_t usable_alignment(int fd)
{
    uint32_t align = __atomic_load_n(&forced_align, __ATOMIC_RELAXED);
    if (!align)
        align = dio_alignment(fd);
    return align >= 2 && align <= EVGEN_RT_DIO_MAX_ALIGN && !(align & (align - 1)) ? align : 1;
}

uint32_t evgen_rt_dio_alignment_in(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/.evgen-direct-io-probe", dir) >= (int)sizeof path)
        return 1;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return 1;
    uint32_t align = usable_alignment(fd);
    int direct = align > 1 ? open(path, O_WRONLY | O_DIRECT | O_CLOEXEC) : -1;
    if (direct >= 0)
        close(direct);
    else
        align = 1;
    close(fd);
    unlink(path);
    return align;
}

int evgen_rt_dio_open(evgen_session *s, const char *path, const uint8_t *header, size_t header_size)
{
    rt_dio *d = calloc(1, sizeof *d);
    if (!d)
        return ENOMEM;
    s->dio = d; /* and so whoever seals a block checksums it (quiesce.c) */
    uint32_t align = usable_alignment(s->fd);
    if (align > 1) {
        s->dio_fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
        d->readable = s->dio_fd >= 0;
        if (s->dio_fd < 0) /* a file we may write and not read: no take-back */
            s->dio_fd = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
    }
    struct stat a, b; /* the same file: not one that replaced it at `path` meanwhile */
    if (s->dio_fd >= 0 && (fstat(s->fd, &a) != 0 || fstat(s->dio_fd, &b) != 0 || a.st_dev != b.st_dev ||
                           a.st_ino != b.st_ino || !S_ISREG(a.st_mode))) {
        close(s->dio_fd);
        s->dio_fd = -1;
    }
    d->align = s->dio_fd >= 0 ? align : 1;
    if (posix_memalign((void **)&d->tail, EVGEN_RT_DIO_MAX_ALIGN, EVGEN_RT_DIO_MAX_ALIGN) != 0) {
        d->tail = NULL;
        return ENOMEM;
    }
    /* The file header, written through the page cache at open, begins the first aligned piece. */
    size_t keep = header_size % d->align;
    d->at = header_size - keep;
    memcpy(d->tail, header + d->at, keep);
    d->tail_len = d->tail_in_file = keep;
    s->wake_at = UINT64_MAX; /* the writer asks before it sleeps */
    uint64_t pool = (uint64_t)s->opt.buffer_count * s->opt.buffer_size;
    d->batch_min = pool / 4 < BATCH_MIN ? pool / 4 : BATCH_MIN;
    return 0;
}

void evgen_rt_dio_free(evgen_session *s)
{
    rt_dio *d = s->dio;
    if (s->dio_fd >= 0)
        close(s->dio_fd);
    s->dio_fd = -1;
    if (!d)
        return;
    free(d->tail);
    free(d->waiting);
    free(d->batch);
    free(d);
    s->dio = NULL;
}

/* ---- the pool's memory ------------------------------------------------------------------- */

#define HUGE_PAGE (2u << 20)

/* The device reads a direct write from the pages it lies in, one segment per physically contiguous
 * piece: from 4 KiB pages a megabyte's pwritev is some 260 segments, more than the virtio disk takes
 * in one request (254), and each page is pinned on its own. So the pool of this writer is an
 * anonymous mapping whose 2 MiB-aligned stretches are asked to be transparent huge pages
 * (MADV_HUGEPAGE: the system's "madvise" mode gives them, "never" gives 4 KiB pages, which work as
 * before). On the project's VM the writer's wall time per GCHeapStats event went from 97 to 48.5 ns,
 * the same CPU (docs/performance-log.md). Nothing is allocated beyond the pool: the stretch past the
 * last whole huge page stays in 4 KiB pages. *mapped: the length to give evgen_rt_dio_slab_free. */
uint8_t *evgen_rt_dio_slab(size_t bytes, size_t *mapped)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (bytes + page - 1) / page * page;
    if (len > SIZE_MAX - HUGE_PAGE)
        return NULL;
    uint8_t *m = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uint8_t *a = (uint8_t *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (a > m)
        munmap(m, (size_t)(a - m));
    munmap(a + len, (size_t)(m + HUGE_PAGE - a)); /* a < m + HUGE_PAGE: never empty */
#ifdef MADV_HUGEPAGE
    madvise(a, len, MADV_HUGEPAGE); /* advice: refused (a kernel without THP), the pages are 4 KiB */
#endif
    *mapped = len;
    return a;
}

void evgen_rt_dio_slab_free(uint8_t *slab, size_t mapped)
{
    if (slab)
        munmap(slab, mapped);
}

/* ---- writing ----------------------------------------------------------------------------- */

/* The pieces of one batch: iovecs, and the bounce pieces to free once written. */
typedef struct pieces {
    struct iovec *iov;
    size_t n_iov, cap_iov;
    void **bounce;
    size_t n_bounce, cap_bounce;
    uint64_t bytes;
    int failed; /* out of memory */
} pieces;

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t cap2 = *cap ? *cap : 16;
    while (cap2 < need)
        cap2 *= 2;
    void *q = realloc(p, cap2 * elem);
    if (q)
        *cap = cap2;
    return q;
}

static void add_iov(pieces *ps, void *base, size_t len)
{
    struct iovec *iov = grow(ps->iov, &ps->cap_iov, ps->n_iov + 1, sizeof *iov);
    if (!iov) {
        ps->failed = 1;
        return;
    }
    ps->iov = iov;
    ps->iov[ps->n_iov++] = (struct iovec){base, len};
    ps->bytes += len;
}

/* A bounce piece being filled: aligned memory, the last of ps's pieces, freed after the write. */
typedef struct bounce {
    uint8_t *p;
    size_t len, cap;
} bounce;

static int bounce_reserve(pieces *ps, bounce *b, size_t need)
{
    if (ps->failed)
        return -1;
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? 2 * b->cap : 2 * EVGEN_RT_DIO_MAX_ALIGN;
    while (cap < need)
        cap *= 2;
    void **list = grow(ps->bounce, &ps->cap_bounce, ps->n_bounce + 1, sizeof *list);
    uint8_t *p = NULL;
    if (list)
        ps->bounce = list;
    if (!list || posix_memalign((void **)&p, EVGEN_RT_DIO_MAX_ALIGN, cap) != 0) {
        ps->failed = 1;
        return -1;
    }
    if (b->p) { /* not in an iovec yet: replaced */
        memcpy(p, b->p, b->len);
        free(b->p);
        ps->bounce[ps->n_bounce - 1] = p;
    } else {
        ps->bounce[ps->n_bounce++] = p;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

static void bounce_put(bounce *b, const void *src, size_t n)
{
    if (src)
        memcpy(b->p + b->len, src, n);
    else
        memset(b->p + b->len, 0, n);
    b->len += n;
}

/* The piece goes into the write as it is; the next bytes start another. */
static void bounce_seal(pieces *ps, bounce *b, size_t len)
{
    if (len)
        add_iov(ps, b->p, len);
    *b = (bounce){NULL, 0, 0};
}

static void pieces_free(pieces *ps)
{
    for (size_t i = 0; i < ps->n_bounce; i++)
        free(ps->bounce[i]);
    free(ps->bounce);
    free(ps->iov);
}

/* Writes ps's pieces at OFFSET: through O_DIRECT, or the page cache when the session has none or
 * the file system refuses (EINVAL: from then on the session writes through the page cache). The
 * bytes written in *written; 0 or an errno value. */
static int write_pieces(evgen_session *s, pieces *ps, uint64_t offset, uint64_t *written)
{
    *written = 0;
    int err = evgen_rt_sink_injected(offset, ps->bytes);
    if (err)
        return err;
    struct iovec *iov = ps->iov;
    size_t n = ps->n_iov;
    while (n) {
        int fd = s->dio_fd >= 0 ? s->dio_fd : s->fd;
        int count = n < IOV_PER_CALL ? (int)n : IOV_PER_CALL;
        uint64_t t0 = evgen_clock_monotonic();
        ssize_t w = pwritev(fd, iov, count, (off_t)(offset + *written));
        if (w > 0 && fd == s->dio_fd) { /* the disk's speed, for a take-back */
            s->dio->disk_ns += evgen_clock_monotonic() - t0;
            s->dio->disk_bytes += (uint64_t)w;
        }
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EINVAL && fd == s->dio_fd) {
                close(s->dio_fd);
                s->dio_fd = -1;
                continue;
            }
            return errno;
        }
        if (w == 0)
            return EIO;
        *written += (uint64_t)w;
        while (n && (size_t)w >= iov->iov_len) {
            w -= (ssize_t)iov->iov_len;
            iov++;
            n--;
        }
        if (n) { /* a short write: the rest of this iovec */
            iov->iov_base = (uint8_t *)iov->iov_base + w;
            iov->iov_len -= (size_t)w;
        }
    }
    return 0;
}

static void finish(evgen_session *s, const rt_buffer *info, uint32_t file_size, int lost)
{
    if (lost)
        evgen_rt_count_lost(s, info);
    else
        __atomic_fetch_add(&s->bytes, file_size, __ATOMIC_RELAXED);
    evgen_rt_block_done(s);
}

/* After the file holds every byte before END (or a failure, err): the waiting blocks it completed
 * are done, the others lost if it failed. */
static void settle_waiting(evgen_session *s, rt_dio *d, uint64_t end, int err)
{
    size_t keep = 0;
    for (size_t i = 0; i < d->n_waiting; i++) {
        if (d->waiting[i].end <= end)
            finish(s, &d->waiting[i].info, d->waiting[i].file_size, 0);
        else if (err)
            finish(s, &d->waiting[i].info, 0, 1);
        else
            d->waiting[keep++] = d->waiting[i];
    }
    d->n_waiting = keep;
}

/* The tail through the page cache: every waiting block is then whole in the file. */
static void write_tail(evgen_session *s, rt_dio *d)
{
    uint64_t offset = d->at + d->tail_in_file;
    size_t n = d->tail_len - d->tail_in_file;
    int err = n ? evgen_rt_sink_injected(offset, n) : 0;
    if (!err && n)
        err = evgen_rt_write_all(s->fd, offset, d->tail + d->tail_in_file, n);
    if (err) {
        evgen_rt_sink_failed(s, d->at, err);
        settle_waiting(s, d, d->at, err);
        d->tail_len = d->tail_in_file = 0;
        return;
    }
    d->tail_in_file = d->tail_len;
    settle_waiting(s, d, d->at + d->tail_len, 0);
}

/* Places the batch's blocks after the tail, writes every aligned byte, keeps the rest as the new
 * tail, and gives the buffers back. Every block of the batch ends done: written, waiting in the
 * tail, or lost. */
static void write_batch(evgen_session *s, rt_dio *d)
{
    uint32_t align = d->align;
    pieces ps;
    memset(&ps, 0, sizeof ps);
    placed *w = grow(d->waiting, &d->cap_waiting, d->n_waiting + d->n_batch, sizeof *w);
    if (w)
        d->waiting = w;
    else
        ps.failed = 1;
    bounce cur = {NULL, 0, 0};
    if (bounce_reserve(&ps, &cur, d->tail_len + EVGEN_WIRE_BLOCK_HEADER_SIZE + align) == 0)
        bounce_put(&cur, d->tail, d->tail_len);
    uint64_t pos = d->at + d->tail_len;
    size_t placed_n = 0;
    for (; placed_n < d->n_batch && !ps.failed; placed_n++) {
        rt_buffer *b = d->batch[placed_n];
        if (!b->framed)
            evgen_rt_frame(b);
        uint8_t *payload = b->data + EVGEN_WIRE_BLOCK_HEADER_SIZE;
        size_t size = b->size, padding = 0;
        if (align == 1) { /* through the page cache: header and payload as they lie */
            bounce_seal(&ps, &cur, cur.len);
            add_iov(&ps, b->data, EVGEN_WIRE_BLOCK_HEADER_SIZE + size);
        } else if ((uintptr_t)payload % align != 0 || size < align) {
            /* copied whole: metadata, the end block, a small partial buffer */
            if (bounce_reserve(&ps, &cur, cur.len + EVGEN_WIRE_BLOCK_HEADER_SIZE + size) != 0)
                break;
            bounce_put(&cur, b->data, EVGEN_WIRE_BLOCK_HEADER_SIZE + size);
        } else {
            /* the header in the bounce piece, padded so that the payload starts aligned */
            padding = (align - (cur.len + EVGEN_WIRE_BLOCK_HEADER_SIZE) % align) % align;
            if (bounce_reserve(&ps, &cur, cur.len + EVGEN_WIRE_BLOCK_HEADER_SIZE + padding) != 0)
                break;
            evgen_wire_pad_block_header(b->data, (uint32_t)padding);
            bounce_put(&cur, b->data, EVGEN_WIRE_BLOCK_HEADER_SIZE);
            bounce_put(&cur, NULL, padding);
            bounce_seal(&ps, &cur, cur.len);
            size_t aligned = size - size % align;
            add_iov(&ps, payload, aligned);
            if (bounce_reserve(&ps, &cur, 2 * (size_t)align + EVGEN_WIRE_BLOCK_HEADER_SIZE) != 0)
                break;
            bounce_put(&cur, payload + aligned, size - aligned);
        }
        uint32_t file_size = (uint32_t)(EVGEN_WIRE_BLOCK_HEADER_SIZE + padding + size);
        pos += file_size;
        /* What finish and evgen_rt_count_lost read, field by field: a copy of the whole buffer would
         * read `taken`, which emitters CAS once the buffer is back in the pool (ThreadSanitizer
         * reports the plain read against that atomic write) */
        placed *p = &d->waiting[d->n_waiting++];
        memset(p, 0, sizeof *p);
        p->info.type = b->type;
        p->info.thread_id = b->thread_id;
        p->info.event_count = b->event_count;
        p->end = pos;
        p->file_size = file_size;
    }
    size_t keep = cur.len % align;
    const uint8_t *rest = cur.p ? cur.p + cur.len - keep : NULL; /* the new tail, freed with ps */
    bounce_seal(&ps, &cur, ps.failed ? 0 : cur.len - keep);

    uint64_t written = 0;
    int err = ps.failed ? ENOMEM : write_pieces(s, &ps, d->at, &written);
    if (err) {
        evgen_rt_sink_failed(s, d->at + written, err);
        settle_waiting(s, d, d->at + written, err);
        for (size_t i = placed_n; i < d->n_batch; i++) /* never placed */
            finish(s, d->batch[i], 0, 1);
        d->tail_len = d->tail_in_file = 0;
    } else {
        if (ps.bytes) { /* the old tail was written in front of the batch */
            d->at += ps.bytes;
            d->tail_in_file = 0;
        }
        if (keep)
            memcpy(d->tail, rest, keep);
        d->tail_len = keep;
        if (d->tail_len > d->tail_in_file)
            d->tail_since = evgen_clock_monotonic();
        settle_waiting(s, d, d->at, 0);
    }
    if (s->dio_fd < 0)
        d->align = 1; /* the file system refused O_DIRECT: the page cache from now on */
    pieces_free(&ps);
    for (size_t i = 0; i < d->n_batch; i++)
        evgen_rt_release(s, d->batch[i]);
    d->n_batch = 0;
    d->batch_bytes = 0;
}

/* ---- handing over (adaptive sessions) ----------------------------------------------------- */

/* The emitters a window saw: the threads whose events blocks were handed over in it. */
static void note_emitter(rt_dio *d, const rt_buffer *b)
{
    if (b->type != EVGEN_WIRE_BLOCK_EVENTS || d->n_window_threads == ADAPT_THREADS_MAX)
        return;
    for (unsigned i = 0; i < d->n_window_threads; i++)
        if (d->window_threads[i] == b->thread_id)
            return;
    d->window_threads[d->n_window_threads++] = b->thread_id;
}

/* Test hook (tests/runtime): hand over at the writer's first look. */
static int forced_hand_over;

void evgen_rt_adaptive_force(int hand_over_at_once)
{
    __atomic_store_n(&forced_hand_over, hand_over_at_once, __ATOMIC_RELAXED);
}

int evgen_rt_adaptive_handed_over(const evgen_session *s)
{
    return s->dio && __atomic_load_n(&s->emitters_write, __ATOMIC_ACQUIRE);
}

/* Whether to hand the writing over: at once where the file takes no O_DIRECT (tmpfs, a kernel
 * before 6.1, a device that refused the first write), where gathering through the page cache would
 * only move the emitters' copy to the writer thread, across cores; else when several emitters fill
 * the pool faster than the disk empties it
 * (half the pool handed over and not yet written, with blocks of two threads or more in the window;
 * or two of them waiting for buffers at once), where the page cache would let each go at its own
 * speed; or the emitters, each, waited ADAPT_WAITED_PERCENT of their time or more, in ADAPT_WINDOWS
 * windows in a row.
 *
 * Why half their time. Writing its own blocks through the page cache costs an emitter a copy of
 * each, about as much as emitting them with the default clock (0.5-0.6 of it with clock_gettime on
 * every emit; docs/performance-log.md: the CPU per event of emitters that write, against the
 * O_DIRECT writer's emitter); so the page cache lets emitters go faster than the disk only when
 * they wait for it more than ~40-50% of their time. One emitter that the disk about matches (this
 * project's VM) mostly stays; two such emitters wait most of their time, and two wait at once as
 * soon as the pool runs dry. Several windows, not one: one emitter's waits come in bursts, the
 * disk's speed going up and down. */
static int emitters_outran_disk(evgen_session *s, rt_dio *d)
{
    if (s->dio_fd < 0 || __atomic_load_n(&forced_hand_over, __ATOMIC_RELAXED) ||
        __atomic_load_n(&s->crowded, __ATOMIC_RELAXED))
        return 1;
    if (d->n_window_threads >= 2 &&
        2 * (uint64_t)__atomic_load_n(&s->n_inflight, __ATOMIC_RELAXED) >= s->opt.buffer_count)
        return 1;
    uint64_t now = evgen_clock_monotonic(), waited = __atomic_load_n(&s->waited_ns, __ATOMIC_RELAXED);
    if (d->window_since != 0 && now - d->window_since < (uint64_t)ADAPT_WINDOW_MS * 1000000u)
        return 0;
    if (d->window_since != 0) {
        uint64_t emitters = d->n_window_threads ? d->n_window_threads : 1;
        int outran = (waited - d->window_waited) * 100 >= (now - d->window_since) * emitters * ADAPT_WAITED_PERCENT;
        d->windows_waited = outran ? d->windows_waited + 1 : 0;
    }
    d->window_since = now;
    d->window_waited = waited;
    d->n_window_threads = 0;
    return d->windows_waited >= ADAPT_WINDOWS;
}

/* Test hook (tests/runtime): the hand-over held at two points, so that a test can queue blocks
 * while the writer is about to hand over and place others while those wait unplaced. 1: the writer
 * waits before handing over (evgen_rt_adaptive_holding says so) until the hook is set to 2, and
 * after it until the session stops; 0, the default: no wait. */
static int hold_hand_over, holding_hand_over;

void evgen_rt_adaptive_hold(int stage)
{
    __atomic_store_n(&hold_hand_over, stage, __ATOMIC_RELEASE);
}

int evgen_rt_adaptive_holding(void)
{
    return __atomic_load_n(&holding_hand_over, __ATOMIC_ACQUIRE);
}

static void held_at_hand_over(evgen_session *s, int after)
{
    if (!__atomic_load_n(&hold_hand_over, __ATOMIC_ACQUIRE))
        return;
    __atomic_store_n(&holding_hand_over, !after, __ATOMIC_RELEASE);
    while (after ? !__atomic_load_n(&s->stopping, __ATOMIC_ACQUIRE)
                 : __atomic_load_n(&hold_hand_over, __ATOMIC_ACQUIRE) == 1)
        evgen_rt_futex_wait(&s->doorbell, __atomic_load_n(&s->doorbell, __ATOMIC_ACQUIRE), 1);
    __atomic_store_n(&holding_hand_over, 0, __ATOMIC_RELEASE);
}

/* No batch pending: the tail goes through the page cache and the file's end becomes the place
 * blocks are reserved from (sink.c); then emitters may write. The O_DIRECT descriptor stays open,
 * unused, for a take-back (evgen_rt_dio_take_back). */
static void hand_over(evgen_session *s, rt_dio *d)
{
    write_tail(s, d);
    __atomic_store_n(&s->file_end, d->at + d->tail_len, __ATOMIC_RELAXED);
    d->back_since = 0;
    d->windows_quiet = 0;
    evgen_rt_prealloc_open(s); /* from here blocks go through the page cache (prealloc.c) */
    __atomic_store_n(&s->wake_at, 0, __ATOMIC_SEQ_CST); /* writer.c's loop: ring for every block */
    /* Release: an emitter or enqueue that sees it reserves after file_end's store. */
    __atomic_store_n(&s->emitters_write, 1, __ATOMIC_RELEASE);
}

/* ---- taking the writing back (adaptive sessions) -------------------------------------------- */

static void take(evgen_session *s, rt_dio *d, rt_buffer *b);

/* Test hook (tests/runtime): take the writing back at the next look. */
static int forced_take_back;

void evgen_rt_adaptive_force_back(int take_back_at_once)
{
    __atomic_store_n(&forced_take_back, take_back_at_once, __ATOMIC_RELAXED);
}

void evgen_rt_dio_popped(evgen_session *s, const rt_buffer *b)
{
    s->dio->taken_bytes += EVGEN_WIRE_BLOCK_HEADER_SIZE + (uint64_t)b->size;
}

/* Whether to take the writing back: the burst that made the emitters outrun the disk is over. In
 * BACK_WINDOWS windows in a row the file grew by less than a quarter of what the disk takes in the
 * time (its speed measured on the O_DIRECT writes, once BACK_DISK_SAMPLE bytes went that way) and
 * the emitters spent less than a quarter of it in their own writes: O_DIRECT keeps up with them
 * with room to spare, at about half the CPU, and keeps the rest of a long session out of the page
 * cache. Emitters that are busy writing keep the writing, however slowly the page cache takes it:
 * with O_DIRECT they could wait for the disk (docs/performance-log.md, twenty-second session).
 * Never where the file takes no O_DIRECT. */
int evgen_rt_dio_burst_over(evgen_session *s)
{
    rt_dio *d = s->dio;
    if (s->dio_fd < 0 || !d->readable || !__atomic_load_n(&s->emitters_write, __ATOMIC_ACQUIRE))
        return 0;
    if (__atomic_load_n(&forced_take_back, __ATOMIC_RELAXED))
        return 1;
    uint64_t now = evgen_clock_monotonic();
    if (d->back_since != 0 && now - d->back_since < (uint64_t)BACK_WINDOW_MS * 1000000u)
        return 0;
    uint64_t end = __atomic_load_n(&s->file_end, __ATOMIC_RELAXED);
    uint64_t wrote = __atomic_load_n(&s->own_write_ns, __ATOMIC_RELAXED);
    if (d->back_since != 0 && d->disk_bytes >= BACK_DISK_SAMPLE) {
        uint64_t window = now - d->back_since, came = end - d->back_end, busy = wrote - d->back_write_ns;
        /* came / window < disk_bytes / disk_ns / 4, in floating point: the products overflow 64 bits */
        int quiet = 4 * (double)came * (double)d->disk_ns < (double)d->disk_bytes * (double)window &&
                    4 * busy < window;
        d->windows_quiet = quiet ? d->windows_quiet + 1 : 0;
    }
    d->back_since = now;
    d->back_end = end;
    d->back_write_ns = wrote;
    if (d->windows_quiet < BACK_WINDOWS)
        return 0;
    d->windows_quiet = 0; /* a take-back that cannot be had now is tried again after as many */
    return 1;
}

void evgen_rt_dio_take_back(evgen_session *s, rt_buffer *unplaced)
{
    rt_dio *d = s->dio;
    /* The aligned piece the file's end lies in is written again with the next batch: its bytes are
     * read back from the file, with O_DIRECT (aligned memory, offset and length; the kernel writes
     * the page cache's dirty bytes of the range to the disk first). */
    uint64_t end = __atomic_load_n(&s->file_end, __ATOMIC_RELAXED);
    d->at = end - end % d->align;
    d->tail_len = d->tail_in_file = (size_t)(end - d->at);
    if (d->tail_len) {
        ssize_t r;
        do
            r = pread(s->dio_fd, d->tail, d->align, (off_t)d->at);
        while (r < 0 && errno == EINTR);
        if (r < (ssize_t)d->tail_len) /* unreadable: the session's sink has failed */
            evgen_rt_sink_failed(s, end, r < 0 ? errno : EIO);
    }
    d->window_since = 0;
    d->windows_waited = 0;
    d->n_window_threads = 0;
    __atomic_store_n(&s->crowded, 0, __ATOMIC_RELAXED);
    d->back_since = 0;
    d->windows_quiet = 0;
    __atomic_store_n(&s->wake_at, UINT64_MAX, __ATOMIC_RELAXED); /* awake: nobody need ring */
    for (rt_buffer *b = unplaced, *next; b; b = next) {
        next = b->next;
        take(s, d, b);
    }
}

/* ---- the loop ---------------------------------------------------------------------------- */

/* B, taken off the queue, is not written: its events are lost (a forget block has none). */
static void discard(evgen_session *s, rt_buffer *b)
{
    if (b->type != RT_BLOCK_FORGET)
        evgen_rt_count_lost(s, b);
    evgen_rt_release(s, b);
    evgen_rt_block_done(s);
}

static void take(evgen_session *s, rt_dio *d, rt_buffer *b)
{
    evgen_rt_placed(s, b, 0); /* its place: after the blocks taken before it */
    if (b->type == RT_BLOCK_FORGET || __atomic_load_n(&s->error, __ATOMIC_ACQUIRE)) {
        discard(s, b); /* after a sink error blocks are discarded */
        return;
    }
    rt_buffer **batch = grow(d->batch, &d->cap_batch, d->n_batch + 1, sizeof *batch);
    if (!batch) { /* no memory to hold it: the sink fails, as on a full disk */
        evgen_rt_sink_failed(s, d->at, ENOMEM);
        discard(s, b);
        return;
    }
    d->batch = batch;
    if (s->adaptive)
        note_emitter(d, b);
    if (d->n_batch == 0)
        d->batch_since = evgen_clock_monotonic();
    d->batch[d->n_batch++] = b;
    d->batch_bytes += EVGEN_WIRE_BLOCK_HEADER_SIZE + (uint64_t)b->size;
}

/* Before it sleeps, the writer says when it wants to be woken: once the queue holds what the batch
 * lacks. Returns how long to sleep at most (ms), 0 if that much is queued already. */
static long ask_to_wake(evgen_session *s, rt_dio *d)
{
    uint64_t want = d->batch_min > d->batch_bytes ? d->batch_min - d->batch_bytes : 0;
    __atomic_store_n(&s->wake_at, d->taken_bytes + (want ? want : 1), __ATOMIC_SEQ_CST);
    uint64_t queued = __atomic_load_n(&s->q_bytes, __ATOMIC_SEQ_CST);
    if (queued >= d->taken_bytes + want)
        return 0;
    /* Something waits to be written (gathered, queued or the tail): not for long. */
    return d->n_batch || d->tail_len > d->tail_in_file || queued > d->taken_bytes ? LINGER_MS : 100;
}

int evgen_rt_dio_writer(evgen_session *s)
{
    rt_dio *d = s->dio;
    const uint64_t linger = (uint64_t)LINGER_MS * 1000000u;
    for (;;) {
        uint32_t bell = __atomic_load_n(&s->doorbell, __ATOMIC_ACQUIRE);
        int full = 0;
        for (;;) {
            if (d->batch_bytes >= (s->adaptive ? BATCH_MAX_ADAPTIVE : BATCH_MAX)) {
                full = 1;
                break;
            }
            rt_buffer *b = evgen_rt_queue_pop(s);
            if (!b)
                break;
            d->taken_bytes += EVGEN_WIRE_BLOCK_HEADER_SIZE + (uint64_t)b->size;
            take(s, d, b);
        }
        uint32_t flush = __atomic_load_n(&s->flush_req, __ATOMIC_ACQUIRE);
        int stopping = __atomic_load_n(&s->stopping, __ATOMIC_ACQUIRE);
        /* Someone waits for the file (flush, close) or for a buffer: no more gathering. */
        int asked = flush != d->flush_seen || stopping || __atomic_load_n(&s->waiters, __ATOMIC_ACQUIRE) ||
                    __atomic_load_n(&s->n_free, __ATOMIC_ACQUIRE) == 0;
        if (s->adaptive && emitters_outran_disk(s, d)) {
            if (d->n_batch)
                write_batch(s, d);
            held_at_hand_over(s, 0);
            hand_over(s, d);
            held_at_hand_over(s, 1);
            return 1; /* writer.c's loop writes the rest */
        }
        int tail_pending = d->tail_len > d->tail_in_file;
        uint64_t now = d->n_batch || tail_pending ? evgen_clock_monotonic() : 0;
        if (d->n_batch) {
            if (full || asked || d->batch_bytes >= d->batch_min || now - d->batch_since >= linger) {
                write_batch(s, d);
                continue; /* more may have come meanwhile */
            }
        } else {
            if (tail_pending && (asked || now - d->tail_since >= linger))
                write_tail(s, d);
            d->flush_seen = flush;
            if (stopping &&
                __atomic_load_n(&s->done, __ATOMIC_ACQUIRE) >= __atomic_load_n(&s->queued, __ATOMIC_ACQUIRE))
                break;
        }
        long sleep_ms = ask_to_wake(s, d);
        if (sleep_ms)
            evgen_rt_futex_wait(&s->doorbell, bell, sleep_ms);
        __atomic_store_n(&s->wake_at, UINT64_MAX, __ATOMIC_RELAXED); /* awake: nobody need ring */
    }
    return 0;
}
