#!/bin/sh
# tools/prefixes.sh - every name kingme's library exports starts with its
# module's prefix: the header's name and '_' (egdb_open, search_run), or
# the short form the whole header uses (below). It lists the global
# symbols each object of the built library defines (nm), finds the object's
# module as tools/layers.sh does (egdb_file.o -> egdb), and prints every
# symbol without its module's prefix; exit 1 if there is one. The
# compiler's own names (starting with __: the sanitizers' __odr_asan.x)
# are not kingme's. Static inline functions of the headers are not
# symbols: the review catches those. Run from the repository root after a
# build; make test runs it.
#   tools/prefixes.sh [BUILD]
set -eu
build=${1:-build/release}
lib=$build/libkingme.a
[ -f "$lib" ] || { echo "prefixes.sh: no $lib (build first)" >&2; exit 2; }

modules=$(ls include/kingme/*.h | sed 's|.*/||; s|\.h$||')
module_of() {
    f=${1%.o}
    # generated from data: the ballots' table (opening.h), the built-in weights (weights.h)
    case $f in ballots) echo opening; return ;; default_weights) echo weights; return ;; esac
    while :; do
        for m in $modules; do [ "$m" = "$f" ] && { echo "$m"; return; }; done
        case $f in *_*) f=${f%_*} ;; *) echo "$f"; return ;; esac
    done
}
# the short prefixes: each used by every name of its header
prefix_of() {
    case $1 in
    base) echo km_ ;;
    charts) echo chart_ ;;
    engineproc) echo proc_ ;;
    movegen) echo mg_ ;;
    patterns) echo pat_ ;;
    timeman) echo tm_ ;;
    tune_search) echo ts_ ;;
    worker_proto) echo wproto_ ;;
    *) echo "$1"_ ;;
    esac
}

# the library's symbols, read once: each object's header line, then its names
syms=$(nm -g --defined-only "$lib" 2>/dev/null)
bad=0 total=0
for o in $(ar t "$lib"); do
    m=$(module_of "$o")
    p=$(prefix_of "$m")
    for s in $(printf '%s\n' "$syms" | awk -v o="$o:" '$0 == o { on = 1; next } /:$/ { on = 0 } on && NF == 3 && $2 ~ /^[TDRBCV]$/ { print $3 }'); do
        total=$((total + 1))
        case $s in "$p"* | "$m" | __*) ;; *) echo "prefixes: $o defines '$s', not $p..."; bad=$((bad + 1)) ;; esac
    done
done
echo "prefixes: $total names exported by $(ar t "$lib" | wc -l) objects, $bad without their module's prefix"
[ $bad -eq 0 ]
