/* test_cli_help.c — evgen's command-line conventions, run as a program: --help, -h and help CMD of
 * every command, -V/--version, usage errors naming the option and pointing at --help, every spelling
 * of the options, and docs/evgen.1 listing exactly the options each command's --help prints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_support.h"

#define GCEVENTS EVGEN_SOURCE_DIR "/manifest/gcevents.h"

static const char *const commands[] = {"describe", "check", "lock", "gen", "dump", "convert", "export"};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

/* Runs evgen with up to 6 arguments (NULL ends them). */
static evgen_test_output evgen(const char *a1, const char *a2, const char *a3, const char *a4, const char *a5,
                        const char *a6)
{
    const char *argv[] = {EVGEN_EXE, a1, a2, a3, a4, a5, a6, NULL};
    return evgen_test_capture(argv, NULL);
}


/* A usage error: status 2, nothing on stdout, exactly `message` and the pointer to the help. */
static void assert_usage_error(evgen_test_output r, const char *command, const char *message)
{
    char *expected = command ? evgen_test_format("evgen %s: %s\nTry 'evgen %s --help'.\n", command, message, command)
                             : evgen_test_format("evgen: %s\nTry 'evgen --help'.\n", message);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, expected);
    free(expected);
    evgen_test_output_free(&r);
}

static void test_help_of_every_command(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_COMMANDS; i++) {
        evgen_test_output help = evgen(commands[i], "--help", NULL, NULL, NULL, NULL);
        assert_int_equal(help.status, 0);
        assert_string_equal(help.err, "");
        char *head = evgen_test_format("usage: evgen %s ", commands[i]);
        assert_true(strncmp(help.out, head, strlen(head)) == 0);
        free(head);
        evgen_test_output h = evgen(commands[i], "-h", NULL, NULL, NULL, NULL);
        evgen_test_output via_help = evgen("help", commands[i], NULL, NULL, NULL, NULL);
        evgen_test_output after = evgen(commands[i], GCEVENTS, "--help", NULL, NULL, NULL); /* after an operand */
        assert_int_equal(h.status, 0);
        assert_int_equal(via_help.status, 0);
        assert_int_equal(after.status, 0);
        assert_string_equal(h.out, help.out);
        assert_string_equal(via_help.out, help.out);
        assert_string_equal(after.out, help.out);
        evgen_test_output_free(&help);
        evgen_test_output_free(&h);
        evgen_test_output_free(&via_help);
        evgen_test_output_free(&after);
    }
    /* Each lists its own options only. */
    evgen_test_output r = evgen("describe", "--help", NULL, NULL, NULL, NULL);
    assert_non_null(strstr(r.out, "  --json "));
    assert_null(strstr(r.out, "--lock"));
    evgen_test_output_free(&r);
    r = evgen("check", "--help", NULL, NULL, NULL, NULL);
    assert_non_null(strstr(r.out, "  --against REV "));
    assert_null(strstr(r.out, "--json"));
    assert_null(strstr(r.out, "-o DIR"));
    evgen_test_output_free(&r);
    r = evgen("gen", "--help", NULL, NULL, NULL, NULL);
    assert_non_null(strstr(r.out, "  -o DIR "));
    assert_null(strstr(r.out, "--against"));
    evgen_test_output_free(&r);
}

static void test_general_help_and_version(void **state)
{
    (void)state;
    evgen_test_output help = evgen("--help", NULL, NULL, NULL, NULL, NULL);
    assert_int_equal(help.status, 0);
    assert_string_equal(help.err, "");
    assert_true(strncmp(help.out, "usage: evgen COMMAND", 20) == 0);
    for (size_t i = 0; i < N_COMMANDS; i++) {
        char *line = evgen_test_format("\n  %s ", commands[i]);
        assert_non_null(strstr(help.out, line));
        free(line);
    }
    static const char *const same[] = {"-h", "help"};
    for (size_t i = 0; i < 2; i++) {
        evgen_test_output r = evgen(same[i], NULL, NULL, NULL, NULL, NULL);
        assert_int_equal(r.status, 0);
        assert_string_equal(r.out, help.out);
        evgen_test_output_free(&r);
    }
    evgen_test_output_free(&help);

    assert_usage_error(evgen("help", "nosuch", NULL, NULL, NULL, NULL), NULL, "no command 'nosuch' to help with");
    assert_usage_error(evgen(NULL, NULL, NULL, NULL, NULL, NULL), NULL, "missing the command");
    assert_usage_error(evgen("--frobnicate", NULL, NULL, NULL, NULL, NULL), NULL, "unknown option '--frobnicate'");
    assert_usage_error(evgen("frob", GCEVENTS, NULL, NULL, NULL, NULL), NULL, "unknown command 'frob'");

    evgen_test_output v = evgen("--version", NULL, NULL, NULL, NULL, NULL);
    assert_int_equal(v.status, 0);
    assert_string_equal(v.err, "");
    unsigned major, minor, patch;
    char end;
    assert_int_equal(sscanf(v.out, "evgen %u.%u.%u%c", &major, &minor, &patch, &end), 4);
    assert_int_equal(end, '\n');
    static const char *const also[][2] = {{"-V", NULL}, {"check", "--version"}, {"gen", "-V"}, {"dump", "-V"},
                                          {"convert", "--version"}};
    for (size_t i = 0; i < sizeof also / sizeof also[0]; i++) {
        evgen_test_output r = evgen(also[i][0], also[i][1], NULL, NULL, NULL, NULL);
        assert_int_equal(r.status, 0);
        assert_string_equal(r.out, v.out);
        evgen_test_output_free(&r);
    }
    evgen_test_output_free(&v);
}

static void test_usage_errors_name_the_problem(void **state)
{
    (void)state;
    assert_usage_error(evgen("check", GCEVENTS, "--frobnicate", NULL, NULL, NULL), "check", "unknown option '--frobnicate'");
    assert_usage_error(evgen("check", "--frobnicate=1", GCEVENTS, NULL, NULL, NULL), "check", "unknown option '--frobnicate'");
    assert_usage_error(evgen("describe", GCEVENTS, "-x", NULL, NULL, NULL), "describe", "unknown option '-x'");
    /* an option of another command */
    assert_usage_error(evgen("describe", GCEVENTS, "--lock", "x.lock", NULL, NULL), "describe", "unknown option '--lock'");
    assert_usage_error(evgen("check", GCEVENTS, "-o", "out", NULL, NULL), "check", "unknown option '-o'");
    assert_usage_error(evgen("dump", "t.evtrace", "--bogus", NULL, NULL, NULL), "dump", "unknown option '--bogus'");
    assert_usage_error(evgen("convert", "a", "b", "--json", NULL, NULL), "convert", "unknown option '--json'");

    assert_usage_error(evgen("check", GCEVENTS, "--lock", NULL, NULL, NULL), "check", "option '--lock' needs a value");
    assert_usage_error(evgen("gen", GCEVENTS, "-o", NULL, NULL, NULL), "gen", "option '-o' needs a value");
    assert_usage_error(evgen("describe", GCEVENTS, "-I", NULL, NULL, NULL), "describe", "option '-I' needs a value");
    assert_usage_error(evgen("describe", GCEVENTS, "-isystem", NULL, NULL, NULL), "describe",
                       "option '-isystem' needs a value");
    assert_usage_error(evgen("dump", "t.evtrace", "--event", NULL, NULL, NULL), "dump", "option '--event' needs a value");
    assert_usage_error(evgen("convert", "a", "b", "--manifest", NULL, NULL), "convert",
                       "option '--manifest' needs a value");
    assert_usage_error(evgen("describe", GCEVENTS, "--json=yes", NULL, NULL, NULL), "describe",
                       "option '--json' takes no value");

    assert_usage_error(evgen("check", NULL, NULL, NULL, NULL, NULL), "check", "missing the manifest: evgen check MANIFEST");
    assert_usage_error(evgen("describe", GCEVENTS, "extra.h", NULL, NULL, NULL), "describe",
                       "unexpected argument 'extra.h': one manifest only");
    assert_usage_error(evgen("gen", GCEVENTS, NULL, NULL, NULL, NULL), "gen", "missing the output directory: -o DIR");
    assert_usage_error(evgen("convert", "in.nettrace", NULL, NULL, NULL, NULL), "convert",
                       "missing the output file: evgen convert IN OUT.evtrace");
    assert_usage_error(evgen("help", "check", "lock", NULL, NULL, NULL), NULL,
                       "unexpected argument 'lock': help takes one command");
}

/* Every spelling of the options, before and after the manifest, reaches the compiler. */
static void test_option_spellings(void **state)
{
    (void)state;
    char *dir = evgen_test_tempdir();
    char *manifest = evgen_test_format("%s/m.h", dir), *inc = evgen_test_format("%s/inc", dir);
    char *header = evgen_test_format("%s/inc/ids.h", dir), *lock = evgen_test_format("%s/m.lock", dir);
    evgen_test_write(manifest, "#include <evgen/manifest.h>\n#include \"ids.h\"\nEVENT_PROVIDER(P, \"P\")\n"
                               "KNOWN_EVENT(E, EVENT_ID, P, 4, 1)\nEVENT_FIELD(E, 0, uint32_t, A)\n"
                               "#include <evgen/manifest_end.h>\n");
    char *mkdir_cmd = evgen_test_format("mkdir -p '%s'", inc);
    assert_int_equal(system(mkdir_cmd), 0);
    evgen_test_write(header, "#ifndef ID\n#error ID is not defined\n#endif\n#define EVENT_ID (ID + 1)\n");
    char *i_joined = evgen_test_format("-I%s", inc), *isystem_joined = evgen_test_format("-isystem%s", inc);
    char *lock_eq = evgen_test_format("--lock=%s", lock);
    const char *const spellings[][6] = {
        {"describe", "-I", inc, "-D", "ID=6", manifest},  {"describe", manifest, i_joined, "-DID=6", NULL, NULL},
        {"describe", "-isystem", inc, manifest, "-DID=6", NULL},
        {"describe", isystem_joined, "-D", "ID=6", manifest, NULL},
        {"describe", manifest, "-DID=1", "-U", "ID", i_joined}, /* -U: #error */
    };
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        evgen_test_output r = evgen(spellings[i][0], spellings[i][1], spellings[i][2], spellings[i][3], spellings[i][4],
                             spellings[i][5]);
        if (i < 4) {
            assert_int_equal(r.status, 0);
            assert_non_null(strstr(r.out, "event E id=7 "));
        } else {
            assert_int_equal(r.status, 1);
            assert_non_null(strstr(r.err, "ID is not defined"));
        }
        evgen_test_output_free(&r);
    }
    char *define = evgen_test_format("%s/define.h", dir);
    evgen_test_write(define, "#define ID 9\n");
    evgen_test_output r = evgen("describe", "-include", define, "-I", inc, manifest);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "event E id=10 "));
    evgen_test_output_free(&r);
    r = evgen("describe", manifest, "-I", inc, "-DID=1", "--target=x86_64-linux-gnu");
    assert_int_equal(r.status, 0);
    evgen_test_output_free(&r);
    r = evgen("describe", "--target", "x86_64-linux-gnu", "-target", "x86_64-linux-gnu", manifest);
    assert_int_equal(r.status, 1); /* no -I: the options themselves were taken, the header not found */
    assert_non_null(strstr(r.err, "'ids.h' file not found"));
    evgen_test_output_free(&r);
    r = evgen("lock", lock_eq, "-DID=1", i_joined, manifest, NULL);
    assert_int_equal(r.status, 0);
    evgen_test_output_free(&r);
    r = evgen("check", "--lock", lock, manifest, "-DID=1", i_joined);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "matches"));
    evgen_test_output_free(&r);

    evgen_test_rmtree(dir);
    free(define);
    free(lock_eq);
    free(isystem_joined);
    free(i_joined);
    free(mkdir_cmd);
    free(lock);
    free(header);
    free(inc);
    free(manifest);
    free(dir);
}

/* ---- docs/evgen.1 against the help texts ---------------------------------------------------- */

/* Appends to `names` (a "\n"-separated list, each name between newlines) the option names of one
 * option tag: "-I DIR, -D NAME[=VALUE], --target=TRIPLE" gives -I, -D, --target. */
static void add_option_names(char **names, const char *tag)
{
    const char *p = tag;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p != '-')
            break;
        size_t n = strcspn(p, " =[,");
        char *key = evgen_test_format("\n%.*s\n", (int)n, p);
        if (!strstr(*names, key)) {
            char *more = evgen_test_format("%s%s", *names, key + 1);
            free(*names);
            *names = more;
        }
        free(key);
        p += n;
        p += strcspn(p, ","); /* the rest of this item: its value */
    }
}

/* The options a help text lists: lines "  -x ..." up to the two spaces before the description. */
static char *help_options(const char *help)
{
    char *names = evgen_test_format("\n");
    for (const char *line = help; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, "  -", 3) != 0)
            continue;
        size_t len = strcspn(line, "\n");
        const char *gap = strstr(line + 2, "  ");
        size_t n = gap && (size_t)(gap - line) < len ? (size_t)(gap - line) : len;
        char *tag = evgen_test_format("%.*s", (int)n, line);
        add_option_names(&names, tag);
        free(tag);
    }
    return names;
}

/* The roff text of one tag line as plain text: fonts dropped, \- as -, macros and quotes gone. */
static char *roff_plain(const char *line, size_t len)
{
    char *out = calloc(len + 1, 1);
    size_t n = 0;
    const char *p = line, *end = line + len;
    if (*p == '.')
        p += strcspn(p, " "); /* the macro: .B, .BI, .BR */
    for (; p < end; p++) {
        if (p[0] == '\\' && p + 1 < end && p[1] == 'f')
            p += 2; /* \fB, \fR, \fI, \fP */
        else if (p[0] == '\\' && p + 1 < end && p[1] == '-')
            out[n++] = '-', p++;
        else if (*p != '"')
            out[n++] = *p;
    }
    return out;
}

/* The options docs/evgen.1 lists in the section that starts with the line `heading`: every tag
 * of a .TP paragraph, up to the next .SS or .SH. */
static char *man_options(const char *man, const char *heading)
{
    const char *start = strstr(man, heading);
    if (!start)
        fail_msg("docs/evgen.1 has no '%s'", heading);
    start += strlen(heading);
    char *names = evgen_test_format("\n");
    for (const char *line = start; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, ".SS", 3) == 0 || strncmp(line, ".SH", 3) == 0)
            break;
        if (strncmp(line, ".TP\n", 4) != 0)
            continue;
        const char *tag = line + 4;
        char *plain = roff_plain(tag, strcspn(tag, "\n"));
        add_option_names(&names, plain + strspn(plain, " "));
        free(plain);
    }
    return names;
}

/* Whether every name of list `a` is in `b` (one name a line). */
static int all_in(const char *a, const char *b)
{
    for (const char *p = a + 1; *p; p += strcspn(p, "\n") + 1) {
        char *key = evgen_test_format("\n%.*s\n", (int)strcspn(p, "\n"), p);
        int found = strstr(b, key) != NULL;
        free(key);
        if (!found)
            return 0;
    }
    return 1;
}

static int same_names(const char *a, const char *b)
{
    return all_in(a, b) && all_in(b, a);
}

static void test_man_page_matches_the_help(void **state)
{
    (void)state;
    char *man = evgen_test_read(EVGEN_SOURCE_DIR "/docs/evgen.1");
    assert_non_null(man);
    for (size_t i = 0; i <= N_COMMANDS; i++) {
        evgen_test_output r = i < N_COMMANDS ? evgen(commands[i], "--help", NULL, NULL, NULL, NULL)
                                      : evgen("--help", NULL, NULL, NULL, NULL, NULL);
        assert_int_equal(r.status, 0);
        char *heading = i < N_COMMANDS ? evgen_test_format("\n.SS evgen %s\n", commands[i])
                                       : evgen_test_format("\n.SH OPTIONS\n");
        char *in_help = help_options(r.out), *in_man = man_options(man, heading);
        if (!same_names(in_help, in_man))
            fail_msg("'%s': the options of --help (%s) and of docs/evgen.1 (%s) differ", heading + 1, in_help,
                     in_man);
        free(in_help);
        free(in_man);
        free(heading);
        evgen_test_output_free(&r);
    }
    free(man);
}

/* The page renders without warnings, where groff is installed (it is not required). */
static void test_man_page_renders(void **state)
{
    (void)state;
    if (access("/usr/bin/groff", X_OK) != 0)
        skip();
    const char *argv[] = {"/usr/bin/groff", "-man", "-Tutf8", "-ww", "-z", EVGEN_SOURCE_DIR "/docs/evgen.1", NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(evgen_test_run(argv, NULL, &out, &err), 0);
    assert_string_equal(err, "");
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_of_every_command),
        cmocka_unit_test(test_general_help_and_version),
        cmocka_unit_test(test_usage_errors_name_the_problem),
        cmocka_unit_test(test_option_spellings),
        cmocka_unit_test(test_man_page_matches_the_help),
        cmocka_unit_test(test_man_page_renders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
