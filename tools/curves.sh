#!/bin/sh
# curves.sh - learning curves of tuning sessions: the yardstick Elo of the
# best vector so far against session time (kingme tune's log, NAME.csv).
#
#   tools/curves.sh collect LOG.csv ... > curves.csv
#       one CSV of every measurement: run,algorithm,seed,generation,elapsed_s,
#       games,yard_score,yard_elo (games: played so far in the session). The
#       run is the log's name without .csv; its algorithm and seed are read
#       from names like learn-s2.csv or thesis-s1.csv ("?" otherwise).
#   tools/curves.sh chart curves.csv [STEP [time|games]]
#       a text chart: for every STEP seconds of session time (default 60), or
#       every STEP games played, the median over each algorithm's runs of
#       their latest measurement (runs that have not got there yet left out).
#
# Example (the learning curves of docs/devlog.md):
#   tools/curves.sh collect weights/population/learn-s*.csv weights/population/thesis-s*.csv \
#       > tools/learning-curves.csv
#   tools/curves.sh chart tools/learning-curves.csv 120
set -eu

usage() {
    echo "usage: tools/curves.sh collect LOG.csv ... | tools/curves.sh chart CURVES.csv [STEP [time|games]]" >&2
    exit 2
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
collect)
    [ $# -ge 1 ] || usage
    echo "run,algorithm,seed,generation,elapsed_s,games,yard_score,yard_elo"
    for f in "$@"; do
        [ -r "$f" ] || { echo "curves.sh: $f: cannot read" >&2; exit 1; }
        run=$(basename "$f" .csv)
        awk -F, -v run="$run" '
            NR == 1 {
                for (i = 1; i <= NF; i++) col[$i] = i
                if (!("yard_elo" in col)) { print "curves.sh: " FILENAME ": no yardstick columns" > "/dev/stderr"; exit 1 }
                alg = "?"; seed = "?"
                if (match(run, /^[a-z0-9]+-s[0-9]+$/)) { split(run, p, "-s"); alg = p[1]; seed = p[2] }
                next
            }
            {
                games += $col["games"]
                if ($col["yard_elo"] != "")
                    printf "%s,%s,%s,%s,%s,%d,%s,%s\n", run, alg, seed, $col["generation"], $col["elapsed_s"],
                           games, $col["yard_score"], $col["yard_elo"]
            }' "$f"
    done
    ;;
chart)
    [ $# -ge 1 ] && [ $# -le 3 ] || usage
    step=${2:-60}
    x=${3:-time}
    case $x in time) xcol=5 ;; games) xcol=6 ;; *) usage ;; esac
    awk -F, -v step="$step" -v xcol="$xcol" '
        NR == 1 { next }
        {
            run = $1; a = $2
            if (!(run in seen)) { seen[run] = 1; nrun[a]++; runs[a, nrun[a]] = run; if (!(a in isalg)) { isalg[a] = 1; algs[++nalg] = a } }
            n = ++rows[run]; t[run, n] = $xcol + 0; e[run, n] = $8 + 0
            if ($xcol + 0 > tmax) tmax = $xcol + 0
        }
        function median(v, k,    i, j, x) {
            for (i = 2; i <= k; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
            return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
        }
        function bar(x,    s, i, len, half) {
            half = 20; len = int((x < 0 ? -x : x) * half / 1000 + 0.5); if (len > half) len = half
            s = ""
            for (i = 0; i < half; i++) s = s ((x < 0 && i >= half - len) ? "#" : " ")
            s = s "|"
            for (i = 0; i < half; i++) s = s ((x > 0 && i < len) ? "#" : " ")
            return s
        }
        END {
            printf "yardstick Elo of the best so far, median over runs (full half width = 1000 Elo)\n"
            printf "%8s %-8s %5s %6s  %-20s0\n", xcol == 5 ? "time" : "games", "", "runs", "Elo", "-1000"
            for (T = step; T < tmax + step; T += step) {
                if (T > tmax) T = tmax + step # the last row: the last measurement of every run
                for (ai = 1; ai <= nalg; ai++) {
                    a = algs[ai]; k = 0
                    for (ri = 1; ri <= nrun[a]; ri++) {
                        run = runs[a, ri]; last = ""
                        if (T <= tmax && t[run, rows[run]] < T - step) continue # this run ended before
                        for (i = 1; i <= rows[run]; i++) if (t[run, i] <= T) last = e[run, i]
                        if (last != "") v[++k] = last + 0
                    }
                    label = ai != 1 ? "" : T > tmax ? "end" : xcol == 5 ? sprintf("%d:%02d", int(T / 60), T % 60) : sprintf("%d", T)
                    if (k) printf "%8s %-8s %5d %+6.0f  %s\n", label, a, k, median(v, k), bar(median(v, k))
                    else printf "%8s %-8s %5d %6s\n", label, a, 0, "-"
                }
            }
        }' "$1"
    ;;
*) usage ;;
esac
