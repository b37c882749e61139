/* installed_prefix.c — this build installed into a temporary prefix, for the install tests. */
#include "installed_prefix.h"

#include <stdio.h>
#include <stdlib.h>

#include "install_config.h"
#include "test_support.h"

int installed_prefix_setup(installed_prefix *in)
{
    in->tmp = evgen_test_tempdir();
    in->prefix = evgen_test_format("%s/prefix", in->tmp);
    const char *install[] = {EVGEN_TEST_CMAKE_EXE, "--install", EVGEN_BINARY_DIR, "--prefix", in->prefix, NULL};
    char *out = NULL;
    int rc = evgen_test_run_merged(install, NULL, &out);
    if (rc != 0)
        fprintf(stderr, "cmake --install %s --prefix %s failed:\n%s\n", EVGEN_BINARY_DIR, in->prefix, out);
    free(out);
    return rc == 0 ? 0 : -1;
}

void installed_prefix_teardown(installed_prefix *in)
{
    if (getenv("EVGEN_TEST_KEEP"))
        fprintf(stderr, "kept %s\n", in->tmp);
    else
        evgen_test_rmtree(in->tmp);
    free(in->tmp);
    free(in->prefix);
    in->tmp = in->prefix = NULL;
}
