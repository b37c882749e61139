/* files.c — the one rule for what evgen's commands read and write (evgen/files.h): inputs opened
 * without blocking, regular files only; outputs through a temporary file in the destination's
 * directory, renamed over a regular file or into a free name, never over anything else nor over an
 * input of the command. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evgen/files.h"
#include "core.h"


/* Sets *error (if `error` is not NULL) and returns -1, errno kept. */
#define FAIL(error, ...)                        \
    do {                                        \
        int saved_errno_ = errno;               \
        if (error)                              \
            *(error) = evgen_rd_format(__VA_ARGS__);    \
        errno = saved_errno_;                   \
        return -1;                              \
    } while (0)

/* What a file that is not a regular file is, as the messages say it. */
static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISLNK(mode))
        return "a symbolic link";
    return "not a regular file";
}

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

/* ---- inputs -------------------------------------------------------------------------------------- */

int evgen_input_open(const char *path, uint64_t max_size, uint64_t *size, char **error)
{
    if (error)
        *error = NULL;
    struct stat st;
    /* stat first: a device is refused without being opened (opening some has effects) */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        errno = EINVAL;
        FAIL(error, "cannot read: %s; evgen reads only regular files", kind_of(st.st_mode));
    }
    /* O_NONBLOCK: a FIFO put in place since the stat opens at once rather than waiting for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        FAIL(error, "cannot open: %s", strerror(errno));
    const char *refused = NULL;
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        FAIL(error, "cannot read: %s", strerror(err));
    }
    if (!S_ISREG(st.st_mode))
        refused = kind_of(st.st_mode);
    if (refused || (max_size && (uint64_t)st.st_size > max_size)) {
        close(fd);
        errno = EINVAL;
        if (refused)
            FAIL(error, "cannot read: %s; evgen reads only regular files", refused);
        FAIL(error, "cannot read: %llu bytes, more than evgen reads of a manifest or lock file (%llu MiB)",
             (unsigned long long)st.st_size, (unsigned long long)(max_size >> 20));
    }
    if (size)
        *size = (uint64_t)st.st_size;
    return fd;
}

char *evgen_input_read_text(const char *path, size_t *size, char **error)
{
    uint64_t expected = 0;
    int fd = evgen_input_open(path, EVGEN_TEXT_INPUT_MAX, &expected, error);
    if (fd < 0)
        return NULL;
    /* One byte past the limit is read, if there, to tell a file that grew since the fstat. */
    size_t cap = (size_t)expected + 1, len = 0;
    char *text = malloc(cap + 1);
    int err = text ? 0 : ENOMEM;
    while (!err) {
        if (len == cap) {
            size_t more = cap * 2 > (size_t)EVGEN_TEXT_INPUT_MAX + 1 ? (size_t)EVGEN_TEXT_INPUT_MAX + 1 : cap * 2;
            char *grown = more > cap ? realloc(text, more + 1) : NULL;
            if (!grown) {
                err = more > cap ? ENOMEM : EFBIG;
                break;
            }
            text = grown;
            cap = more;
        }
        ssize_t n = read(fd, text + len, cap - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            err = errno;
        else if (n == 0)
            break;
        else
            len += (size_t)n;
    }
    close(fd);
    if (err) {
        free(text);
        errno = err;
        if (error)
            *error = err == EFBIG ? evgen_rd_format("cannot read: more than evgen reads of a manifest or lock file (%u MiB)",
                                            EVGEN_TEXT_INPUT_MAX >> 20)
                                  : evgen_rd_format("cannot read: %s", strerror(err));
        errno = err;
        return NULL;
    }
    text[len] = '\0';
    if (size)
        *size = len;
    return text;
}

/* ---- outputs ------------------------------------------------------------------------------------- */

/* The directory part of `path` ("." for a bare name). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return dup_string(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *dir = malloc(n + 1);
    if (dir) {
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    return dir;
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void release(evgen_output *o)
{
    free(o->name);
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
    o->fd = -1;
}

void evgen_output_discard(evgen_output *o)
{
    if (o->tmp) {
        if (o->fd >= 0)
            close(o->fd);
        unlink(o->tmp);
    }
    release(o);
}

/* Where `out` leads: o->path and o->existed, the replaced file's status in *st. 0, or -1 (error). */
static int resolve(evgen_output *o, const char *out, struct stat *st, char **error)
{
    struct stat lst;
    if (lstat(out, &lst) != 0) {
        if (errno != ENOENT)
            FAIL(error, "cannot write: %s", strerror(errno));
        o->path = dup_string(out); /* a new file */
        if (!o->path)
            FAIL(error, "out of memory");
        return 0;
    }
    if (S_ISLNK(lst.st_mode)) {
        /* Followed: the file the link points to is replaced, in its own directory. */
        char *real = realpath(out, NULL);
        if (!real && errno == ENOENT) {
            char target[PATH_MAX];
            ssize_t n = readlink(out, target, sizeof target - 1);
            target[n > 0 ? n : 0] = '\0';
            FAIL(error, "cannot write: a symbolic link to a missing file ('%s'); evgen writes through a link only to "
                        "an existing regular file", target);
        }
        if (!real)
            FAIL(error, "cannot write: cannot follow the symbolic link: %s", strerror(errno));
        if (stat(real, st) != 0) {
            int err = errno;
            free(real);
            errno = err;
            FAIL(error, "cannot write: cannot follow the symbolic link: %s", strerror(err));
        }
        if (!S_ISREG(st->st_mode)) {
            if (error)
                *error = evgen_rd_format("cannot write: a symbolic link to %s ('%s'); evgen writes only regular files",
                                 kind_of(st->st_mode), real);
            free(real);
            errno = EINVAL;
            return -1;
        }
        o->path = real;
        o->existed = 1;
        return 0;
    }
    if (!S_ISREG(lst.st_mode)) {
        errno = EINVAL;
        FAIL(error, "cannot write: %s; evgen writes only regular files", kind_of(lst.st_mode));
    }
    *st = lst;
    o->path = dup_string(out);
    if (!o->path)
        FAIL(error, "out of memory");
    o->existed = 1;
    return 0;
}

/* Creates the temporary file beside o->path: 0, or -1 (error). */
static int create_temporary(evgen_output *o, char **error)
{
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        free(o->tmp);
        o->tmp = attempt ? evgen_rd_format("%s.tmp.%ld.%u", o->path, (long)getpid(), attempt)
                         : evgen_rd_format("%s.tmp.%ld", o->path, (long)getpid());
        if (!o->tmp)
            FAIL(error, "out of memory");
        o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (o->fd >= 0)
            break;
        if (errno != EEXIST) {
            int err = errno;
            if (error)
                *error = evgen_rd_format("cannot create the temporary file '%s': %s", o->tmp, strerror(err));
            free(o->tmp);
            o->tmp = NULL;
            errno = err;
            return -1;
        }
    }
    if (o->fd < 0) {
        if (error)
            *error = evgen_rd_format("cannot create a temporary file beside it: %s", strerror(EEXIST));
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    if (o->existed)
        (void)fchmod(o->fd, (mode_t)o->mode); /* best effort: a file not ours keeps 0666 & ~umask */
    return 0;
}

int evgen_output_check(evgen_output *o, const char *out, const char *const *inputs, size_t n_inputs, char **error)
{
    if (error)
        *error = NULL;
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->name = dup_string(out);
    struct stat st;
    memset(&st, 0, sizeof st);
    int rc = o->name ? resolve(o, out, &st, error) : -1;
    if (!o->name && error)
        *error = evgen_rd_format("out of memory");
    for (size_t i = 0; rc == 0 && i < n_inputs; i++) {
        struct stat in;
        if (!inputs[i])
            continue;
        if (strcmp(inputs[i], out) == 0) {
            if (error)
                *error = evgen_rd_format("cannot write: it is the input '%s'; evgen never replaces an input", inputs[i]);
            rc = -1;
        } else if (o->existed && stat(inputs[i], &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino) {
            if (error)
                *error = evgen_rd_format("cannot write: it is the same file as the input '%s'; evgen never replaces an input",
                                 inputs[i]);
            rc = -1;
        }
    }
    if (rc == 0) {
        char *dir = dir_of(o->path);
        struct stat ds;
        if (!dir) {
            if (error)
                *error = evgen_rd_format("out of memory");
            rc = -1;
        } else if (stat(dir, &ds) != 0 || !S_ISDIR(ds.st_mode)) {
            int err = errno;
            if (error)
                *error = evgen_rd_format("cannot write into the directory '%s': %s", dir,
                                 strerror(stat(dir, &ds) == 0 ? ENOTDIR : err));
            rc = -1;
        } else {
            o->dir_dev = (uint64_t)ds.st_dev;
            o->dir_ino = (uint64_t)ds.st_ino;
        }
        free(dir);
    }
    o->mode = (unsigned)(st.st_mode & 07777);
    if (rc != 0)
        release(o);
    return rc;
}

int evgen_output_create(evgen_output *o, char **error)
{
    if (error)
        *error = NULL;
    if (create_temporary(o, error) != 0) {
        release(o);
        return -1;
    }
    return 0;
}

int evgen_output_open(evgen_output *o, const char *out, const char *const *inputs, size_t n_inputs, char **error)
{
    return evgen_output_check(o, out, inputs, n_inputs, error) == 0 ? evgen_output_create(o, error) : -1;
}

int evgen_output_write(evgen_output *o, const void *data, size_t size)
{
    const char *p = data;
    while (size) {
        ssize_t n = write(o->fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return -1;
        }
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

int evgen_output_unchanged(const evgen_output *o, const void *data, size_t size)
{
    if (!o->existed)
        return 0;
    uint64_t have = 0;
    int fd = evgen_input_open(o->path, 0, &have, NULL);
    if (fd < 0)
        return 0;
    int same = have == size;
    char chunk[65536];
    size_t off = 0;
    while (same && off < size) {
        size_t want = size - off < sizeof chunk ? size - off : sizeof chunk;
        ssize_t n = read(fd, chunk, want);
        if (n < 0 && errno == EINTR)
            continue;
        same = n > 0 && memcmp(chunk, (const char *)data + off, (size_t)n) == 0;
        off += n > 0 ? (size_t)n : 0;
    }
    close(fd);
    return same;
}

int evgen_outputs_distinct(const evgen_output *outs, size_t n, char **error)
{
    if (error)
        *error = NULL;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (outs[i].dir_dev == outs[j].dir_dev && outs[i].dir_ino == outs[j].dir_ino &&
                strcmp(base_of(outs[i].path), base_of(outs[j].path)) == 0)
            {
                if (strcmp(outs[i].name, outs[j].name) == 0)
                    FAIL(error, "cannot write: this command would write it twice");
                FAIL(error, "cannot write: it is the same file as '%s', which this command writes too", outs[j].name);
            }
    return 0;
}

int evgen_outputs_commit(evgen_output *outs, size_t n, size_t *failed, char **error)
{
    if (error)
        *error = NULL;
    int rc = 0;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (outs[i].fd >= 0 && close(outs[i].fd) != 0 && rc == 0) {
            if (error)
                *error = evgen_rd_format("cannot write '%s': %s", outs[i].tmp, strerror(errno));
            rc = -1, bad = i;
        }
        outs[i].fd = -1;
    }
    /* Again, just before the renames: what stands at each path now. */
    for (size_t i = 0; rc == 0 && i < n; i++) {
        struct stat st;
        if (outs[i].tmp && lstat(outs[i].path, &st) == 0 && !S_ISREG(st.st_mode)) {
            if (error)
                *error = evgen_rd_format("cannot write: %s; evgen writes only regular files", kind_of(st.st_mode));
            rc = -1, bad = i;
        }
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (!outs[i].tmp)
            continue;
        if (rename(outs[i].tmp, outs[i].path) != 0) {
            if (error)
                *error = evgen_rd_format("cannot rename the temporary file '%s' to it: %s", outs[i].tmp, strerror(errno));
            rc = -1, bad = i;
            break;
        }
        free(outs[i].tmp);
        outs[i].tmp = NULL;
    }
    for (size_t i = 0; i < n; i++)
        evgen_output_discard(&outs[i]);
    if (failed)
        *failed = bad;
    return rc;
}

int evgen_output_commit(evgen_output *o, char **error)
{
    return evgen_outputs_commit(o, 1, NULL, error);
}
