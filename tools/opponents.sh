#!/bin/sh
# tools/opponents.sh - build an open engine kingme's match can play against:
# Martin Fierz's Simple Checkers (simplech), from the C++ source that ships
# with CheckerBoard (github.com/eygilbert/CheckerBoard, source/simplech.c),
# compiled unchanged and linked to tools/cbengine (docs/opponents.md).
#
#   tools/opponents.sh [DIR]                       (DIR: build/opponents)
#   CB_SRC=/path/to/CheckerBoard tools/opponents.sh [DIR]
#   CB_URL=URL tools/opponents.sh [DIR]            (another place to clone from)
#
# 1. The source: CB_SRC, a copy of CheckerBoard's repository, or else a
#    shallow clone of CB_URL (default https://github.com/eygilbert/CheckerBoard)
#    into DIR/CheckerBoard (kept, and used again next time).
# 2. The library: make builds build/release/libkingme.a.
# 3. simplech.c with tools/cbengine's stand-ins for windows.h, ShlObj.h and
#    Shlwapi.h (its own warnings are not ours: -w), cbglue.cpp (its getmove
#    reached from C), cbengine.c (the engine protocol on kingme's library),
#    linked into DIR/simplech-engine.
# 4. A check: the engine answers hello and plays a move from the start.
#
# Needs git (without CB_SRC), make, a C compiler (CC, default cc) and a C++
# compiler (CXX, default c++): CheckerBoard's engines are C++.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-build/opponents}
CC=${CC:-cc}
CXX=${CXX:-c++}
MAKE=${MAKE:-make}
url=${CB_URL:-https://github.com/eygilbert/CheckerBoard}
lib=build/release/libkingme.a

fail() {
    echo "opponents.sh: $*" >&2
    exit 1
}

mkdir -p "$dir" || fail "cannot make the folder $dir"
dir=$(cd "$dir" && pwd)
# the folder as the messages name it: relative to the checkout when inside it
show=$dir
case $dir in "$here"/*) show=${dir#"$here"/} ;; esac

if [ -n "${CB_SRC:-}" ]; then
    src=$CB_SRC
    [ -f "$src/source/simplech.c" ] || fail "CB_SRC=$src: no source/simplech.c there (a copy of CheckerBoard's repository?)"
else
    src=$dir/CheckerBoard
    if [ ! -f "$src/source/simplech.c" ]; then
        command -v git >/dev/null 2>&1 || fail "git is needed to fetch CheckerBoard's source (or set CB_SRC)"
        rm -rf "$src"
        echo "fetching CheckerBoard's source from $url"
        if ! why=$(git clone --quiet --depth 1 "$url" "$src" 2>&1); then
            rm -rf "$src"
            why=$(printf '%s\n' "$why" | sed -n 's/^fatal: //p' | head -n 1)
            fail "could not clone $url: ${why:-git failed} (or set CB_SRC to a copy)"
        fi
        [ -f "$src/source/simplech.c" ] || fail "$src: no source/simplech.c in the clone"
    fi
fi
src=$(cd "$src" && pwd)
rev=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo "not a git checkout")

for c in "$CC" "$CXX"; do
    command -v "$c" >/dev/null 2>&1 || fail "no compiler '$c' (CC: C, CXX: C++; CheckerBoard's engines are C++)"
done

cd "$here"
$MAKE -s "$lib" || fail "could not build $lib"

# <Windows.h>: the same stand-in (a file system that ignores case has it already)
obj=$dir/obj
mkdir -p "$obj/shim"
[ -e "$obj/shim/Windows.h" ] || printf '#include "windows.h"\n' >"$obj/shim/Windows.h"
shim="-Itools/cbengine -I$obj/shim"

echo "building $show/simplech-engine from $src/source/simplech.c (CheckerBoard $rev)"
$CXX -O2 -w $shim -I"$src/source" -x c++ -c "$src/source/simplech.c" -o "$obj/simplech.o"
$CXX -O2 -Wall -Wextra $shim -I"$src/source" -c tools/cbengine/cbglue.cpp -o "$obj/cbglue.o"
$CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Wshadow -Werror -Iinclude -Itools/cbengine \
    -c tools/cbengine/cbengine.c -o "$obj/cbengine.o"
$CXX -o "$dir/simplech-engine.tmp" "$obj/cbengine.o" "$obj/cbglue.o" "$obj/simplech.o" "$lib" -lm -lpthread
mv -f "$dir/simplech-engine.tmp" "$dir/simplech-engine"

# the check: a name, and a legal move from the start
out=$(printf 'hello\nposition start\ngo movetime 20\nquit\n' | "$dir/simplech-engine") ||
    fail "$show/simplech-engine failed its check"
hello=$(printf '%s\n' "$out" | sed -n 's/^hello \(.*\) protocol 1$/\1/p')
move=$(printf '%s\n' "$out" | sed -n 's/^bestmove //p')
case $move in
9-13 | 9-14 | 10-14 | 10-15 | 11-15 | 11-16 | 12-16) ;;
*) fail "$show/simplech-engine did not play a legal first move: $out" ;;
esac
echo "built $show/simplech-engine ($hello; from the start it plays $move)"
echo "play it:"
echo "  ./kingme match default engine:$show/simplech-engine --time 0.1"
