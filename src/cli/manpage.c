/* manpage.c - the manual page (kingme.1) and the bash and zsh completions,
 * written from the same command and option tables as kingme help, so that
 * they cannot drift from it: kingme help --man, kingme help --completion
 * bash|zsh (the Makefile builds and installs them). */
#include "cli.h"
#include "kingme/base.h"
#include "kingme/datapath.h"

#include <stdio.h>
#include <string.h>

/* text for troff: a backslash doubled, `code` in bold, \2 (a space that
 * does not break) as troff's, a line never starting with '.' or '\''. */
static void troff_text(FILE *f, const char *text)
{
    bool code = false, line_start = true;
    for (const char *p = text; *p; p++) {
        if (line_start && (*p == '.' || *p == '\'')) fputs("\\&", f);
        line_start = false;
        switch (*p) {
        case '\\':
            fputs("\\e", f);
            break;
        case '`':
            fputs(code ? "\\fR" : "\\fB", f);
            code = !code;
            break;
        case '\2':
            fputs("\\ ", f);
            break;
        case '\1':
            break;
        case '-':
            fputs("\\-", f);
            break;
        case '\n':
            fputc('\n', f);
            line_start = true;
            break;
        default:
            fputc(*p, f);
        }
    }
    if (code) fputs("\\fR", f);
}

static void man_option(FILE *f, const Opt *d)
{
    fputs(".TP\n", f);
    if (d->alias) {
        fputs("\\fB", f);
        troff_text(f, d->alias);
        fputs("\\fR, ", f);
    }
    fputs("\\fB", f);
    troff_text(f, opt_name(d->id));
    fputs("\\fR", f);
    if (d->kind == OPT_OPTSTR) fputs(" [\\fI", f);
    else if (d->kind != OPT_FLAG) fputs(" \\fI", f);
    if (d->kind != OPT_FLAG) {
        troff_text(f, d->arg);
        fputs(d->kind == OPT_OPTSTR ? "\\fR]" : "\\fR", f);
    }
    fputc('\n', f);
    troff_text(f, d->help);
    if (d->def) {
        fputs(" [default: ", f);
        troff_text(f, d->def + (d->def[0] == '\1'));
        fputc(']', f);
    }
    if (d->old) {
        fputs(" (also spelt ", f);
        troff_text(f, d->old);
        fputc(')', f);
    }
    fputc('\n', f);
}

void cli_man_page(FILE *f)
{
    int n;
    const CliCommand *const *cmds = cli_commands(&n);
    fprintf(f, ".\\\" kingme.1 - written by kingme help --man from the tables of kingme help\n");
    fprintf(f, ".TH KINGME 1 %s \"kingme %s\" \"User Commands\"\n", KINGME_BUILD_DATE, KINGME_VERSION);
    fputs(".SH NAME\nkingme \\- an English draughts (American checkers) engine\n", f);
    fputs(".SH SYNOPSIS\n.B kingme\n.I command\n.RI [ options ]\n.RI [ arguments ]\n.br\n"
          ".B kingme help\n.RI [ command ]\n",
          f);
    fputs(".SH DESCRIPTION\n"
          "kingme plays English draughts (American checkers) on the terminal, analyses games, "
          "tunes and trains its evaluation, runs engine matches, speaks a text engine protocol "
          "and builds its own opening book and endgame databases. "
          "Each command below takes the options listed with it;\n"
          ".B kingme help\n.I command\n"
          "and\n.B kingme\n.I command\n.B \\-\\-help\nshow the same text. "
          "An option takes its value as\n.B \\-\\-opt\n.I value\nor\n.BI \\-\\-opt= value\\fR;\n"
          ".B \\-\\-\nends the options. "
          "A bad command line prints one line saying what is wrong, with exit status 2.\n",
          f);
    fputs(".SH COMMANDS\n", f);
    for (int i = 0; i < n; i++) {
        const CliCommand *c = cmds[i];
        const OptSpec *s = c->spec;
        fputs(".SS \"", f);
        fprintf(f, "kingme %s", c->name);
        if (s->args) {
            fputc(' ', f);
            troff_text(f, s->args);
        }
        if (s->opts && s->opts[0].id) fputs(" [options]", f);
        fputs("\"\n", f);
        troff_text(f, c->summary);
        fputs(".\n", f);
        if (s->about) {
            fputs(".PP\n", f);
            troff_text(f, s->about);
            fputc('\n', f);
        }
        for (int k = 0; s->opts && s->opts[k].id; k++) man_option(f, &s->opts[k]);
        if (s->footer) {
            fputs(".PP\n", f);
            troff_text(f, s->footer);
            fputc('\n', f);
        }
    }
    fputs(".SH ENVIRONMENT\n", f);
    fputs(".TP\n.B KINGME_DATA\nA data folder searched first for the named weights files "
          "(\\fIweights/NAME.w\\fR), the opening book (\\fIweights/default.book\\fR) and the endgame "
          "database (\\fIegdb/\\fR).\n",
          f);
    fputs(".TP\n.B KINGME_BOOK\nThe opening book file of the commands that play (\\fBnone\\fR: no book).\n",
          f);
    fputs(".TP\n.B KINGME_EGDB\nThe endgame database folder of the commands that search (\\fBnone\\fR: no "
          "database).\n",
          f);
    fputs(".TP\n.B XDG_DATA_HOME\nThe user's data folder is \\fI$XDG_DATA_HOME/kingme\\fR "
          "(default \\fI~/.local/share/kingme\\fR).\n",
          f);
    fputs(".TP\n.B NO_COLOR\nWhen set and not empty, no colours.\n", f);
    fputs(".SH FILES\nThe data folders, searched in this order: \\fB$KINGME_DATA\\fR; the folder of the "
          "program itself (a checkout) and \\fI../share/kingme\\fR beside it; ",
          f);
    troff_text(f, datapath_install_dir());
    fputs(" (the installed data); the user's data folder, for the databases the user builds "
          "(\\fBkingme egdb build \\-\\-pieces 5 \\-\\-dir ~/.local/share/kingme/egdb\\fR). "
          "\\fBkingme version\\fR lists those it found.\n",
          f);
    fputs(".SH EXIT STATUS\n0 on success, 1 after an error line, 2 for a bad command line, 130 when "
          "stopped by an interrupt.\n",
          f);
    fputs(".SH EXAMPLES\n.nf\nkingme play\nkingme show material\nkingme search \\-\\-time 5\n"
          "kingme match default material \\-\\-games 100 \\-\\-time 0.1\n.fi\n",
          f);
}

/* The words of a command's positional arguments when they are a choice of
 * subcommands ("build|probe|info"), space-separated into out; "" else. */
static void subcommands(const OptSpec *s, char *out, size_t len)
{
    out[0] = '\0';
    if (!s->args || !strchr(s->args, '|')) return;
    size_t n = strcspn(s->args, " ");
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyz|-", s->args[i])) return;
    snprintf(out, len, "%.*s", (int)n, s->args);
    for (char *p = out; *p; p++)
        if (*p == '|') *p = ' ';
}

/* The words of an OPT_CHOICE option, space-separated. */
static void choice_words(const Opt *d, char *out, size_t len)
{
    snprintf(out, len, "%s", d->arg);
    for (char *p = out; *p; p++)
        if (*p == '|') *p = ' ';
}

static void bash_completion(FILE *f, const CliCommand *const *cmds, int n)
{
    fputs("# bash completion of kingme, written by kingme help --completion bash\n"
          "# from the tables of kingme help\n"
          "_kingme() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    local cmd=${COMP_WORDS[1]} words=\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        COMPREPLY=($(compgen -W \"",
          f);
    for (int i = 0; i < n; i++) fprintf(f, "%s%s", i ? " " : "", cmds[i]->name);
    fputs(" --help --version\" -- \"$cur\"))\n        return\n    fi\n    case \"$cmd\" in\n", f);
    for (int i = 0; i < n; i++) {
        const OptSpec *s = cmds[i]->spec;
        char sub[512], w[512];
        fprintf(f, "    %s)\n", cmds[i]->name);
        /* an option's value: its choices, or a file name */
        bool any = false;
        for (int k = 0; s->opts && s->opts[k].id; k++) {
            const Opt *d = &s->opts[k];
            if (d->kind == OPT_FLAG || d->kind == OPT_OPTSTR) continue;
            if (!any) fputs("        case \"$prev\" in\n", f);
            any = true;
            fprintf(f, "        %s%s%s)\n", opt_name(d->id), d->alias ? "|" : "", d->alias ? d->alias : "");
            if (d->kind == OPT_CHOICE) {
                choice_words(d, w, sizeof w);
                fprintf(f, "            COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n", w);
            } else if (d->kind == OPT_INT || d->kind == OPT_REAL) {
                fputs("            COMPREPLY=()\n", f);
            } else {
                fputs("            COMPREPLY=($(compgen -f -- \"$cur\"))\n", f);
            }
            fputs("            return ;;\n", f);
        }
        if (any) fputs("        esac\n", f);
        fputs("        words=\"", f);
        for (int k = 0; s->opts && s->opts[k].id; k++)
            fprintf(f, "%s%s%s%s", k ? " " : "", opt_name(s->opts[k].id), s->opts[k].alias ? " " : "",
                    s->opts[k].alias ? s->opts[k].alias : "");
        fputs(" --help\"\n", f);
        subcommands(s, sub, sizeof sub);
        if (!sub[0] && !strcmp(cmds[i]->name, "help")) /* help's argument: a command */
            for (int k = 0, at = 0; k < n && at < (int)sizeof sub; k++)
                at += snprintf(sub + at, sizeof sub - (size_t)at, "%s%s", k ? " " : "", cmds[k]->name);
        if (sub[0])
            fprintf(f,
                    "        if [ \"$COMP_CWORD\" -eq 2 ] && [[ $cur != -* ]]; then\n"
                    "            COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n"
                    "            return\n"
                    "        fi\n",
                    sub);
        fputs("        ;;\n", f);
    }
    fputs("    esac\n"
          "    if [[ $cur == -* ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "    else\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\") $(compgen -f -- \"$cur\"))\n"
          "    fi\n"
          "}\n"
          "complete -o filenames -F _kingme kingme\n",
          f);
}

/* zsh: a description in single quotes, brackets and colons escaped. */
static void zsh_text(FILE *f, const char *text, size_t max)
{
    size_t k = 0;
    for (const char *p = text; *p && k < max; p++, k++) {
        if (*p == '\'') fputs("'\\''", f);
        else if (*p == '[' || *p == ']' || *p == ':') fprintf(f, "\\%c", *p);
        else if (*p == '\1' || *p == '`') k--;
        else if (*p == '\2' || *p == '\n') fputc(' ', f);
        else fputc(*p, f);
    }
}

static void zsh_completion(FILE *f, const CliCommand *const *cmds, int n)
{
    fputs("#compdef kingme\n# zsh completion of kingme, written by kingme help --completion zsh\n"
          "# from the tables of kingme help\n"
          "_kingme() {\n"
          "    local -a commands\n"
          "    if (( CURRENT == 2 )); then\n"
          "        commands=(\n",
          f);
    for (int i = 0; i < n; i++) {
        fprintf(f, "            '%s:", cmds[i]->name);
        zsh_text(f, cmds[i]->summary, 70);
        fputs("'\n", f);
    }
    fputs("        )\n        _describe 'command' commands\n        return\n    fi\n"
          "    local cmd=${words[2]}\n    shift words\n    (( CURRENT-- ))\n    case $cmd in\n",
          f);
    for (int i = 0; i < n; i++) {
        const OptSpec *s = cmds[i]->spec;
        char sub[256], w[512];
        fprintf(f, "    %s)\n        _arguments -s \\\n", cmds[i]->name);
        for (int k = 0; s->opts && s->opts[k].id; k++) {
            const Opt *d = &s->opts[k];
            for (int a = 0; a < 2; a++) {
                const char *name = a ? d->alias : opt_name(d->id);
                if (!name) continue;
                fprintf(f, "            '%s%s[", name, d->kind == OPT_OPTSTR ? "=-" : "");
                zsh_text(f, d->help, 60);
                fputc(']', f);
                if (d->kind == OPT_CHOICE) {
                    choice_words(d, w, sizeof w);
                    fprintf(f, ":%s:(%s)", d->arg, w);
                } else if (d->kind == OPT_STR || d->kind == OPT_LIST || d->kind == OPT_OPTSTR) {
                    fprintf(f, ":%s:_files", d->arg);
                } else if (d->kind != OPT_FLAG) {
                    fprintf(f, ":%s: ", d->arg);
                }
                fputs("' \\\n", f);
            }
        }
        subcommands(s, sub, sizeof sub);
        if (sub[0]) fprintf(f, "            '1:subcommand:(%s)' \\\n", sub);
        fputs("            '*:file:_files' ;;\n", f);
    }
    fputs("    esac\n}\n_kingme \"$@\"\n", f);
}

int cli_completion(FILE *f, const char *shell)
{
    int n;
    const CliCommand *const *cmds = cli_commands(&n);
    if (strcmp(shell, "bash") == 0) bash_completion(f, cmds, n);
    else if (strcmp(shell, "zsh") == 0) zsh_completion(f, cmds, n);
    else return 2;
    return 0;
}
