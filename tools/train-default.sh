#!/bin/sh
# tools/train-default.sh - rebuild weights/default.w from a clean checkout.
#
#   tools/train-default.sh [OUT]        (OUT: weights/default.w)
#
# 1. kingme plays GAMES games against itself (kingme selfplay) with the named
#    weights alone (weights/named.w, the default before the pattern layer),
#    NODES nodes a move, from the ACF ballots with a few random near-best
#    moves after each, the 5-piece endgame database ending the games it
#    knows; every position is kept with the search's score and the result.
# 2. kingme fit fits the named weights and the pattern layer to the quiet
#    positions of those games by logistic regression (the target half the
#    result, half the score), starting from weights/named.w, and writes OUT.
#
# Both steps are deterministic: the games depend on the seed alone (any
# number of threads), the fit on its seed and its two threads, so OUT is the
# same file, byte for byte, every time (the header holds the fit's command).
# An interrupted run goes on where it stopped when started again (the games
# already played are kept in WORK). Times: docs/evaluation.md.
#
# The environment can shrink it (make test runs it so, in a few seconds):
#   GAMES (3800), NODES (20000), EPOCHS (300), WORK (build/train),
#   KINGME (./kingme; when unset, `make` builds it and the database first),
#   EGDB (egdb; "none" for no database).
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-weights/default.w}
GAMES=${GAMES:-3800}
NODES=${NODES:-20000}
EPOCHS=${EPOCHS:-300}
WORK=${WORK:-build/train}
EGDB=${EGDB:-egdb}
if [ -z "${KINGME:-}" ]; then
    make -s kingme db
    KINGME=./kingme
fi
if [ "$EGDB" = none ]; then db=--no-egdb; else db="--egdb $EGDB"; fi
mkdir -p "$WORK"
"$KINGME" selfplay --weights weights/named.w --games "$GAMES" --chunk 100 --nodes "$NODES" \
    --random-plies 8 --margin 100 --seed 1 $db -j 2 --out "$WORK/selfplay"
"$KINGME" fit "$WORK/selfplay" --prior weights/named.w --lambda 0.5 --epochs "$EPOCHS" --rate 4 \
    --l2 1 --l2-pattern 10 --holdout 0.05 --min-pieces 5 --seed 1 -j 2 --out "$OUT"
