#!/bin/sh
# tools/layers.sh - kingme's library is layered: no module reaches one that
# reaches back to it. This script finds the circles, in two graphs:
#   modules: module A -> B when one of A's files (include/kingme/A.h,
#            src/A.c, src/A_*.c, src/A_impl.h) includes kingme/B.h;
#   objects: (with the library built, BUILD=build/release by default)
#            src/X.o -> src/Y.o when X uses a symbol that Y defines (nm).
# It prints each graph's size and every circle it finds, one a line, and
# exits 1 if there is one. Run from the repository root; make test runs it.
#   tools/layers.sh [BUILD]
set -eu
build=${1:-build/release}

# module of a file: the header's name, or the longest prefix (cut at '_')
# that names a header (egdb_file.c -> egdb, tune_file.c -> tune)
modules=$(ls include/kingme/*.h | sed 's|.*/||; s|\.h$||')
module_of() {
    f=$(basename "$1"); f=${f%.*}
    while :; do
        for m in $modules; do [ "$m" = "$f" ] && { echo "$m"; return; }; done
        case $f in *_*) f=${f%_*} ;; *) echo "$f"; return ;; esac
    done
}

circles() { # reads "from to" lines, prints the circles (Tarjan's strongly connected components)
    awk '
    { if ($1 != $2) { adj[$1] = adj[$1] " " $2 }; node[$1]; node[$2] }
    function visit(v,   n, i, w, k, comp, size) {
        index_[v] = low[v] = ++counter; stack[++sp] = v; on[v] = 1
        n = split(adj[v], ws, " ")
        for (i = 1; i <= n; i++) {
            w = ws[i]
            if (!(w in index_)) { visit(w); n = split(adj[v], ws, " "); if (low[w] < low[v]) low[v] = low[w] }
            else if (on[w] && index_[w] < low[v]) low[v] = index_[w]
        }
        if (low[v] == index_[v]) {
            comp = ""; size = 0
            do { w = stack[sp--]; on[w] = 0; comp = w (comp == "" ? "" : " ") comp; size++ } while (w != v)
            if (size > 1) { print "circle: " comp; found++ }
        }
    }
    END {
        for (v in node) nodes++
        for (v in node) if (!(v in index_)) visit(v)
        printf "%d nodes, %d circles\n", nodes, found + 0
        exit found ? 1 : 0
    }'
}

status=0
echo "modules:"
for f in include/kingme/*.h src/*.c src/*.h; do
    from=$(module_of "$f")
    sed -n 's|^#include "kingme/\([a-z0-9_]*\)\.h".*|\1|p' "$f" | while read -r to; do echo "$from $to"; done
done | sort -u | circles || status=1

if ls "$build"/src/*.o >/dev/null 2>&1; then
    echo "objects ($build):"
    # one nm over every object: "DIR/src/NAME.o:ADDRESS TYPE SYMBOL" a line
    nm -A "$build"/src/*.o | awk 'NF == 3 { n = $1; sub(/\.o:.*/, "", n); sub(/.*\//, "", n)
            if ($2 == "U") { user[++k] = n; used[k] = $3 } else if ($2 ~ /[TDBRC]/) def[$3] = n }
        END { for (i = 1; i <= k; i++) if (used[i] in def) print user[i], def[used[i]] }' |
        sort -u | circles || status=1
else
    echo "objects: $build/src/*.o not built (make first): not checked"
fi
exit $status
