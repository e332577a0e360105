#!/bin/sh
# tools/endings.sh - how well kingme keeps the result of its endings: from
# positions of 7 to 10 pieces whose result a deep search with the 6-piece
# database knows, kingme (A, with its own database) plays each position with
# both colours against kingme with the larger database (B). docs/devlog.md,
# "Endings of 7 to 10 pieces, judged by the 6-piece database".
#
#   tools/endings.sh [OPTIONS] [POSITIONS.pdn]        play and tally
#   tools/endings.sh judge [OPTIONS] PICKS OUT.pdn    judge positions
#   tools/endings.sh tally POSITIONS.pdn GAMES.pdn    the tally alone (of a
#                                                     match stopped early)
#
# Play: kingme match A B --openings POSITIONS.pdn (default
# tests/data/endings.pdn), one game at a time, where A is the weights
# (in this process, with --egdb-a) and B is engine:"KINGME engine --egdb
# EGDB-B" with the default weights. Then the tally, for A only, by the
# positions' [Pieces] and [Judgement] tags:
#   won     the positions won for one side: A holding the winning side wins
#   drawn   the drawn positions: A does not lose (A's draws and wins, both colours)
#   saved   the won positions again: A holding the losing side still draws
#           (or wins)
# each as "N/M P%" by piece count and in all; then, over the won positions
# that each side won holding the winning side, how many plies A and B took
# on average (a slower A hands the forty-move rule more chances to save the
# loser); then "A: W wins, D draws, L losses in G games". Options:
#   --kingme BIN      the program (./kingme; $KINGME)
#   --weights FILE    A's weights (default)
#   --set-a N=V|@F    a search parameter of A (repeatable, as kingme match)
#   --egdb-a DIR      A's database (egdb)
#   --egdb-b DIR      B's database (required)
#   --time S          seconds a move for both (0.1), or --depth D
#   --positions N     only the first N positions of the file (all)
#   --out FILE        the games (build/endings/games.pdn; a new file)
#   -j N              games at once (1)
#
# Judge: each line of PICKS ("PIECES<TAB>FEN<TAB>SOURCE", as tools/endings_pick
# writes) is searched by `KINGME search --egdb EGDB --time S` (1 s); the
# last iteration's score, for the side to move, judges it: 'db win' or
# 'win N' a win of the side to move ('db loss', 'loss N': of the other),
# |score| < DRAW (100 points, a tenth of a man of the default weights) a
# draw, anything else unclear and left out. OUT.pdn gets one game without
# moves a judged position, tags Source, Pieces, Judgement ("black wins",
# "white wins", "draw"), Score and FEN, after a header of comment lines
# (% ...) that the text of --header starts. Options: --kingme, --egdb DIR
# (required), --time S, --depth D, --draw N, --header TEXT.
set -eu
K=${KINGME:-./kingme}
die() {
    echo "endings.sh: $*" >&2
    exit 1
}

judge() {
    db=
    t=1
    depth=
    draw=100
    header=
    while [ $# -gt 2 ]; do
        case $1 in
        --kingme) K=$2 ;;
        --egdb) db=$2 ;;
        --time) t=$2 ;;
        --depth) depth=$2 ;;
        --draw) draw=$2 ;;
        --header) header=$2 ;;
        *) die "judge: unknown option '$1'" ;;
        esac
        shift 2
    done
    [ $# -eq 2 ] || die "usage: tools/endings.sh judge [OPTIONS] PICKS OUT.pdn"
    [ -x "$K" ] || die "$K: no such program (--kingme)"
    [ -n "$db" ] || die "judge: --egdb DIR is required"
    [ -d "$db" ] || die "$db: no such database folder (--egdb)"
    [ -f "$1" ] || die "$1: no such file"
    if [ -n "$depth" ]; then limit="--depth $depth"; else limit="--time $t"; fi
    tmp="$2.tmp"
    {
        [ -z "$header" ] || printf '%s\n' "$header" | sed 's/^/% /'
        echo "% judged by: kingme search --egdb $(basename "$db") $limit, draw when |score| < $draw"
        echo
    } >"$tmp"
    n=0
    kept=0
    while IFS='	' read -r pieces fen source; do
        n=$((n + 1))
        # shellcheck disable=SC2086
        res=$("$K" search --fen "$fen" $limit --egdb "$db" </dev/null) || {
            rm -f "$tmp"
            die "$source: kingme search failed"
        }
        score=$(echo "$res" |
            awk '$1 == "depth" { s = $4; if ($4 == "db" || $4 == "win" || $4 == "loss") s = $4 " " $5 } END { print s }')
        stm=$(echo "$fen" | cut -c1)
        j=$(awk -v s="$score" -v stm="$stm" -v d="$draw" 'BEGIN {
            me = stm == "B" ? "black" : "white"; you = stm == "B" ? "white" : "black"
            if (s ~ /^(db win|win)/) print me " wins"
            else if (s ~ /^(db loss|loss)/) print you " wins"
            else if (s ~ /^-?[0-9]+$/ && s + 0 < d && -s < d) print "draw"
            else print "" }')
        echo "$n $pieces $fen: $score${j:+ -> $j}" >&2
        [ -n "$j" ] || continue
        kept=$((kept + 1))
        printf '[Source "%s"]\n[Pieces "%s"]\n[Judgement "%s"]\n[Score "%s"]\n[FEN "%s"]\n*\n\n' \
            "$source" "$pieces" "$j" "$score" "$fen" >>"$tmp"
    done <"$1"
    mv -f "$tmp" "$2"
    echo "$kept of $n positions judged, written to $2"
}

if [ "${1:-}" = judge ]; then
    shift
    judge "$@"
    exit 0
fi

# The tally: POSITIONS.pdn then the match's games.
tally() { # POSITIONS GAMES
    awk '
    function tag(line) { sub(/^\[[A-Za-z]+ "/, "", line); sub(/"\][ \t\r]*$/, "", line); return line }
    function game() {
        if (round == "" || op == "") return
        i = op + 0; p = pieces[i]; j = judg[i]
        if (p == "") { bad = bad " " op; return }
        a = round % 2 == 1 ? "black" : "white"  # A plays Black in the odd rounds
        r = res == "1-0" ? "black" : res == "0-1" ? "white" : "draw"
        out = r == "draw" ? "d" : r == a ? "w" : "l"
        n[out]++; games++
        for (k = 0; k < 2; k++) {
            q = k ? "all" : p
            if (j == "draw") { dn[q]++; if (out != "l") dk[q]++ }
            else if (j == a " wins") { wn[q]++; if (out == "w") wk[q]++ }
            else { sn[q]++; if (out != "l") sk[q]++ }
        }
        if (j != "draw" && out == "w" && j == a " wins") aw[i] = plies
        if (j != "draw" && out == "l" && j != a " wins") bw[i] = plies
        round = op = res = ""; plies = 0
    }
    function cell(k, m) { return m ? sprintf("%4d/%-4d %5.1f%%", k, m, 100 * k / m) : "   -" }
    function row(a, b, c, d, line) { line = sprintf("%6s  %-20s%-20s%s", a, b, c, d); sub(/ +$/, "", line); print line }
    FNR == NR && /^\[Judgement / { np++; judg[np] = tag($0); pieces[np] = pc }
    FNR == NR && /^\[Pieces / { pc = tag($0) }
    FNR == NR { next }
    /^\[Event / { game() }
    /^\[Round / { round = tag($0) }
    /^\[Opening / { op = tag($0); sub(/^game /, "", op); sub(/ .*/, "", op) }
    /^\[Result / { res = tag($0) }
    !/^\[/ { for (f = 1; f <= NF; f++) plies += $f ~ /^[1-9][0-9]?([-x][1-9][0-9]?)+$/ }
    END {
        game()
        if (bad != "") { print "endings.sh: games of openings not in the positions file:" bad > "/dev/stderr"; exit 1 }
        row("pieces", "won: A wins", "drawn: A holds", "lost: A saves")
        for (p = 1; p <= 24; p++)
            if ((p in wn) || (p in dn) || (p in sn)) row(p, cell(wk[p], wn[p]), cell(dk[p], dn[p]), cell(sk[p], sn[p]))
        row("all", cell(wk["all"], wn["all"]), cell(dk["all"], dn["all"]), cell(sk["all"], sn["all"]))
        for (i in aw) if (i in bw) { nb++; sa += aw[i]; sb += bw[i] }
        if (nb) printf "won by both sides: A wins in %.1f plies on average, B in %.1f (%d positions)\n", sa / nb, sb / nb, nb
        printf "A: %d win%s, %d draw%s, %d loss%s in %d game%s\n", n["w"], n["w"] == 1 ? "" : "s", n["d"], \
            n["d"] == 1 ? "" : "s", n["l"], n["l"] == 1 ? "" : "es", games, games == 1 ? "" : "s"
    }' "$1" "$2"
}

if [ "${1:-}" = tally ]; then
    [ $# -eq 3 ] || die "usage: tools/endings.sh tally POSITIONS.pdn GAMES.pdn"
    [ -f "$2" ] || die "$2: no such positions file"
    [ -f "$3" ] || die "$3: no such games file"
    tally "$2" "$3"
    exit
fi

pos=
weights=default
ea=egdb
eb=
limit="--time 0.1"
npos=
out=build/endings/games.pdn
jobs=1
seta=
while [ $# -gt 0 ]; do
    case $1 in
    --kingme | --weights | --set-a | --egdb-a | --egdb-b | --time | --depth | --positions | --out | -j)
        [ $# -ge 2 ] || die "$1: a value is missing"
        case $1 in
        --kingme) K=$2 ;;
        --weights) weights=$2 ;;
        --set-a) seta="$seta --set-a $2" ;;
        --egdb-a) ea=$2 ;;
        --egdb-b) eb=$2 ;;
        --time) limit="--time $2" ;;
        --depth) limit="--depth $2" ;;
        --positions) npos=$2 ;;
        --out) out=$2 ;;
        -j) jobs=$2 ;;
        esac
        shift 2
        ;;
    -*) die "unknown option '$1'" ;;
    *)
        [ -z "$pos" ] || die "one positions file only ('$pos', '$1')"
        pos=$1
        shift
        ;;
    esac
done
pos=${pos:-tests/data/endings.pdn}
[ -x "$K" ] || die "$K: no such program (--kingme)"
[ -f "$pos" ] || die "$pos: no such positions file"
[ -n "$eb" ] || die "--egdb-b DIR (B's database, the 6-piece one) is required"
[ -d "$ea" ] || die "$ea: no such database folder (--egdb-a; make egdb builds egdb/)"
[ -d "$eb" ] || die "$eb: no such database folder (--egdb-b)"
total=$(grep -c '^\[Judgement ' "$pos") || die "$pos: no judged positions ([Judgement] tags)"
[ -n "$npos" ] || npos=$total
# shellcheck disable=SC2015
[ "$npos" -ge 1 ] 2>/dev/null && [ "$npos" -le "$total" ] 2>/dev/null || die "--positions $npos: between 1 and $total"
mkdir -p "$(dirname "$out")"
rm -f "$out"
# shellcheck disable=SC2086
"$K" match "$weights" "engine:$K engine --egdb $eb --no-book" --openings "$pos" --games $((2 * npos)) \
    $limit -j "$jobs" --seed 1 --egdb "$ea" --no-book --out "$out" $seta ||
    die "kingme match failed"
tally "$pos" "$out"
