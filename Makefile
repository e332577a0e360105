# kingme - English draughts engine.  make | make test | make sanitize | make tsan | make soak | make bench | make egdb | make egdb6 | make book | make dll | make test-dll | make clean
CC      ?= cc
STD      = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Wshadow -Werror
OPT     ?= -O3
ARCHFLAGS := $(if $(filter x86_64,$(shell uname -m)),-mpopcnt,)
CFLAGS  ?=
ALLCFLAGS = $(STD) $(WARN) $(OPT) $(ARCHFLAGS) -Iinclude $(CFLAGS)
LDLIBS   = -lm -lpthread
BUILD   ?= build/release

LIB_SRC  = $(wildcard src/*.c)
CLI_SRC  = $(wildcard src/cli/*.c)
TEST_SRC = $(wildcard tests/*.c)
HEADERS  = $(wildcard include/kingme/*.h) $(wildcard src/*.h) $(wildcard src/cli/*.h) $(wildcard src/cb/*.h) $(wildcard tests/*.h)

LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/default_weights.o
CLI_OBJ  = $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ = $(TEST_SRC:%.c=$(BUILD)/%.o) $(BUILD)/src/cb/cb.o
LIB      = $(BUILD)/libkingme.a

.PHONY: all test sanitize tsan soak bench fuzz clean egdb egdb6 db book dll test-dll format format-check dll-check
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

# ThreadSanitizer (gcc or clang -fsanitize=thread): the tests that run
# threads, then a stress of the engine protocol (pondering, stop, lazy SMP)
# and a match with -j 4 (tools/tsan.sh); fails on any report. A few minutes.
tsan:
	$(MAKE) BUILD=build/tsan OPT="-O1 -g -fno-omit-frame-pointer" CFLAGS="-fsanitize=thread" \
	  build/tsan/kingme build/tsan/kingme_tests
	tools/tsan.sh

# tools/gen_tactics makes tests/data/tactics.txt (see its header)
tools/gen_tactics: tools/gen_tactics.c $(LIB) $(HEADERS)
	$(CC) $(ALLCFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# tools/loss_probe finds a player's mistakes in a match's lost games (see its header)
tools/loss_probe: tools/loss_probe.c $(LIB) $(HEADERS)
	$(CC) $(ALLCFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# make soak: one `kingme engine` under AddressSanitizer's leak checker
# through SOAK_GAMES games at a tiny clock and SOAK_LINES lines of a random
# protocol session (tools/soak.c); prints the resident size after the first
# games and at the end, fails on a leak or a crash. Not in make test: it
# takes some 20 minutes here.
SOAK_GAMES ?= 2000
SOAK_LINES ?= 100000
tools/soak: tools/soak.c $(LIB) $(HEADERS)
	$(CC) $(ALLCFLAGS) -o $@ $< $(LIB) $(LDLIBS)

soak: tools/soak
	$(MAKE) BUILD=build/asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined" build/asan/kingme
	ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=16 nice -n 10 tools/soak \
	  "exec build/asan/kingme engine --no-book --no-egdb" $(SOAK_GAMES) $(SOAK_LINES)

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
# pieces into EGDB_DIR (git ignores egdb/). For 5 pieces 1.5 minutes on two
# idle cores (measured 1:21), several on a busy machine. make egdb6 (or
# make egdb EGDB_PIECES=6) adds the 6 pieces to the same directory, the 5
# already there kept; it takes far longer and more room (times and size in
# docs/egdb.md), which is why make builds 5 only. The commands use every
# piece count whose slices are all there.
EGDB_PIECES ?= 5
EGDB_DIR    ?= egdb
egdb: kingme
	nice -n 10 ./kingme egdb build --pieces $(EGDB_PIECES) --dir $(EGDB_DIR) -j 2

egdb6: kingme
	$(MAKE) egdb EGDB_PIECES=6

# `make` also builds the 5-piece database into egdb/ with the rule above (the
# first time only, 12 MB): the commands that search use the database beside
# the program (docs/egdb.md). A probe of a 5-piece position says whether it is
# there already. The build shows its progress (one line rewritten on a
# terminal, a line each tenth in a log) and ends with the time it took.
db: kingme
	@./kingme egdb probe --dir $(EGDB_DIR) --fen B:WK30,K31:BK1,K2,K3 >/dev/null 2>&1 || { \
	  echo "make: the endgame database (5 pieces, 12 MB) into $(EGDB_DIR)/, once:" && \
	  echo "      1.5 minutes on two idle cores, longer on a busy machine" && \
	  $(MAKE) -s egdb EGDB_PIECES=5; }

# The opening book the repository ships (docs/book.md), built by kingme's
# own search with the built-in weights: build it again when they change.
# A build stopped goes on with: ./kingme book build --resume --out weights/default.book
BOOK_POSITIONS ?= 3000
BOOK_DEPTH     ?= 12
book: kingme
	nice -n 10 ./kingme book build --positions $(BOOK_POSITIONS) --depth $(BOOK_DEPTH) --force --out weights/default.book

# The CheckerBoard engine (docs/checkerboard.md): the library and the adapter
# src/cb/ cross-compiled into a 64-bit Windows DLL with mingw-w64, the C
# runtime and winpthreads linked in, so that it needs only the DLLs every
# Windows has. The library's modules go into an archive for Windows, all but
# the POSIX-only ones below (processes, pipes, fork: engine processes,
# workers, matches, self-play, the database builder), and the link takes
# from it only what getmove and enginecommand reach (the board, moves,
# evaluation, search, table, time manager, game, database probing, book,
# levels, the engine session). So a new portable module needs nothing here;
# a new POSIX-only one is added to DLL_POSIX_ONLY. Formats are checked by the
# native build; mingw's own printf (__USE_MINGW_ANSI_STDIO) prints them.
MINGW     ?= x86_64-w64-mingw32-gcc
MINGW_AR  ?= x86_64-w64-mingw32-ar
DLL_DIR    = build/dll
DLL        = $(DLL_DIR)/kingme64.dll
DLL_POSIX_ONLY = src/engineproc.c src/workers.c src/match.c src/selfplay.c src/egdb_build.c
DLL_LIB_OBJ = $(patsubst %.c,$(DLL_DIR)/%.o,$(filter-out $(DLL_POSIX_ONLY),$(LIB_SRC))) $(DLL_DIR)/gen/default_weights.o
DLL_LIB    = $(DLL_DIR)/libkingme-win.a
DLL_CFLAGS = $(STD) -D__USE_MINGW_ANSI_STDIO=1 $(WARN) -Wno-format -O3 -mpopcnt -Iinclude

dll: $(DLL) $(DLL_DIR)/kingme.htm

$(DLL_LIB): $(DLL_LIB_OBJ)
	rm -f $@
	$(MINGW_AR) rcs $@ $^

$(DLL): $(DLL_DIR)/src/cb/cb.o $(DLL_LIB) src/cb/kingme64.def
	$(MINGW) -shared -static -static-libgcc -s -o $@ $(DLL_DIR)/src/cb/cb.o src/cb/kingme64.def $(DLL_LIB) -lpthread

$(DLL_DIR)/%.o: %.c $(HEADERS)
	@command -v $(MINGW) >/dev/null || { echo "make dll: $(MINGW) is not installed (apt-get install gcc-mingw-w64-x86-64)"; exit 1; }
	@mkdir -p $(dir $@)
	$(MINGW) $(DLL_CFLAGS) -c -o $@ $<

$(DLL_DIR)/gen/default_weights.o: $(BUILD)/gen/default_weights.c
	@command -v $(MINGW) >/dev/null || { echo "make dll: $(MINGW) is not installed (apt-get install gcc-mingw-w64-x86-64)"; exit 1; }
	@mkdir -p $(dir $@)
	$(MINGW) $(DLL_CFLAGS) -c -o $@ $<

# the help CheckerBoard opens (enginecommand "help"): docs/checkerboard.md as a page
$(DLL_DIR)/kingme.htm: docs/checkerboard.md
	@mkdir -p $(dir $@)
	@{ echo '<!DOCTYPE html><html><head><meta charset="utf-8"><title>kingme in CheckerBoard</title></head><body><pre>'; \
	  sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' $<; echo '</pre></body></html>'; } > $@

# The DLL loaded under Wine by a Windows test program (tests/cb/wine_test.c)
# that plays through getmove as CheckerBoard does; says so on one line and
# passes when mingw-w64 or Wine is missing. Not in make test (Wine takes
# half a minute to start the first time).
$(DLL_DIR)/wine_test.exe: tests/cb/wine_test.c $(DLL_LIB) $(HEADERS)
	$(MINGW) $(DLL_CFLAGS) -Isrc/cb -static -o $@ tests/cb/wine_test.c $(DLL_LIB) -lpthread

test-dll:
	@tests/cb/run_wine.sh

# make test's quick guard (tests/test_cb.c): the DLL's sources compile for
# Windows (syntax and warnings only, a few seconds), so that a POSIX-only
# call in a portable module is caught when it is made, not at make dll
dll-check:
	@command -v $(MINGW) >/dev/null || { echo "make dll-check: $(MINGW) is not installed"; exit 2; }
	@$(MINGW) $(DLL_CFLAGS) -fsyntax-only $(filter-out $(DLL_POSIX_ONLY),$(LIB_SRC)) src/cb/cb.c

clean:
	rm -rf build kingme tools/gen_tactics tools/loss_probe tools/soak

# The C style (.clang-format, clang-format 14): `make format` rewrites the
# sources, `make format-check` (in .ci/run) fails on any line it would change.
# src/ballots.c is generated (tools/gen_ballots.sh) and left as written.
FORMAT_FILES = $(filter-out src/ballots.c,$(wildcard src/*.c src/*.h src/*/*.c src/*/*.h \
                 include/kingme/*.h tests/*.c tests/*.h tests/*/*.c tests/*/*.h))
format:
	clang-format -i $(FORMAT_FILES)
format-check:
	clang-format --dry-run --Werror $(FORMAT_FILES)
