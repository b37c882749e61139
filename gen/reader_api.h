/* reader_api.h — libevgen-reader's API (evgen/reader.h, evgen/dump.h) for the generator's sources
 * that also see the model: both name a type evgen_event (the model's: an event of the manifest; the
 * reader's: an event read from a trace), so here the reader's is spelled evgen_read_event. Function
 * names do not change (C has no overloading), so the reader's functions link as they are. Generator
 * sources include the reader's headers through this one only. */
#ifndef EVGEN_GEN_READER_API_H
#define EVGEN_GEN_READER_API_H

#define evgen_event evgen_read_event
#include "evgen/dump.h"
#include "evgen/reader.h"
#undef evgen_event

#endif /* EVGEN_GEN_READER_API_H */
