/* test_support.c — process, file and directory helpers for the tests. */
#include "test_support.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

char *evgen_test_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

void evgen_test_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "test: cannot write %s\n", path);
        abort();
    }
}

char *evgen_test_tempdir(void)
{
    const char *base = getenv("TMPDIR");
    size_t n = strlen(base ? base : "/tmp") + 32;
    char *path = malloc(n);
    snprintf(path, n, "%s/evgen-test-XXXXXX", base ? base : "/tmp");
    if (!mkdtemp(path)) {
        perror("mkdtemp");
        abort();
    }
    return path;
}

void evgen_test_rmtree(const char *path)
{
    const char *argv[] = {"/bin/rm", "-rf", path, NULL};
    char *out = NULL, *err = NULL;
    evgen_test_run(argv, NULL, &out, &err);
    free(out);
    free(err);
}

int evgen_test_run(const char *const argv[], const char *cwd, char **out, char **err)
{
    char out_path[] = "/tmp/evgen-test-out-XXXXXX";
    char err_path[] = "/tmp/evgen-test-err-XXXXXX";
    int out_fd = mkstemp(out_path);
    int err_fd = mkstemp(err_path);
    if (out_fd < 0 || err_fd < 0)
        return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
    posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    /* posix_spawn has no chdir action in POSIX 2008: run through sh when a cwd is wanted. */
    const char *const *args = argv;
    const char **wrapped = NULL;
    if (cwd) {
        size_t n = 0;
        while (argv[n])
            n++;
        wrapped = calloc(n + 6, sizeof *wrapped);
        wrapped[0] = "/bin/sh";
        wrapped[1] = "-c";
        wrapped[2] = "cd \"$0\" && exec \"$@\"";
        wrapped[3] = cwd;
        for (size_t i = 0; i < n; i++)
            wrapped[4 + i] = argv[i];
        args = wrapped;
    }
    pid_t pid;
    int rc = posix_spawn(&pid, args[0], &actions, NULL, (char *const *)args, environ);
    posix_spawn_file_actions_destroy(&actions);
    free(wrapped);
    close(out_fd);
    close(err_fd);
    int status = -1;
    if (rc == 0) {
        int ws;
        if (waitpid(pid, &ws, 0) == pid && WIFEXITED(ws))
            status = WEXITSTATUS(ws);
    }
    char *o = evgen_test_read(out_path);
    char *e = evgen_test_read(err_path);
    unlink(out_path);
    unlink(err_path);
    if (out)
        *out = o;
    else
        free(o);
    if (err)
        *err = e;
    else
        free(e);
    return status;
}

int evgen_test_run_merged(const char *const argv[], const char *cwd, char **output)
{
    char *out = NULL, *err = NULL;
    int rc = evgen_test_run(argv, cwd, &out, &err);
    if (output) {
        const char *o = out ? out : "", *e = err ? err : "";
        size_t out_len = strlen(o);
        int own_line = out_len && *e && o[out_len - 1] != '\n';
        *output = evgen_test_format("%s%s%s", o, own_line ? "\n" : "", e);
    }
    free(out);
    free(err);
    return rc;
}

char *evgen_test_format(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(NULL, 0, format, ap);
    va_end(ap);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (!s)
        abort();
    va_start(ap, format);
    vsnprintf(s, (size_t)n + 1, format, ap);
    va_end(ap);
    return s;
}

int evgen_test_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

char *evgen_test_replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at)
        return NULL;
    size_t head = (size_t)(at - text), from_len = strlen(from), to_len = strlen(to);
    size_t total = strlen(text) - from_len + to_len;
    char *r = malloc(total + 1);
    memcpy(r, text, head);
    memcpy(r + head, to, to_len);
    strcpy(r + head + to_len, at + from_len);
    return r;
}

evgen_test_output evgen_test_capture(const char *const argv[], const char *cwd)
{
    evgen_test_output o;
    o.status = evgen_test_run(argv, cwd, &o.out, &o.err);
    return o;
}

void evgen_test_output_free(evgen_test_output *o)
{
    free(o->out);
    free(o->err);
    o->out = o->err = NULL;
}
