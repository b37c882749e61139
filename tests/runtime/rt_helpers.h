/* rt_helpers.h — what the runtime tests share: options, temporary trace paths, parsing a trace
 * file with the tests' own parser, comparing metadata with a descriptor, sanitizer detection. */
#ifndef EVGEN_RT_HELPERS_H
#define EVGEN_RT_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "evgen/runtime.h"
#include "trace_parse.h"

/* Sanitizers make emitting ~10x slower: stress tests scale down under them. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RT_SANITIZED 1
#endif
#endif
#ifndef RT_SANITIZED
#define RT_SANITIZED 0
#endif

evgen_session_options rt_options(uint32_t buffer_size, uint32_t buffer_count, uint32_t max_payload,
                                 evgen_when_full when_full);

/* A path `name` in a fresh temporary directory (free with rt_path_free, which removes both). */
char *rt_path(const char *name);
void rt_path_free(char *path);

/* Reads and parses a trace file; records are collected into `records` (may be NULL). Returns the
 * file's bytes (free them after the records), or NULL if the file cannot be read. The parse
 * result is in *trace (free with tp_free); *rc receives tp_parse's return. */
uint8_t *rt_parse_file(const char *path, tp_trace *trace, tp_records *records, int *rc);
/* The records of the trace file at PATH, which must parse (cmocka asserts); whether it has an end
 * block in *has_end. */
uint64_t rt_file_records(const char *path, int *has_end);
/* Kills child PID with SIGKILL once the file at PATH is larger than SIZE bytes (polled every
 * millisecond, ~60 s at most) and reaps it; asserts that the file grew that far and that the child
 * was still running then (it died of the SIGKILL). */
void rt_kill_once_grown(int pid, const char *path, uint64_t size);

/* 1 if the decoded metadata matches the descriptor in every field (else prints the first
 * difference). */
int rt_metadata_matches(const tp_manifest *got, const evgen_manifest_desc *want, unsigned pointer_size);

uint64_t rt_gettid(void);

/* A memory session closed and its trace parsed with the tests' own parser (cmocka asserts). */
typedef struct rt_closed {
    uint8_t *trace;
    size_t size;
    evgen_session_totals totals;
    tp_trace parsed;
    tp_records records;
} rt_closed;
void rt_close_and_parse(evgen_session *s, rt_closed *c);
void rt_closed_free(rt_closed *c);
/* The event of record `r`, and its version number in *version. */
const tp_event *rt_record_event(const rt_closed *c, const tp_record *r, uint64_t *version);

/* Little-endian byte vectors built by hand, the tests' independent oracle for payloads. */
typedef struct rt_vec {
    uint8_t data[4096];
    size_t len;
} rt_vec;
void rt_vec_le(rt_vec *v, uint64_t value, int bytes);
void rt_vec_raw(rt_vec *v, const void *p, size_t n);

#endif /* EVGEN_RT_HELPERS_H */
