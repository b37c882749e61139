/* evgen/files.h — the one rule for the files evgen's commands read and write (docs/diagnostics.md,
 * "What evgen writes and refuses"), shared by the generator (describe, check, lock, gen) and the
 * trace tools (dump, convert):
 *
 * - An input is opened without blocking and must be a regular file: a FIFO, a device, a socket or
 *   a directory is refused before anything is read. A text input (a manifest, a lock file) must
 *   also hold at most EVGEN_TEXT_INPUT_MAX bytes.
 * - An output is written to a temporary file in the directory of the file it replaces, then
 *   renamed over it. It may only create a file or replace a regular file. A symbolic link is
 *   followed: the regular file it points to is replaced, in that file's directory, and the link
 *   stays; a link to anything else, or to nothing, is refused. A FIFO, a device, a socket or a
 *   directory is refused, and so is an input of the command (the same path, or the same device and
 *   inode: a hard link, a link, another spelling). The output itself is never opened for writing.
 *
 * Errors are one sentence without the file's name ("cannot read: a FIFO; evgen reads only regular
 * files"), which the caller prefixes with it, in a string the caller frees (NULL if memory ran out).
 * Thread safety: the functions keep no state of their own; each evgen_output is one caller's. */
#ifndef EVGEN_FILES_H
#define EVGEN_FILES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most a text input (a manifest, a lock file) may hold: 16 MiB. */
#define EVGEN_TEXT_INPUT_MAX (16u * 1024u * 1024u)

/* Opens `path` for reading: a stat first, then open(O_NONBLOCK) and fstat, so that a FIFO without
 * a writer never blocks and a device is never read. `max_size` 0: no limit. Returns the descriptor
 * (the caller closes it) with the file's size in *size, or -1 with *error set; errno is ENOENT
 * exactly when the file does not exist. */
int evgen_input_open(const char *path, uint64_t max_size, uint64_t *size, char **error);

/* Reads a whole text input of at most EVGEN_TEXT_INPUT_MAX bytes, NUL-terminated (the caller frees),
 * its length in *size (NULL: not wanted). NULL with *error set on failure; errno as above. */
char *evgen_input_read_text(const char *path, size_t *size, char **error);

/* One output file being written. */
typedef struct evgen_output {
    char *name;       /* the path as given, for messages */
    char *path;       /* the file created or replaced: `name`, or the file the link `name` points to */
    char *tmp;        /* the temporary file beside `path`, until committed or discarded */
    int fd;           /* open for writing on `tmp`; a caller that takes it sets it to -1 and closes it */
    int existed;      /* `path` was a regular file */
    unsigned mode;    /* its permissions then, which the new file gets */
    uint64_t dir_dev, dir_ino; /* the directory of `path`, to tell two outputs apart */
} evgen_output;

/* Checks `out` against the rule and against the command's inputs (`inputs[0..n_inputs)`, paths;
 * NULL entries are skipped), then creates the temporary file: the replaced file's permissions, or
 * 0666 less the umask for a new file. Returns 0, or -1 with *error set and nothing created (*o is
 * then released). */
int evgen_output_open(evgen_output *o, const char *out, const char *const *inputs, size_t n_inputs, char **error);

/* evgen_output_open in two steps: the checks only (nothing is created: `tmp` stays NULL, and an
 * output that is committed so is left as it is), then the temporary file. Each returns 0, or -1
 * with *error set and *o released. */
int evgen_output_check(evgen_output *o, const char *out, const char *const *inputs, size_t n_inputs, char **error);
int evgen_output_create(evgen_output *o, char **error);

/* Writes all of `data` to the temporary file: 0, or -1 with errno set. */
int evgen_output_write(evgen_output *o, const void *data, size_t size);

/* Whether the file being replaced holds exactly `data` (an output that would not change). */
int evgen_output_unchanged(const evgen_output *o, const void *data, size_t size);

/* Whether two outputs of one command are the same file: -1 with *error set (about the later one)
 * if any two of `outs[0..n)` are, else 0. */
int evgen_outputs_distinct(const evgen_output *outs, size_t n, char **error);

/* Closes the temporary files, checks each `path` again (still absent or a regular file), then
 * renames every temporary file over its `path`, in order: all are written, or on an error found
 * before the first rename, none. An output without a temporary file (`tmp` NULL: checked only,
 * evgen_output_check, because its content would not change) is left as it is. Returns 0, or -1 with *error set and *failed (if not NULL) the
 * index of the output concerned; either way every output is released, its temporary file gone. */
int evgen_outputs_commit(evgen_output *outs, size_t n, size_t *failed, char **error);

/* evgen_outputs_commit of one output. */
int evgen_output_commit(evgen_output *o, char **error);

/* Removes the temporary file and releases *o. Safe on a released or zeroed output. */
void evgen_output_discard(evgen_output *o);

#ifdef __cplusplus
}
#endif

#endif /* EVGEN_FILES_H */
