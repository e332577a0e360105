#!/usr/bin/env bash
# tests/cb/run_wine.sh - make test-dll: the CheckerBoard engine DLL loaded
# under Wine by a Windows test program (tests/cb/wine_test.c) as CheckerBoard
# loads it. The DLL is copied into build/dll/engines/ beside a 3-piece
# database in engines/egdb and a small opening book engines/kingme.book
# (which it must find by itself); a second copy of the database goes to
# "set dbpath". Without mingw-w64 or Wine it says so on
# one line and passes: nothing to run. .ci/run installs both when missing.
set -u
cd "$(dirname "$0")/../.."
MINGW=${MINGW:-x86_64-w64-mingw32-gcc}
if ! command -v "$MINGW" >/dev/null 2>&1; then
    echo "test-dll: skipped: $MINGW is not installed (apt-get install gcc-mingw-w64-x86-64 wine)"
    exit 0
fi
if ! command -v wine >/dev/null 2>&1; then
    echo "test-dll: skipped: wine is not installed (apt-get install wine64 wine)"
    exit 0
fi
make -s kingme dll build/dll/wine_test.exe || { echo "test-dll: the DLL or its test program does not build"; exit 1; }
out=build/dll/engines
rm -rf "$out" build/dll/egdb3
mkdir -p "$out"
cp build/dll/kingme64.dll build/dll/kingme.htm "$out/"
./kingme egdb build --pieces 3 --dir "$out/egdb" >/dev/null 2>&1 &&
    ./kingme egdb build --pieces 3 --dir build/dll/egdb3 >/dev/null 2>&1 ||
    { echo "test-dll: cannot build the 3-piece database"; exit 1; }
./kingme book build --positions 8 --depth 4 --start-plies 2 --ballot-plies 0 --out "$out/kingme.book" >/dev/null 2>&1 ||
    { echo "test-dll: cannot build the small opening book"; exit 1; }
# a prefix of its own under build/ (the first start takes half a minute),
# no console noise, no offer to install Mono or Gecko
export WINEPREFIX="$PWD/build/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
echo "test-dll: $(wine --version 2>/dev/null), $("$MINGW" --version | head -1)"
[ -d "$WINEPREFIX" ] || wineboot --init >/dev/null 2>&1
timeout 600 wine build/dll/wine_test.exe 'build\dll\engines\kingme64.dll' "Z:$PWD/build/dll/egdb3" 2>&1 | tr -d '\r'
status=${PIPESTATUS[0]}
wineserver -k 2>/dev/null
exit "$status"
