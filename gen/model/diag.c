/* diag.c — the diagnostic list and its compiler-style printing. */
#include "model/diag.h"

#include <stdarg.h>
#include <stdlib.h>

#include "model/util.h"

static const char *const code_names[] = {
#define EVGEN_DIAG(suffix, name, doc) name,
#include "model/diag_codes.h"
#undef EVGEN_DIAG
};

static const char *const code_docs[] = {
#define EVGEN_DIAG(suffix, name, doc) doc,
#include "model/diag_codes.h"
#undef EVGEN_DIAG
};

const char *evgen_diag_code_name(evgen_diag_code code)
{
    return code < EVGEN_D_COUNT ? code_names[code] : "?";
}

const char *evgen_diag_code_doc(evgen_diag_code code)
{
    return code < EVGEN_D_COUNT ? code_docs[code] : "?";
}

void evgen_diags_init(evgen_diags *d)
{
    d->items = NULL;
    d->count = 0;
    d->n_errors = 0;
}

void evgen_diags_free(evgen_diags *d)
{
    for (size_t i = 0; i < d->count; i++) {
        free(d->items[i].file);
        free(d->items[i].message);
    }
    free(d->items);
    evgen_diags_init(d);
}

void evgen_diag_add(evgen_diags *d, evgen_severity sev, evgen_diag_code code, const char *file, unsigned line,
                    unsigned col, const char *message)
{
    evgen_diagnostic *diag = EVGEN_PUSH(d->items, d->count);
    diag->severity = sev;
    diag->code = code;
    diag->file = file ? evgen_xstrdup(file) : NULL;
    diag->line = line;
    diag->col = col;
    diag->message = evgen_xstrdup(message);
    if (sev == EVGEN_SEV_ERROR)
        d->n_errors++;
}

static void vreport(evgen_diags *d, evgen_severity sev, const evgen_model_loc *loc, evgen_diag_code code,
                    const char *fmt, va_list ap)
{
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    evgen_sb_vprintf(&sb, fmt, ap);
    const char *file = loc && loc->file ? loc->file : NULL;
    evgen_diag_add(d, sev, code, file, file ? loc->line : 0, file ? loc->col : 0, sb.data ? sb.data : "");
    evgen_sb_free(&sb);
}

void evgen_error(evgen_diags *d, const evgen_model_loc *loc, evgen_diag_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(d, EVGEN_SEV_ERROR, loc, code, fmt, ap);
    va_end(ap);
}

void evgen_verror(evgen_diags *d, const evgen_model_loc *loc, evgen_diag_code code, const char *fmt, va_list ap)
{
    vreport(d, EVGEN_SEV_ERROR, loc, code, fmt, ap);
}

void evgen_warning(evgen_diags *d, const evgen_model_loc *loc, evgen_diag_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(d, EVGEN_SEV_WARNING, loc, code, fmt, ap);
    va_end(ap);
}

void evgen_note(evgen_diags *d, const evgen_model_loc *loc, const char *fmt, ...)
{
    va_list ap;
    const evgen_diagnostic *prev = d->count ? &d->items[d->count - 1] : NULL;
    evgen_diag_code code = prev ? prev->code : EVGEN_D_USAGE;
    /* A note without a place of its own stands at the place of what it explains. */
    evgen_model_loc inherited = {prev ? prev->file : NULL, prev ? prev->line : 0, prev ? prev->col : 0};
    if (!loc || !loc->file)
        loc = &inherited;
    va_start(ap, fmt);
    vreport(d, EVGEN_SEV_NOTE, loc, code, fmt, ap);
    va_end(ap);
}

char *evgen_diag_format(const evgen_diagnostic *diag)
{
    static const char *const sev_names[] = {"error", "warning", "note"};
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    if (diag->file && diag->line)
        evgen_sb_printf(&sb, "%s:%u:%u: ", diag->file, diag->line, diag->col);
    else if (diag->file) /* about the file as a whole: it cannot be read or written */
        evgen_sb_printf(&sb, "%s: ", diag->file);
    else
        evgen_sb_puts(&sb, "evgen: ");
    evgen_sb_printf(&sb, "%s: %s", sev_names[diag->severity], diag->message);
    if (diag->severity != EVGEN_SEV_NOTE && diag->code != EVGEN_D_CLANG && diag->code != EVGEN_D_USAGE &&
        diag->code != EVGEN_D_IO)
        evgen_sb_printf(&sb, " [%s]", evgen_diag_code_name(diag->code));
    return evgen_sb_take(&sb);
}

void evgen_diags_print(const evgen_diags *d, FILE *out)
{
    for (size_t i = 0; i < d->count; i++) {
        char *line = evgen_diag_format(&d->items[i]);
        fprintf(out, "%s\n", line);
        free(line);
    }
}
