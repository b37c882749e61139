/* Checks that a provider symbol that is a C keyword is refused. */
#include <evgen/manifest.h>

EVENT_PROVIDER(register, "Evgen-Test")

#include <evgen/manifest_end.h>
