#!/bin/sh
# tools/opts-check.sh - every option a command asks for is in its own table.
# The accessors (opt_int(o, OPT_DEPTH) ...) take an option's id, so a
# misspelt name does not compile; an id that the command's table lacks is
# still an abort at run time. This script finds those before anyone runs
# the command: it reads each file preprocessed (cc -E, so the shared options
# of cli.h are expanded), splits it into its top-level definitions
# (functions, tables, the CliCommand of each command) and follows, from
# each command's definition, every definition it names, the same file's
# first, else one of another file that is not static (a call, a table, an
# array of ids), stopping at another command. The ids of the tables reached
# are the command's options; every other id reached must be one of them.
# A function reached only through a pointer passed at run time is not
# followed. It prints each id missing as
#   kingme CMD (FILE): asks for --name, not in its table
# then "N commands, M missing", and exits 1 when M > 0. Run from the
# repository root; make test runs it (tests/test_cli.c).
#   tools/opts-check.sh [FILE.c ...]   (default: src/cli/*.c)
set -eu
cc=${CC:-cc}
[ $# -gt 0 ] || set -- src/cli/*.c
ids=$(sed -n 's/^ *X(\([A-Z0-9_]*\), *"\(--[a-z0-9-]*\)").*/OPT_\1=\2/p' src/cli/opts.h)
[ -n "$ids" ] || { echo "opts-check: no option ids in src/cli/opts.h" >&2; exit 2; }
for f in "$@"; do
    "$cc" -E -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude "$f" |
        awk -v file="$f" '
        /^# [0-9]+ "/ { keep = ($3 == "\"" file "\""); next }
        keep { text = text " " $0 }
        END { print file "\t" text }'
done | awk -v ids="$ids" '
BEGIN {
    n = split(ids, a, " ")
    for (i = 1; i <= n; i++) { split(a[i], kv, "="); optname[kv[1]] = kv[2] }
}
# One file: its top-level definitions, each with its table ids, other ids
# and the names it mentions.
{
    file = $1; t = substr($0, length(file) + 2)
    t = blank(t)
    # an Opt entry: {OPT_ID, alias, old, OPT_KIND,  -> a table id
    ent = "[{][ \t]*OPT_[A-Z0-9_]+[ \t]*,[^,{}]*,[^,{}]*,[ \t]*OPT_(FLAG|INT|REAL|STR|CHOICE|LIST|OPTSTR)[ \t]*,"
    while (match(t, ent)) {
        at = RSTART; n = RLENGTH
        e = substr(t, at, n)
        match(e, /OPT_[A-Z0-9_]+/)
        id = substr(e, RSTART, RLENGTH)
        t = substr(t, 1, at - 1) "{ @TABLE_" id ", , , 0," substr(t, at + n)
    }
    # top-level statements: split at depth 0 on ";" and on the "}" that
    # ends a function body
    depth = 0; start = 1; len = length(t)
    for (i = 1; i <= len; i++) {
        c = substr(t, i, 1)
        if (c == "{") depth++
        else if (c == "}") {
            depth--
            if (depth == 0 && body) { statement(substr(t, start, i - start + 1)); start = i + 1; body = 0 }
        } else if (c == ";" && depth == 0) { statement(substr(t, start, i - start + 1)); start = i + 1; body = 0 }
        if (c == "{" && depth == 1) { pre = substr(t, start, i - start); sub(/[ \t]+$/, "", pre); body = (pre ~ /\)$/) }
    }
}
# The text with each string literal emptied ("") and each character literal 0.
function blank(t,   out, i, len, c, q) {
    out = ""; len = length(t); q = ""
    for (i = 1; i <= len; i++) {
        c = substr(t, i, 1)
        if (q != "") {
            if (c == "\\") i++
            else if (c == q) { out = out (q == "\"" ? "\"\"" : "0"); q = "" }
        } else if (c == "\"" || c == "\047") q = c
        else out = out c
    }
    return out
}
function statement(s,   head, name, k, toks, ntok, def) {
    head = s
    if (match(head, /[=[({]/)) head = substr(head, 1, RSTART - 1)
    ntok = split(head, toks, /[^A-Za-z0-9_]+/)
    name = ""
    for (k = ntok; k >= 1; k--) if (toks[k] ~ /^[A-Za-z_]/) { name = toks[k]; break }
    if (name == "" || s !~ /[={]/) return      # a declaration, not a definition
    def = file SUBSEP name
    defined[def] = 1
    if (s !~ /^[ \t]*static[ \t]/) global[name] = def
    if (s ~ /CliCommand[ \t]+cmd_/) command[def] = 1
    # mentions, with the table ids kept apart
    ntok = split(s, toks, /[^A-Za-z0-9_@]+/)
    for (k = 1; k <= ntok; k++) {
        if (toks[k] ~ /^@TABLE_OPT_/) { tab[def] = tab[def] " " substr(toks[k], 8); continue }
        if (toks[k] in optname) { use[def] = use[def] " " toks[k]; continue }
        if (toks[k] ~ /^[A-Za-z_]/ && toks[k] != name) ment[def] = ment[def] " " toks[k]
    }
}
function resolve(f, w) {
    if ((f SUBSEP w) in defined) return f SUBSEP w
    if (w in global) return global[w]
    return ""
}
END {
    for (c in command) {
        ncmd++
        split(c, fc, SUBSEP)
        delete seen; delete have; delete want
        top = 0; stack[++top] = c; seen[c] = 1
        while (top > 0) {
            d = stack[top--]
            split(d, fd, SUBSEP)
            n = split(tab[d], xs, " "); for (i = 1; i <= n; i++) have[xs[i]] = 1
            n = split(use[d], xs, " "); for (i = 1; i <= n; i++) want[xs[i]] = 1
            n = split(ment[d], xs, " ")
            for (i = 1; i <= n; i++) {
                r = resolve(fd[1], xs[i])
                if (r == "" || (r in seen) || (r in command)) continue
                seen[r] = 1; stack[++top] = r
            }
        }
        name = fc[2]; sub(/^cmd_/, "", name)
        for (x in want) if (!(x in have)) {
            printf "kingme %s (%s): asks for %s, not in its table\n", name, fc[1], optname[x]
            missing++
        }
    }
    printf "%d commands, %d missing\n", ncmd, missing + 0
    exit missing ? 1 : 0
}'
