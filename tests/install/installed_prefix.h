/* installed_prefix.h — the fixture of the install tests: `cmake --install` of this build into a
 * fresh temporary directory, removed at the end unless EVGEN_TEST_KEEP is set. */
#ifndef EVGEN_TEST_INSTALLED_PREFIX_H
#define EVGEN_TEST_INSTALLED_PREFIX_H

typedef struct installed_prefix {
    char *tmp;    /* the temporary directory: everything the test makes lives here */
    char *prefix; /* tmp/prefix: the install */
} installed_prefix;

/* Makes the directory and installs into it; 0, or -1 after printing why. */
int installed_prefix_setup(installed_prefix *in);
void installed_prefix_teardown(installed_prefix *in);

#endif /* EVGEN_TEST_INSTALLED_PREFIX_H */
