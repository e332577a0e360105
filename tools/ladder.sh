#!/bin/sh
# tools/ladder.sh - the strength levels' ladder: each level against the one
# above it and against the full engine (level 10), then a table of the Elo
# of each level with the full engine at 0.
#
#   tools/ladder.sh [DIR]            play the matches into DIR (build/ladder)
#   tools/ladder.sh --report DIR     only the table, from DIR's match outputs
#
# Each match: kingme match between two `kingme engine --level N` processes,
# `--depth 12` (the levels below 10 are bound by their node budgets, not by
# the depth; level 10 is the full engine at depth 12), the ACF ballots in
# number order, each with both colours, a game still going after 200 plies
# a draw, one game at a time, seed 1. The
# neighbours play NEXT games (200), the levels against the full engine FULL
# games (40 for levels 6-9, half that below: those are lopsided). A level
# plays the same moves for the same seed, so a match is the same every time
# on any machine. Each match writes DIR/LA-LB.txt (its output), .pdn, .svg.
#
# The table: for each level, the Elo of its match against the level above
# (with the match's 95% interval) and against the full engine, then the
# ladder: the sum of the neighbour differences from the full engine down,
# with an interval from the matches' half-widths added in quadrature.
#
# The environment: KINGME (./kingme), NEXT (200), FULL (40), NICE (10).
# The whole ladder takes an hour or more of one core.
set -eu
cd "$(dirname "$0")/.."
K=${KINGME:-./kingme}
NEXT=${NEXT:-200}
FULL=${FULL:-40}

report() { # DIR
    for a in 9 8 7 6 5 4 3 2 1; do
        for b in $((a + 1)) 10; do
            f="$1/L$a-L$b.txt"
            if [ -f "$f" ]; then
                # "A: W wins, D draws, L losses; score S% (P/N)" and
                # "Elo difference E (95%: LO .. HI), LOS X%"
                sed -n -e 's/^A: \([0-9]*\) wins\{0,1\}, \([0-9]*\) draws\{0,1\}, \([0-9]*\) loss.*score \([0-9.]*\)%.*/res '"$a $b"' \1 \2 \3 \4/p' \
                    -e 's/^Elo difference \([-+0-9.inf]*\) (95%: \([-+0-9.inf]*\) \.\. \([-+0-9.inf]*\)).*/elo '"$a $b"' \1 \2 \3/p' "$f"
            fi
        done
    done | awk '
    $1 == "res" { k = $2 " " $3; n[k] = $4 + $5 + $6; w[k] = $4; d[k] = $5; l[k] = $6; s[k] = $7 }
    $1 == "elo" { k = $2 " " $3; e[k] = $4; lo[k] = $5; hi[k] = $6 }
    function cell(k) {
        if (!(k in n)) return sprintf("%-34s", "-")
        return sprintf("%3d games +%d =%d -%d %5.1f%%", n[k], w[k], d[k], l[k], s[k]) \
            sprintf(" %+.0f (%+.0f .. %+.0f)", e[k], lo[k], hi[k])
    }
    END {
        printf "level  ladder Elo (95%%)       against the level above                          against the full engine\n"
        printf "   10  0 (the full engine)\n"
        sum = 0; var = 0; ok = 1
        for (a = 9; a >= 1; a--) {
            k = a " " (a + 1)
            if (ok && (k in e) && e[k] ~ /^[-+]?[0-9.]+$/) {
                sum += e[k]; h = (hi[k] - lo[k]) / 2; var += h * h
                lad = sprintf("%+5.0f (%+.0f .. %+.0f)", sum, sum - sqrt(var), sum + sqrt(var))
            } else {
                ok = 0; lad = "-"
            }
            printf "%5d  %-22s  %-47s  %s\n", a, lad, cell(k), (a == 9 ? "(the level above)" : cell(a " 10"))
        }
    }'
}

if [ "${1:-}" = "--report" ]; then
    report "${2:?usage: tools/ladder.sh --report DIR}"
    exit 0
fi
DIR=${1:-build/ladder}
mkdir -p "$DIR"
[ -x "$K" ] || make kingme
play() { # A B GAMES
    nice -n "${NICE:-10}" "$K" match engine:"$K engine --level $1" engine:"$K engine --level $2" \
        --games "$3" --depth 12 --max-plies 200 -j 1 --out "$DIR/L$1-L$2.pdn" --svg "$DIR/L$1-L$2.svg" > "$DIR/L$1-L$2.txt" 2>&1
    echo "level $1 against level $2: $(sed -n 's/^A: //p' "$DIR/L$1-L$2.txt")"
}
for a in 1 2 3 4 5 6 7 8 9; do play "$a" $((a + 1)) "$NEXT"; done
for a in 8 7 6; do play "$a" 10 "$FULL"; done
for a in 5 4 3 2 1; do play "$a" 10 $((FULL / 2)); done
report "$DIR"
