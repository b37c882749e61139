/* evgen/runtime.h — libevgen-runtime's public API: trace sessions, what they record, and where
 * the trace goes (a file, a memory buffer, an in-process callback).
 *
 * Up to EVGEN_MAX_SESSIONS (8) sessions may be open at once, each with its own sink, buffers and
 * rules; an event is recorded by every session that enables its provider at its level and
 * keywords. Events of every registered manifest (generated code registers itself) can be
 * recorded. Emitting is lock-free and allocation-free: each thread fills buffers of its own, and
 * each session's writer thread frames full buffers as blocks and writes them.
 *
 * Async-signal-safety (docs/signals.md): FireEtw functions (every emit) are async-signal-safe and
 * reentrant: a signal handler may emit while it interrupts an emit of the same thread. Nothing
 * in this header is: open, enable, flush, close and the totals may be called from any thread, but
 * not from a signal handler; flush/close fail with EDEADLK from an event callback or from a
 * handler that interrupted an emit (events emitted by a callback are not recorded). */
#ifndef EVGEN_RUNTIME_H
#define EVGEN_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/runtime_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct evgen_session evgen_session;

/* What an emitting thread does when it needs a fresh buffer and none is free. */
typedef enum evgen_when_full {
    EVGEN_WHEN_FULL_WAIT = 0, /* block until the writer frees one: nothing is lost, except by an
                               * emit nested in another of its thread (a signal handler's), which
                               * never waits: it drops and counts */
    EVGEN_WHEN_FULL_DROP = 1  /* drop the event and count it: the emitter never waits */
} evgen_when_full;

/* Who writes a thread's full buffer to a file. */
typedef enum evgen_block_writer {
    EVGEN_BLOCK_WRITER_AUTO = 0,  /* the default: file sessions that wait when full get
                                   * EVGEN_BLOCK_WRITER_ADAPTIVE (O_DIRECT while the disk keeps up,
                                   * each emitter through the page cache during a burst it does not,
                                   * O_DIRECT again after it; where the file system has no
                                   * O_DIRECT, the emitters from the start); other sessions
                                   * (EVGEN_WHEN_FULL_DROP, memory, callback) the writer thread */
    EVGEN_BLOCK_WRITER_THREAD = 1, /* always the session's writer thread: an emit never makes a system
                                    * call for a full buffer, at the cost of handing it to another core */
    EVGEN_BLOCK_WRITER_DIRECT_IO = 2, /* file sessions: the emitting thread checksums its full buffer (in its
                                    * cache) and hands it to the writer thread, which writes many blocks
                                    * per system call with O_DIRECT, straight from the buffers: no CPU
                                    * copies the trace into the page cache, so it costs the least CPU per
                                    * event, and the emitter never waits for a copy, only for the disk
                                    * when it is slower than the emitters. Blocks reach the file a few
                                    * milliseconds after they are handed over; flush and close still
                                    * write everything before they return. Where the file system has no
                                    * O_DIRECT (tmpfs...) the same writer writes through the page cache
                                    * (docs/performance.md, "The O_DIRECT writer"). The one to choose for
                                    * a session that emits faster than its disk for longer than the page
                                    * cache absorbs (gigabytes): every writer then goes at the disk's
                                    * speed, this one at half the CPU ("Which writer") */
    EVGEN_BLOCK_WRITER_ADAPTIVE = 3, /* file sessions that wait when full: EVGEN_BLOCK_WRITER_DIRECT_IO
                                     * while the disk keeps up with the emitters; once they outrun it
                                     * (two threads leave half the pool unwritten, or one waits for it
                                     * half its time for 20 ms), the session goes on as
                                     * EVGEN_BLOCK_WRITER_EMITTER's does (each emitter writes its own
                                     * full blocks through the page cache, which absorbs them at memory
                                     * speed), until the burst is over (for 100 ms the emitters bring
                                     * less than a quarter of what the disk takes): then O_DIRECT again.
                                     * Where the file system has no O_DIRECT, the emitters from the
                                     * start. O_DIRECT's CPU while the disk keeps up, and emitters not
                                     * held to the disk's speed when it does not, until the page cache
                                     * holds as much of the trace as the kernel lets it (then
                                     * EVGEN_BLOCK_WRITER_DIRECT_IO costs less; docs/performance.md,
                                     * "The adaptive writer"). Other sessions: as
                                     * EVGEN_BLOCK_WRITER_DIRECT_IO */
    EVGEN_BLOCK_WRITER_EMITTER = 4 /* the emitting thread itself, when the session is a file with
                                    * EVGEN_WHEN_FULL_WAIT and the emit is not nested: it checksums the
                                    * block while it is in its cache and writes it with pwrite(2), then
                                    * refills the same buffer (no hand-off between cores); else the
                                    * writer thread. Every full block is in the file (the page cache)
                                    * when that pwrite returns. What EVGEN_BLOCK_WRITER_AUTO chose
                                    * until 2026-11-30 (docs/performance.md, "Which writer") */
} evgen_block_writer;

typedef enum evgen_clock_kind {
    EVGEN_CLOCK_MONOTONIC = 1, /* CLOCK_MONOTONIC nanoseconds, clock_gettime on every emit */
    EVGEN_CLOCK_TSC = 2,       /* the CPU's time-stamp counter, frequency calibrated at open (~20 ms)
                                * against CLOCK_MONOTONIC to a few parts per million, which its
                                * nanoseconds may drift by over a long session; cheaper to read (~10
                                * ns against ~25 here: docs/performance.md); x86-64 with an
                                * invariant TSC only, else open fails with EINVAL */
    EVGEN_CLOCK_MONOTONIC_TSC = 3 /* CLOCK_MONOTONIC nanoseconds, as EVGEN_CLOCK_MONOTONIC writes them
                                   * (the trace says CLOCK_MONOTONIC), read from the time-stamp counter
                                   * between clock_gettime anchors at most 1 ms apart: within a few tens
                                   * of ns of clock_gettime's value, at the counter's cost (~20 ns less
                                   * per emit here: docs/performance.md); the default. Where the kernel
                                   * does not keep time with an invariant TSC (and on other CPUs, or
                                   * with EVGEN_NO_TSC set), clock_gettime, as EVGEN_CLOCK_MONOTONIC */
} evgen_clock_kind;

typedef struct evgen_session_options {
    uint32_t size;            /* sizeof(evgen_session_options); set by evgen_session_options_init */
    uint32_t buffer_size;     /* payload bytes per thread buffer; default 262096, which makes a full
                               * block 256 KiB with its header. When 48 + buffer_size is a power of
                               * two of 64 KiB or more, a thread that writes its own full block
                               * (EVGEN_BLOCK_WRITER_EMITTER; ADAPTIVE, and so AUTO, once handed
                               * over) pads it to end on a multiple of that size in the file, so
                               * that the page cache holds the trace in large folios that readers
                               * map cheaply (docs/performance.md). On a VM
                               * that hands free memory back to its host (free page reporting),
                               * such folios cost the writer up to twice as much in fresh memory:
                               * 66 * 1024 keeps blocks unpadded, in small folios */
    uint32_t buffer_count;    /* buffers shared by all threads; default 64 */
    uint32_t max_payload;     /* larger payloads are refused and counted; default 65536 (64 KiB, like
                               * ETW). buffer_size must be at least 4096 and
                               * max_payload + EVGEN_MAX_RECORD_HEADER */
    evgen_when_full when_full; /* default EVGEN_WHEN_FULL_WAIT */
    evgen_clock_kind clock;   /* default EVGEN_CLOCK_MONOTONIC_TSC */
    evgen_block_writer block_writer; /* default EVGEN_BLOCK_WRITER_AUTO */
} evgen_session_options;

void evgen_session_options_init(evgen_session_options *options);

/* Totals of a session, per process and per thread. */
/* Every event a session enabled is in exactly one of written, dropped, too_big or lost. */
typedef struct evgen_thread_totals {
    uint64_t thread_id;
    uint64_t written;  /* in the trace: in blocks the sink took */
    uint64_t dropped;  /* not buffered: no buffer free (DROP, or a nested emit), a dead sink, nesting
                        * deeper than EVGEN_MAX_NESTING */
    uint64_t too_big;  /* payload over max_payload */
} evgen_thread_totals;

typedef struct evgen_session_totals {
    uint64_t written;
    uint64_t dropped;  /* the threads' drops, and drops of threads interrupted while joining */
    uint64_t too_big;
    uint64_t bytes;    /* bytes of trace produced, header included */
    uint64_t lost;     /* buffered, but in blocks the sink failed to take (ENOSPC, EIO...) */
    const evgen_thread_totals *threads; /* valid until the next evgen_session_totals_free */
    size_t n_threads;
} evgen_session_totals;

void evgen_session_totals_free(evgen_session_totals *totals);

/* Opens a session writing the trace to `path` (created or truncated). `options` may be NULL for
 * defaults. Returns NULL with errno set if the file cannot be created, EVGEN_MAX_SESSIONS sessions
 * are open (EBUSY) or an option is invalid (EINVAL). No event is recorded until
 * evgen_session_enable. On ext4, while the session runs, the file may have up to 8 MiB allocated
 * past its size, a little more (fallocate with FALLOC_FL_KEEP_SIZE: cheaper writes; its size is the bytes
 * written), which close frees; EVGEN_NO_PREALLOCATE in the environment turns that off. */
evgen_session *evgen_session_open_file(const char *path, const evgen_session_options *options);

/* Opens a session keeping the trace in memory; evgen_session_close hands it over. */
evgen_session *evgen_session_open_memory(const evgen_session_options *options);

/* One decoded event, as an in-process listener receives it. Pointers are valid during the call. */
typedef struct evgen_event_record {
    const evgen_manifest_desc *manifest;
    const evgen_event_desc *event;
    const evgen_version_desc *version;
    const char *provider;
    uint64_t thread_id;
    uint64_t timestamp_ns; /* since the session opened */
    const uint8_t *payload;
    uint32_t size;
} evgen_event_record;

typedef void (*evgen_event_callback)(const evgen_event_record *record, void *context);

/* Opens a session that calls `callback` for every event, on the writer thread, in each
 * thread's order, a buffer at a time. When flush or close returns, every event before it has
 * been delivered. */
evgen_session *evgen_session_open_callback(evgen_event_callback callback, void *context,
                                           const evgen_session_options *options);

/* Records the events of `provider` (a provider name such as "Microsoft-Windows-DotNETRuntime",
 * or NULL for every provider) whose level is at most `level` (0 records only LogAlways events)
 * and whose keywords intersect `keywords` (events with no keyword always match). Returns 0, or
 * -1 with errno = ENOENT if no registered event has that provider. */
int evgen_session_enable(evgen_session *session, const char *provider, uint8_t level, uint64_t keywords);
/* Stops recording `provider` (NULL: all). Returns 0, or -1 with errno = ENOENT as above.
 * The last enable or disable naming a provider (or NULL) decides for it, also for manifests
 * registered later in the session. */
int evgen_session_disable(evgen_session *session, const char *provider);

/* Writes every thread's buffered events now (the calling thread's, idle threads', all) and
 * waits until the sink has them (for a file: write(2) returned; no fsync). Returns 0, or -1
 * with errno if the sink failed (the first error, reported by every later flush and close), or
 * EINVAL if the session was closed meanwhile by another thread. */
int evgen_session_flush(evgen_session *session);

/* The sink's first error (an errno value: ENOSPC, EIO...), or 0. Once the sink has failed the
 * session records nothing more (emits drop and count) and its writer discards what is queued, so
 * no emitter waits on a dead sink; flush and close report the error. Any thread, lock-free. */
int evgen_session_error(const evgen_session *session);

/* Disables every event, writes what is buffered and the end block, and frees the session.
 * `totals` (may be NULL) receives the counts; free them with evgen_session_totals_free. For a
 * memory session, `*memory`/`*memory_size` (may be NULL) receive the trace (free() it), also
 * when close fails, unless memory ran out. Returns 0, or -1 with errno if writing failed; the
 * session is freed either way. */
int evgen_session_close(evgen_session *session, evgen_session_totals *totals, uint8_t **memory,
                        size_t *memory_size);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_RUNTIME_H */
