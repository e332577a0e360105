#!/usr/bin/env bash
# tests/install_test.sh - make install into a temporary DESTDIR, then the
# installed kingme run from another folder (/) with an empty environment, as
# a user who never saw the checkout: the named weights found by name, the
# book and the endgame database (when one is built: egdb/ is copied, not
# built here) from PREFIX/share/kingme, the manual page clean under
# mandoc -T lint (or groff's warnings), the bash completion, and make
# uninstall removing everything. Part of make test; prints each check and,
# last, "install: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
top=$PWD
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kingme-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "ok   install: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL install: $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | head -20 | sed 's/^/     /'; fail=$((fail + 1)); }
# check NAME COMMAND...: the command's status 0
check() { local name=$1 out; shift; if out=$("$@" 2>&1); then ok "$name"; else bad "$name" "$out"; fi; }

root=$tmp/root
if ! out=$(make -s install DESTDIR="$root" 2>&1); then
    bad "make install DESTDIR=$root" "$out"
    echo "install: $pass passed, $fail failed"
    exit 1
fi
prefix=${PREFIX:-/usr/local} # make test gives its own
k=$root$prefix/bin/kingme
share=$root$prefix/share/kingme
for f in "$k" "$share/weights/default.book" "$share/weights/material.w" "$share/weights/handset.w" \
    "$share/weights/thesis.w" "$root$prefix/share/man/man1/kingme.1" \
    "$root$prefix/share/bash-completion/completions/kingme" "$root$prefix/share/zsh/site-functions/_kingme"; do
    if [ -e "$f" ]; then ok "installed ${f#"$root"}"; else bad "installed ${f#"$root"}: missing"; fi
done

# the installed program from /, nothing of the checkout in sight
home=$tmp/home
mkdir -p "$home"
run() { (cd / && env -i HOME="$home" PATH=/usr/bin:/bin "$k" "$@"); }
out=$(run show material 2>&1)
if [[ $out == material$'\n'* ]] && [[ $out == *own_men*1000* ]]; then ok "kingme show material from /"
else bad "kingme show material from /" "$out"; fi
out=$(run show weights/handset.w 2>&1 | head -1)
[ "$out" = weights/handset.w ] && ok "kingme show weights/handset.w from /" || bad "show weights/handset.w" "$out"
out=$(run show no-such-weights 2>&1)
[ "$out" = "kingme: no-such-weights: cannot open: No such file or directory" ] &&
    ok "a weights name found nowhere: one line" || bad "a weights name found nowhere" "$out"
out=$(run version 2>&1)
if [[ $out == *"book:     $share/weights/default.book ("*" positions)"* ]] &&
    [[ $out == *"weights:  default (built in), "*material* ]] && [[ $out == *"data:     $share (the program's ../share/kingme)"* ]]; then
    ok "kingme version names the installed book, data and weights"
else bad "kingme version" "$out"; fi
out=$(run book info 2>&1 | head -3)
[[ $out == *"$share/weights/default.book"* ]] && ok "kingme book info: the installed book" || bad "book info" "$out"
# a position of the book: the engine plays its move at once
out=$(printf 'position startpos\ngo movetime 2000\nquit\n' | run engine 2>&1)
[[ $out == *"info book"* ]] && ok "kingme engine: a book move from the installed book" || bad "engine book move" "$out"
if ls egdb/*.kdb >/dev/null 2>&1; then
    out=$(run search --fen "B:WK30,K31:BK1,K2,K3" --depth 4 2>&1)
    [[ $out == *"db win"* ]] && ok "kingme search: the installed database (db win)" || bad "search with the database" "$out"
else
    echo "skip install: no endgame database built (make egdb): the database is not checked"
fi
# the engine: --weights and `option weights` by name too
out=$(printf 'option weights handset\nisready\nquit\n' | run engine --weights material 2>&1)
[[ $out != *error* ]] && [[ $out == *readyok* ]] && ok "kingme engine --weights material, option weights handset" ||
    bad "engine weights by name" "$out"
out=$(run match default material --games 2 --depth 2 --out "$tmp/m.pdn" 2>&1)
[ $? -eq 0 ] && ok "kingme match default material from /" || bad "match default material" "$out"
# KINGME_DATA comes first
mkdir -p "$tmp/mydata/weights"
printf 'own_men 1234\n' > "$tmp/mydata/weights/material.w"
out=$( (cd / && env -i HOME="$home" KINGME_DATA="$tmp/mydata" "$k" show material 2>&1) )
[[ $out == *own_men*1234* ]] && ok "KINGME_DATA searched first" || bad "KINGME_DATA" "$out"
# the user's data folder: a database the user builds
mkdir -p "$home/.local/share/kingme/weights"
printf 'own_men 999\n' > "$home/.local/share/kingme/weights/mine.w"
out=$(run show mine 2>&1)
[[ $out == *own_men*999* ]] && ok "the user's data folder (~/.local/share/kingme)" || bad "user data" "$out"
# found through $PATH by its name, as a shell runs it (argv[0] without a '/')
out=$( (cd / && env -i HOME="$home" PATH="$root$prefix/bin:/usr/bin:/bin" kingme show material 2>&1 | head -1) )
[ "$out" = material ] && ok "kingme run by name through PATH" || bad "kingme through PATH" "$out"
# without /proc (as on macOS and the BSDs): /proc hidden under a tmpfs in a
# mount namespace of its own, the program's path comes from argv[0]
if unshare --mount sh -c 'mount -t tmpfs none /proc' >/dev/null 2>&1; then
    out=$(cd / && env -i HOME="$home" PATH="$root$prefix/bin:/usr/bin:/bin" unshare --mount sh -c \
        'mount -t tmpfs none /proc && [ ! -e /proc/self/exe ] && kingme version && kingme show material' 2>&1)
    [[ $out == *"program:  $k"$'\n'* ]] && [[ $out == *"book:     $share/weights/default.book"* ]] &&
        [[ $out == *own_men*1000* ]] && ok "without /proc: found through PATH by argv[0]" ||
        bad "without /proc" "$out"
    out=$(cd / && env -i HOME="$home" unshare --mount sh -c 'mount -t tmpfs none /proc && "$0" show handset' \
        "$k" 2>&1 | head -1)
    [ "$out" = handset ] && ok "without /proc: run by its path" || bad "without /proc, by path" "$out"
else
    echo "skip install: cannot hide /proc here (unshare --mount needs root): argv[0] is checked by test_datapath"
fi

# the manual page
man1=$root$prefix/share/man/man1/kingme.1
if command -v mandoc >/dev/null 2>&1; then
    out=$(mandoc -T lint -W warning "$man1" 2>&1)
    [ -z "$out" ] && ok "mandoc -T lint -W warning kingme.1: clean" || bad "mandoc -T lint kingme.1" "$out"
elif command -v groff >/dev/null 2>&1; then
    out=$(groff -man -ww -z "$man1" 2>&1)
    [ -z "$out" ] && ok "groff -ww kingme.1: clean" || bad "groff kingme.1" "$out"
else
    echo "skip install: neither mandoc nor groff is installed: kingme.1 is not linted"
fi
grep -q '^\.TH KINGME 1 ' "$man1" && grep -q '^\.SS "kingme match' "$man1" && grep -q -- '\\-\\-games' "$man1" &&
    ok "kingme.1 holds every command (match and its --games)" || bad "kingme.1 contents" "$(head -5 "$man1")"
# the bash completion
comp=$root$prefix/share/bash-completion/completions/kingme
out=$(bash -c 'source "$1"; COMP_WORDS=(kingme ma); COMP_CWORD=1; _kingme; echo "${COMPREPLY[*]}";
    COMP_WORDS=(kingme match --ti); COMP_CWORD=2; _kingme; echo "${COMPREPLY[*]}";
    COMP_WORDS=(kingme egdb ""); COMP_CWORD=2; _kingme; echo "${COMPREPLY[*]}"' _ "$comp" 2>&1)
[ "$out" = $'match\n--time --timeout\nbuild probe info verify bench' ] &&
    ok "bash completion: kingme ma, kingme match --ti, kingme egdb" || bad "bash completion" "$out"
if command -v zsh >/dev/null 2>&1; then
    check "zsh -n _kingme" zsh -n "$root$prefix/share/zsh/site-functions/_kingme"
fi

# uninstall leaves nothing
if out=$(make -s uninstall DESTDIR="$root" 2>&1) && [ -z "$(find "$root" -type f)" ]; then
    ok "make uninstall removes every file"
else bad "make uninstall" "$out$(find "$root" -type f | head)"; fi
cd "$top"
echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
