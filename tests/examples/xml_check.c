/* xml_check.c — checks that a document is well-formed XML (the subset an SVG writer produces:
 * declaration, comments, elements, attributes, text, the five named entities and character
 * references) and counts its elements. */
#include "xml_check.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

enum { MAX_DEPTH = 64 };

typedef struct parser {
    const char *p;
    char stack[MAX_DEPTH][32];
    int depth;
    char *error;
    size_t error_size;
    const char *start;
} parser;

static int fail(parser *x, const char *what)
{
    snprintf(x->error, x->error_size, "%s at byte %ld", what, (long)(x->p - x->start));
    return -1;
}

static int name_char(char c, int first)
{
    if (isalpha((unsigned char)c) || c == '_' || c == ':')
        return 1;
    return !first && (isdigit((unsigned char)c) || c == '-' || c == '.');
}

static int read_name(parser *x, char *out, size_t size)
{
    size_t n = 0;
    if (!name_char(*x->p, 1))
        return fail(x, "expected a name");
    while (name_char(*x->p, n == 0)) {
        if (n + 1 < size)
            out[n++] = *x->p;
        x->p++;
    }
    out[n] = 0;
    return 0;
}

/* An entity or character reference after '&'. */
static int reference(parser *x)
{
    static const char *const named[] = {"amp;", "lt;", "gt;", "quot;", "apos;"};
    for (size_t i = 0; i < 5; i++)
        if (strncmp(x->p, named[i], strlen(named[i])) == 0) {
            x->p += strlen(named[i]);
            return 0;
        }
    if (*x->p == '#') {
        x->p++;
        int hex = *x->p == 'x' ? (x->p++, 1) : 0, digits = 0;
        while (hex ? isxdigit((unsigned char)*x->p) : isdigit((unsigned char)*x->p))
            x->p++, digits++;
        if (digits && *x->p == ';') {
            x->p++;
            return 0;
        }
    }
    return fail(x, "bad entity reference");
}

static void skip_space(parser *x)
{
    while (isspace((unsigned char)*x->p))
        x->p++;
}

static int attributes(parser *x)
{
    char name[64], seen[32][64];
    int n_seen = 0;
    for (;;) {
        int had_space = isspace((unsigned char)*x->p);
        skip_space(x);
        if (*x->p == '>' || *x->p == '/')
            return 0;
        if (!had_space)
            return fail(x, "attributes must be separated by spaces");
        if (read_name(x, name, sizeof name))
            return -1;
        for (int i = 0; i < n_seen; i++)
            if (strcmp(seen[i], name) == 0)
                return fail(x, "duplicate attribute");
        if (n_seen < 32)
            strcpy(seen[n_seen++], name);
        skip_space(x);
        if (*x->p++ != '=')
            return fail(x, "expected '='");
        skip_space(x);
        char quote = *x->p++;
        if (quote != '"' && quote != '\'')
            return fail(x, "unquoted attribute value");
        while (*x->p && *x->p != quote) {
            if (*x->p == '<')
                return fail(x, "'<' in an attribute value");
            if (*x->p++ == '&' && reference(x))
                return -1;
        }
        if (*x->p++ != quote)
            return fail(x, "unterminated attribute value");
    }
}

static void count(xml_counts *c, const char *name)
{
    c->elements++;
    c->polylines += strcmp(name, "polyline") == 0;
    c->texts += strcmp(name, "text") == 0;
    c->lines += strcmp(name, "line") == 0;
}

int xml_check(const char *text, xml_counts *counts, char *error, size_t error_size)
{
    parser x = {text, {{0}}, 0, error, error_size, text};
    memset(counts, 0, sizeof *counts);
    if (strncmp(x.p, "<?xml ", 6) == 0) {
        const char *end = strstr(x.p, "?>");
        if (!end)
            return fail(&x, "unterminated XML declaration");
        x.p = end + 2;
    }
    int root_done = 0;
    while (*x.p) {
        if (*x.p != '<') {
            if (x.depth == 0 && !isspace((unsigned char)*x.p))
                return fail(&x, "text outside the root element");
            if (*x.p == '>')
                return fail(&x, "stray '>'");
            if (*x.p++ == '&' && reference(&x))
                return -1;
            continue;
        }
        x.p++;
        if (strncmp(x.p, "!--", 3) == 0) {
            const char *end = strstr(x.p + 3, "-->");
            if (!end)
                return fail(&x, "unterminated comment");
            x.p = end + 3;
            continue;
        }
        char name[32];
        if (*x.p == '/') {
            x.p++;
            if (read_name(&x, name, sizeof name))
                return -1;
            skip_space(&x);
            if (*x.p++ != '>')
                return fail(&x, "expected '>' after a closing tag");
            if (x.depth == 0 || strcmp(x.stack[x.depth - 1], name) != 0)
                return fail(&x, "closing tag does not match the open element");
            if (--x.depth == 0)
                root_done = 1;
            continue;
        }
        if (root_done && x.depth == 0)
            return fail(&x, "a second root element");
        if (read_name(&x, name, sizeof name) || attributes(&x))
            return -1;
        if (x.depth == 0)
            snprintf(counts->root, sizeof counts->root, "%s", name);
        count(counts, name);
        if (*x.p == '/') {
            if (x.p[1] != '>')
                return fail(&x, "expected '/>'");
            x.p += 2;
            if (x.depth == 0)
                root_done = 1;
            continue;
        }
        x.p++; /* '>' */
        if (x.depth == MAX_DEPTH)
            return fail(&x, "too deep");
        snprintf(x.stack[x.depth++], sizeof x.stack[0], "%s", name);
    }
    if (x.depth != 0)
        return fail(&x, "unclosed element at the end");
    if (!root_done)
        return fail(&x, "no root element");
    return 0;
}
