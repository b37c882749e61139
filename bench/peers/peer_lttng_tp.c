/* peer_lttng_tp.c — instantiates the LTTng-UST tracepoint provider of peer_lttng_tp.h (its probes
 * and its registration), linked into peer_lttng. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "peer_lttng_tp.h"
