/* template.h — evgen's own small template engine: the .tmpl files in gen/backends/templates/ read
 * like the C they produce, and a value tree (strings, bools, lists, maps) fills them in.
 *
 * Syntax
 * ------
 * Everything outside a tag is copied verbatim. Tags:
 *
 *   {{ path }}                     prints a string
 *   {{ path | filter | filter }}   prints a string through filters, left to right
 *   {% for x in path %} ... {% endfor %}
 *   {% if path %} ... {% elif not path %} ... {% else %} ... {% endif %}
 *   {# comment #}
 *
 * - A path is one or more names joined by '.', without spaces: `event.name`,
 *   `field.type.c_type`, `loop.index`. A name is [A-Za-z_][A-Za-z0-9_]*. The first name is
 *   looked up in the innermost for loop first (its variable and its `loop`), then in each
 *   enclosing loop, then in the root context; each further name is a key of the map reached
 *   so far.
 * - `{{ }}` prints only strings; a bool, a list or a map there is an error.
 * - Filters (each takes and gives a string):
 *     upper     ASCII letters to upper case
 *     lower     ASCII letters to lower case
 *     c_string  a C string literal, quotes included: \" \\ \n \t \r, "??" written "?\?" (no
 *               trigraphs), every other byte below 0x20 or from 0x7f up as a 3-digit octal
 *               escape, so the result is plain ASCII
 *     c_ident   every byte other than [A-Za-z0-9_] to '_', and a '_' in front of a leading
 *               digit or of an empty string, so the result is a C identifier
 * - `{% for x in path %}` walks a list; inside, `x` is the item and `loop.first`, `loop.last`
 *   (bools) and `loop.index` (0-based, a string) describe the iteration. An inner loop's
 *   names shadow the outer ones; `loop` always means the innermost loop. `loop` cannot be a
 *   loop variable.
 * - `{% if %}` / `{% elif %}` test truthiness, optionally negated by `not`: a bool is its
 *   value; a string or a list is true when non-empty; a map is always true. There is nothing
 *   else: no arithmetic, no comparison, no literals. Templates never compute; the generator
 *   lowers the model into the value tree first.
 * - `{{` and `{%` tags end on the line they start on; a `{# #}` comment may span lines.
 *   `{{`, `{%` and `{#` always open a tag (write `{ {` in C code that needs two braces).
 * - Whitespace: a line that holds only `{% %}` and `{# #}` tags, spaces and tabs produces no
 *   output at all, its newline included (Jinja's trim_blocks + lstrip_blocks), so tag lines
 *   can be indented like the C around them. A line that also holds text or a `{{ }}` keeps
 *   everything outside its tags, newline included.
 * - Blocks nest at most EVGEN_TEMPLATE_MAX_DEPTH deep.
 *
 * Errors are reported through evgen_diags with code EVGEN_D_TEMPLATE at `name:line:col`
 * (1-based; a column counts bytes). Syntax errors are found by evgen_template_parse, the first
 * one stops it; names are resolved when rendering, since only the context knows them, and the
 * first unknown or misused name stops evgen_template_render.
 *
 * Thread safety: a parsed template is immutable; several threads may render it at once with
 * their own contexts and diagnostic lists. Value trees are not synchronised.
 */
#ifndef EVGEN_GEN_TEMPLATE_H
#define EVGEN_GEN_TEMPLATE_H

#include <stdbool.h>

#include "model/diag.h"

/* How deeply {% for %} and {% if %} blocks may nest. */
#define EVGEN_TEMPLATE_MAX_DEPTH 64

/* ---- The context: a tree of values ---------------------------------------------------------
 * Every constructor returns a new tree that the caller owns until it hands it to a list or a
 * map, or frees it with evgen_tv_free. Out of memory aborts (see util.h). Passing NULL where a
 * value is expected, or a value of the wrong kind to a list or map function, is a programming
 * error: it aborts with a message. */
typedef struct evgen_tvalue evgen_tvalue;

/* A string; `s` is copied. */
evgen_tvalue *evgen_tv_string(const char *s);
/* A string formatted as by printf. */
evgen_tvalue *evgen_tv_stringf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
evgen_tvalue *evgen_tv_bool(bool b);
/* An empty list. */
evgen_tvalue *evgen_tv_list(void);
/* An empty map; keys keep the order in which they were first set. */
evgen_tvalue *evgen_tv_map(void);

/* Appends `value` to `list` and takes ownership of it. */
void evgen_tv_list_add(evgen_tvalue *list, evgen_tvalue *value);
/* Sets `key` (copied) to `value` in `map` and takes ownership of `value`. Setting a key that
 * exists frees its old value and keeps the key's place in the order. Any string is a valid
 * key, but a template reaches only keys that are names ([A-Za-z_][A-Za-z0-9_]*). */
void evgen_tv_map_set(evgen_tvalue *map, const char *key, evgen_tvalue *value);

/* Frees `value` and everything it holds; NULL is allowed. */
void evgen_tv_free(evgen_tvalue *value);

/* ---- Templates ----------------------------------------------------------------------------- */
typedef struct evgen_template evgen_template;

/* Parses `text` once. `name` (copied) is the file name diagnostics show, e.g.
 * "gen/backends/templates/reader.h.tmpl". Returns a template the caller frees with
 * evgen_template_free, or NULL after reporting the first syntax error to `diags` as an error at name:line:col. */
evgen_template *evgen_template_parse(const char *name, const char *text, evgen_diags *diags);

/* Renders `t` with `context`, a map (NULL stands for an empty one). Returns the output, a
 * NUL-terminated string the caller frees, or NULL after reporting the first error to `diags`
 * at the template's name:line:col: an unknown name, a name looked up in a value that is not a
 * map, a non-string printed, a for over a non-list. Names in a branch or loop body that the
 * render does not enter are not looked up. Neither `t` nor `context` is modified; a context
 * that is not a map is a programming error and aborts. */
char *evgen_template_render(const evgen_template *t, const evgen_tvalue *context, evgen_diags *diags);

/* Frees a template; NULL is allowed. */
void evgen_template_free(evgen_template *t);

#endif /* EVGEN_GEN_TEMPLATE_H */
