#!/usr/bin/env bash
# tools/tsan.sh - make tsan's run, after the Makefile has built build/tsan
# (-fsanitize=thread): the tests whose code runs threads (TSAN_TESTS: the
# runner's name filters), then a stress of the engine protocol (pondering,
# ponderhit, stop and isready during searches, quit during a search, lazy
# SMP on 4 threads, every move's score), a search on 4 threads and a match
# with -j 4. ThreadSanitizer writes each report to build/tsan/reports/
# (TSAN_OPTIONS log_path, the programs the tests start included); any
# report, a failed test or a command's failure fails the run. Prints a line
# per step and the time it took.
set -u
cd "$(dirname "$0")/.."
B=build/tsan
K=$B/kingme # relative, as make test and make sanitize give it: the tests compare wrapped lines
R=$PWD/$B/reports
rm -rf "$R"
mkdir -p "$R"
export TSAN_OPTIONS="log_path=$R/tsan second_deadlock_stack=1 halt_on_error=0"
export KINGME_EGDB=none
status=0
t0=$SECONDS

for f in ${TSAN_TESTS:-engine egdb_background egdb_probes_from search_threads search_is_deterministic tt_shared match_pool match_command workers_give book_build_on selfplay_and_fit label_positions}; do
    s=$SECONDS
    if ! KINGME=$K KINGME_SANITIZE=1 "$B/kingme_tests" "$f" >"$R/tests-$f.log" 2>&1; then
        echo "tsan: the tests '$f' failed ($R/tests-$f.log)"
        status=1
    fi
    echo "tsan: tests $f: $(tail -1 "$R/tests-$f.log") ($((SECONDS - s)) s)"
done

# The engine protocol: a session that goes through every threaded path.
engine_session() {
    echo "option threads 4"
    for round in 1 2 3; do
        echo "position start moves 11-15 23-19"
        echo "go movetime 200"
        sleep 0.05
        echo "isready"
        sleep 0.3
        echo "position start moves 11-15 23-19 8-11 22-17"
        echo "go ponder movetime 100"
        sleep 0.1
        echo "ponderhit"
        sleep 0.3
        echo "go ponder"
        sleep 0.1
        echo "stop"
        echo "go infinite"
        sleep 0.2
        echo "stop"
        echo "go allmoves depth 5"
        echo "go depth 4"
        sleep 0.3
        echo "option threads $((round % 2 ? 2 : 4))"
        echo "newgame"
        echo "go btime 500 wtime 500 binc 20 winc 20"
        sleep 0.3
    done
    echo "go infinite"
    sleep 0.2
    echo "quit"
}
s=$SECONDS
if ! engine_session | timeout 120 "$K" engine --no-book >"$R/engine.log" 2>&1; then
    echo "tsan: the engine session failed ($R/engine.log)"
    status=1
fi
echo "tsan: engine session: $(grep -c '^bestmove' "$R/engine.log") bestmoves ($((SECONDS - s)) s)"

s=$SECONDS
if ! timeout 300 "$K" search --threads 4 --depth 12 >"$R/search.log" 2>&1; then
    echo "tsan: search --threads 4 failed ($R/search.log)"
    status=1
fi
echo "tsan: search --threads 4 --depth 12 ($((SECONDS - s)) s)"

s=$SECONDS
if ! timeout 600 "$K" match weights/material.w default --games 8 --depth 3 -j 4 --out "$R/match.pdn" >"$R/match.log" 2>&1; then
    echo "tsan: match -j 4 failed ($R/match.log)"
    status=1
fi
echo "tsan: match --games 8 --depth 3 -j 4: $(grep -c '^\[Result' "$R/match.pdn" 2>/dev/null) games ($((SECONDS - s)) s)"

reports=$(find "$R" -name 'tsan.*' | wc -l)
if [ "$reports" -gt 0 ]; then
    echo "tsan: $reports report(s) of ThreadSanitizer in $R:"
    grep -h -A3 '^WARNING: ThreadSanitizer' "$R"/tsan.* | head -40
    status=1
fi
echo "tsan: $([ $status -eq 0 ] && echo clean || echo FAILED), $((SECONDS - t0)) s in all"
exit $status
