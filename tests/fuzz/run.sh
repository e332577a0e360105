#!/usr/bin/env bash
# tests/fuzz/run.sh [TARGET...] - build the libFuzzer targets of tests/fuzz
# with clang (AddressSanitizer + UBSan) and run each for $FUZZ_SECONDS
# seconds (default 30), seeded from tests/fuzz/corpus/TARGET/ (read only; new
# inputs go to build/fuzz/corpus/TARGET/). Without clang or its libFuzzer
# runtime it says so on one line and exits 0: nothing to run. Exit 1 when a
# target finds a crash or a broken invariant (the input is kept in
# build/fuzz/crash-TARGET-*). Each target's line gives its executions, in
# all, a second, and a second of the CPU it used (on a loaded machine the
# rate a second falls, the rate a CPU second does not). FUZZ_JOBS targets
# run at a time (default: the number of cores). Used by `make fuzz` and
# .ci/run.
set -u
cd "$(dirname "$0")/../.."
SECONDS_EACH=${FUZZ_SECONDS:-30}
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(fen move pdn weights population engine egdb book selfplay label worker)
CLANG=${FUZZ_CC:-clang}
OUT=build/fuzz

if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "fuzz: skipped: $CLANG is not installed (apt-get install clang)"
    exit 0
fi
mkdir -p "$OUT"
probe="$OUT/probe.c"
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' > "$probe"
if ! "$CLANG" -fsanitize=fuzzer "$probe" -o "$OUT/probe" >/dev/null 2>&1; then
    echo "fuzz: skipped: $CLANG cannot link -fsanitize=fuzzer (its libFuzzer runtime is missing; on Debian: apt-get install libclang-rt-NN-dev for clang-NN, e.g. libclang-rt-14-dev)"
    exit 0
fi

SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
make -s BUILD="$OUT" CC="$CLANG" OPT="-O1 -g -fno-omit-frame-pointer" CFLAGS="-fsanitize=fuzzer-no-link $SAN" \
    "$OUT/libkingme.a" || { echo "fuzz: the library does not build with $CLANG"; exit 1; }
# one target: build, run, and its line into $OUT/result_$t (exit 1 when it
# fails); FUZZ_JOBS targets at a time (default: the cores), the lines then
# printed in the targets' order
run_target() {
    local t=$1 src=tests/fuzz/fuzz_$1.c
    if [ ! -f "$src" ]; then echo "fuzz: no target '$t' ($src)"; return 1; fi
    "$CLANG" -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O1 -g -fno-omit-frame-pointer -Iinclude \
        -fsanitize=fuzzer $SAN -o "$OUT/fuzz_$t" "$src" "$OUT/libkingme.a" -lm -lpthread ||
        { echo "fuzz $t: does not build"; return 1; }
    mkdir -p "$OUT/corpus/$t"
    local log="$OUT/fuzz_$t.log"
    # stdin from /dev/null: a target never waits on a terminal; bash's time
    # gives the CPU seconds the target used (user + system, its threads too)
    TIMEFORMAT='%3U %3S'
    { time "$OUT/fuzz_$t" -max_total_time="$SECONDS_EACH" -max_len=4096 -timeout=20 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$OUT/crash-$t-" "$OUT/corpus/$t" "tests/fuzz/corpus/$t" \
        < /dev/null > "$log" 2>&1; } 2> "$OUT/cpu_$t"
    local rc=$?
    local runs cov secs rate cpu cpu_rate
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -a -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
    # libFuzzer's own count of the seconds ("Done N runs in S second(s)")
    secs=$(grep -a -o 'Done [0-9]* runs in [0-9]* second' "$log" | tail -1 | awk '{print $5}')
    [ -n "$secs" ] && [ "$secs" -gt 0 ] || secs=$SECONDS_EACH
    rate=$(( ${runs:-0} / secs ))
    # executions a second of CPU: the target's own speed, whatever else the
    # machine runs (the rate a second of the clock falls with the load)
    cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$OUT/cpu_$t" 2>/dev/null)
    cpu_rate=$(awk -v n="${runs:-0}" '{ c = $1 + $2; if (c > 0) printf "%d", n / c; else printf "?" }' "$OUT/cpu_$t" 2>/dev/null)
    if [ $rc -eq 0 ]; then
        echo "fuzz $t: ${runs:-?} runs in ${secs} s (${rate} a second; ${cpu:-?} s of CPU, ${cpu_rate:-?} a CPU second), ${cov:-cov: ?}: ok"
    else
        echo "fuzz $t: FAILED after ${runs:-?} runs (${cov:-cov: ?}); input in $OUT/crash-$t-*, log $log:"
        grep -a -m1 -A12 'ERROR\|FUZZ_CHECK\|runtime error\|==ERROR' "$log" | head -20
        return 1
    fi
}

JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
for t in "${TARGETS[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    rm -f "$OUT/result_$t" "$OUT/passed_$t"
    { run_target "$t" > "$OUT/result_$t" 2>&1 && touch "$OUT/passed_$t"; } &
done
wait
# a target passes only when its run said so (one killed on the way fails)
status=0
for t in "${TARGETS[@]}"; do
    cat "$OUT/result_$t" 2>/dev/null
    if [ ! -e "$OUT/passed_$t" ]; then
        [ -s "$OUT/result_$t" ] || echo "fuzz $t: did not finish"
        status=1
    fi
done
exit $status
