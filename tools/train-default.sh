#!/bin/sh
# tools/train-default.sh - rebuild weights/default.w from a clean checkout.
#
#   tools/train-default.sh [OUT]        (OUT: weights/default.w)
#
# 1. kingme plays GAMES games against itself (kingme selfplay) with the named
#    weights alone (weights/named.w, the default before the pattern layer),
#    NODES nodes a move, from the ACF ballots with a few random near-best
#    moves after each, the 5-piece endgame database ending the games it
#    knows; every position is kept with the search's score and the result
#    (WORK/selfplay1).
# 2. kingme fit fits the named weights and the pattern layer to the quiet
#    positions of those games by logistic regression (the target half the
#    result, half the score), starting from weights/named.w: WORK/gen1.w.
# 3. The next generation: GAMES more games, with the next seed, played by
#    the weights just fitted (a stronger player, whose games are nearer to
#    those the engine will play), then a fit to all the games so far; and
#    so on for GENERATIONS generations. The last fit is OUT.
# 4. The ending network (ENDING=H units, 32; 0: none): ENDING_GENERATIONS
#    (3) times GAMES more games played by the last fit (the next seeds);
#    their positions of 6 pieces labelled with the 6-piece database's
#    results (kingme label --max-pieces 6, EGDB6: a folder holding it, built
#    by make egdb EGDB_DIR=egdb6 EGDB_PIECES=6 when missing); then a network
#    of H units trained for ENDING_EPOCHS (30) passes over the last fit
#    (kept as it is) on those games' positions of at most 10 pieces (kingme
#    fit --net --labels --max-pieces 10), asked by the evaluation only
#    there. That file is OUT (with ENDING=0 the last fit is OUT).
# 5. With NET=H (not by default): a network of H units trained over the last
#    fit's weights (kept as they are) on all the pattern fits' games, kingme
#    fit --net, into NET_OUT (OUT with -nn before .w); its checkpoint is
#    WORK/net.ckpt, so an interrupted training goes on where it stopped.
#
# Every step is deterministic: the games depend on the seed and the player
# alone (any number of threads), the fits on their seed and their two
# threads, so OUT is the same file, byte for byte, every time (the header
# holds the last fit's command). An interrupted run goes on where it stopped
# when started again (the games already played are kept in WORK; a fit is
# made again, the same). Times: docs/evaluation.md.
#
# The environment can shrink it (make test runs it so, in a few seconds):
#   GAMES (3800 a generation), GENERATIONS (4), NODES (20000), EPOCHS (300),
#   WORK (build/train), KINGME (./kingme; when unset, `make` builds it and
#   the database first), EGDB (egdb; "none" for no database), ENDING (32;
#   0: no ending network), ENDING_GENERATIONS (3), ENDING_EPOCHS (30),
#   EGDB6 (egdb6; "none": the ending network without labels), NET (0: no
#   network), NET_EPOCHS (10), NET_OUT.
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-weights/default.w}
GAMES=${GAMES:-3800}
NODES=${NODES:-20000}
GENERATIONS=${GENERATIONS:-4}
EPOCHS=${EPOCHS:-300}
WORK=${WORK:-build/train}
EGDB=${EGDB:-egdb}
ENDING=${ENDING:-32}
ENDING_GENERATIONS=${ENDING_GENERATIONS:-3}
ENDING_EPOCHS=${ENDING_EPOCHS:-30}
EGDB6=${EGDB6:-egdb6}
NET=${NET:-0}
NET_EPOCHS=${NET_EPOCHS:-10}
NET_OUT=${NET_OUT:-${OUT%.w}-nn.w}
if [ -z "${KINGME:-}" ]; then
    make -s kingme db
    KINGME=./kingme
fi
if [ "$EGDB" = none ]; then db=--no-egdb; else db="--egdb $EGDB"; fi
mkdir -p "$WORK"
play() { # play WEIGHTS SEED DIR
    "$KINGME" selfplay --weights "$1" --games "$GAMES" --chunk 100 --nodes "$NODES" \
        --random-plies 8 --margin 100 --seed "$2" $db -j 2 --out "$3"
}
fit() { # fit OUT DIR...
    out=$1
    shift
    "$KINGME" fit "$@" --prior weights/named.w --lambda 0.5 --epochs "$EPOCHS" --rate 4 \
        --l2 1 --l2-pattern 10 --holdout 0.05 --min-pieces 5 --seed 1 -j 2 --out "$out"
}
player=weights/named.w
dirs=
g=1
while [ "$g" -le "$GENERATIONS" ]; do
    play "$player" "$g" "$WORK/selfplay$g"
    dirs="$dirs $WORK/selfplay$g"
    if [ "$g" -eq "$GENERATIONS" ] && [ "$ENDING" -eq 0 ]; then player=$OUT; else player=$WORK/gen$g.w; fi
    # shellcheck disable=SC2086 # the folders, one word each
    fit "$player" $dirs
    g=$((g + 1))
done
if [ "$ENDING" -gt 0 ]; then
    if [ "$EGDB6" != none ] && ! ls "$EGDB6"/*.kdb >/dev/null 2>&1; then
        make -s egdb EGDB_DIR="$EGDB6" EGDB_PIECES=6
    fi
    labels=
    edirs=
    e=0
    while [ "$e" -lt "$ENDING_GENERATIONS" ]; do
        play "$player" "$g" "$WORK/selfplay$g"
        if [ "$EGDB6" != none ]; then
            "$KINGME" label "$WORK/selfplay$g" --weights "$player" --max-pieces 6 --egdb "$EGDB6" -j 2
            labels=--labels
        fi
        edirs="$edirs $WORK/selfplay$g"
        g=$((g + 1))
        e=$((e + 1))
    done
    # shellcheck disable=SC2086 # the folders, one word each; --labels, or nothing
    "$KINGME" fit $edirs $labels --prior "$player" --net "$ENDING" --epochs "$ENDING_EPOCHS" \
        --max-pieces 10 --lambda 0.5 --holdout 0.05 --min-pieces 5 --seed 1 -j 2 --out "$OUT"
fi
if [ "$NET" -gt 0 ]; then
    # shellcheck disable=SC2086 # the folders, one word each
    "$KINGME" fit $dirs --prior "$player" --net "$NET" --epochs "$NET_EPOCHS" --lambda 0.5 --holdout 0.05 \
        --min-pieces 5 --seed 1 -j 2 --checkpoint "$WORK/net.ckpt" --out "$NET_OUT"
    rm -f "$WORK/net.ckpt"
fi
