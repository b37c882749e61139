/* describe.h — `evgen describe`: the model printed for people (text) and tools (JSON). */
#ifndef EVGEN_GEN_DESCRIBE_H
#define EVGEN_GEN_DESCRIBE_H

#include "model/model.h"

/* Both take a lowered model and return a newly allocated string. */
char *evgen_describe_text(const evgen_model *model);
char *evgen_describe_json(const evgen_model *model);

#endif /* EVGEN_GEN_DESCRIBE_H */
