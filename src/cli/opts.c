/* opts.c - the option parser and the help of every command. See opts.h. */
#include "opts.h"
#include "cli.h"

#include "kingme/textio.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HELP_WIDTH 78
#define HELP_COLUMN 24 /* where option help text starts */

/* ---- error lines and numbers (cli.h): every command's, the parser's too ---- */

void cli_vshown(char *shown, size_t len, const char *fmt, va_list ap)
{
    char msg[8192];
    vsnprintf(msg, sizeof msg, fmt, ap);
    textio_escape(msg, shown, len);
}

static void say_error(const char *fmt, va_list ap)
{
    char shown[8192];
    cli_vshown(shown, sizeof shown, fmt, ap);
    fprintf(stderr, "kingme: %s\n", shown);
}

static void say_usage_error(const char *cmd, const char *fmt, va_list ap)
{
    char shown[8192];
    cli_vshown(shown, sizeof shown, fmt, ap);
    fprintf(stderr, "kingme %s: %s\nsee: kingme help %s\n", cmd, shown, cmd);
}

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_error(fmt, ap);
    va_end(ap);
    return 1;
}

bool cli_error_false(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_error(fmt, ap);
    va_end(ap);
    return false;
}

void *cli_error_null(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_error(fmt, ap);
    va_end(ap);
    return NULL;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_usage_error(cmd, fmt, ap);
    va_end(ap);
    return 2;
}

bool cli_usage_false(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_usage_error(cmd, fmt, ap);
    va_end(ap);
    return false;
}

bool cli_int(const char *s, long long lo, long long hi, long long *out)
{
    return textio_parse_ll(s, lo, hi, out);
}

bool cli_double(const char *s, double lo, double hi, double *out)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* ---- the parser ---- */

static const CliCommand *usage_cmd; /* for the error line of a failed parse */

static const char *const opt_names[OPT_NIDS] = {NULL,
#define OPT_NAME_(id, name) name,
                                                OPT_NAMES(OPT_NAME_)
#undef OPT_NAME_
};

const char *opt_name(OptId id) { return id > OPT_NONE && id < OPT_NIDS ? opt_names[id] : "(no option)"; }

static int nopts(const OptSpec *s)
{
    int n = 0;
    while (s->opts && s->opts[n].id) n++;
    return n;
}

/* Is word one of the space-separated words of list? */
static bool in_words(const char *list, const char *word, size_t len)
{
    for (const char *p = list; p && *p;) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (n && n == len && strncmp(p, word, len) == 0) return true;
        p += n;
    }
    return false;
}

/* Index of the choice word w in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *w)
{
    int k = 0;
    for (const char *p = choices; *p; k++) {
        size_t n = strcspn(p, "|");
        if (strlen(w) == n && strncmp(p, w, n) == 0) return k;
        p += n;
        if (*p == '|') p++;
    }
    return -1;
}

static long long int_hi(const Opt *d) { return d->hi >= 9e18 ? LLONG_MAX : (long long)d->hi; }

/* Parse one value of d into v; false when it is not valid. */
static bool parse_value(const Opt *d, const char *t, OptValue *v)
{
    switch (d->kind) {
    case OPT_INT:
        return cli_int(t, (long long)d->lo, int_hi(d), &v->i);
    case OPT_REAL:
        return cli_double(t, d->lo, d->hi, &v->x);
    case OPT_CHOICE:
        v->i = choice_index(d->arg, t);
        return v->i >= 0;
    default:
        return true;
    }
}

/* What a valid value of d is, for the error line. */
static void describe_range(const Opt *d, char *buf, size_t len)
{
    if (d->kind == OPT_INT && d->hi >= 9e18) snprintf(buf, len, "a whole number from %.0f up", d->lo);
    else if (d->kind == OPT_INT) snprintf(buf, len, "a whole number from %.0f to %.0f", d->lo, d->hi);
    else if (d->hi >= 9e18) snprintf(buf, len, "a number from %g up", d->lo);
    else snprintf(buf, len, "a number from %g to %g", d->lo, d->hi);
}

static int usage_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cli_usage_error(usage_cmd->name, "%s", msg);
}

/* The option named by the text up to len, main name, alias or old spelling. */
static int find_opt(const OptSpec *s, const char *a, size_t len)
{
    for (int k = 0; s->opts && s->opts[k].id; k++) {
        const Opt *d = &s->opts[k];
        const char *name = opt_name(d->id);
        if ((strlen(name) == len && strncmp(name, a, len) == 0) ||
            (d->alias && strlen(d->alias) == len && strncmp(d->alias, a, len) == 0) ||
            in_words(d->old, a, len))
            return k;
    }
    return -1;
}

/* One option at argv[*i]; advances *i past a separate value. */
static int take_option(const OptSpec *s, int argc, char **argv, int *i, Opts *o)
{
    const char *a = argv[*i];
    const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    int k = find_opt(s, a, len);
    if (k < 0) return usage_fail("unknown option '%.*s'", (int)len, a);
    const Opt *d = &s->opts[k];
    OptValue *v = &o->v[k];
    const char *t = eq ? eq + 1 : NULL;
    if (d->kind == OPT_FLAG) {
        if (t) return usage_fail("%s takes no value", opt_name(d->id));
    } else if (d->kind == OPT_OPTSTR) {
        if (!t && *i + 1 < argc && argv[*i + 1][0] != '-') t = argv[++*i];
    } else if (!t) {
        if (*i + 1 >= argc) return usage_fail("%s needs a value (%s)", opt_name(d->id), d->arg);
        t = argv[++*i];
    }
    if (t && !*t && d->arg && (strcmp(d->arg, "FILE") == 0 || strcmp(d->arg, "DIR") == 0))
        return usage_fail("%s '' is not a %s name", opt_name(d->id), d->arg[0] == 'F' ? "file" : "directory");
    if (t && !parse_value(d, t, v)) {
        char r[96];
        if (d->kind == OPT_CHOICE) { /* "a, b or c" */
            size_t n = 0;
            for (const char *p = d->arg; *p && n + 8 < sizeof r;) {
                size_t w = strcspn(p, "|");
                const char *sep = p[w] != '|' ? "" : strchr(p + w + 1, '|') ? ", " : " or ";
                n += (size_t)snprintf(r + n, sizeof r - n, "%.*s%s", (int)w, p, sep);
                p += w + (p[w] == '|');
            }
        } else {
            describe_range(d, r, sizeof r);
        }
        return usage_fail("%s '%s' is not %s", opt_name(d->id), t, r);
    }
    if (d->kind == OPT_LIST) {
        if (o->nitems == OPTS_ITEMS) return usage_fail("too many %s options", opt_name(d->id));
        o->item_opt[o->nitems] = k;
        o->items[o->nitems++] = t;
    }
    v->count++;
    v->pos = *i;
    v->text = t;
    return 0;
}

int opts_parse(const CliCommand *cmd, int argc, char **argv, Opts *o)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->name = argc > 0 ? argv[0] : cmd->name;
    usage_cmd = cmd;
    const OptSpec *s = cmd->spec;
    bool only_args = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_args && strcmp(a, "--") == 0) {
            only_args = true;
        } else if (!only_args && a[0] == '-' && a[1] != '\0') {
            if (take_option(s, argc, argv, &i, o)) return 2;
        } else if (o->nargs >= s->max_args || o->nargs == OPTS_ARGS) {
            return s->max_args == 0           ? usage_fail("takes no arguments, not '%s'", a)
                   : s->max_args == OPTS_ARGS ? usage_fail("more than %d arguments", OPTS_ARGS)
                                              : usage_fail("unexpected argument '%s'", a);
        } else {
            o->args[o->nargs++] = a;
        }
    }
    if (o->nargs < s->min_args) return usage_fail("give %s", s->args ? s->args : "the arguments");
    return 0;
}

/* ---- accessors ------------------------------------------------------------------ */

/* The index of option id in the command's table; an id the table does not
 * have is a programming error. */
static int index_of(const Opts *o, OptId id)
{
    const OptSpec *s = o->cmd->spec;
    for (int k = 0; s->opts && s->opts[k].id; k++)
        if (s->opts[k].id == id) return k;
    fprintf(stderr, "kingme %s: internal error: the command asks for option %s, which its table lacks\n",
            o->cmd->name, opt_name(id));
    abort();
}

/* The option's value, or its default when not given (count stays 0). */
static OptValue value_of(const Opts *o, OptId id)
{
    int k = index_of(o, id);
    const Opt *d = &o->cmd->spec->opts[k];
    if (o->v[k].count) return o->v[k];
    OptValue v = {0, 0, NULL, 0, 0};
    if (d->def && d->def[0] != '\1' && parse_value(d, d->def, &v)) v.text = d->def;
    else v.i = d->kind == OPT_CHOICE ? -1 : 0;
    return v;
}

bool opt_given(const Opts *o, OptId id) { return o->v[index_of(o, id)].count > 0; }
bool opt_flag(const Opts *o, OptId id) { return opt_given(o, id); }
int opt_pos(const Opts *o, OptId id) { return o->v[index_of(o, id)].pos; }
long long opt_int(const Opts *o, OptId id) { return value_of(o, id).i; }
double opt_real(const Opts *o, OptId id) { return value_of(o, id).x; }
const char *opt_str(const Opts *o, OptId id) { return value_of(o, id).text; }
int opt_choice(const Opts *o, OptId id) { return (int)value_of(o, id).i; }

int opt_count(const Opts *o, OptId id)
{
    int k = index_of(o, id), n = 0;
    for (int j = 0; j < o->nitems; j++) n += o->item_opt[j] == k;
    return n;
}

const char *opt_item(const Opts *o, OptId id, int which)
{
    int k = index_of(o, id);
    for (int j = 0; j < o->nitems; j++)
        if (o->item_opt[j] == k && which-- == 0) return o->items[j];
    return NULL;
}

/* ---- help -------------------------------------------------------------------------- */

/* Text wrapped at HELP_WIDTH; the first line continues a line already
 * `col` wide, later lines are indented by `indent`. Newlines in text are kept. */
static void wrap(FILE *f, const char *text, int col, int indent)
{
    const char *p = text;
    while (*p) {
        if (*p == '\n') {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
            p++;
            continue;
        }
        if (*p == ' ') {
            p++;
            continue;
        }
        size_t n = strcspn(p, " \n");
        if (col > indent && col + 1 + (int)n > HELP_WIDTH) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        }
        for (size_t k = 0; k < n; k++)
            fputc(p[k] == '\2' ? ' ' : p[k], f); /* \2: a space that does not break */
        col += (int)n;
        p += n;
    }
    fputc('\n', f);
}

static void print_option(FILE *f, const Opt *d)
{
    char left[96];
    int n = snprintf(left, sizeof left, "  %s%s%s", d->alias ? d->alias : "", d->alias ? ", " : "",
                     opt_name(d->id));
    if (d->kind == OPT_OPTSTR) snprintf(left + n, sizeof left - (size_t)n, " [%s]", d->arg);
    else if (d->kind != OPT_FLAG) snprintf(left + n, sizeof left - (size_t)n, " %s", d->arg);
    char text[640];
    if (d->def) snprintf(text, sizeof text, "%s [default:\2%s]", d->help, d->def + (d->def[0] == '\1'));
    else snprintf(text, sizeof text, "%s", d->help);
    int col = fprintf(f, "%s", left);
    if (col + 2 > HELP_COLUMN) {
        fprintf(f, "\n%*s", HELP_COLUMN, "");
    } else {
        fprintf(f, "%*s", HELP_COLUMN - col, "");
    }
    wrap(f, text, HELP_COLUMN, HELP_COLUMN);
}

void opts_print_help(const CliCommand *cmd, FILE *f)
{
    const OptSpec *s = cmd->spec;
    char title[512];
    snprintf(title, sizeof title, "kingme %s - %s", cmd->name, cmd->summary);
    wrap(f, title, 0, 2);
    fputc('\n', f);
    fprintf(f, "usage: kingme %s%s%s%s\n", cmd->name, s->args ? " " : "", s->args ? s->args : "",
            nopts(s) ? " [OPTIONS]" : "");
    if (s->about) {
        fputs("  ", f);
        wrap(f, s->about, 2, 2);
    }
    if (nopts(s)) {
        fprintf(f, "\noptions:\n");
        for (int k = 0; s->opts[k].id; k++) print_option(f, &s->opts[k]);
        char old[1024];
        size_t len = 0;
        for (int k = 0; s->opts[k].id && len < sizeof old; k++) {
            const Opt *d = &s->opts[k];
            if (!d->old) continue;
            len += (size_t)snprintf(old + len, sizeof old - len, "%s",
                                    len ? "; " : "old spellings still accepted: ");
            for (const char *p = d->old; *p && len < sizeof old;) {
                size_t n = strcspn(p, " ");
                len += (size_t)snprintf(old + len, sizeof old - len, "%.*s%s", (int)n, p, p[n] ? ", " : "");
                p += n + (p[n] == ' ');
            }
            if (len < sizeof old)
                len += (size_t)snprintf(old + len, sizeof old - len, " (=\2%s)", opt_name(d->id));
        }
        if (len) wrap(f, old, 0, 2);
    }
    if (s->footer) {
        fputc('\n', f);
        wrap(f, s->footer, 0, 0);
    }
}

const char *opts_check_table(const CliCommand *cmd)
{
    const OptSpec *s = cmd->spec;
    if (!s) return "no option table";
    if (nopts(s) > OPTS_MAX) return "more than OPTS_MAX options";
    if (s->max_args > OPTS_ARGS || s->min_args > s->max_args) return "bad argument counts";
    for (int k = 0; s->opts && s->opts[k].id; k++) {
        const Opt *d = &s->opts[k];
        if (d->id <= OPT_NONE || d->id >= OPT_NIDS) return "an option id out of range";
        if (strncmp(opt_name(d->id), "--", 2) != 0) return "an option name without '--'";
        if (!d->help || !*d->help) return "an option without a help line";
        if (d->kind != OPT_FLAG && (!d->arg || !*d->arg)) return "an option with a value but no value name";
        if (d->kind != OPT_FLAG && d->kind != OPT_LIST && d->kind != OPT_OPTSTR && !d->def)
            return "an option with a value but no default in the help";
        if ((d->kind == OPT_FLAG || d->kind == OPT_LIST || d->kind == OPT_OPTSTR) && d->def)
            return "a default for an option that takes none";
        OptValue v;
        if (d->def && d->def[0] != '\1' && !parse_value(d, d->def, &v))
            return "a default that is not a valid value (mark a description DESCRIBED)";
        /* every spelling must find this option, not an earlier one */
        if (find_opt(s, opt_name(d->id), strlen(opt_name(d->id))) != k) return "a name used twice";
        if (d->alias && find_opt(s, d->alias, strlen(d->alias)) != k) return "a name used twice";
        for (const char *p = d->old; p && *p;) {
            while (*p == ' ') p++;
            size_t n = strcspn(p, " ");
            if (n && find_opt(s, p, n) != k) return "a name used twice";
            p += n;
        }
    }
    return NULL;
}
