#!/usr/bin/env bash
# tests/dist_test.sh TARBALL - make test-dist: the release tarball of make
# dist unpacked in a temporary folder, far from the checkout, and set up as
# the README says: make kingme (the program, its manual page and
# completions), then a smoke run of the commands a new user tries first,
# kingme version naming the release's commit, and make install into a
# DESTDIR. The endgame database is not built here (minutes); the checkout's
# make test covers it. Prints each check and "dist: N passed, M failed".
set -u
tarball=$(realpath "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kingme-dist.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "ok   dist: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL dist: $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | tail -20 | sed 's/^/     /'; fail=$((fail + 1)); }
done_() { echo "dist: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

cd "$tmp" || exit 1
if tar xzf "$tarball"; then ok "tar xzf $(basename "$tarball")"; else bad "tar xzf"; done_; fi
dir=$(tar tzf "$tarball" | head -1 | cut -d/ -f1)
cd "$dir" || { bad "no folder $dir in the tarball"; done_; }
[ ! -e .git ] && ok "no .git in the release" || bad "a .git in the release"
# the same files git tracks, nothing of a build
for f in Makefile README.md LICENSE weights/default.w weights/default.book weights/material.w src/cli/main.c; do
    [ -f "$f" ] || bad "$f missing from the tarball"
done
[ ! -e kingme ] && [ ! -e build ] && [ ! -e egdb ] && ok "the tarball holds sources, no build" ||
    bad "the tarball holds built files"
# MAKEFLAGS of a make around this script (make test-dist) left out: a make of its own
if out=$(env -u MAKEFLAGS -u MAKELEVEL nice make -j2 kingme docs-gen 2>&1); then ok "make kingme (from the tarball)"
else bad "make kingme" "$out"; done_; fi
out=$(./kingme version 2>&1)
[[ $out == *"from a release tarball"* ]] && [[ $out != *"commit:   unknown"* ]] &&
    ok "kingme version names the release's commit" || bad "kingme version" "$out"
printf '%s\n' "$out" | sed -n '1,3p' | sed 's/^/     /'
out=$(./kingme show material 2>&1 | head -1)
[ "$out" = material ] && ok "kingme show material" || bad "kingme show material" "$out"
out=$(./kingme show material 2>&1 | grep "positions of Tinsley's")
[[ $out == *"the 36832 positions of Tinsley's 724 games"* ]] &&
    ok "kingme show's typical table, made from the tarball's tests/data/tinsley.pdn" || bad "the typical table" "$out"
out=$(./kingme search --depth 8 2>&1 | tail -1)
[[ $out == bestmove* ]] && ok "kingme search --depth 8: $out" || bad "kingme search" "$out"
out=$(printf 'quit\n' | ./kingme play --out "$tmp/g.pdn" 2>&1)
[[ $out == *"Game saved to $tmp/g.pdn"* ]] && ok "kingme play (quit at once)" || bad "kingme play" "$out"
out=$(./kingme perft 5 2>&1)
[[ $out == *7361* ]] && ok "kingme perft 5" || bad "kingme perft 5" "$out"
if out=$(env -u MAKEFLAGS -u MAKELEVEL make -s install DESTDIR="$tmp/root" 2>&1) &&
    [ -x "$tmp/root/usr/local/bin/kingme" ] && [ -f "$tmp/root/usr/local/share/man/man1/kingme.1" ]; then
    ok "make install DESTDIR=... from the tarball"
else bad "make install from the tarball" "$out"; fi
done_
