#!/usr/bin/env bash
# ponder_probe.sh - how much thinking on the opponent's time gives: kingme
# engine A (the full engine) plays games against B, a stand-in for a person
# (kingme engine at a level, whose move is sent only after THINK seconds, as
# a person takes time to answer), through the engine protocol; A gets
# `go movetime MS` for each move. With pondering, after each of its moves A
# searches the position after the reply it expects (`bestmove M ponder P`,
# `go ponder movetime MS`) while B thinks; when B plays P, A gets
# `ponderhit` (its MS start then), otherwise `stop` and a normal `go`.
#
# Prints, per mode, the ponder searches, how often the expected reply came,
# and the depth of A's answers (the last info line before each bestmove;
# an answer of depth 1, a forced move answered at once, is not counted).
# Both engines play without the endgame database (whose moves are answered
# at once) and without the opening book.
#
#   tools/ponder_probe.sh [KINGME] [GAMES] [MS] [THINK] [LEVEL]
#   defaults: ./kingme 2 500 1.5 6
#
# Each game starts from one of four openings and stops at 100 plies; the
# two modes alternate game by game (the same opening and seed for B), so
# that a change in the machine's load falls on both.
set -u
K=${1:-./kingme}
GAMES=${2:-2}
MS=${3:-500}
THINK=${4:-1.5}
LEVEL=${5:-6}
BALLOTS=("9-13 22-18 10-14" "9-13 22-18 11-15" "9-13 22-18 11-16" "9-13 22-18 12-16")

# read lines from fd $1 until one starts with $2; the last info line before it in INFO
expect() {
    local fd=$1 want=$2 line
    INFO=""
    while IFS= read -r -t 60 line <&"$fd"; do
        case "$line" in
        "$want"*) LINE=$line; return 0 ;;
        info\ depth*) INFO=$line ;;
        esac
    done
    echo "ponder_probe: no '$want' from the engine" >&2
    exit 1
}

depth_of() { set -- $1; echo "$3"; } # "info depth D ..."

declare -A TRIES HITS ANSWERS DEPTHS HIT_ANSWERS HIT_DEPTHS
play_game() { # $1: ponder or plain, $2: the game's number
    local mode=$1 g=$2 tries=0 hits=0 answers=0 depth_sum=0 hit_depth_sum=0 hit_answers=0
    {
        # two coprocesses at once work, but bash warns of the second
        exec 3>&2 2>/dev/null
        coproc A { exec $K engine --no-book --no-egdb 2>&3; }
        coproc B { exec $K engine --level "$LEVEL" --no-book --no-egdb 2>&3; }
        exec 2>&3 3>&-
        echo "option seed $g" >&"${B[1]}"
        local moves="${BALLOTS[$(((g - 1) % ${#BALLOTS[@]}))]}" plies=3 ready="" rdepth
        while ((plies < 100)); do
            # A's move (or the answer a ponder hit already gave)
            if [[ -z $ready ]]; then
                echo "position start moves $moves" >&"${A[1]}"
                echo "go movetime $MS" >&"${A[1]}"
                expect "${A[0]}" bestmove
                ready=$LINE
                rdepth=$(depth_of "$INFO")
            fi
            set -- $ready
            local best=$2 expected=${4:-}
            ready=""
            [[ $best == none ]] && break
            if ((${rdepth:-1} > 1)); then # a forced move is answered at once: not counted
                answers=$((answers + 1))
                depth_sum=$((depth_sum + rdepth))
            fi
            moves="$moves $best"
            plies=$((plies + 1))
            local pondering=""
            if [[ $mode == ponder && -n $expected ]]; then
                echo "position start moves $moves $expected" >&"${A[1]}"
                echo "go ponder movetime $MS" >&"${A[1]}"
                pondering=1
                tries=$((tries + 1))
            fi
            # B, the person: its move, sent after THINK seconds
            local t0=$EPOCHREALTIME
            echo "position start moves $moves" >&"${B[1]}"
            echo "go depth 30" >&"${B[1]}"
            expect "${B[0]}" bestmove
            set -- $LINE
            local reply=$2
            local wait
            wait=$(awk -v a="$t0" -v b="$EPOCHREALTIME" -v t="$THINK" 'BEGIN { w = t - (b - a); print (w > 0 ? w : 0) }')
            sleep "$wait"
            if [[ $reply == none ]]; then
                [[ -n $pondering ]] && { echo stop >&"${A[1]}"; expect "${A[0]}" bestmove; }
                break
            fi
            moves="$moves $reply"
            plies=$((plies + 1))
            if [[ -n $pondering ]]; then
                if [[ $reply == "$expected" ]]; then
                    hits=$((hits + 1))
                    echo ponderhit >&"${A[1]}"
                    expect "${A[0]}" bestmove
                    ready=$LINE
                    rdepth=$(depth_of "$INFO")
                    if ((${rdepth:-1} > 1)); then
                        hit_answers=$((hit_answers + 1))
                        hit_depth_sum=$((hit_depth_sum + rdepth))
                    fi
                else
                    echo stop >&"${A[1]}"
                    expect "${A[0]}" bestmove
                fi
            fi
        done
        echo quit >&"${A[1]}"
        echo quit >&"${B[1]}"
        wait "$A_PID" "$B_PID" 2>/dev/null
    }
    TRIES[$mode]=$((${TRIES[$mode]:-0} + tries))
    HITS[$mode]=$((${HITS[$mode]:-0} + hits))
    ANSWERS[$mode]=$((${ANSWERS[$mode]:-0} + answers))
    DEPTHS[$mode]=$((${DEPTHS[$mode]:-0} + depth_sum))
    HIT_ANSWERS[$mode]=$((${HIT_ANSWERS[$mode]:-0} + hit_answers))
    HIT_DEPTHS[$mode]=$((${HIT_DEPTHS[$mode]:-0} + hit_depth_sum))
    echo "game $g, $mode: $answers answers of A, depth sum $depth_sum; ponder searches $tries, hits $hits"
}

report() {
    local m=$1
    awk -v m="$m" -v t="${TRIES[$m]:-0}" -v h="${HITS[$m]:-0}" -v n="${ANSWERS[$m]:-0}" -v s="${DEPTHS[$m]:-0}" \
        -v hn="${HIT_ANSWERS[$m]:-0}" -v hs="${HIT_DEPTHS[$m]:-0}" 'BEGIN {
        printf "%-6s: %d answers of A, mean depth %.2f", m, n, n ? s / n : 0
        if (m == "ponder") printf "; %d ponder searches, the expected reply came %d times (%.0f%%), mean depth after a hit %.2f, after no hit %.2f", t, h, t ? 100 * h / t : 0, hn ? hs / hn : 0, n - hn ? (s - hs) / (n - hn) : 0
        printf "\n" }'
}

echo "A: $K engine, go movetime $MS; B: level $LEVEL answering after $THINK s; $GAMES games a mode, the modes alternating"
for ((g = 1; g <= GAMES; g++)); do
    play_game plain "$g"
    play_game ponder "$g"
done
report plain
report ponder
