/* against.h — `evgen check --against REV`: the lock file as it was at a git revision (or in
 * another file), so that CI refuses an edit of a shipped version even when the lock was edited too. */
#ifndef EVGEN_GEN_AGAINST_H
#define EVGEN_GEN_AGAINST_H

#include "model/diag.h"

/* The lock `lock_path` as REV holds it. If `rev` is an existing file, REV is that lock file; else
 * REV is a git revision of the repository holding `lock_path`, read with `git cat-file blob
 * REV:PATH` (PATH: lock_path relative to the repository's top) run in lock_path's directory.
 * Returns 0 with *text and *origin (a name for diagnostics: the file, or "REV:PATH"); 1 if REV is a
 * revision that holds no such lock (the manifest is newer than REV; *origin is set); -1 after
 * reporting why REV cannot be read (not a file, not in a git repository, not a revision).
 * The caller frees *text and *origin. */
int evgen_against_fetch(const char *rev, const char *lock_path, char **text, char **origin, evgen_diags *diags);

#endif /* EVGEN_GEN_AGAINST_H */
