#!/bin/sh
# tools/readme-update.sh - rerun the ```console examples of README.md or of a
# docs/*.md file and write their real output back into it (the same rules as
# tests/test_readme.c:
# a line starting "$ " is a command run from the repository root by /bin/sh,
# a trailing backslash continues it; the lines after it, up to the next "$ "
# or the end of the block, are its standard output). Use it after a change
# that alters outputs, then read `git diff` before committing: the test
# compares, this script only rewrites.
#   tools/readme-update.sh [README.md | docs/FILE.md ...]
set -eu
[ $# -gt 0 ] || set -- README.md
for readme in "$@"; do
tmp=$readme.tmp.$$
trap 'rm -f "$tmp" "$tmp.cmd" "$tmp.out"' EXIT INT TERM
awk -v cmdfile="$tmp.cmd" -v outfile="$tmp.out" '
function run(cmd,   line) {
    printf "%s\n", cmd > cmdfile; close(cmdfile)
    system("sh " cmdfile " > " outfile " 2>/dev/null")
    while ((getline line < outfile) > 0) { sub(/[ \t\r]+$/, "", line); print line }
    close(outfile)
}
BEGIN { inblock = 0; cmd = ""; cont = 0 }
{
    if (!inblock) { print; if ($0 ~ /^```console[ \t]*$/) inblock = 1; next }
    if (cont) { print; cmd = cmd "\n" $0; cont = ($0 ~ /\\$/); if (!cont) run(cmd); next }
    if ($0 ~ /^```/) { print; inblock = 0; next }
    if (substr($0, 1, 2) == "$ ") {
        print; cmd = substr($0, 3); cont = ($0 ~ /\\$/); if (!cont) run(cmd); next
    }
    # an old output line: dropped (the run above printed the new one)
}' "$readme" > "$tmp"
mv "$tmp" "$readme"
rm -f "$tmp.cmd" "$tmp.out"
done
