/* test_template.c — the template engine (gen/backends/template.h): substitution, nested maps,
 * loops and their scopes, conditions, filters, the tag-line whitespace rule, comments, and every syntax and
 * render error at its exact name:line:col. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backends/template.h"
#include "model/diag.h"
#include "model/util.h"

#define NAME "t.tmpl"

/* ---- helpers ------------------------------------------------------------------------------- */

static void print_diags(const evgen_diags *d)
{
    evgen_diags_print(d, stderr);
}

/* Parses and renders `text` with `ctx`; fails the test on any diagnostic. Caller frees. */
static char *render(const char *text, const evgen_tvalue *ctx)
{
    evgen_diags diags;
    evgen_diags_init(&diags);
    evgen_template *t = evgen_template_parse(NAME, text, &diags);
    if (!t) {
        print_diags(&diags);
        fail_msg("template did not parse");
    }
    char *out = evgen_template_render(t, ctx, &diags);
    if (!out || diags.count) {
        print_diags(&diags);
        fail_msg("template did not render cleanly");
    }
    evgen_template_free(t);
    evgen_diags_free(&diags);
    return out;
}

static void expect_render(const char *text, const evgen_tvalue *ctx, const char *expected)
{
    char *out = render(text, ctx);
    if (strcmp(out, expected) != 0)
        fail_msg("template:\n%s\nexpected:\n[%s]\ngot:\n[%s]", text, expected, out);
    free(out);
}

/* The diagnostics, formatted as printed, one per line. */
static char *format_diags(const evgen_diags *d)
{
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    for (size_t i = 0; i < d->count; i++) {
        char *line = evgen_diag_format(&d->items[i]);
        evgen_sb_printf(&sb, "%s\n", line);
        free(line);
    }
    return evgen_sb_take(&sb);
}

static void check_diags(const evgen_diags *d, const char *expected)
{
    assert_int_equal(d->n_errors, 1);
    assert_int_equal(d->items[0].code, EVGEN_D_TEMPLATE);
    assert_string_equal(d->items[0].file, NAME);
    char *got = format_diags(d);
    if (strcmp(got, expected) != 0)
        fail_msg("expected:\n%sgot:\n%s", expected, got);
    free(got);
}

/* `expected` is the exact printed diagnostics, e.g. "t.tmpl:1:4: error: ... [template]\n". */
static void expect_parse_error(const char *text, const char *expected)
{
    evgen_diags diags;
    evgen_diags_init(&diags);
    evgen_template *t = evgen_template_parse(NAME, text, &diags);
    if (t)
        fail_msg("template parsed, expected:\n%s", expected);
    check_diags(&diags, expected);
    evgen_diags_free(&diags);
}

static void expect_render_error(const char *text, const evgen_tvalue *ctx, const char *expected)
{
    evgen_diags diags;
    evgen_diags_init(&diags);
    evgen_template *t = evgen_template_parse(NAME, text, &diags);
    if (!t) {
        print_diags(&diags);
        fail_msg("template did not parse");
    }
    char *out = evgen_template_render(t, ctx, &diags);
    if (out)
        fail_msg("template rendered [%s], expected:\n%s", out, expected);
    check_diags(&diags, expected);
    evgen_template_free(t);
    evgen_diags_free(&diags);
}

static evgen_tvalue *string_list(const char *const *items)
{
    evgen_tvalue *l = evgen_tv_list();
    for (; *items; items++)
        evgen_tv_list_add(l, evgen_tv_string(*items));
    return l;
}

static evgen_tvalue *param(const char *type, const char *name)
{
    evgen_tvalue *m = evgen_tv_map();
    evgen_tv_map_set(m, "type", evgen_tv_string(type));
    evgen_tv_map_set(m, "name", evgen_tv_string(name));
    return m;
}

/* name, flag, empty, items [a, b, c], event {name, id, type {c_type}, fields [{name, type}...]} */
static evgen_tvalue *sample_context(void)
{
    static const char *const abc[] = {"a", "b", "c", NULL};
    evgen_tvalue *ctx = evgen_tv_map();
    evgen_tv_map_set(ctx, "name", evgen_tv_string("root"));
    evgen_tv_map_set(ctx, "flag", evgen_tv_bool(true));
    evgen_tv_map_set(ctx, "empty", evgen_tv_string(""));
    evgen_tv_map_set(ctx, "items", string_list(abc));
    evgen_tvalue *event = evgen_tv_map();
    evgen_tv_map_set(event, "name", evgen_tv_string("GCHeapStats"));
    evgen_tv_map_set(event, "id", evgen_tv_stringf("%d", 4));
    evgen_tvalue *type = evgen_tv_map();
    evgen_tv_map_set(type, "c_type", evgen_tv_string("uint64_t"));
    evgen_tv_map_set(event, "type", type);
    evgen_tvalue *fields = evgen_tv_list();
    evgen_tv_list_add(fields, param("uint64_t", "GenerationSize0"));
    evgen_tv_list_add(fields, param("uint16_t", "ClrInstanceID"));
    evgen_tv_map_set(event, "fields", fields);
    evgen_tv_map_set(ctx, "event", event);
    return ctx;
}

/* ---- substitution and values --------------------------------------------------------------- */

static void test_substitution(void **state)
{
    (void)state;
    evgen_tvalue *ctx = sample_context();
    expect_render("", ctx, "");
    expect_render("no tags at all { } %} #} }}\n", ctx, "no tags at all { } %} #} }}\n");
    expect_render("Hello {{ name }}!", ctx, "Hello root!");
    expect_render("{{name}}{{  name  }}\t{{\tname\t}}", ctx, "rootroot\troot");
    expect_render("[{{ empty }}]", ctx, "[]");
    expect_render("a lone { at the end {", ctx, "a lone { at the end {");
    expect_render("#define ID_{{ event.name }} {{ event.id }}\n", ctx, "#define ID_GCHeapStats 4\n");
    /* A NULL context is an empty one. */
    expect_render("plain\n", NULL, "plain\n");
    evgen_tv_free(ctx);
}

static void test_nested_maps(void **state)
{
    (void)state;
    evgen_tvalue *ctx = sample_context();
    expect_render("{{ event.type.c_type }} {{ event.name }}", ctx, "uint64_t GCHeapStats");
    /* Setting a key again replaces its value. */
    evgen_tv_map_set(ctx, "name", evgen_tv_string("again"));
    expect_render("{{ name }}", ctx, "again");
    evgen_tv_free(ctx);
}

static void test_big_map(void **state)
{
    (void)state;
    /* Past the linear-search size the map is indexed; lookups and replacements still work. */
    evgen_tvalue *ctx = evgen_tv_map();
    for (int i = 0; i < 300; i++) {
        char key[16];
        snprintf(key, sizeof key, "k%d", i);
        evgen_tv_map_set(ctx, key, evgen_tv_stringf("v%d", i));
    }
    evgen_tv_map_set(ctx, "k5", evgen_tv_string("five"));
    evgen_tv_map_set(ctx, "k250", evgen_tv_string("two-fifty"));
    expect_render("{{ k0 }} {{ k5 }} {{ k8 }} {{ k9 }} {{ k123 }} {{ k250 }} {{ k299 }}", ctx,
                  "v0 five v8 v9 v123 two-fifty v299");
    expect_render_error("{{ k300 }}", ctx, NAME ":1:4: error: unknown variable 'k300' [template]\n");
    evgen_tv_free(ctx);
}

/* ---- loops ----------------------------------------------------------------------------------- */

static void test_loops(void **state)
{
    (void)state;
    evgen_tvalue *ctx = sample_context();
    evgen_tvalue *params = evgen_tv_list();
    evgen_tv_list_add(params, param("uint32_t", "a"));
    evgen_tv_list_add(params, param("uint16_t", "b"));
    evgen_tv_list_add(params, param("const evgen_char16 *", "c"));
    evgen_tv_map_set(ctx, "params", params);
    evgen_tv_map_set(ctx, "none", evgen_tv_list());

    expect_render("f({% for x in items %}{{ x }}{% if not loop.last %}, {% endif %}{% endfor %});", ctx,
                  "f(a, b, c);");
    expect_render("void f({% for p in params %}{{ p.type }} {{ p.name }}{% if not loop.last %}, {% endif %}"
                  "{% endfor %});",
                  ctx, "void f(uint32_t a, uint16_t b, const evgen_char16 * c);");
    expect_render("{% for x in items %}{% if loop.first %}[{% endif %}{{ loop.index }}={{ x }}"
                  "{% if loop.last %}]{% else %} {% endif %}{% endfor %}",
                  ctx, "[0=a 1=b 2=c]");
    expect_render("<{% for x in none %}never{% endfor %}>", ctx, "<>");
    /* A one-item list: the item is both first and last. */
    static const char *const one[] = {"only", NULL};
    evgen_tv_map_set(ctx, "one", string_list(one));
    expect_render("{% for x in one %}{% if loop.first %}F{% endif %}{% if loop.last %}L{% endif %}{% endfor %}", ctx,
                  "FL");
    /* Indexes past 9, and a loop rendered twice with the same template. */
    evgen_tvalue *many = evgen_tv_list();
    for (int i = 0; i < 12; i++)
        evgen_tv_list_add(many, evgen_tv_stringf("%c", 'a' + i));
    evgen_tv_map_set(ctx, "many", many);
    evgen_diags diags;
    evgen_diags_init(&diags);
    evgen_template *t = evgen_template_parse(NAME, "{% for x in many %}{{ loop.index }}{{ x }} {% endfor %}", &diags);
    assert_non_null(t);
    for (int round = 0; round < 2; round++) {
        char *out = evgen_template_render(t, ctx, &diags);
        assert_string_equal(out, "0a 1b 2c 3d 4e 5f 6g 7h 8i 9j 10k 11l ");
        free(out);
    }
    assert_int_equal(diags.count, 0);
    evgen_template_free(t);
    evgen_diags_free(&diags);
    evgen_tv_free(ctx);
}

static void test_nested_loop_scopes(void **state)
{
    (void)state;
    evgen_tvalue *ctx = evgen_tv_map();
    evgen_tv_map_set(ctx, "name", evgen_tv_string("root"));
    evgen_tvalue *events = evgen_tv_list();
    for (int e = 0; e < 2; e++) {
        evgen_tvalue *ev = evgen_tv_map();
        evgen_tv_map_set(ev, "name", evgen_tv_stringf("E%d", e));
        evgen_tvalue *fields = evgen_tv_list();
        for (int f = 0; f <= e; f++) {
            evgen_tvalue *fm = evgen_tv_map();
            evgen_tv_map_set(fm, "name", evgen_tv_stringf("F%d", f));
            evgen_tv_list_add(fields, fm);
        }
        evgen_tv_map_set(ev, "fields", fields);
        evgen_tv_list_add(events, ev);
    }
    evgen_tv_map_set(ctx, "events", events);
    static const char *const outer[] = {"o1", "o2", NULL};
    static const char *const inner[] = {"i1", "i2", NULL};
    evgen_tv_map_set(ctx, "outer", string_list(outer));
    evgen_tv_map_set(ctx, "inner", string_list(inner));

    /* The inner loop sees the outer loop's variable and the root; `loop` is the innermost. */
    expect_render("{% for event in events %}\n"
                  "{% for field in event.fields %}\n"
                  "{{ name }}/{{ event.name }}.{{ field.name }} {{ loop.index }}{% if loop.last %} last{% endif %}\n"
                  "{% endfor %}\n"
                  "{{ event.name }} is {{ loop.index }}\n"
                  "{% endfor %}\n",
                  ctx,
                  "root/E0.F0 0 last\n"
                  "E0 is 0\n"
                  "root/E1.F0 0\n"
                  "root/E1.F1 1 last\n"
                  "E1 is 1\n");
    /* A loop variable shadows an outer one of the same name and the root, and only inside. */
    expect_render("{% for x in outer %}{{ x }}:{% for x in inner %}{{ x }},{% endfor %}{{ x }};{% endfor %}", ctx,
                  "o1:i1,i2,o1;o2:i1,i2,o2;");
    expect_render("{{ name }} {% for name in outer %}{{ name }} {% endfor %}{{ name }}", ctx, "root o1 o2 root");
    evgen_tv_free(ctx);
}

static void test_loop_over_lists_and_bools(void **state)
{
    (void)state;
    evgen_tvalue *ctx = evgen_tv_map();
    evgen_tvalue *rows = evgen_tv_list();
    static const char *const r0[] = {"a", "b", NULL};
    static const char *const r1[] = {"c", NULL};
    evgen_tv_list_add(rows, string_list(r0));
    evgen_tv_list_add(rows, string_list(r1));
    evgen_tv_list_add(rows, evgen_tv_list());
    evgen_tv_map_set(ctx, "rows", rows);
    evgen_tvalue *bools = evgen_tv_list();
    evgen_tv_list_add(bools, evgen_tv_bool(true));
    evgen_tv_list_add(bools, evgen_tv_bool(false));
    evgen_tv_map_set(ctx, "bools", bools);
    expect_render("{% for row in rows %}{% for c in row %}{{ c }}{% endfor %}{% if not row %}-{% endif %};{% endfor %}",
                  ctx, "ab;c;-;");
    expect_render("{% for b in bools %}{% if b %}T{% else %}F{% endif %}{% endfor %}", ctx, "TF");
    evgen_tv_free(ctx);
}

/* ---- conditions ------------------------------------------------------------------------------ */

static evgen_tvalue *truth_context(void)
{
    static const char *const one[] = {"x", NULL};
    evgen_tvalue *ctx = evgen_tv_map();
    evgen_tv_map_set(ctx, "t", evgen_tv_bool(true));
    evgen_tv_map_set(ctx, "f", evgen_tv_bool(false));
    evgen_tv_map_set(ctx, "s", evgen_tv_string("x"));
    evgen_tv_map_set(ctx, "e", evgen_tv_string(""));
    evgen_tv_map_set(ctx, "l", string_list(one));
    evgen_tv_map_set(ctx, "el", evgen_tv_list());
    evgen_tv_map_set(ctx, "m", evgen_tv_map());
    return ctx;
}

static void test_conditions(void **state)
{
    (void)state;
    evgen_tvalue *ctx = truth_context();
    /* Truthiness: bool, non-empty string, non-empty list, any map (even empty). */
    expect_render("{% if t %}t{% endif %}{% if f %}f{% endif %}{% if s %}s{% endif %}{% if e %}e{% endif %}"
                  "{% if l %}l{% endif %}{% if el %}el{% endif %}{% if m %}m{% endif %}",
                  ctx, "tslm");
    expect_render("{% if not t %}t{% endif %}{% if not f %}f{% endif %}{% if not s %}s{% endif %}"
                  "{% if not e %}e{% endif %}{% if not l %}l{% endif %}{% if not el %}el{% endif %}"
                  "{% if not m %}m{% endif %}",
                  ctx, "feel");
    expect_render("{% if f %}1{% elif e %}2{% elif not s %}3{% elif l %}4{% else %}5{% endif %}", ctx, "4");
    expect_render("{% if f %}1{% elif e %}2{% else %}3{% endif %}", ctx, "3");
    expect_render("{% if t %}1{% elif s %}2{% else %}3{% endif %}", ctx, "1");
    expect_render("{% if f %}1{% elif not f %}2{% endif %}", ctx, "2");
    expect_render("[{% if f %}1{% elif e %}2{% endif %}]", ctx, "[]");
    expect_render("{% if t %}{% if f %}a{% else %}b{% endif %}{% else %}c{% endif %}", ctx, "b");
    /* A name that merely starts with "not" is a name. */
    evgen_tv_map_set(ctx, "nothing", evgen_tv_bool(true));
    evgen_tv_map_set(ctx, "notx", evgen_tv_string(""));
    expect_render("{% if nothing %}1{% endif %}{% if not notx %}2{% endif %}", ctx, "12");
    evgen_tv_free(ctx);
}

/* ---- filters --------------------------------------------------------------------------------- */

static void test_filters(void **state)
{
    (void)state;
    evgen_tvalue *ctx = evgen_tv_map();
    evgen_tv_map_set(ctx, "mixed", evgen_tv_string("GcHeap_stats-2"));
    evgen_tv_map_set(ctx, "provider", evgen_tv_string("Microsoft-Windows-DotNETRuntime"));
    evgen_tv_map_set(ctx, "digit", evgen_tv_string("2fast"));
    evgen_tv_map_set(ctx, "empty", evgen_tv_string(""));
    evgen_tv_map_set(ctx, "nasty", evgen_tv_string("say \"hi\"\\ \n\t\r\x01\x1f\x7f\xc3\xa9 ?\?= ?\? ?"));
    evgen_tv_map_set(ctx, "octal", evgen_tv_string("\x01" "2"));
    expect_render("{{ mixed | upper }} {{ mixed | lower }}", ctx, "GCHEAP_STATS-2 gcheap_stats-2");
    expect_render("{{ provider | c_ident }} {{ digit | c_ident }} {{ empty | c_ident }}", ctx,
                  "Microsoft_Windows_DotNETRuntime _2fast _");
    expect_render("{{ provider | c_ident | upper }}", ctx, "MICROSOFT_WINDOWS_DOTNETRUNTIME");
    expect_render("{{ provider|lower|c_ident|upper|c_string }}", ctx, "\"MICROSOFT_WINDOWS_DOTNETRUNTIME\"");
    expect_render("{{ nasty | c_string }}", ctx,
                  "\"say \\\"hi\\\"\\\\ \\n\\t\\r\\001\\037\\177\\303\\251 ?\\?= ?\\? ?\"");
    /* A 3-digit octal escape cannot swallow the digit after it. */
    expect_render("{{ octal | c_string }}", ctx, "\"\\0012\"");
    expect_render("{{ empty | c_string }}", ctx, "\"\"");
    evgen_tv_free(ctx);
}

/* ---- whitespace and comments ------------------------------------------------------------------ */

static void test_tag_lines_vanish(void **state)
{
    (void)state;
    evgen_tvalue *ctx = sample_context();
    expect_render("int f(void)\n"
                  "{\n"
                  "    {% for x in items %}\n"
                  "    {# one call per item #}\n"
                  "    use({{ x }});\n"
                  "    {% endfor %}\n"
                  "    return 0;\n"
                  "}\n",
                  ctx,
                  "int f(void)\n"
                  "{\n"
                  "    use(a);\n"
                  "    use(b);\n"
                  "    use(c);\n"
                  "    return 0;\n"
                  "}\n");
    /* Several tags on one line, tabs, a last line without newline, a multi-line comment. */
    expect_render("A\n\t{% if flag %}  {% if flag %}\t\nB\n{% endif %}{% endif %}", ctx, "A\nB\n");
    expect_render("A\n  {# a comment\n     over two lines #}  \nB\n", ctx, "A\nB\n");
    /* Blank and space-only lines are text. */
    expect_render("\n  \n{% if flag %}\n\n{% endif %}\n", ctx, "\n  \n\n");
    /* CRLF line ends. */
    expect_render("{% if flag %}\r\nB\r\n{% endif %}\r\n", ctx, "B\r\n");
    /* A false block on its own lines leaves nothing either. */
    expect_render("A\n{% if not flag %}\nB\n{% endif %}\nC\n", ctx, "A\nC\n");
    evgen_tv_free(ctx);
}

static void test_inline_tags_keep_their_line(void **state)
{
    (void)state;
    evgen_tvalue *ctx = sample_context();
    expect_render("a{% if flag %}b{% endif %}c\n", ctx, "abc\n");
    expect_render("  {% if not flag %}x{% endif %}  \n", ctx, "    \n");
    expect_render("{% if flag %} x\n{% endif %}\n", ctx, " x\n");
    expect_render("  {{ name }}\n", ctx, "  root\n");
    expect_render("{% if flag %}{{ name }}{% endif %}\n", ctx, "root\n");
    expect_render("{% if not flag %}{{ name }}{% endif %}\n", ctx, "\n");
    expect_render("x {# note #}\n", ctx, "x \n");
    evgen_tv_free(ctx);
}

static void test_comments(void **state)
{
    (void)state;
    evgen_tvalue *ctx = sample_context();
    expect_render("a{# gone #}b", ctx, "ab");
    expect_render("a{# {{ not_a_variable }} {% if %} %} }} #}b", ctx, "ab");
    expect_render("a{#\nspans\nlines\n#}b {{ name }}", ctx, "ab root");
    expect_render("{##}x", ctx, "x");
    evgen_tv_free(ctx);
}

/* ---- syntax errors ---------------------------------------------------------------------------- */

static void test_unterminated_tags(void **state)
{
    (void)state;
    expect_parse_error("ab {{ x", NAME ":1:4: error: unterminated '{{': expected '}}' on the same line [template]\n");
    expect_parse_error("x {{ y\n}}", NAME ":1:3: error: unterminated '{{': expected '}}' on the same line [template]\n");
    expect_parse_error("{{", NAME ":1:1: error: unterminated '{{': expected '}}' on the same line [template]\n");
    expect_parse_error("{{ x }", NAME ":1:1: error: unterminated '{{': expected '}}' on the same line [template]\n");
    expect_parse_error("{% if x\n%}", NAME ":1:1: error: unterminated '{%': expected '%}' on the same line [template]\n");
    expect_parse_error("  {% endif", NAME ":1:3: error: unterminated '{%': expected '%}' on the same line [template]\n");
    expect_parse_error("a\n  {# never closed\n", NAME ":2:3: error: unterminated comment: expected '#}' [template]\n");
    expect_parse_error("{#}", NAME ":1:1: error: unterminated comment: expected '#}' [template]\n");
    /* Lines are counted through multi-line comments. */
    expect_parse_error("{# a\nb #} {{ }}", NAME ":2:9: error: expected a variable name after '{{' [template]\n");
}

static void test_bad_expressions(void **state)
{
    (void)state;
    expect_parse_error("{{ }}", NAME ":1:4: error: expected a variable name after '{{' [template]\n");
    expect_parse_error("{{}}", NAME ":1:3: error: expected a variable name after '{{' [template]\n");
    expect_parse_error("{{ 1x }}", NAME ":1:4: error: expected a variable name after '{{', found '1x' [template]\n");
    expect_parse_error("{{ event. }}", NAME ":1:10: error: expected a name after '.' [template]\n");
    expect_parse_error("{{ event.1 }}", NAME ":1:10: error: expected a name after '.', found '1' [template]\n");
    expect_parse_error("{{ a..b }}", NAME ":1:6: error: expected a name after '.', found '.' [template]\n");
    expect_parse_error("{{ .a }}", NAME ":1:4: error: expected a variable name after '{{', found '.' [template]\n");
    expect_parse_error("{{ x | }}", NAME ":1:8: error: expected a filter name after '|' [template]\n");
    expect_parse_error("{{ | upper }}", NAME ":1:4: error: expected a variable name after '{{', found '|' [template]\n");
    expect_parse_error("{{ x | shout }}",
                       NAME ":1:8: error: unknown filter 'shout' (filters: upper, lower, c_string, c_ident) [template]\n");
    expect_parse_error("{{ x | upper lower }}", NAME ":1:14: error: expected '|' or '}}', found 'lower' [template]\n");
    expect_parse_error("{{ x y }}", NAME ":1:6: error: expected '|' or '}}', found 'y' [template]\n");
    expect_parse_error("{{ x-y }}", NAME ":1:5: error: expected '|' or '}}', found '-' [template]\n");
    expect_parse_error("{{ x\x01 }}", NAME ":1:5: error: expected '|' or '}}', found byte 0x01 [template]\n");
}

static void test_bad_block_tags(void **state)
{
    (void)state;
    expect_parse_error("{% %}", NAME ":1:1: error: empty '{% %}' tag [template]\n");
    expect_parse_error("x\n  {%%}", NAME ":2:3: error: empty '{% %}' tag [template]\n");
    expect_parse_error("{% fi x %}",
                       NAME ":1:4: error: unknown tag 'fi': expected for, endfor, if, elif, else or endif [template]\n");
    expect_parse_error("{%- if x %}",
                       NAME ":1:3: error: expected for, endfor, if, elif, else or endif, found '-' [template]\n");
    expect_parse_error("{% for %}", NAME ":1:8: error: expected a loop variable name after 'for' [template]\n");
    expect_parse_error("{% for x %}", NAME ":1:10: error: expected 'in' after 'for x' [template]\n");
    expect_parse_error("{% for x on xs %}", NAME ":1:10: error: expected 'in' after 'for x', found 'on' [template]\n");
    expect_parse_error("{% for x.y in xs %}", NAME ":1:9: error: expected 'in' after 'for x', found '.' [template]\n");
    expect_parse_error("{% for loop in xs %}", NAME ":1:8: error: 'loop' cannot be a loop variable: it holds "
                                               "loop.first, loop.last and loop.index [template]\n");
    expect_parse_error("{% for x in %}", NAME ":1:13: error: expected a variable name after 'in' [template]\n");
    expect_parse_error("{% for x in xs ys %}", NAME ":1:16: error: expected '%}' after 'xs', found 'ys' [template]\n");
    expect_parse_error("{% if %}", NAME ":1:7: error: expected a variable name after 'if' [template]\n");
    expect_parse_error("{% if not %}", NAME ":1:11: error: expected a variable name after 'not' [template]\n");
    expect_parse_error("{% if a b %}{% endif %}", NAME ":1:9: error: expected '%}' after 'a', found 'b' [template]\n");
    expect_parse_error("{% if a %}{% elif %}{% endif %}",
                       NAME ":1:19: error: expected a variable name after 'elif' [template]\n");
    expect_parse_error("{% if a %}{% else a %}{% endif %}",
                       NAME ":1:19: error: expected '%}' after 'else', found 'a' [template]\n");
    expect_parse_error("{% if a %}{% endif x %}", NAME ":1:20: error: expected '%}' after 'endif', found 'x' [template]\n");
}

static void test_unmatched_blocks(void **state)
{
    (void)state;
    expect_parse_error("{% else %}", NAME ":1:1: error: 'else' without a matching 'if' [template]\n");
    expect_parse_error("{% elif x %}", NAME ":1:1: error: 'elif' without a matching 'if' [template]\n");
    expect_parse_error("a\n{% endif %}\n", NAME ":2:1: error: 'endif' without a matching 'if' [template]\n");
    expect_parse_error("{% endfor %}", NAME ":1:1: error: 'endfor' without a matching 'for' [template]\n");
    expect_parse_error("{% for x in xs %}{% else %}{% endfor %}",
                       NAME ":1:18: error: 'else' without a matching 'if' [template]\n");
    expect_parse_error("{% if a %}{% endif %}{% endif %}",
                       NAME ":1:22: error: 'endif' without a matching 'if' [template]\n");
    /* Crossed blocks: the error names the block still open and a note points at it. */
    expect_parse_error("{% if a %}\n{% for x in xs %}\n{% endif %}\n",
                       NAME ":3:1: error: 'endif' inside an unclosed 'for': expected '{% endfor %}' first [template]\n" NAME
                            ":2:1: note: the 'for' opened here\n");
    expect_parse_error("{% for x in xs %}\n  {% if a %}\n  {% endfor %}\n",
                       NAME ":3:3: error: 'endfor' inside an unclosed 'if': expected '{% endif %}' first [template]\n" NAME
                            ":2:3: note: the 'if' opened here\n");
    expect_parse_error("{% if a %}{% for x in xs %}{% else %}",
                       NAME ":1:28: error: 'else' inside an unclosed 'for': expected '{% endfor %}' first [template]\n" NAME
                            ":1:11: note: the 'for' opened here\n");
    expect_parse_error("{% if a %}x{% else %}y{% else %}z{% endif %}",
                       NAME ":1:23: error: 'else' after 'else' [template]\n" NAME ":1:12: note: the 'else' is here\n");
    expect_parse_error("{% if a %}{% else %}{% elif b %}{% endif %}",
                       NAME ":1:21: error: 'elif' after 'else' [template]\n" NAME ":1:11: note: the 'else' is here\n");
    /* Blocks left open at the end: the innermost is reported, once. */
    expect_parse_error("line1\n{% for x in xs %}\n{% if x %}\n{% endif %}\n",
                       NAME ":2:1: error: 'for' without a matching 'endfor' [template]\n");
    expect_parse_error("{% for x in xs %}\n  {% if x %}\n", NAME ":2:3: error: 'if' without a matching 'endif' [template]\n");
}

static void test_nesting_limit(void **state)
{
    (void)state;
    evgen_tvalue *ctx = evgen_tv_map();
    evgen_tv_map_set(ctx, "a", evgen_tv_bool(true));
    evgen_strbuf sb;
    evgen_sb_init(&sb);
    for (int i = 0; i < EVGEN_TEMPLATE_MAX_DEPTH; i++)
        evgen_sb_puts(&sb, "{% if a %}\n");
    evgen_sb_puts(&sb, "deep\n");
    for (int i = 0; i < EVGEN_TEMPLATE_MAX_DEPTH; i++)
        evgen_sb_puts(&sb, "{% endif %}\n");
    expect_render(sb.data, ctx, "deep\n");
    evgen_sb_free(&sb);

    for (int i = 0; i <= EVGEN_TEMPLATE_MAX_DEPTH; i++)
        evgen_sb_puts(&sb, i % 2 ? "{% if a %}\n" : "{% for x in xs %}\n");
    char *expected = evgen_xasprintf(NAME ":%d:1: error: blocks nested more than %d deep [template]\n",
                                     EVGEN_TEMPLATE_MAX_DEPTH + 1, EVGEN_TEMPLATE_MAX_DEPTH);
    expect_parse_error(sb.data, expected);
    free(expected);
    evgen_sb_free(&sb);

    /* Far past the limit: still one clear error, no stack exhaustion. */
    for (int i = 0; i < 100000; i++)
        evgen_sb_puts(&sb, "{% if a %}");
    expect_parse_error(sb.data, NAME ":1:641: error: blocks nested more than 64 deep [template]\n");
    evgen_sb_free(&sb);
    evgen_tv_free(ctx);
}

/* ---- render errors ------------------------------------------------------------------------------ */

static void test_render_errors(void **state)
{
    (void)state;
    evgen_tvalue *ctx = sample_context();
    expect_render_error("{{ nope }}", ctx, NAME ":1:4: error: unknown variable 'nope' [template]\n");
    expect_render_error("{{ nope.deeper }}", ctx, NAME ":1:4: error: unknown variable 'nope' [template]\n");
    expect_render_error("x\n  {{ event.nme }}", ctx, NAME ":2:12: error: 'event' has no key 'nme' [template]\n");
    expect_render_error("{{ event.type.size }}", ctx, NAME ":1:15: error: 'event.type' has no key 'size' [template]\n");
    expect_render_error("{{ event.name.x }}", ctx,
                        NAME ":1:15: error: 'event.name' is a string, not a map: it has no key 'x' [template]\n");
    expect_render_error("{{ items.first }}", ctx,
                        NAME ":1:10: error: 'items' is a list, not a map: it has no key 'first' [template]\n");
    expect_render_error("{{ items }}", ctx, NAME ":1:4: error: cannot print 'items': it is a list, not a string [template]\n");
    expect_render_error("{{ flag }}", ctx, NAME ":1:4: error: cannot print 'flag': it is a bool, not a string [template]\n");
    expect_render_error("{{ event | upper }}", ctx,
                        NAME ":1:4: error: cannot print 'event': it is a map, not a string [template]\n");
    expect_render_error("{% for x in name %}{% endfor %}", ctx,
                        NAME ":1:13: error: cannot loop over 'name': it is a string, not a list [template]\n");
    expect_render_error("{% for x in event %}{% endfor %}", ctx,
                        NAME ":1:13: error: cannot loop over 'event': it is a map, not a list [template]\n");
    expect_render_error("{% for x in flag %}{% endfor %}", ctx,
                        NAME ":1:13: error: cannot loop over 'flag': it is a bool, not a list [template]\n");
    expect_render_error("{% for x in ghosts %}{% endfor %}", ctx, NAME ":1:13: error: unknown variable 'ghosts' [template]\n");
    expect_render_error("{% if ghost %}{% endif %}", ctx, NAME ":1:7: error: unknown variable 'ghost' [template]\n");
    expect_render_error("{% if not flag %}{% elif ghost %}{% endif %}", ctx,
                        NAME ":1:26: error: unknown variable 'ghost' [template]\n");
    expect_render_error("{% for x in items %}{{ loop.count }}{% endfor %}", ctx,
                        NAME ":1:29: error: 'loop' has no key 'count' [template]\n");
    expect_render_error("{{ loop.index }}", ctx, NAME ":1:4: error: unknown variable 'loop' [template]\n");
    expect_render_error("{% for x in items %}{{ loop }}{% endfor %}", ctx,
                        NAME ":1:24: error: cannot print 'loop': it is a map, not a string [template]\n");
    expect_render_error("{% for x in items %}{% endfor %}{{ x }}", ctx, NAME ":1:36: error: unknown variable 'x' [template]\n");
    /* The first error, on the first iteration that meets it, stops the render. */
    evgen_tvalue *list = evgen_tv_list();
    evgen_tv_list_add(list, param("uint8_t", "ok"));
    evgen_tv_list_add(list, evgen_tv_map());
    evgen_tv_list_add(list, evgen_tv_map());
    evgen_tv_map_set(ctx, "list", list);
    expect_render_error("{% for p in list %}\n  {{ p.name }}\n{% endfor %}\n", ctx,
                        NAME ":2:8: error: 'p' has no key 'name' [template]\n");
    evgen_tv_free(ctx);
}

/* ---- robustness: no crash and no out-of-bounds read on any broken template ------------------- */

static void parse_and_render_anything(const char *text, const evgen_tvalue *ctx)
{
    evgen_diags diags;
    evgen_diags_init(&diags);
    evgen_template *t = evgen_template_parse(NAME, text, &diags);
    if (!t) {
        assert_int_equal(diags.n_errors, 1);
    } else {
        assert_int_equal(diags.count, 0);
        char *out = evgen_template_render(t, ctx, &diags);
        assert_true(out ? diags.count == 0 : diags.n_errors == 1);
        free(out);
        evgen_template_free(t);
    }
    evgen_diags_free(&diags);
}

static void test_every_prefix_and_mutation(void **state)
{
    (void)state;
    static const char text[] = "/* {{ name | c_string }} */\n"
                               "{% for x in items %}\n"
                               "  {# comment #}\n"
                               "  f({{ x | upper }}){% if not loop.last %},{% elif flag %};{% else %}.{% endif %}\n"
                               "  {% for f in event.fields %}{{ f.name | c_ident }} {{ loop.index }}{% endfor %}\n"
                               "{% endfor %}\n";
    static const char specials[] = "{}%#.| \n\x01";
    evgen_tvalue *ctx = sample_context();
    size_t len = sizeof text - 1;
    /* Each prefix in a buffer of its exact size, so a read past the end is caught by ASan. */
    for (size_t n = 0; n <= len; n++) {
        char *copy = evgen_xstrndup(text, n);
        parse_and_render_anything(copy, ctx);
        free(copy);
    }
    for (size_t i = 0; i < len; i++) {
        for (const char *s = specials; *s; s++) {
            char *copy = evgen_xstrdup(text);
            copy[i] = *s;
            parse_and_render_anything(copy, ctx);
            free(copy);
        }
    }
    evgen_tv_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_substitution),
        cmocka_unit_test(test_nested_maps),
        cmocka_unit_test(test_big_map),
        cmocka_unit_test(test_loops),
        cmocka_unit_test(test_nested_loop_scopes),
        cmocka_unit_test(test_loop_over_lists_and_bools),
        cmocka_unit_test(test_conditions),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_tag_lines_vanish),
        cmocka_unit_test(test_inline_tags_keep_their_line),
        cmocka_unit_test(test_comments),
        cmocka_unit_test(test_unterminated_tags),
        cmocka_unit_test(test_bad_expressions),
        cmocka_unit_test(test_bad_block_tags),
        cmocka_unit_test(test_unmatched_blocks),
        cmocka_unit_test(test_nesting_limit),
        cmocka_unit_test(test_render_errors),
        cmocka_unit_test(test_every_prefix_and_mutation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
