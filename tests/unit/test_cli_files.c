/* test_cli_files.c — what evgen writes and refuses (docs/diagnostics.md), the real evgen run as a
 * program: no output may be an input of the command or anything but a regular file (a symbolic link
 * is followed to the regular file it points to); inputs that are not regular files (FIFOs, devices,
 * directories) or text inputs over 16 MiB are refused at once, without blocking; evgen gen and
 * evgen lock --traces write all their files or none; contradictory options are usage errors. After
 * every refusal, each file involved is checked unchanged: type, inode, size, mtime and bytes. */
#define _XOPEN_SOURCE 700 /* mknod, makedev */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_support.h"

#define GOLDEN_TRACE EVGEN_SOURCE_DIR "/tests/traces/gcevents/gcevents-0001.evtrace"

/* A manifest of one event, and the same with version 1 added. */
static const char manifest_v0[] = "#include <evgen/manifest.h>\n"
                                  "EVENT_PROVIDER(P, \"Demo-Files\")\n"
                                  "KNOWN_EVENT(E, 1, P, 4, 0x1)\n"
                                  "EVENT_FIELD(E, 0, uint32_t, A)\n"
                                  "#include <evgen/manifest_end.h>\n";
static const char manifest_v1[] = "#include <evgen/manifest.h>\n"
                                  "EVENT_PROVIDER(P, \"Demo-Files\")\n"
                                  "KNOWN_EVENT(E, 1, P, 4, 0x1)\n"
                                  "EVENT_FIELD(E, 0, uint32_t, A)\n"
                                  "EVENT_FIELD(E, 1, uint32_t, B)\n"
                                  "#include <evgen/manifest_end.h>\n";

/* ---- running evgen ----------------------------------------------------------------------------- */

/* Runs evgen in `cwd` with the arguments up to NULL; fails the test if it runs 15 seconds or more
 * (nothing here may block; the margin is for slow sanitized builds on a busy machine). */
static evgen_test_output run(const char *cwd, ...)
{
    const char *argv[16] = {EVGEN_EXE};
    size_t n = 1;
    va_list ap;
    va_start(ap, cwd);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL && n < 15;)
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    evgen_test_output r = evgen_test_capture(argv, cwd);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    if (seconds >= 15.0)
        fail_msg("evgen %s %s took %.1f s", argv[1], n > 2 ? argv[2] : "", seconds);
    return r;
}

/* Exit status 1, nothing on stdout, exactly `expected` on stderr (r is freed). */
static void assert_error(evgen_test_output r, const char *expected)
{
    if (r.status != 1 || strcmp(r.err, expected) != 0)
        EVGEN_FAIL_LONG("exit status %d, stderr:\n%s\nexpected status 1 and:\n%s", r.status, r.err, expected);
    assert_string_equal(r.out, "");
    evgen_test_output_free(&r);
}

/* A child that, after 20 seconds, opens the FIFO `path` for writing without blocking: if evgen
 * were blocked opening it for reading, that releases it (and the test fails on the time taken);
 * if nothing reads it, the open fails at once. Returns its pid, for reap(). */
static pid_t release_fifo_later(const char *path)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        sleep(20);
        int fd = open(path, O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            close(fd);
        _exit(0);
    }
    return pid;
}

static void reap(pid_t pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

/* ---- files and their states -------------------------------------------------------------------- */

static char *path_in(const char *dir, const char *name)
{
    return evgen_test_format("%s/%s", dir, name);
}

/* A whole file's bytes (NULL if it cannot be read), its size in *size. */
static char *read_bytes(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    char *data = malloc((size_t)st.st_size + 1);
    size_t len = 0;
    ssize_t n;
    while (data && len < (size_t)st.st_size && (n = read(fd, data + len, (size_t)st.st_size - len)) > 0)
        len += (size_t)n;
    close(fd);
    *size = len;
    return data;
}

static void copy_file(const char *from, const char *to)
{
    size_t size = 0;
    char *data = read_bytes(from, &size);
    assert_non_null(data);
    FILE *f = fopen(to, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
    free(data);
}

/* What a path is, to tell afterwards that nothing touched it. */
typedef struct file_state {
    char *path;
    int exists;
    struct stat st; /* lstat */
    char *bytes;    /* a regular file's */
    size_t size;
    char link[PATH_MAX]; /* a symbolic link's target */
} file_state;

static file_state snap(const char *path)
{
    file_state s;
    memset(&s, 0, sizeof s);
    s.path = evgen_test_format("%s", path);
    s.exists = lstat(path, &s.st) == 0;
    if (s.exists && S_ISREG(s.st.st_mode))
        s.bytes = read_bytes(path, &s.size);
    if (s.exists && S_ISLNK(s.st.st_mode)) {
        ssize_t n = readlink(path, s.link, sizeof s.link - 1);
        s.link[n > 0 ? n : 0] = '\0';
    }
    return s;
}

/* The path is as snap() found it (and `s` is freed). */
static void assert_unchanged(file_state *s)
{
    file_state now = snap(s->path);
    if (now.exists != s->exists)
        fail_msg("%s %s", s->path, s->exists ? "was removed" : "was created");
    if (s->exists) {
        if ((now.st.st_mode & S_IFMT) != (s->st.st_mode & S_IFMT) || now.st.st_ino != s->st.st_ino ||
            now.st.st_dev != s->st.st_dev || now.st.st_rdev != s->st.st_rdev)
            fail_msg("%s was replaced", s->path);
        if (now.st.st_size != s->st.st_size || now.st.st_mtim.tv_sec != s->st.st_mtim.tv_sec ||
            now.st.st_mtim.tv_nsec != s->st.st_mtim.tv_nsec || (now.st.st_mode & 07777) != (s->st.st_mode & 07777))
            fail_msg("%s was modified", s->path);
        if (s->bytes && (now.size != s->size || memcmp(now.bytes, s->bytes, s->size) != 0))
            fail_msg("%s has other bytes", s->path);
        if (strcmp(now.link, s->link) != 0)
            fail_msg("%s points elsewhere", s->path);
    }
    free(now.path);
    free(now.bytes);
    free(s->path);
    free(s->bytes);
}

/* No temporary file (NAME.tmp.PID) is left in `dir`. */
static void assert_no_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".tmp."))
            fail_msg("a temporary file is left: %s/%s", dir, e->d_name);
    closedir(d);
}

/* The snapshots of every entry of `dir` (at most 32), for assert_dir_unchanged. */
typedef struct dir_state {
    file_state files[32];
    size_t n;
    char *dir;
} dir_state;

static dir_state snap_dir(const char *dir)
{
    dir_state s;
    memset(&s, 0, sizeof s);
    s.dir = evgen_test_format("%s", dir);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL && s.n < 32) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *path = path_in(dir, e->d_name);
        s.files[s.n++] = snap(path);
        free(path);
    }
    closedir(d);
    return s;
}

static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* Every entry of the directory is as it was, and there is no new one. */
static void assert_dir_unchanged(dir_state *s)
{
    assert_int_equal(count_entries(s->dir), s->n);
    for (size_t i = 0; i < s->n; i++)
        assert_unchanged(&s->files[i]);
    free(s->dir);
}

/* ---- the fixture: a scratch directory with a trace, a manifest and its lock ---------------------- */

typedef struct fixture {
    char *dir;
    char *trace;    /* dir/in.evtrace, a copy of a golden trace */
    char *manifest; /* dir/m.h */
    char *lock;     /* dir/m.lock */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = evgen_test_tempdir();
    f->trace = path_in(f->dir, "in.evtrace");
    f->manifest = path_in(f->dir, "m.h");
    f->lock = path_in(f->dir, "m.lock");
    copy_file(GOLDEN_TRACE, f->trace);
    evgen_test_write(f->manifest, manifest_v0);
    const char *lock[] = {EVGEN_EXE, "lock", f->manifest, NULL};
    free(evgen_test_must_run(lock, NULL));
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    evgen_test_rmtree(f->dir);
    free(f->dir);
    free(f->trace);
    free(f->manifest);
    free(f->lock);
    free(f);
    return 0;
}

/* ---- outputs ------------------------------------------------------------------------------------ */

/* convert IN IN, IN and a hard link to it, a symbolic link to it, another spelling of it, and a
 * manifest the command reads: refused before anything is read, nothing touched. */
static void test_convert_refuses_its_inputs(void **state)
{
    fixture *f = *state;
    char *hard = path_in(f->dir, "hard.evtrace"), *soft = path_in(f->dir, "soft.evtrace");
    assert_int_equal(link(f->trace, hard), 0);
    assert_int_equal(symlink("in.evtrace", soft), 0);
    file_state in = snap(f->trace), h = snap(hard), s = snap(soft), m = snap(f->manifest);

    char *expected = evgen_test_format("%s: cannot write: it is the input '%s'; evgen never replaces an input\n",
                                       f->trace, f->trace);
    assert_error(run(NULL, "convert", f->trace, f->trace, NULL), expected);
    free(expected);
    expected = evgen_test_format("%s: cannot write: it is the same file as the input '%s'; evgen never replaces an "
                                 "input\n", hard, f->trace);
    assert_error(run(NULL, "convert", f->trace, hard, NULL), expected);
    free(expected);
    expected = evgen_test_format("%s: cannot write: it is the same file as the input '%s'; evgen never replaces an "
                                 "input\n", soft, f->trace);
    assert_error(run(NULL, "convert", f->trace, soft, NULL), expected);
    free(expected);
    assert_error(run(f->dir, "convert", "in.evtrace", "./in.evtrace", NULL),
                 "./in.evtrace: cannot write: it is the same file as the input 'in.evtrace'; evgen never replaces an "
                 "input\n");
    assert_error(run(f->dir, "convert", "in.evtrace", "m.h", "--manifest", "m.h", NULL),
                 "m.h: cannot write: it is the input 'm.h'; evgen never replaces an input\n");

    assert_unchanged(&in);
    assert_unchanged(&h);
    assert_unchanged(&s);
    assert_unchanged(&m);
    assert_no_temporaries(f->dir);
    free(hard);
    free(soft);
}

/* A character device to write to: a /dev/null of our own in the scratch directory when root (never
 * the real one: a mistake would replace it), else /dev/null itself, which only root could replace.
 * NULL if neither can be used. */
static char *char_device(const fixture *f)
{
    if (geteuid() != 0)
        return evgen_test_format("/dev/null");
    char *path = path_in(f->dir, "null");
    if (mknod(path, S_IFCHR | 0666, makedev(1, 3)) == 0)
        return path;
    free(path);
    return NULL;
}

/* OUT that is not a regular file: refused by every command that writes, never opened for writing
 * nor renamed over; a symbolic link to a missing file too. */
static void test_outputs_that_are_not_regular_files(void **state)
{
    fixture *f = *state;
    char *fifo = path_in(f->dir, "fifo"), *to_fifo = path_in(f->dir, "to-fifo"), *dangling = path_in(f->dir, "dangling");
    char *subdir = path_in(f->dir, "subdir"), *gen_dir = path_in(f->dir, "gen");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    assert_int_equal(symlink("fifo", to_fifo), 0);
    assert_int_equal(symlink("nowhere.evtrace", dangling), 0);
    assert_int_equal(mkdir(subdir, 0755), 0);
    assert_int_equal(mkdir(gen_dir, 0755), 0);
    char *device = char_device(f);
    if (!device)
        fprintf(stderr, "note: root without mknod: the character device case is skipped\n");

    struct {
        const char *path, *message;
    } cases[] = {
        {fifo, "cannot write: a FIFO; evgen writes only regular files"},
        {subdir, "cannot write: a directory; evgen writes only regular files"},
        {dangling, "cannot write: a symbolic link to a missing file ('nowhere.evtrace'); evgen writes through a link "
                   "only to an existing regular file"},
        {to_fifo, NULL}, /* names the FIFO by its full path */
        {device, "cannot write: a character device; evgen writes only regular files"},
    };
    char *real_fifo = realpath(fifo, NULL);
    char *to_fifo_message =
        evgen_test_format("cannot write: a symbolic link to a FIFO ('%s'); evgen writes only regular files", real_fifo);
    cases[3].message = to_fifo_message;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!cases[i].path)
            continue;
        file_state out = snap(cases[i].path), in = snap(f->trace), m = snap(f->manifest), l = snap(f->lock);
        pid_t rescuer = release_fifo_later(fifo);
        char *expected = evgen_test_format("%s: %s\n", cases[i].path, cases[i].message);
        assert_error(run(NULL, "convert", f->trace, cases[i].path, NULL), expected);
        free(expected);
        /* gen: the depfile; lock: the lock file (read first: refused as an input) */
        expected = evgen_test_format("%s: error: %s\n", cases[i].path, cases[i].message);
        assert_error(run(NULL, "gen", f->manifest, "-o", gen_dir, "--quiet", "--depfile", cases[i].path, NULL),
                     expected);
        free(expected);
        evgen_test_output r = run(NULL, "lock", f->manifest, "--lock", cases[i].path, NULL);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "cannot "));
        evgen_test_output_free(&r);
        reap(rescuer);
        assert_unchanged(&out);
        assert_unchanged(&in);
        assert_unchanged(&m);
        assert_unchanged(&l);
        assert_int_equal(count_entries(gen_dir), 0);
        assert_no_temporaries(f->dir);
    }
    if (device) {
        struct stat st;
        assert_int_equal(stat(device, &st), 0);
        assert_true(S_ISCHR(st.st_mode));
    }
    struct stat dev_null;
    assert_int_equal(stat("/dev/null", &dev_null), 0);
    assert_true(S_ISCHR(dev_null.st_mode));
    free(to_fifo_message);
    free(real_fifo);
    free(device);
    free(gen_dir);
    free(subdir);
    free(dangling);
    free(to_fifo);
    free(fifo);
}

/* A symbolic link OUT is followed: the regular file it points to is replaced (its permissions kept),
 * in its own directory, and the link stays a link to it. */
static void test_symbolic_link_outputs_are_followed(void **state)
{
    fixture *f = *state;
    char *other = path_in(f->dir, "other"), *target = path_in(f->dir, "other/target.evtrace");
    char *link_path = path_in(f->dir, "link.evtrace");
    assert_int_equal(mkdir(other, 0755), 0);
    evgen_test_write(target, "old\n");
    assert_int_equal(chmod(target, 0640), 0);
    assert_int_equal(symlink("other/target.evtrace", link_path), 0);
    file_state link_before = snap(link_path);

    evgen_test_output r = run(NULL, "convert", f->trace, link_path, NULL);
    assert_int_equal(r.status, 0);
    evgen_test_output_free(&r);
    assert_unchanged(&link_before); /* still the same link */
    struct stat st;
    assert_int_equal(stat(target, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_mode & 07777, 0640);
    size_t size = 0;
    char *bytes = read_bytes(target, &size);
    assert_true(size > 48 && memcmp(bytes, "EVTRACE", 8) == 0);
    free(bytes);
    assert_no_temporaries(f->dir);
    assert_no_temporaries(other);

    /* evgen lock through a link: the lock it points to is rewritten */
    char *real_lock = path_in(other, "real.lock"), *lock_link = path_in(f->dir, "linked.lock");
    copy_file(f->lock, real_lock);
    assert_int_equal(symlink("other/real.lock", lock_link), 0);
    char *manifest = path_in(f->dir, "m1.h");
    evgen_test_write(manifest, manifest_v1);
    file_state lock_link_before = snap(lock_link);
    r = run(NULL, "lock", manifest, "--lock", lock_link, NULL);
    assert_int_equal(r.status, 0);
    evgen_test_output_free(&r);
    assert_unchanged(&lock_link_before);
    char *text = evgen_test_read(real_lock);
    assert_non_null(strstr(text, "version 1"));
    free(text);
    assert_no_temporaries(other);

    free(manifest);
    free(lock_link);
    free(real_lock);
    free(link_path);
    free(target);
    free(other);
}

/* ---- inputs ------------------------------------------------------------------------------------- */

/* Inputs that are not regular files, or text inputs over 16 MiB: an error at once, never a wait
 * on a FIFO nor an endless read of a device. */
static void test_inputs_that_are_not_regular_files(void **state)
{
    fixture *f = *state;
    char *fifo = path_in(f->dir, "in-fifo"), *big = path_in(f->dir, "big.h"), *out = path_in(f->dir, "out.evtrace");
    char *gen_dir = path_in(f->dir, "gen-in");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    assert_int_equal(mkdir(gen_dir, 0755), 0);
    int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 17 * 1024 * 1024), 0); /* sparse */
    close(fd);
    pid_t rescuer = release_fifo_later(fifo);

    char *e;
#define EXPECT(text, ...)                                 \
    do {                                                  \
        e = (text);                                       \
        assert_error(run(NULL, __VA_ARGS__, NULL), e);    \
        free(e);                                          \
    } while (0)
    const char *chr = "cannot read: a character device; evgen reads only regular files";
    const char *fif = "cannot read: a FIFO; evgen reads only regular files";
    const char *dir = "cannot read: a directory; evgen reads only regular files";
    /* manifests and lock files */
    EXPECT(evgen_test_format("/dev/zero: error: %s\n", chr), "describe", "/dev/zero");
    EXPECT(evgen_test_format("%s: error: %s\n", fifo, fif), "describe", fifo);
    EXPECT(evgen_test_format("%s: error: %s\n", f->dir, dir), "describe", f->dir);
    EXPECT(evgen_test_format("/dev/zero: error: %s\n", chr), "gen", "/dev/zero", "-o", gen_dir);
    EXPECT(evgen_test_format("/dev/zero: error: %s\n", chr), "check", f->manifest, "--lock", "/dev/zero");
    EXPECT(evgen_test_format("%s: error: %s\n", fifo, fif), "check", f->manifest, "--lock", fifo);
    EXPECT(evgen_test_format("%s: error: %s\n", fifo, fif), "gen", "--from-lock", fifo, "-o", gen_dir, "--name", "x");
    EXPECT(evgen_test_format("%s: error: cannot read: 17825792 bytes, more than evgen reads of a manifest or lock "
                             "file (16 MiB)\n", big), "describe", big);
    EXPECT(evgen_test_format("%s: error: cannot read: 17825792 bytes, more than evgen reads of a manifest or lock "
                             "file (16 MiB)\n", big), "check", f->manifest, "--lock", big);
    /* traces, and the manifests they are read with */
    EXPECT(evgen_test_format("%s: %s\n", fifo, fif), "dump", fifo);
    EXPECT(evgen_test_format("/dev/zero: %s\n", chr), "dump", "/dev/zero");
    EXPECT(evgen_test_format("%s: %s\n", f->dir, dir), "dump", f->dir);
    EXPECT(evgen_test_format("%s: %s\n", fifo, fif), "convert", fifo, out);
    EXPECT(evgen_test_format("%s: error: %s\n", fifo, fif), "dump", f->trace, "--manifest", fifo);
#undef EXPECT
    reap(rescuer);
    assert_false(evgen_test_exists(out));
    assert_int_equal(count_entries(gen_dir), 0);
    struct stat st;
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    free(gen_dir);
    free(out);
    free(big);
    free(fifo);
}

/* ---- several outputs: all or none --------------------------------------------------------------- */

/* evgen gen that fails part-way (a depfile it cannot write, a full disk, a generated name taken by a
 * FIFO) leaves every file of -o DIR as it was, content and mtime, and no temporary file; the same
 * generation without the fault writes them all. */
static void test_gen_writes_all_or_none(void **state)
{
    fixture *f = *state;
    char *out = path_in(f->dir, "out"), *stale = path_in(f->dir, "out/m_reader.c");
    char *notes = path_in(f->dir, "out/notes.txt"), *dep_dir = path_in(f->dir, "out/m.d");
    char *missing_dir = path_in(f->dir, "no/such/m.d");
    assert_int_equal(mkdir(out, 0755), 0);
    const char *first[] = {EVGEN_EXE, "gen", f->manifest, "-o", out, "--quiet", NULL};
    free(evgen_test_must_run(first, NULL));
    /* an edited manifest, a stale file and one that is not evgen's */
    char *manifest = path_in(f->dir, "m1.h");
    evgen_test_write(manifest, manifest_v1);
    evgen_test_write(stale, "stale\n");
    evgen_test_write(notes, "mine\n");
    struct timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
    assert_int_equal(utimensat(AT_FDCWD, stale, old, 0), 0);
    assert_int_equal(mkdir(dep_dir, 0755), 0);

    char *expected = evgen_test_format("%s: error: cannot write: a directory; evgen writes only regular files\n", dep_dir);
    dir_state before = snap_dir(out);
    assert_error(run(NULL, "gen", manifest, "-o", out, "--name", "m", "--depfile", dep_dir, NULL), expected);
    assert_dir_unchanged(&before);
    free(expected);

    char *missing_parent = path_in(f->dir, "no/such");
    expected = evgen_test_format("%s: error: cannot write into the directory '%s': No such file or directory\n",
                                 missing_dir, missing_parent);
    before = snap_dir(out);
    assert_error(run(NULL, "gen", manifest, "-o", out, "--name", "m", "--depfile", missing_dir, NULL), expected);
    assert_dir_unchanged(&before);
    free(expected);
    free(missing_parent);

    /* a full disk, as a file size limit of 128 KiB (SIGXFSZ ignored, which evgen inherits): from
     * manifest/gcevents.h, the ~190 KiB runtime header (the FireEtw functions' bodies), the first
     * file, fails, and nothing is written or renamed (the FIFO below fails a later file) */
    struct rlimit limit, small = {128 * 1024, 128 * 1024};
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &limit), 0);
    small.rlim_max = limit.rlim_max;
    void (*previous)(int) = signal(SIGXFSZ, SIG_IGN);
    before = snap_dir(out);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    evgen_test_output full = run(NULL, "gen", EVGEN_SOURCE_DIR "/manifest/gcevents.h", "-o", out, "--name", "m", NULL);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &limit), 0);
    signal(SIGXFSZ, previous);
    expected = evgen_test_format("%s/m_runtime.h: error: cannot write '%s/m_runtime.h.tmp.", out, out);
    if (full.status != 1 || strncmp(full.err, expected, strlen(expected)) != 0 || !strstr(full.err, "': File too large\n"))
        EVGEN_FAIL_LONG("exit status %d, stderr:\n%s", full.status, full.err);
    assert_string_equal(full.out, "");
    evgen_test_output_free(&full);
    free(expected);
    assert_dir_unchanged(&before);

    /* a generated name taken by a FIFO: refused, the files before it in the list not written either */
    char *fifo = path_in(f->dir, "out/m_reader.h");
    assert_int_equal(unlink(fifo), 0);
    assert_int_equal(mkfifo(fifo, 0644), 0);
    expected = evgen_test_format("%s: error: cannot write: a FIFO; evgen writes only regular files\n", fifo);
    before = snap_dir(out);
    assert_error(run(NULL, "gen", manifest, "-o", out, "--name", "m", NULL), expected);
    assert_dir_unchanged(&before);
    free(expected);

    /* without the faults: all written */
    assert_int_equal(unlink(fifo), 0);
    assert_int_equal(rmdir(dep_dir), 0);
    char *dep = path_in(f->dir, "out/m.d");
    const char *ok[] = {EVGEN_EXE, "gen", manifest, "-o", out, "--name", "m", "--quiet", "--depfile", dep, NULL};
    free(evgen_test_must_run(ok, NULL));
    char *reader = evgen_test_read(stale);
    assert_non_null(strstr(reader, "DO NOT EDIT"));
    free(reader);
    assert_true(evgen_test_exists(fifo));
    assert_true(evgen_test_exists(dep));
    char *mine = evgen_test_read(notes);
    assert_string_equal(mine, "mine\n");
    free(mine);
    assert_no_temporaries(out);
    /* again: nothing changes, so nothing is written, not even a temporary file (DIR's own mtime
     * stays; a read-only DIR would do) */
    before = snap_dir(out);
    file_state dir_itself = snap(out);
    char *again = evgen_test_must_run(ok, NULL);
    free(again);
    assert_dir_unchanged(&before);
    assert_unchanged(&dir_itself);

    free(dep);
    free(fifo);
    free(manifest);
    free(missing_dir);
    free(dep_dir);
    free(notes);
    free(stale);
    free(out);
}

/* An output of gen that is an input: the depfile as the manifest, a generated file that is a link
 * to the manifest. */
static void test_gen_refuses_its_inputs(void **state)
{
    fixture *f = *state;
    char *out = path_in(f->dir, "out-in"), *runtime = path_in(f->dir, "out-in/m_runtime.h");
    assert_int_equal(mkdir(out, 0755), 0);
    file_state m = snap(f->manifest);
    char *expected = evgen_test_format("%s: error: cannot write: it is the input '%s'; evgen never replaces an input\n",
                                       f->manifest, f->manifest);
    assert_error(run(NULL, "gen", f->manifest, "-o", out, "--depfile", f->manifest, NULL), expected);
    free(expected);
    assert_int_equal(count_entries(out), 0);
    assert_int_equal(symlink("../m.h", runtime), 0);
    file_state link_before = snap(runtime);
    expected = evgen_test_format("%s: error: cannot write: it is the same file as the input '%s'; evgen never "
                                 "replaces an input\n", runtime, f->manifest);
    assert_error(run(NULL, "gen", f->manifest, "-o", out, NULL), expected);
    free(expected);
    assert_unchanged(&link_before);
    assert_unchanged(&m);
    assert_int_equal(count_entries(out), 1);
    free(runtime);
    free(out);
}

/* evgen lock --traces DIR writes the lock, the golden trace and its snapshot, or none: with the
 * snapshot's name taken by a FIFO, the lock file that would have changed is left as it was. */
static void test_lock_writes_all_or_none(void **state)
{
    fixture *f = *state;
    char *traces = path_in(f->dir, "traces"), *snapshot = path_in(f->dir, "traces/m-0001.lock");
    assert_int_equal(mkdir(traces, 0755), 0);
    assert_int_equal(mkfifo(snapshot, 0644), 0);
    evgen_test_write(f->manifest, manifest_v1); /* version 1 is new: the lock would change */
    file_state lock = snap(f->lock);
    dir_state before = snap_dir(traces);
    char *expected = evgen_test_format("%s: error: cannot write: a FIFO; evgen writes only regular files\n", snapshot);
    assert_error(run(NULL, "lock", f->manifest, "--traces", traces, NULL), expected);
    free(expected);
    assert_unchanged(&lock);
    assert_dir_unchanged(&before);
    assert_no_temporaries(f->dir);

    /* without the FIFO: the three written */
    assert_int_equal(unlink(snapshot), 0);
    const char *ok[] = {EVGEN_EXE, "lock", f->manifest, "--traces", traces, NULL};
    free(evgen_test_must_run(ok, NULL));
    assert_true(evgen_test_exists(snapshot));
    char *golden = path_in(f->dir, "traces/m-0001.evtrace");
    assert_true(evgen_test_exists(golden));
    char *text = evgen_test_read(f->lock), *snap_text = evgen_test_read(snapshot);
    assert_non_null(strstr(text, "version 1"));
    assert_string_equal(text, snap_text);
    free(text);
    free(snap_text);
    free(golden);
    free(snapshot);
    free(traces);
}

/* A golden trace directory whose traces are all in an older container format (gcevents-0001, format
 * 1): lock --traces records every version again, in the format evgen writes now; then nothing. */
static void test_lock_records_every_version_in_a_new_format(void **state)
{
    fixture *f = *state;
    char *traces = path_in(f->dir, "traces"), *old = path_in(f->dir, "traces/gcevents-0001.evtrace");
    char *lock = path_in(f->dir, "gcevents.lock"), *fresh = path_in(f->dir, "traces/gcevents-0002.evtrace");
    assert_int_equal(mkdir(traces, 0755), 0);
    copy_file(GOLDEN_TRACE, old);
    copy_file(EVGEN_SOURCE_DIR "/manifest/gcevents.lock", lock);
    evgen_test_output r =
        run(NULL, "lock", EVGEN_SOURCE_DIR "/manifest/gcevents.h", "--lock", lock, "--traces", traces, NULL);
    assert_int_equal(r.status, 0);
    char *line = evgen_test_format("evgen lock: golden trace %s: 111 event versions\n", fresh);
    if (!strstr(r.out, line))
        fail_msg("expected '%s' in:\n%s", line, r.out);
    free(line);
    evgen_test_output_free(&r);
    evgen_test_output stats = run(NULL, "dump", "--stats", fresh, NULL);
    assert_int_equal(stats.status, 0);
    assert_non_null(strstr(stats.out, ", format 2,"));
    evgen_test_output_free(&stats);
    stats = run(NULL, "dump", "--stats", old, NULL);
    assert_non_null(strstr(stats.out, ", format 1,"));
    evgen_test_output_free(&stats);

    r = run(NULL, "lock", EVGEN_SOURCE_DIR "/manifest/gcevents.h", "--lock", lock, "--traces", traces, NULL);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "golden trace"));
    evgen_test_output_free(&r);
    assert_int_equal(count_entries(traces), 3); /* the two traces and the new one's snapshot */
    free(traces);
    free(old);
    free(lock);
    free(fresh);
}

/* ---- usage ---------------------------------------------------------------------------------------- */

static void assert_usage(evgen_test_output r, const char *command, const char *message)
{
    char *expected = evgen_test_format("evgen %s: %s\nTry 'evgen %s --help'.\n", command, message, command);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, expected);
    free(expected);
    evgen_test_output_free(&r);
}

static void test_contradictory_options(void **state)
{
    fixture *f = *state;
    assert_usage(run(NULL, "dump", f->trace, "--from", "5", "--to", "1", NULL), "dump",
                 "--from 5 is after --to 1: no event can match");
    assert_usage(run(NULL, "dump", "--to=1", "/dev/zero", "--from=5", NULL), "dump",
                 "--from 5 is after --to 1: no event can match");
    evgen_test_output r = run(NULL, "dump", f->trace, "--from", "1", "--to", "1", NULL);
    assert_int_equal(r.status, 0);
    evgen_test_output_free(&r);
    assert_usage(run(NULL, "gen", "--from-lock", f->lock, "-o", f->dir, "--name", "x", "--lock", f->lock, NULL), "gen",
                 "--from-lock and --lock cannot be used together: there is no manifest to check");
    assert_usage(run(NULL, "gen", "--from-lock", f->lock, "-o", f->dir, "--name", "x", "--depfile", "x.d", NULL),
                 "gen", "--from-lock and --depfile cannot be used together: there is no manifest whose inputs to list");
    assert_usage(run(NULL, "gen", "--from-lock", f->lock, "-o", f->dir, "--name", "x", "-I", "inc", NULL), "gen",
                 "--from-lock and compiler options (-I) cannot be used together: no manifest is compiled");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_convert_refuses_its_inputs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_outputs_that_are_not_regular_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symbolic_link_outputs_are_followed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inputs_that_are_not_regular_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gen_writes_all_or_none, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gen_refuses_its_inputs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lock_writes_all_or_none, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lock_records_every_version_in_a_new_format, setup, teardown),
        cmocka_unit_test_setup_teardown(test_contradictory_options, setup, teardown),
    };
    alarm(600); /* a last resort: nothing here may block */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
