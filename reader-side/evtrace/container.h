/* container.h — the constants of the .evtrace container (docs/format.md): header sizes, the
 * format version, block types; for the reader and for `evgen convert`, which writes it. Not
 * installed. */
#ifndef EVGEN_READER_CONTAINER_H
#define EVGEN_READER_CONTAINER_H

#define EVGEN_RD_FILE_HEADER_SIZE 48u
#define EVGEN_RD_BLOCK_HEADER_SIZE 48u
#define EVGEN_RD_FORMAT_VERSION 1u

enum { RD_BLOCK_METADATA = 1, RD_BLOCK_EVENTS = 2, RD_BLOCK_END = 3 };

/* Streams of one thread (docs/format.md: events emitted while k emits of the thread were
 * interrupted, by a signal handler, go to stream k): an events block with a larger stream is
 * refused. */
#define EVGEN_RD_MAX_STREAMS 256u

#endif /* EVGEN_READER_CONTAINER_H */
