# kingme - English draughts engine.  make | make test | make sanitize | make bench | make egdb | make clean
CC      ?= cc
STD      = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Werror
OPT     ?= -O3
ARCHFLAGS := $(if $(filter x86_64,$(shell uname -m)),-mpopcnt,)
CFLAGS  ?=
ALLCFLAGS = $(STD) $(WARN) $(OPT) $(ARCHFLAGS) -Iinclude $(CFLAGS)
LDLIBS   = -lm -lpthread
BUILD   ?= build/release

LIB_SRC  = $(wildcard src/*.c)
CLI_SRC  = $(wildcard src/cli/*.c)
TEST_SRC = $(wildcard tests/*.c)
HEADERS  = $(wildcard include/kingme/*.h) $(wildcard src/*.h) $(wildcard src/cli/*.h) $(wildcard tests/*.h)

LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/default_weights.o
CLI_OBJ  = $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ = $(TEST_SRC:%.c=$(BUILD)/%.o)
LIB      = $(BUILD)/libkingme.a

.PHONY: all test sanitize bench fuzz clean egdb db
all: kingme db

kingme: $(BUILD)/kingme
	cp -f $< $@

$(BUILD)/kingme: $(CLI_OBJ) $(LIB)
	$(CC) $(ALLCFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

$(LIB): $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/kingme_tests: $(TEST_OBJ) $(LIB)
	$(CC) $(ALLCFLAGS) -o $@ $(TEST_OBJ) $(LIB) $(LDLIBS)

$(BUILD)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -c -o $@ $<

# weights/default.w compiled in as text (weights_default() parses it), so the
# commands need no data file at run time.
$(BUILD)/gen/default_weights.c: weights/default.w
	@mkdir -p $(dir $@)
	@{ echo '/* generated from weights/default.w by the Makefile */'; \
	  echo 'const char km_default_weights_text[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$$/\\n"/' $<; \
	  echo '    ;'; } > $@

$(BUILD)/gen/default_weights.o: $(BUILD)/gen/default_weights.c
	$(CC) $(ALLCFLAGS) -c -o $@ $<

# The tests run from the repository root (they read tests/data and weights/)
# and use ./kingme for the command-line checks.
test: kingme $(BUILD)/kingme_tests
	KINGME=./kingme $(BUILD)/kingme_tests $(T)

sanitize:
	$(MAKE) BUILD=build/asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  build/asan/kingme build/asan/kingme_tests
	ASAN_OPTIONS=detect_leaks=1 KINGME=build/asan/kingme KINGME_SANITIZE=1 build/asan/kingme_tests $(T)

# tools/gen_tactics makes tests/data/tactics.txt (see its header)
tools/gen_tactics: tools/gen_tactics.c $(LIB) $(HEADERS)
	$(CC) $(ALLCFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# tools/fit_eval fits weights to game results or search scores (see its header)
tools/fit_eval: tools/fit_eval.c $(LIB) $(HEADERS)
	$(CC) $(ALLCFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# tools/loss_probe finds a player's mistakes in a match's lost games (see its header)
tools/loss_probe: tools/loss_probe.c $(LIB) $(HEADERS)
	$(CC) $(ALLCFLAGS) -o $@ $< $(LIB) $(LDLIBS)

bench: kingme
	./kingme bench

# libFuzzer targets (tests/fuzz): each runs FUZZ_SECONDS (default 30), seeded
# from tests/fuzz/corpus/TARGET; skipped with one line without clang/libFuzzer.
# make fuzz FUZZ_TARGETS="pdn fen" FUZZ_SECONDS=300
FUZZ_SECONDS ?= 30
FUZZ_TARGETS ?=
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(FUZZ_TARGETS)

# The endgame databases (kingme egdb): every position of up to EGDB_PIECES
# pieces into EGDB_DIR (git ignores egdb/). About 1.5 minutes for 5 pieces.
EGDB_PIECES ?= 5
EGDB_DIR    ?= egdb
egdb: kingme
	nice -n 10 ./kingme egdb build --pieces $(EGDB_PIECES) --dir $(EGDB_DIR) -j 2

# `make` also builds the 5-piece database into egdb/ with the rule above (the
# first time about a minute on two cores, 12 MB): play and engine use the
# database beside the program (docs/egdb.md). A probe of a 5-piece position
# says whether it is there already; the progress lines go to build/egdb.log.
db: kingme
	@./kingme egdb probe --dir $(EGDB_DIR) --fen B:WK30,K31:BK1,K2,K3 >/dev/null 2>&1 || { \
	  mkdir -p build && echo "make egdb (once: about a minute; progress in build/egdb.log)" && \
	  $(MAKE) -s egdb EGDB_PIECES=5 2>build/egdb.log || { cat build/egdb.log; exit 1; }; }

clean:
	rm -rf build kingme tools/gen_tactics tools/fit_eval tools/loss_probe
