#!/bin/sh
# A broken engine for the referee tests (tests/test_match.c):
#   sh broken.sh MODE [LOG]
# answers hello and isready like a kingme engine, then at `go` misbehaves as
# MODE says: illegal (plays 32-1, which no early position allows),
# crash (exits with status 3), garbage (prints a line that is not
# part of the protocol), hang (sleeps in a child, writing its pid to LOG.sleep),
# slow (plays 9-13 after 0.3 s: a legal first move from the initial position),
# once (illegal at its first start, hang after that).
# Each start appends a line to LOG, so the tests can count restarts.
mode=$1
log=${2:-/dev/null}
echo "start $$" >> "$log"
while read -r cmd rest; do
    case $cmd in
    hello) echo "hello broken-$mode 0 protocol 1" ;;
    isready) echo readyok ;;
    go)
        echo "info depth 1 score 0 nodes 1 nps 1 time 0 pv"
        case $mode in
        illegal) echo "bestmove 32-1" ;;
        crash) exit 3 ;;
        garbage) echo "I am not an engine" ;;
        hang) sleep 30 & echo $! > "$log.sleep"; wait ;;
        slow) sleep 0.3; echo "bestmove 9-13" ;;
        once)
            if [ "$(grep -c start "$log")" -le 1 ]; then echo "bestmove 32-1"
            else sleep 30 & echo $! > "$log.sleep"; wait; fi ;;
        esac ;;
    quit) exit 0 ;;
    esac
done
