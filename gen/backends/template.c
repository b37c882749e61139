/* template.c — the template engine (syntax: template.h): value trees, a lexer that applies the
 * tag-line whitespace rule, a parser into a node tree, and a renderer that only looks names up. */
#include "backends/template.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/util.h"

#define NONE SIZE_MAX

/* Grows `items` (of `count` used and `cap` allocated elements) so that one more fits. Value
 * lists and maps can hold thousands of entries, so they double rather than grow by one. */
#define GROW(items, count, cap) \
    do { \
        if ((count) == (cap)) { \
            (cap) = (cap) ? 2 * (cap) : 4; \
            (items) = evgen_xrealloc((items), (cap) * sizeof *(items)); \
        } \
    } while (0)

static void misuse(const char *what)
{
    fprintf(stderr, "evgen: fatal: template value misuse: %s\n", what);
    abort();
}

/* ======================================================================= Values ============= */

typedef enum tv_kind { TV_STRING, TV_BOOL, TV_LIST, TV_MAP } tv_kind;

typedef struct tv_entry {
    char *key;
    uint32_t hash;
    evgen_tvalue *value;
} tv_entry;

/* Maps up to this size are searched linearly (hash compared first); bigger ones get an index. */
#define MAP_LINEAR_MAX 8

struct evgen_tvalue {
    tv_kind kind;
    union {
        char *string;
        bool boolean;
        struct {
            evgen_tvalue **items;
            size_t count, cap;
        } list;
        struct {
            tv_entry *entries; /* in insertion order */
            size_t count, cap;
            size_t *slots; /* open addressing: entry number + 1, 0 for empty; NULL while small */
            size_t n_slots; /* a power of two, more than twice count */
        } map;
    } u;
};

static const char *kind_name(tv_kind kind)
{
    switch (kind) {
    case TV_STRING: return "a string";
    case TV_BOOL: return "a bool";
    case TV_LIST: return "a list";
    case TV_MAP: return "a map";
    }
    return "?";
}

static uint32_t hash_key(const char *key)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

static evgen_tvalue *new_value(tv_kind kind)
{
    evgen_tvalue *v = evgen_xcalloc(1, sizeof *v);
    v->kind = kind;
    return v;
}

evgen_tvalue *evgen_tv_string(const char *s)
{
    if (!s)
        misuse("evgen_tv_string(NULL)");
    evgen_tvalue *v = new_value(TV_STRING);
    v->u.string = evgen_xstrdup(s);
    return v;
}

evgen_tvalue *evgen_tv_stringf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    evgen_tvalue *v = new_value(TV_STRING);
    v->u.string = evgen_xvasprintf(fmt, ap);
    va_end(ap);
    return v;
}

evgen_tvalue *evgen_tv_bool(bool b)
{
    evgen_tvalue *v = new_value(TV_BOOL);
    v->u.boolean = b;
    return v;
}

evgen_tvalue *evgen_tv_list(void)
{
    return new_value(TV_LIST);
}

evgen_tvalue *evgen_tv_map(void)
{
    return new_value(TV_MAP);
}

void evgen_tv_list_add(evgen_tvalue *list, evgen_tvalue *value)
{
    if (!list || list->kind != TV_LIST || !value)
        misuse("evgen_tv_list_add needs a list and a value");
    GROW(list->u.list.items, list->u.list.count, list->u.list.cap);
    list->u.list.items[list->u.list.count++] = value;
}

static void map_index_insert(evgen_tvalue *map, size_t entry)
{
    size_t mask = map->u.map.n_slots - 1;
    for (size_t i = map->u.map.entries[entry].hash & mask;; i = (i + 1) & mask) {
        if (!map->u.map.slots[i]) {
            map->u.map.slots[i] = entry + 1;
            return;
        }
    }
}

static void map_reindex(evgen_tvalue *map)
{
    size_t n = 16;
    while (n <= 2 * map->u.map.count)
        n *= 2;
    free(map->u.map.slots);
    map->u.map.slots = evgen_xcalloc(n, sizeof *map->u.map.slots);
    map->u.map.n_slots = n;
    for (size_t i = 0; i < map->u.map.count; i++)
        map_index_insert(map, i);
}

/* Returns the entry number of `key`, or NONE. */
static size_t map_find(const evgen_tvalue *map, const char *key, uint32_t hash)
{
    const tv_entry *entries = map->u.map.entries;
    if (!map->u.map.slots) {
        for (size_t i = 0; i < map->u.map.count; i++)
            if (entries[i].hash == hash && strcmp(entries[i].key, key) == 0)
                return i;
        return NONE;
    }
    size_t mask = map->u.map.n_slots - 1;
    for (size_t i = hash & mask; map->u.map.slots[i]; i = (i + 1) & mask) {
        size_t e = map->u.map.slots[i] - 1;
        if (entries[e].hash == hash && strcmp(entries[e].key, key) == 0)
            return e;
    }
    return NONE;
}

static const evgen_tvalue *map_get(const evgen_tvalue *map, const char *key)
{
    size_t e = map_find(map, key, hash_key(key));
    return e == NONE ? NULL : map->u.map.entries[e].value;
}

void evgen_tv_map_set(evgen_tvalue *map, const char *key, evgen_tvalue *value)
{
    if (!map || map->kind != TV_MAP || !key || !value)
        misuse("evgen_tv_map_set needs a map, a key and a value");
    uint32_t hash = hash_key(key);
    size_t e = map_find(map, key, hash);
    if (e != NONE) {
        evgen_tv_free(map->u.map.entries[e].value);
        map->u.map.entries[e].value = value;
        return;
    }
    GROW(map->u.map.entries, map->u.map.count, map->u.map.cap);
    e = map->u.map.count++;
    map->u.map.entries[e] = (tv_entry){evgen_xstrdup(key), hash, value};
    if (map->u.map.slots && 2 * map->u.map.count < map->u.map.n_slots)
        map_index_insert(map, e);
    else if (map->u.map.count > MAP_LINEAR_MAX)
        map_reindex(map);
}

void evgen_tv_free(evgen_tvalue *value)
{
    if (!value)
        return;
    switch (value->kind) {
    case TV_STRING: free(value->u.string); break;
    case TV_BOOL: break;
    case TV_LIST:
        for (size_t i = 0; i < value->u.list.count; i++)
            evgen_tv_free(value->u.list.items[i]);
        free(value->u.list.items);
        break;
    case TV_MAP:
        for (size_t i = 0; i < value->u.map.count; i++) {
            free(value->u.map.entries[i].key);
            evgen_tv_free(value->u.map.entries[i].value);
        }
        free(value->u.map.entries);
        free(value->u.map.slots);
        break;
    }
    free(value);
}

static bool truthy(const evgen_tvalue *v)
{
    switch (v->kind) {
    case TV_STRING: return v->u.string[0] != '\0';
    case TV_BOOL: return v->u.boolean;
    case TV_LIST: return v->u.list.count > 0;
    case TV_MAP: return true;
    }
    return false;
}

/* ======================================================================= Template tree ====== */

typedef enum filter_kind { F_UPPER, F_LOWER, F_C_STRING, F_C_IDENT, F_COUNT } filter_kind;
static const char *const filter_names[F_COUNT] = {"upper", "lower", "c_string", "c_ident"};

typedef struct tpath {
    char *text; /* "event.name", for messages */
    char **names;
    size_t n_names;
    unsigned line, col; /* of the first name */
} tpath;

typedef enum node_kind { N_TEXT, N_PRINT, N_FOR, N_IF } node_kind;

typedef struct node node;
typedef struct node_list {
    node *items;
    size_t count;
} node_list;

typedef struct branch {
    bool has_cond; /* false for else */
    bool negate;
    tpath path;
    node_list body;
} branch;

struct node {
    node_kind kind;
    union {
        struct {
            char *s;
            size_t len;
        } text;
        struct {
            tpath path;
            filter_kind *filters;
            size_t n_filters;
        } print;
        struct {
            char *var;
            tpath path;
            node_list body;
        } loop;
        struct {
            branch *branches;
            size_t n_branches;
        } cond;
    } u;
};

struct evgen_template {
    char *name;
    node_list body;
};

static void free_path(tpath *p)
{
    for (size_t i = 0; i < p->n_names; i++)
        free(p->names[i]);
    free(p->names);
    free(p->text);
}

static void free_list(node_list *l)
{
    for (size_t i = 0; i < l->count; i++) {
        node *n = &l->items[i];
        switch (n->kind) {
        case N_TEXT: free(n->u.text.s); break;
        case N_PRINT:
            free_path(&n->u.print.path);
            free(n->u.print.filters);
            break;
        case N_FOR:
            free(n->u.loop.var);
            free_path(&n->u.loop.path);
            free_list(&n->u.loop.body);
            break;
        case N_IF:
            for (size_t b = 0; b < n->u.cond.n_branches; b++) {
                free_path(&n->u.cond.branches[b].path);
                free_list(&n->u.cond.branches[b].body);
            }
            free(n->u.cond.branches);
            break;
        }
    }
    free(l->items);
}

void evgen_template_free(evgen_template *t)
{
    if (!t)
        return;
    free_list(&t->body);
    free(t->name);
    free(t);
}

/* ======================================================================= Lexer ============== */

typedef enum tok_kind { T_TEXT, T_PRINT, T_BLOCK, T_COMMENT } tok_kind;

typedef struct token {
    tok_kind kind;
    size_t start, len;  /* the text, or a tag's content between its delimiters */
    unsigned line, col; /* of the text's first byte, or of the tag's '{' */
    size_t line_start;  /* offset of the first byte of that line */
} token;

typedef struct lexer {
    const char *name;
    evgen_diags *diags;
    const char *src;
    size_t len;
    size_t pos;
    unsigned line;
    size_t line_start;
    token *toks;
    size_t n_toks, cap;
} lexer;

static bool is_hspace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The kind of tag opening at `p`, or T_TEXT. */
static tok_kind tag_at(const lexer *lx, size_t p)
{
    if (p + 1 >= lx->len || lx->src[p] != '{')
        return T_TEXT;
    switch (lx->src[p + 1]) {
    case '{': return T_PRINT;
    case '%': return T_BLOCK;
    case '#': return T_COMMENT;
    }
    return T_TEXT;
}

/* The offset of the closing delimiter of the tag opening at `p`, or NONE. '{{' and '{%' tags
 * close on their own line; comments may span lines. */
static size_t tag_close(const lexer *lx, size_t p, tok_kind kind)
{
    char first = kind == T_PRINT ? '}' : kind == T_BLOCK ? '%' : '#';
    for (size_t q = p + 2; q + 1 < lx->len; q++) {
        if (lx->src[q] == '\n' && kind != T_COMMENT)
            return NONE;
        if (lx->src[q] == first && lx->src[q + 1] == '}')
            return q;
    }
    return NONE;
}

static void lex_error(lexer *lx, size_t at, const char *message)
{
    evgen_model_loc loc = {lx->name, lx->line, (unsigned)(at - lx->line_start) + 1};
    evgen_error(lx->diags, &loc, EVGEN_D_TEMPLATE, "%s", message);
}

static token *push_token(lexer *lx, tok_kind kind, size_t start, size_t len, size_t at)
{
    GROW(lx->toks, lx->n_toks, lx->cap);
    token *t = &lx->toks[lx->n_toks++];
    *t = (token){kind, start, len, lx->line, (unsigned)(at - lx->line_start) + 1, lx->line_start};
    return t;
}

/* Lexes the tag at lx->pos; false after reporting an unterminated tag. */
static bool lex_tag(lexer *lx, tok_kind kind)
{
    size_t open = lx->pos;
    size_t close = tag_close(lx, open, kind);
    if (close == NONE) {
        lex_error(lx, open,
                  kind == T_PRINT   ? "unterminated '{{': expected '}}' on the same line"
                  : kind == T_BLOCK ? "unterminated '{%': expected '%}' on the same line"
                                    : "unterminated comment: expected '#}'");
        return false;
    }
    if (kind != T_COMMENT)
        push_token(lx, kind, open + 2, close - open - 2, open);
    for (size_t q = open; q < close; q++) {
        if (lx->src[q] == '\n') {
            lx->line++;
            lx->line_start = q + 1;
        }
    }
    lx->pos = close + 2;
    return true;
}

/* At the start of a line: if the line holds only '{% %}' and '{# #}' tags and horizontal
 * space, returns the offset of its end (its '\n', or the end of the text); otherwise NONE.
 * An unterminated tag makes it NONE, and the ordinary lexing reports it. */
static size_t tag_line_end(const lexer *lx)
{
    size_t q = lx->pos;
    unsigned tags = 0;
    for (;;) {
        while (q < lx->len && is_hspace(lx->src[q]))
            q++;
        if (q == lx->len || lx->src[q] == '\n')
            return tags ? q : NONE;
        tok_kind kind = tag_at(lx, q);
        if (kind != T_BLOCK && kind != T_COMMENT)
            return NONE;
        size_t close = tag_close(lx, q, kind);
        if (close == NONE)
            return NONE;
        q = close + 2;
        tags++;
    }
}

static bool lex(lexer *lx)
{
    bool line_start = true;
    while (lx->pos < lx->len) {
        if (line_start) {
            size_t end = tag_line_end(lx);
            if (end != NONE) {
                while (lx->pos < end) {
                    while (is_hspace(lx->src[lx->pos]))
                        lx->pos++;
                    if (lx->pos < end && !lex_tag(lx, tag_at(lx, lx->pos)))
                        return false; /* cannot happen: tag_line_end found every close */
                }
                if (lx->pos < lx->len) { /* the newline goes with the tags */
                    lx->pos++;
                    lx->line++;
                    lx->line_start = lx->pos;
                }
                continue;
            }
            line_start = false;
        }
        tok_kind kind = tag_at(lx, lx->pos);
        if (kind != T_TEXT) {
            if (!lex_tag(lx, kind))
                return false;
            continue;
        }
        size_t q = lx->pos;
        while (q < lx->len && lx->src[q] != '\n' && tag_at(lx, q) == T_TEXT)
            q++;
        if (q < lx->len && lx->src[q] == '\n') {
            q++;
            line_start = true;
        }
        token *prev = lx->n_toks ? &lx->toks[lx->n_toks - 1] : NULL;
        if (prev && prev->kind == T_TEXT && prev->start + prev->len == lx->pos)
            prev->len += q - lx->pos;
        else
            push_token(lx, T_TEXT, lx->pos, q - lx->pos, lx->pos);
        lx->pos = q;
        if (line_start) {
            lx->line++;
            lx->line_start = q;
        }
    }
    return true;
}

/* ======================================================================= Parser ============= */

typedef struct open_block {
    node *n;            /* N_FOR or N_IF, in its parent's list: nothing is added to that list
                         * while this block is open, so the pointer stays valid */
    unsigned line, col; /* of the opening tag */
    bool has_else;
    unsigned else_line, else_col;
} open_block;

typedef struct parser {
    const char *name;
    evgen_diags *diags;
    const char *src;
    node_list root;
    open_block stack[EVGEN_TEMPLATE_MAX_DEPTH];
    size_t depth;
} parser;

/* A position inside one tag's content; '{{' and '{%' tags lie on one line. */
typedef struct cursor {
    parser *p;
    const token *tok;
    size_t pos, end;
} cursor;

static unsigned cur_col(const cursor *c)
{
    return (unsigned)(c->pos - c->tok->line_start) + 1;
}

static void error_at(parser *p, unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void error_at(parser *p, unsigned line, unsigned col, const char *fmt, ...)
{
    evgen_model_loc loc = {p->name, line, col};
    va_list ap;
    va_start(ap, fmt);
    evgen_verror(p->diags, &loc, EVGEN_D_TEMPLATE, fmt, ap);
    va_end(ap);
}

static void note_at(parser *p, unsigned line, unsigned col, const char *message)
{
    evgen_model_loc loc = {p->name, line, col};
    evgen_note(p->diags, &loc, "%s", message);
}

static bool is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

static void skip_space(cursor *c)
{
    while (c->pos < c->end && is_hspace(c->p->src[c->pos]))
        c->pos++;
}

/* Reads a name at the cursor; returns its length (0: none there). */
static size_t read_name(cursor *c)
{
    size_t start = c->pos;
    if (c->pos < c->end && is_name_start(c->p->src[c->pos]))
        while (c->pos < c->end && is_name_char(c->p->src[c->pos]))
            c->pos++;
    return c->pos - start;
}

static bool name_is(const cursor *c, size_t start, size_t len, const char *word)
{
    return len == strlen(word) && memcmp(c->p->src + start, word, len) == 0;
}

/* ", found 'x'" naming what stands at the cursor after any space (a name, or one byte), or ""
 * at the tag's end. */
static char *found(const cursor *c)
{
    size_t pos = c->pos;
    while (pos < c->end && is_hspace(c->p->src[pos]))
        pos++;
    if (pos >= c->end)
        return evgen_xstrdup("");
    const char *s = c->p->src + pos;
    unsigned char ch = (unsigned char)*s;
    if (is_name_char((char)ch)) {
        size_t n = 0;
        while (pos + n < c->end && is_name_char(s[n]))
            n++;
        return evgen_xasprintf(", found '%.*s'", (int)n, s);
    }
    if (ch < 0x20 || ch >= 0x7f)
        return evgen_xasprintf(", found byte 0x%02x", ch);
    return evgen_xasprintf(", found '%c'", ch);
}

static void error_expected(cursor *c, const char *what)
{
    char *f = found(c);
    error_at(c->p, c->tok->line, cur_col(c), "%s%s", what, f);
    free(f);
}

/* Parses a dotted path; `after` names what precedes it, for the message. */
static bool parse_path(cursor *c, const char *after, tpath *path)
{
    skip_space(c);
    size_t start = c->pos;
    path->line = c->tok->line;
    path->col = cur_col(c);
    for (;;) {
        size_t name_start = c->pos;
        size_t n = read_name(c);
        if (!n) {
            char *what = path->n_names ? evgen_xstrdup("expected a name after '.'")
                                       : evgen_xasprintf("expected a variable name after %s", after);
            error_expected(c, what);
            free(what);
            return false;
        }
        *EVGEN_PUSH(path->names, path->n_names) = evgen_xstrndup(c->p->src + name_start, n);
        if (c->pos >= c->end || c->p->src[c->pos] != '.')
            break;
        c->pos++;
    }
    path->text = evgen_xstrndup(c->p->src + start, c->pos - start);
    return true;
}

/* Requires the end of a '{% %}' tag after `after`. */
static bool expect_end(cursor *c, const char *after)
{
    skip_space(c);
    if (c->pos == c->end)
        return true;
    char *what = evgen_xasprintf("expected '%%}' after '%s'", after);
    error_expected(c, what);
    free(what);
    return false;
}

static node_list *current_list(parser *p)
{
    if (!p->depth)
        return &p->root;
    node *n = p->stack[p->depth - 1].n;
    if (n->kind == N_FOR)
        return &n->u.loop.body;
    return &n->u.cond.branches[n->u.cond.n_branches - 1].body;
}

static bool parse_print(parser *p, const token *tok)
{
    cursor c = {p, tok, tok->start, tok->start + tok->len};
    tpath path = {0};
    filter_kind *filters = NULL;
    size_t n_filters = 0;
    if (!parse_path(&c, "'{{'", &path))
        goto fail;
    for (;;) {
        skip_space(&c);
        if (c.pos == c.end)
            break;
        if (p->src[c.pos] != '|') {
            error_expected(&c, "expected '|' or '}}'");
            goto fail;
        }
        c.pos++;
        skip_space(&c);
        size_t start = c.pos;
        unsigned col = cur_col(&c);
        size_t n = read_name(&c);
        if (!n) {
            error_expected(&c, "expected a filter name after '|'");
            goto fail;
        }
        filter_kind f = 0;
        while (f < F_COUNT && !name_is(&c, start, n, filter_names[f]))
            f++;
        if (f == F_COUNT) {
            error_at(p, tok->line, col, "unknown filter '%.*s' (filters: upper, lower, c_string, c_ident)", (int)n,
                     p->src + start);
            goto fail;
        }
        *EVGEN_PUSH(filters, n_filters) = f;
    }
    node_list *l = current_list(p);
    node *nd = EVGEN_PUSH(l->items, l->count);
    nd->kind = N_PRINT;
    nd->u.print.path = path;
    nd->u.print.filters = filters;
    nd->u.print.n_filters = n_filters;
    return true;
fail:
    free_path(&path);
    free(filters);
    return false;
}

/* Reports a block keyword that does not fit the innermost open block: a mismatch when a block
 * of the kind it needs is open further out, "without a matching" otherwise. */
static void misplaced(parser *p, const token *tok, const char *keyword, node_kind needs)
{
    bool outer = false;
    for (size_t i = 0; i < p->depth; i++)
        outer = outer || p->stack[i].n->kind == needs;
    if (!outer) {
        error_at(p, tok->line, tok->col, "'%s' without a matching '%s'", keyword, needs == N_FOR ? "for" : "if");
        return;
    }
    const open_block *top = &p->stack[p->depth - 1];
    bool in_for = top->n->kind == N_FOR;
    error_at(p, tok->line, tok->col, "'%s' inside an unclosed '%s': expected '{%% %s %%}' first", keyword,
             in_for ? "for" : "if", in_for ? "endfor" : "endif");
    note_at(p, top->line, top->col, in_for ? "the 'for' opened here" : "the 'if' opened here");
}

static bool push_block(parser *p, const token *tok, node_kind kind, node **out)
{
    if (p->depth == EVGEN_TEMPLATE_MAX_DEPTH) {
        error_at(p, tok->line, tok->col, "blocks nested more than %d deep", EVGEN_TEMPLATE_MAX_DEPTH);
        return false;
    }
    node_list *l = current_list(p);
    node *n = EVGEN_PUSH(l->items, l->count);
    n->kind = kind;
    p->stack[p->depth++] = (open_block){n, tok->line, tok->col, false, 0, 0};
    *out = n;
    return true;
}

/* Parses "[not] path" after if/elif into a branch. */
static bool parse_condition(cursor *c, const char *keyword, branch *b)
{
    skip_space(c);
    size_t save = c->pos;
    size_t n = read_name(c);
    const char *after = keyword;
    if (name_is(c, save, n, "not") && (c->pos == c->end || c->p->src[c->pos] != '.')) {
        b->negate = true;
        after = "'not'";
    } else {
        c->pos = save;
    }
    b->has_cond = true;
    if (!parse_path(c, after, &b->path))
        return false;
    return expect_end(c, b->path.text);
}

static bool parse_block(parser *p, const token *tok)
{
    cursor c = {p, tok, tok->start, tok->start + tok->len};
    skip_space(&c);
    if (c.pos == c.end) {
        error_at(p, tok->line, tok->col, "empty '{%% %%}' tag");
        return false;
    }
    size_t kw = c.pos;
    size_t n = read_name(&c);
    if (name_is(&c, kw, n, "for")) {
        skip_space(&c);
        size_t var = c.pos;
        size_t var_len = read_name(&c);
        if (!var_len) {
            error_expected(&c, "expected a loop variable name after 'for'");
            return false;
        }
        if (name_is(&c, var, var_len, "loop")) {
            c.pos = var;
            error_at(p, tok->line, cur_col(&c),
                     "'loop' cannot be a loop variable: it holds loop.first, loop.last and loop.index");
            return false;
        }
        skip_space(&c);
        size_t in = c.pos;
        if (!name_is(&c, in, read_name(&c), "in")) {
            c.pos = in;
            char *what = evgen_xasprintf("expected 'in' after 'for %.*s'", (int)var_len, p->src + var);
            error_expected(&c, what);
            free(what);
            return false;
        }
        tpath path = {0};
        if (!parse_path(&c, "'in'", &path) || !expect_end(&c, path.text)) {
            free_path(&path);
            return false;
        }
        node *nd;
        if (!push_block(p, tok, N_FOR, &nd)) {
            free_path(&path);
            return false;
        }
        nd->u.loop.var = evgen_xstrndup(p->src + var, var_len);
        nd->u.loop.path = path;
        return true;
    }
    if (name_is(&c, kw, n, "if")) {
        branch b = {0};
        node *nd;
        if (!parse_condition(&c, "'if'", &b) || !push_block(p, tok, N_IF, &nd)) {
            free_path(&b.path);
            return false;
        }
        *EVGEN_PUSH(nd->u.cond.branches, nd->u.cond.n_branches) = b;
        return true;
    }
    if (name_is(&c, kw, n, "elif") || name_is(&c, kw, n, "else")) {
        bool is_else = name_is(&c, kw, n, "else");
        const char *keyword = is_else ? "else" : "elif";
        branch b = {0};
        if (is_else ? !expect_end(&c, "else") : !parse_condition(&c, "'elif'", &b)) {
            free_path(&b.path);
            return false;
        }
        if (!p->depth || p->stack[p->depth - 1].n->kind != N_IF) {
            free_path(&b.path);
            misplaced(p, tok, keyword, N_IF);
            return false;
        }
        open_block *top = &p->stack[p->depth - 1];
        if (top->has_else) {
            free_path(&b.path);
            error_at(p, tok->line, tok->col, "'%s' after 'else'", keyword);
            note_at(p, top->else_line, top->else_col, "the 'else' is here");
            return false;
        }
        if (is_else) {
            top->has_else = true;
            top->else_line = tok->line;
            top->else_col = tok->col;
        }
        *EVGEN_PUSH(top->n->u.cond.branches, top->n->u.cond.n_branches) = b;
        return true;
    }
    if (name_is(&c, kw, n, "endfor") || name_is(&c, kw, n, "endif")) {
        bool is_endfor = name_is(&c, kw, n, "endfor");
        const char *keyword = is_endfor ? "endfor" : "endif";
        if (!expect_end(&c, keyword))
            return false;
        node_kind needs = is_endfor ? N_FOR : N_IF;
        if (!p->depth || p->stack[p->depth - 1].n->kind != needs) {
            misplaced(p, tok, keyword, needs);
            return false;
        }
        p->depth--;
        return true;
    }
    c.pos = kw;
    if (n) {
        error_at(p, tok->line, cur_col(&c), "unknown tag '%.*s': expected for, endfor, if, elif, else or endif",
                 (int)n, p->src + kw);
    } else {
        error_expected(&c, "expected for, endfor, if, elif, else or endif");
    }
    return false;
}

evgen_template *evgen_template_parse(const char *name, const char *text, evgen_diags *diags)
{
    lexer lx = {name, diags, text, strlen(text), 0, 1, 0, NULL, 0, 0};
    if (!lex(&lx)) {
        free(lx.toks);
        return NULL;
    }
    parser p = {.name = name, .diags = diags, .src = text};
    bool ok = true;
    for (size_t i = 0; ok && i < lx.n_toks; i++) {
        const token *tok = &lx.toks[i];
        switch (tok->kind) {
        case T_TEXT: {
            node_list *l = current_list(&p);
            node *nd = EVGEN_PUSH(l->items, l->count);
            nd->kind = N_TEXT;
            nd->u.text.s = evgen_xstrndup(text + tok->start, tok->len);
            nd->u.text.len = tok->len;
            break;
        }
        case T_PRINT: ok = parse_print(&p, tok); break;
        case T_BLOCK: ok = parse_block(&p, tok); break;
        case T_COMMENT: break;
        }
    }
    free(lx.toks);
    if (ok && p.depth) {
        const open_block *top = &p.stack[p.depth - 1];
        if (top->n->kind == N_FOR)
            error_at(&p, top->line, top->col, "'for' without a matching 'endfor'");
        else
            error_at(&p, top->line, top->col, "'if' without a matching 'endif'");
        ok = false;
    }
    if (!ok) {
        free_list(&p.root);
        return NULL;
    }
    evgen_template *t = evgen_xmalloc(sizeof *t);
    t->name = evgen_xstrdup(name);
    t->body = p.root;
    return t;
}

/* ======================================================================= Renderer =========== */

/* One running for loop: its variable and its `loop` map, whose values change in place. */
typedef struct frame {
    const char *var;
    const evgen_tvalue *item;
    evgen_tvalue *loop;
} frame;

typedef struct renderer {
    const evgen_template *t;
    const evgen_tvalue *root;
    evgen_diags *diags;
    frame frames[EVGEN_TEMPLATE_MAX_DEPTH]; /* loops nest no deeper than blocks */
    size_t depth;
    evgen_strbuf out;
} renderer;

static void render_error(renderer *r, unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void render_error(renderer *r, unsigned line, unsigned col, const char *fmt, ...)
{
    evgen_model_loc loc = {r->t->name, line, col};
    va_list ap;
    va_start(ap, fmt);
    evgen_verror(r->diags, &loc, EVGEN_D_TEMPLATE, fmt, ap);
    va_end(ap);
}

/* The first name in the innermost loop that has it, else in the root; then key by key. */
static const evgen_tvalue *resolve(renderer *r, const tpath *path)
{
    const char *first = path->names[0];
    const evgen_tvalue *v = NULL;
    for (size_t i = r->depth; i-- > 0 && !v;) {
        if (strcmp(first, r->frames[i].var) == 0)
            v = r->frames[i].item;
        else if (strcmp(first, "loop") == 0)
            v = r->frames[i].loop;
    }
    if (!v && r->root)
        v = map_get(r->root, first);
    if (!v) {
        render_error(r, path->line, path->col, "unknown variable '%s'", first);
        return NULL;
    }
    size_t offset = strlen(first) + 1; /* of names[k] in path->text */
    for (size_t k = 1; k < path->n_names; k++) {
        unsigned col = path->col + (unsigned)offset;
        int prefix = (int)offset - 1;
        if (v->kind != TV_MAP) {
            render_error(r, path->line, col, "'%.*s' is %s, not a map: it has no key '%s'", prefix, path->text,
                         kind_name(v->kind), path->names[k]);
            return NULL;
        }
        const evgen_tvalue *next = map_get(v, path->names[k]);
        if (!next) {
            render_error(r, path->line, col, "'%.*s' has no key '%s'", prefix, path->text, path->names[k]);
            return NULL;
        }
        v = next;
        offset += strlen(path->names[k]) + 1;
    }
    return v;
}

static void put_c_string(evgen_strbuf *sb, const char *s)
{
    evgen_sb_putc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': evgen_sb_puts(sb, "\\\""); break;
        case '\\': evgen_sb_puts(sb, "\\\\"); break;
        case '\n': evgen_sb_puts(sb, "\\n"); break;
        case '\t': evgen_sb_puts(sb, "\\t"); break;
        case '\r': evgen_sb_puts(sb, "\\r"); break;
        case '?':
            /* "??=" and friends are trigraphs in C: break every "??" pair. */
            evgen_sb_puts(sb, p > (const unsigned char *)s && p[-1] == '?' ? "\\?" : "?");
            break;
        default:
            /* Octal, always 3 digits: unlike \x it cannot swallow a following digit. */
            if (*p < 0x20 || *p >= 0x7f)
                evgen_sb_printf(sb, "\\%03o", *p);
            else
                evgen_sb_putc(sb, (char)*p);
        }
    }
    evgen_sb_putc(sb, '"');
}

static void put_c_ident(evgen_strbuf *sb, const char *s)
{
    if (!*s || (*s >= '0' && *s <= '9'))
        evgen_sb_putc(sb, '_');
    for (; *s; s++)
        evgen_sb_putc(sb, is_name_char(*s) ? *s : '_');
}

static void put_filtered(evgen_strbuf *sb, const char *s, filter_kind f)
{
    switch (f) {
    case F_UPPER:
        for (; *s; s++)
            evgen_sb_putc(sb, *s >= 'a' && *s <= 'z' ? (char)(*s - 'a' + 'A') : *s);
        break;
    case F_LOWER:
        for (; *s; s++)
            evgen_sb_putc(sb, *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s);
        break;
    case F_C_STRING: put_c_string(sb, s); break;
    case F_C_IDENT: put_c_ident(sb, s); break;
    case F_COUNT: break;
    }
}

/* resolve(), then requires `kind`: "cannot ACTION 'PATH': it is a map, not a list". */
static const evgen_tvalue *resolve_as(renderer *r, const tpath *path, tv_kind kind, const char *action)
{
    const evgen_tvalue *v = resolve(r, path);
    if (v && v->kind != kind) {
        render_error(r, path->line, path->col, "cannot %s '%s': it is %s, not %s", action, path->text,
                     kind_name(v->kind), kind_name(kind));
        return NULL;
    }
    return v;
}

static bool render_list(renderer *r, const node_list *l);

static bool render_print(renderer *r, const node *n)
{
    const evgen_tvalue *v = resolve_as(r, &n->u.print.path, TV_STRING, "print");
    if (!v)
        return false;
    size_t n_filters = n->u.print.n_filters;
    if (!n_filters) {
        evgen_sb_puts(&r->out, v->u.string);
        return true;
    }
    /* Every filter but the last writes into a scratch string; the last writes the output. */
    char *cur = NULL;
    for (size_t i = 0; i + 1 < n_filters; i++) {
        evgen_strbuf tmp;
        evgen_sb_init(&tmp);
        put_filtered(&tmp, cur ? cur : v->u.string, n->u.print.filters[i]);
        free(cur);
        cur = evgen_sb_take(&tmp);
    }
    put_filtered(&r->out, cur ? cur : v->u.string, n->u.print.filters[n_filters - 1]);
    free(cur);
    return true;
}

static bool render_for(renderer *r, const node *n)
{
    const evgen_tvalue *list = resolve_as(r, &n->u.loop.path, TV_LIST, "loop over");
    if (!list)
        return false;
    size_t count = list->u.list.count;
    if (!count)
        return true;
    evgen_tvalue *loop = evgen_tv_map();
    evgen_tvalue *first = evgen_tv_bool(false), *last = evgen_tv_bool(false);
    evgen_tvalue *index = new_value(TV_STRING);
    enum { INDEX_SIZE = 24 }; /* a size_t in decimal */
    index->u.string = evgen_xmalloc(INDEX_SIZE);
    evgen_tv_map_set(loop, "first", first);
    evgen_tv_map_set(loop, "last", last);
    evgen_tv_map_set(loop, "index", index);
    frame *f = &r->frames[r->depth++];
    f->var = n->u.loop.var;
    f->loop = loop;
    bool ok = true;
    for (size_t i = 0; ok && i < count; i++) {
        f->item = list->u.list.items[i];
        first->u.boolean = i == 0;
        last->u.boolean = i + 1 == count;
        snprintf(index->u.string, INDEX_SIZE, "%zu", i);
        ok = render_list(r, &n->u.loop.body);
    }
    r->depth--;
    evgen_tv_free(loop);
    return ok;
}

static bool render_if(renderer *r, const node *n)
{
    for (size_t b = 0; b < n->u.cond.n_branches; b++) {
        const branch *br = &n->u.cond.branches[b];
        if (br->has_cond) {
            const evgen_tvalue *v = resolve(r, &br->path);
            if (!v)
                return false;
            if (truthy(v) == br->negate)
                continue;
        }
        return render_list(r, &br->body);
    }
    return true;
}

static bool render_list(renderer *r, const node_list *l)
{
    for (size_t i = 0; i < l->count; i++) {
        const node *n = &l->items[i];
        bool ok = true;
        switch (n->kind) {
        case N_TEXT: evgen_sb_putn(&r->out, n->u.text.s, n->u.text.len); break;
        case N_PRINT: ok = render_print(r, n); break;
        case N_FOR: ok = render_for(r, n); break;
        case N_IF: ok = render_if(r, n); break;
        }
        if (!ok)
            return false;
    }
    return true;
}

char *evgen_template_render(const evgen_template *t, const evgen_tvalue *context, evgen_diags *diags)
{
    if (context && context->kind != TV_MAP)
        misuse("evgen_template_render needs a map (or NULL) as its context");
    renderer r = {.t = t, .root = context, .diags = diags};
    evgen_sb_init(&r.out);
    if (!render_list(&r, &t->body)) {
        evgen_sb_free(&r.out);
        return NULL;
    }
    return evgen_sb_take(&r.out);
}
