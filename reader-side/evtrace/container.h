/* container.h — TRANSITIONAL: the old names of the .evtrace container constants, kept only until
 * tools/ uses evgen/wire_format.h directly; the container is defined there. Not installed. */
#ifndef EVGEN_READER_CONTAINER_H
#define EVGEN_READER_CONTAINER_H

#include "evgen/wire_format.h"

#define EVGEN_RD_FILE_HEADER_SIZE EVGEN_WIRE_FILE_HEADER_SIZE
#define EVGEN_RD_BLOCK_HEADER_SIZE EVGEN_WIRE_BLOCK_HEADER_SIZE
#define EVGEN_RD_FORMAT_VERSION EVGEN_WIRE_FORMAT_VERSION
enum { RD_BLOCK_METADATA = EVGEN_WIRE_BLOCK_METADATA, RD_BLOCK_EVENTS = EVGEN_WIRE_BLOCK_EVENTS, RD_BLOCK_END = EVGEN_WIRE_BLOCK_END };

#endif /* EVGEN_READER_CONTAINER_H */
