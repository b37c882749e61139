/* against.c — `evgen check --against REV`: fetches the lock as it was at a git revision, running
 * git with an argument vector (posix_spawnp, no shell), or reads it from a lock file. */
#include "lock/against.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/outputs.h"
#include "model/util.h"

extern char **environ;

/* The directory part of `path` ("." if none). Caller frees. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return evgen_xstrdup(".");
    return slash == path ? evgen_xstrdup("/") : evgen_xstrndup(path, (size_t)(slash - path));
}

/* Reads all of `fd` into a new string. */
static char *read_all(int fd)
{
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    char chunk[4096];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        evgen_sb_putn(&sb, chunk, (size_t)n);
    }
    return evgen_sb_take(&sb);
}

/* Runs `git -C DIR ARGS...` with stdin and stderr on /dev/null. Returns git's exit status (-1 if
 * git could not be run, *spawn_errno then says why) with its stdout in *out (caller frees). */
static int run_git(const char *dir, const char *const args[], char **out, int *spawn_errno)
{
    const char *argv[16] = {"git", "-C", dir};
    size_t n = 3;
    for (size_t i = 0; args[i] && n + 1 < sizeof argv / sizeof argv[0]; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    *out = NULL;
    int fds[2];
    if (pipe(fds) != 0) {
        *spawn_errno = errno;
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    pid_t pid;
    /* posix_spawnp's argv is `char *const[]` for historical reasons; it does not write to it */
    int rc = posix_spawnp(&pid, "git", &actions, NULL, (char *const *)(void *)argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        *spawn_errno = rc;
        return -1;
    }
    *out = read_all(fds[0]);
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            *spawn_errno = errno;
            return -1;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        *spawn_errno = ENOENT; /* the child could not exec git */
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Removes the line end git prints after a single-line answer. */
static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

/* The path of `lock_path` relative to the top of its repository, from `git rev-parse --show-prefix`
 * (the lock's directory relative to the top; git resolves symbolic links as it does for the top).
 * NULL after reporting an error. */
static char *repo_path(const char *rev, const char *dir, const char *lock_path, evgen_diags *diags)
{
    static const char *const args[] = {"rev-parse", "--show-prefix", NULL};
    char *prefix = NULL;
    int spawn_errno = 0;
    int rc = run_git(dir, args, &prefix, &spawn_errno);
    if (rc < 0) {
        evgen_error(diags, NULL, EVGEN_D_IO, "--against '%s': no such lock file, and git cannot be run: %s", rev,
                    strerror(spawn_errno));
    } else if (rc != 0) {
        evgen_error(diags, NULL, EVGEN_D_USAGE,
                    "--against '%s': no such lock file, and '%s' is not in a git repository to take it as a revision",
                    rev, dir);
    }
    if (rc != 0) {
        free(prefix);
        return NULL;
    }
    chomp(prefix);
    const char *base = strrchr(lock_path, '/');
    char *path = evgen_xasprintf("%s%s", prefix, base ? base + 1 : lock_path);
    free(prefix);
    return path;
}

/* Whether `rev` names a commit of the repository at `dir`. */
static bool is_revision(const char *dir, const char *rev)
{
    char *spec = evgen_xasprintf("%s^{commit}", rev);
    const char *const args[] = {"rev-parse", "--verify", "--quiet", "--end-of-options", spec, NULL};
    char *out = NULL;
    int spawn_errno = 0;
    int rc = run_git(dir, args, &out, &spawn_errno);
    free(out);
    free(spec);
    return rc == 0;
}

/* REV:PATH from git: 0 with *text, 1 if REV holds no PATH, -1 after reporting an error. */
static int fetch_blob(const char *dir, const char *object, char **text, evgen_diags *diags)
{
    const char *const exists[] = {"cat-file", "-e", object, NULL};
    char *out = NULL;
    int spawn_errno = 0;
    int rc = run_git(dir, exists, &out, &spawn_errno);
    free(out);
    if (rc > 0)
        return 1;
    const char *const blob[] = {"cat-file", "blob", object, NULL};
    if (rc == 0)
        rc = run_git(dir, blob, text, &spawn_errno);
    if (rc != 0) {
        evgen_error(diags, NULL, EVGEN_D_IO, "cannot read '%s' with git", object);
        free(*text);
        *text = NULL;
        return -1;
    }
    return 0;
}

int evgen_against_fetch(const char *rev, const char *lock_path, char **text, char **origin, evgen_diags *diags)
{
    *text = *origin = NULL;
    struct stat st;
    if (stat(rev, &st) == 0 && S_ISREG(st.st_mode)) {
        *text = evgen_read_input(rev, NULL, diags);
        if (!*text)
            return -1;
        *origin = evgen_xstrdup(rev);
        return 0;
    }
    char *dir = dir_of(lock_path);
    char *path = repo_path(rev, dir, lock_path, diags);
    int rc = -1;
    if (path && !is_revision(dir, rev)) {
        evgen_error(diags, NULL, EVGEN_D_USAGE, "--against '%s' is neither a lock file nor a git revision", rev);
    } else if (path) {
        *origin = evgen_xasprintf("%s:%s", rev, path);
        rc = fetch_blob(dir, *origin, text, diags);
        if (rc < 0) {
            free(*origin);
            *origin = NULL;
        }
    }
    free(path);
    free(dir);
    return rc;
}
