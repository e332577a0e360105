/* selfplay.c - training games and their files (selfplay.h).
 *
 * A chunk file, little-endian:
 *   0  "KMSP"           4  format version (u32, 2)   8  configuration key (u64)
 *   16 chunk number (u32)                            20 games (u32)
 *   24 positions (u32)  28 Black wins, White wins, draws (3 x u32)
 *   40 FNV-1a 64 of every other byte of the file: bytes 0-39 and the
 *      positions (u64), so that no bit of the header changes unseen
 *   48 positions, 16 bytes each: black, white, kings (3 x u32), score (i16,
 *      for the side to move), side to move + 2 x result (u8), ply (u8).
 * Version 1 (the checksum over the positions only, a key without the
 * table's size) is refused: its games cannot be told apart. */
#include "kingme/selfplay.h"
#include "kingme/bits.h"
#include "kingme/egdb.h"
#include "kingme/game.h"
#include "kingme/match.h"
#include "kingme/notation.h"
#include "kingme/search.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "kingme/worker.h"
#include "kingme/worker_proto.h"
#include "kingme/workers.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define MAGIC "KMSP"
#define HEADER_BYTES 48
#define RECORD_BYTES 16
#define CHUNK_FILE_MAX ((size_t)1 << 30)
#define FORMAT_VERSION 2

void selfplay_config_default(SelfplayConfig *c)
{
    memset(c, 0, sizeof *c);
    c->seed = 1;
    c->games = 1000;
    c->chunk = 50;
    c->nodes = 20000;
    c->random_plies = 8;
    c->margin = 100;
    c->max_plies = 250;
    c->hash_mb = 8;
    weights_default(&c->weights);
}

uint64_t selfplay_config_key(const SelfplayConfig *c)
{
    /* every setting a game depends on, each mixed in on its own */
    uint64_t h = km_mix64(0x73656c66706c6179ull ^ c->seed);
    h = km_mix64(h ^ c->nodes);
    h = km_mix64(h ^ 0x100000000ull ^ (uint64_t)(uint32_t)c->chunk);
    h = km_mix64(h ^ 0x200000000ull ^ (uint64_t)(uint32_t)c->random_plies);
    h = km_mix64(h ^ 0x300000000ull ^ (uint64_t)(uint32_t)c->max_plies);
    h = km_mix64(h ^ 0x400000000ull ^ (uint64_t)(uint32_t)c->margin);
    h = km_mix64(h ^ 0x500000000ull ^ (uint64_t)(uint32_t)c->hash_mb);
    h = km_mix64(h ^ 0x600000000ull ^ (uint64_t)(c->egdb ? egdb_pieces(c->egdb) : 0));
    return km_mix64(h ^ eval_weights_key(&c->weights));
}

void selfplay_data_free(SelfplayData *d)
{
    free(d->pos);
    memset(d, 0, sizeof *d);
}

static int data_push(SelfplayData *d, const SelfplayPos *p)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 1024;
        SelfplayPos *q = realloc(d->pos, cap * sizeof *q);
        if (!q) return -1;
        d->pos = q;
        d->cap = cap;
    }
    d->pos[d->n++] = *p;
    return 0;
}

/* ---- one game ------------------------------------------------------------ */

/* A move drawn among those within c->margin of the best, each scored by a
 * search of its own of a quarter of the nodes. */
static int random_move(Searcher *s, const SelfplayConfig *c, const Game *g, uint64_t *rng, Move *out,
                       int32_t *best_score)
{
    MoveList ml;
    int n = mg_moves(&g->cur, &ml);
    if (n == 0) return -1;
    int32_t score[MAX_MOVES];
    int32_t best = -SCORE_INF;
    SearchLimits l;
    search_limits_default(&l);
    l.nodes = c->nodes / 4 + 1;
    for (int i = 0; i < n; i++) {
        Board child = g->cur;
        mg_make_move(&child, &ml.moves[i]);
        SearchResult r;
        if (search_run(s, &child, g->keys, g->nply + 1, 0, &l, &r, NULL, NULL)) return -2;
        score[i] = r.has_move ? -r.score : SCORE_INF; /* no move there: the mover wins */
        if (score[i] > best) best = score[i];
    }
    int near[MAX_MOVES], nn = 0;
    for (int i = 0; i < n; i++)
        if (score[i] >= best - c->margin) near[nn++] = i;
    *out = ml.moves[near[km_rng_next(rng) % (uint64_t)nn]];
    *best_score = best;
    return 0;
}

static int16_t clamp16(int32_t v) { return (int16_t)(v > 32000 ? 32000 : v < -32000 ? -32000 : v); }

/* The opening of game i (its ballot), and the game's random numbers after it. */
static int game_opening(const SelfplayConfig *c, int i, Opening *o, uint64_t *rng, char *err)
{
    *rng = km_mix64(c->seed ^ km_mix64(0x67616d65ull + (uint64_t)i));
    return opening_from_ballot(o, &opening_ballots[km_rng_next(rng) % BALLOT_COUNT], err);
}

/* The game's end as the loop of play_game sees it before a move: GAME_ONGOING
 * while it goes on. */
static GameResult game_end(const SelfplayConfig *c, const Game *g)
{
    if (g->result != GAME_ONGOING) return g->result;
    if (g->nply >= c->max_plies) return GAME_DRAW;
    int db_pieces = c->egdb ? egdb_pieces(c->egdb) : 0;
    if (db_pieces && bits_popcount32(board_occupied(&g->cur)) <= db_pieces) {
        int v = egdb_probe(c->egdb, &g->cur, NULL);
        if (v != EGDB_UNKNOWN)
            return v == EGDB_DRAW                                ? GAME_DRAW
                   : (v == EGDB_WIN) == (g->cur.stm == KM_BLACK) ? GAME_BLACK_WINS
                                                                 : GAME_WHITE_WINS;
    }
    return GAME_ONGOING;
}

/* The positions from first on get the game's result; the game is counted. */
static void finish_game(SelfplayData *out, size_t first, GameResult result)
{
    for (size_t k = first; k < out->n; k++) {
        SelfplayPos *p = &out->pos[k];
        p->result = result == GAME_DRAW ? 1 : (result == GAME_BLACK_WINS) == (p->b.stm == KM_BLACK) ? 2 : 0;
    }
    out->games++;
    out->wins[result == GAME_BLACK_WINS ? 0 : result == GAME_WHITE_WINS ? 1 : 2]++;
}

/* moves (NULL, or room for c->max_plies): the move played in each position kept. */
static int play_game(Searcher *s, const SelfplayConfig *c, int i, SelfplayData *out, Move *moves, char *err)
{
    uint64_t rng;
    Opening o;
    if (game_opening(c, i, &o, &rng, err)) return -1;
    Game g;
    if (game_init(&g, &o.start)) return km_fail(err, "out of memory");
    for (int k = 0; k < o.nply; k++)
        if (game_play(&g, &o.moves[k])) goto oom;
    search_clear(s);
    search_seed(s, km_rng_next(&rng));
    search_set_egdb(s, c->egdb);
    SearchLimits l;
    search_limits_default(&l);
    l.nodes = c->nodes;
    size_t first = out->n;
    int after_ballot = 0;
    GameResult result;
    while ((result = game_end(c, &g)) == GAME_ONGOING) {
        Move m;
        int32_t score = 0;
        if (after_ballot < c->random_plies) {
            int rc = random_move(s, c, &g, &rng, &m, &score);
            if (rc == -2) goto oom;
            if (rc) break; /* no move: the rules have ended the game already */
        } else {
            SearchResult r;
            if (search_game(s, &g, &l, &r, NULL, NULL)) goto oom;
            m = r.best;
            score = r.score;
        }
        SelfplayPos p = {.b = g.cur, .score = clamp16(score), .ply = (uint8_t)(g.nply > 255 ? 255 : g.nply)};
        if (moves) moves[out->n - first] = m;
        if (data_push(out, &p) || game_play(&g, &m)) goto oom;
        after_ballot++;
    }
    if (result == GAME_ONGOING) result = g.result;
    finish_game(out, first, result);
    game_free(&g);
    return 0;
oom:
    game_free(&g);
    return km_fail(err, "out of memory");
}

int selfplay_game(const SelfplayConfig *c, int i, SelfplayData *out, char *err)
{
    Searcher s;
    if (search_init(&s, &c->weights, (size_t)c->hash_mb, c->seed, err)) return -1;
    int rc = play_game(&s, c, i, out, NULL, err);
    search_free(&s);
    return rc;
}

/* ---- files --------------------------------------------------------------- */

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* The checksum of a chunk file of n bytes: every byte but its own eight. */
static uint64_t chunk_checksum(const uint8_t *buf, size_t n)
{
    uint64_t h = fnv1a(buf, 40);
    for (size_t i = HEADER_BYTES; i < n; i++) h = (h ^ buf[i]) * 0x100000001b3ull;
    return h;
}

static void chunk_path(const char *dir, int chunk, char *buf, size_t len)
{
    snprintf(buf, len, "%s/sp-%06d.kmsp", dir, chunk);
}

static void encode_record(uint8_t *r, const SelfplayPos *p)
{
    km_put32(r, p->b.pieces[KM_BLACK]);
    km_put32(r + 4, p->b.pieces[KM_WHITE]);
    km_put32(r + 8, p->b.kings);
    r[12] = (uint8_t)((uint16_t)p->score & 0xFF);
    r[13] = (uint8_t)((uint16_t)p->score >> 8);
    r[14] = (uint8_t)(p->b.stm | p->result << 1);
    r[15] = p->ply;
}

uint64_t selfplay_records_checksum(const SelfplayData *d, size_t first)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = first; i < d->n; i++) {
        uint8_t r[RECORD_BYTES];
        encode_record(r, &d->pos[i]);
        for (int k = 0; k < RECORD_BYTES; k++) h = (h ^ r[k]) * 0x100000001b3ull;
    }
    return h;
}

static int write_chunk(const char *path, uint64_t key, int chunk, const SelfplayData *d, char *err)
{
    size_t n = HEADER_BYTES + d->n * RECORD_BYTES;
    uint8_t *buf = malloc(n);
    if (!buf) return km_fail(err, "%s: out of memory", path);
    memcpy(buf, MAGIC, 4);
    km_put32(buf + 4, FORMAT_VERSION);
    km_put64(buf + 8, key);
    km_put32(buf + 16, (uint32_t)chunk);
    km_put32(buf + 20, (uint32_t)d->games);
    km_put32(buf + 24, (uint32_t)d->n);
    for (int k = 0; k < 3; k++) km_put32(buf + 28 + 4 * k, (uint32_t)d->wins[k]);
    uint8_t *r = buf + HEADER_BYTES;
    for (size_t i = 0; i < d->n; i++, r += RECORD_BYTES) encode_record(r, &d->pos[i]);
    km_put64(buf + 40, chunk_checksum(buf, n));
    int rc = textio_write_atomic(path, (const char *)buf, n, err);
    free(buf);
    return rc;
}

/* Whether the three bitboards make a position a game can reach. */
static bool sound(const Board *b)
{
    uint32_t bl = b->pieces[KM_BLACK], wh = b->pieces[KM_WHITE];
    if (bl & wh || b->kings & ~(bl | wh)) return false;
    if (bits_popcount32(bl) > 12 || bits_popcount32(wh) > 12) return false;
    return !(bl & ~b->kings & BLACK_PROMO_ROW) && !(wh & ~b->kings & WHITE_PROMO_ROW);
}

/* One chunk file into d: number (< 0: any) is the chunk's number its name
 * gives, key (0: any) its configuration's, that of the file named than when
 * than is not NULL; *file_key (may be NULL) is the key the file holds. */
static int read_chunk(const char *path, uint64_t key, const char *than, long number, SelfplayData *d,
                      uint64_t *file_key, char *err)
{
    static const KmReadOpts opts = {.max_bytes = CHUNK_FILE_MAX,
                                    .too_large = "too large for a self-play file"};
    size_t n;
    uint8_t *buf = (uint8_t *)textio_read_text(path, &opts, &n, err);
    if (!buf) return -1;
    int rc = -1;
    size_t first = d->n;
    if (n < HEADER_BYTES || memcmp(buf, MAGIC, 4) != 0) {
        km_fail(err, "%s: not a kingme self-play file", path);
        goto done;
    }
    if (km_get32(buf + 4) != FORMAT_VERSION) {
        km_fail(err, "%s: self-play format version %u (this kingme reads %d; play the games again)", path,
                km_get32(buf + 4), FORMAT_VERSION);
        goto done;
    }
    uint32_t npos = km_get32(buf + 24);
    if (n != HEADER_BYTES + (size_t)npos * RECORD_BYTES) {
        km_fail(err, "%s: truncated or padded (%zu bytes, %u positions)", path, n, npos);
        goto done;
    }
    if (km_get64(buf + 40) != chunk_checksum(buf, n)) {
        km_fail(err, "%s: checksum mismatch (the file is corrupt)", path);
        goto done;
    }
    if (key && km_get64(buf + 8) != key) {
        if (than)
            km_fail(err, "%s: made by another configuration than %s (a folder holds one run's games)", path,
                    than);
        else km_fail(err, "%s: made by another configuration (seed, nodes, hash, weights ...)", path);
        goto done;
    }
    if (number >= 0 && km_get32(buf + 16) != (uint32_t)number) {
        km_fail(err, "%s: holds chunk %u, not %ld (a copy of another chunk?)", path, km_get32(buf + 16),
                number);
        goto done;
    }
    uint32_t games = km_get32(buf + 20), wins[3];
    uint64_t sum = 0;
    for (int k = 0; k < 3; k++) sum += wins[k] = km_get32(buf + 28 + 4 * k);
    if (games > SELFPLAY_CHUNK_MAX || sum != games) {
        km_fail(err, "%s: %u games, %llu results: not a chunk's games", path, games, (unsigned long long)sum);
        goto done;
    }
    if (d->games > INT32_MAX - (int32_t)games) {
        km_fail(err, "%s: more than %d games in all", path, (int)INT32_MAX);
        goto done;
    }
    const uint8_t *r = buf + HEADER_BYTES;
    for (uint32_t i = 0; i < npos; i++, r += RECORD_BYTES) {
        SelfplayPos p;
        p.b.pieces[KM_BLACK] = km_get32(r);
        p.b.pieces[KM_WHITE] = km_get32(r + 4);
        p.b.kings = km_get32(r + 8);
        p.score = (int16_t)(uint16_t)(r[12] | r[13] << 8);
        p.b.stm = r[14] & 1;
        p.result = (uint8_t)(r[14] >> 1);
        p.ply = r[15];
        if (!sound(&p.b) || p.result > 2) {
            km_fail(err, "%s: position %u is not a valid position", path, i + 1);
            goto done;
        }
        if (data_push(d, &p)) {
            km_fail(err, "%s: out of memory", path);
            goto done;
        }
    }
    d->games += (int)games;
    for (int k = 0; k < 3; k++) d->wins[k] += (int)wins[k];
    if (file_key) *file_key = km_get64(buf + 8);
    rc = 0;
done:
    if (rc) d->n = first; /* d as it was */
    free(buf);
    return rc;
}

int selfplay_read_chunk(const char *path, uint64_t key, long number, SelfplayData *d, char *err)
{
    return read_chunk(path, key, NULL, number, d, NULL, err);
}

static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int selfplay_chunk_files(const char *dir, char ***paths, long **numbers, size_t *count, char *err)
{
    *paths = NULL;
    *numbers = NULL;
    *count = 0;
    DIR *dp = opendir(dir);
    if (!dp) return km_fail(err, "%s: cannot open: %s", dir, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        size_t len = strlen(e->d_name);
        if (len < 9 || strncmp(e->d_name, "sp-", 3) != 0 || strcmp(e->d_name + len - 5, ".kmsp") != 0)
            continue;
        if (n == cap) {
            char **q = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *q);
            if (!q) {
                rc = km_fail(err, "%s: out of memory", dir);
                break;
            }
            names = q;
        }
        if (!(names[n] = strdup(e->d_name))) {
            rc = km_fail(err, "%s: out of memory", dir);
            break;
        }
        n++;
    }
    closedir(dp);
    if (rc == 0 && n == 0) rc = km_fail(err, "%s: no self-play files (sp-*.kmsp)", dir);
    if (rc == 0) qsort(names, n, sizeof *names, name_cmp);
    long *num = rc == 0 ? malloc(n * sizeof *num) : NULL;
    if (rc == 0 && !num) rc = km_fail(err, "%s: out of memory", dir);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        /* sp-NNNNNN.kmsp: the number the file must hold */
        char *end;
        num[i] = strtol(names[i] + 3, &end, 10);
        char *path = malloc(strlen(dir) + strlen(names[i]) + 2);
        if (!path) {
            rc = km_fail(err, "%s: out of memory", dir);
            break;
        }
        sprintf(path, "%s/%s", dir, names[i]);
        bool bad = end != names[i] + strlen(names[i]) - 5 || names[i][3] < '0' || names[i][3] > '9';
        if (bad) km_fail(err, "%s: not a chunk's name (sp-NNNNNN.kmsp)", path);
        free(names[i]);
        names[i] = path;
        if (bad) rc = -1;
    }
    if (rc) {
        selfplay_chunk_files_free(names, num, n);
        return -1;
    }
    *paths = names;
    *numbers = num;
    *count = n;
    return 0;
}

void selfplay_chunk_files_free(char **paths, long *numbers, size_t count)
{
    for (size_t i = 0; paths && i < count; i++) free(paths[i]);
    free(paths);
    free(numbers);
}

int selfplay_read_dir(const char *dir, SelfplayData *d, char *err)
{
    char **paths;
    long *numbers;
    size_t n;
    if (selfplay_chunk_files(dir, &paths, &numbers, &n, err)) return -1;
    uint64_t key = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        uint64_t k;
        rc = read_chunk(paths[i], key, paths[0] + strlen(dir) + 1, numbers[i], d, &k, err);
        if (rc == 0) key = k;
    }
    selfplay_chunk_files_free(paths, numbers, n);
    return rc;
}

/* ---- games on worker processes (worker_proto.h) -------------------------- */

char *selfplay_played_line(Searcher *s, const SelfplayConfig *c, int n, int i, char *err)
{
    if (c->max_plies < 1) return km_fail_null(err, "selfplay: max_plies must be at least 1");
    Move *moves = malloc((size_t)c->max_plies * sizeof *moves);
    SelfplayData d = {0};
    Searcher own;
    if (!moves) return km_fail_null(err, "out of memory");
    if (!s && search_init(&own, &c->weights, (size_t)c->hash_mb, c->seed, err)) {
        free(moves);
        return NULL;
    }
    char *line = NULL;
    if (play_game(s ? s : &own, c, i, &d, moves, err) == 0) {
        int res = d.wins[0] ? 0 : d.wins[1] ? 1 : 2;
        static const char *const text[3] = {"1-0", "0-1", "1/2-1/2"};
        KmBuf b = {0};
        textio_buf_printf(&b, "played %d %s %zu %016llx", n, text[res], d.n,
                          (unsigned long long)selfplay_records_checksum(&d, 0));
        for (size_t k = 0; k < d.n; k++) {
            char t[MOVE_TEXT_MAX];
            notation_move_to_text(&moves[k], t);
            textio_buf_printf(&b, " %s %d", t, (int)d.pos[k].score);
        }
        if (!(line = textio_buf_done(&b))) km_fail(err, "out of memory");
    }
    if (!s) search_free(&own);
    selfplay_data_free(&d);
    free(moves);
    return line;
}

int selfplay_take_played(const SelfplayConfig *c, int i, char **tok, int nt, SelfplayData *out, char *err)
{
    long long k, v;
    uint64_t sum;
    if (nt < 5 || strcmp(tok[0], "played") != 0 || !textio_parse_ll(tok[3], 0, c->max_plies, &k) ||
        !wproto_parse_hex64(tok[4], &sum) || nt != 5 + 2 * k)
        return km_fail(err, "not a 'played N RESULT K CHECKSUM M1 S1 ...' line of game %d", i);
    GameResult said = strcmp(tok[2], "1-0") == 0       ? GAME_BLACK_WINS
                      : strcmp(tok[2], "0-1") == 0     ? GAME_WHITE_WINS
                      : strcmp(tok[2], "1/2-1/2") == 0 ? GAME_DRAW
                                                       : GAME_ONGOING;
    if (said == GAME_ONGOING) return km_fail(err, "game %d: '%.20s' is not a result", i, tok[2]);
    uint64_t rng;
    Opening o;
    if (game_opening(c, i, &o, &rng, err)) return -1;
    Game g;
    if (game_init(&g, &o.start)) return km_fail(err, "out of memory");
    int rc = -1;
    size_t first = out->n;
    for (int j = 0; j < o.nply; j++)
        if (game_play(&g, &o.moves[j])) goto oom;
    for (int j = 0; j < k; j++) {
        char e2[KM_ERR_MAX];
        Move m;
        if (game_end(c, &g) != GAME_ONGOING) {
            km_fail(err, "game %d goes on after its end (move %d)", i, j + 1);
            goto fail;
        }
        if (notation_parse_move(&g.cur, tok[5 + 2 * j], &m, e2)) {
            km_fail(err, "game %d, move %d '%.20s': %s", i, j + 1, tok[5 + 2 * j], e2);
            goto fail;
        }
        if (!textio_parse_ll(tok[6 + 2 * j], -32000, 32000, &v)) {
            km_fail(err, "game %d, move %d: the score '%.20s' is not a number within 32000", i, j + 1,
                    tok[6 + 2 * j]);
            goto fail;
        }
        SelfplayPos p = {.b = g.cur, .score = (int16_t)v, .ply = (uint8_t)(g.nply > 255 ? 255 : g.nply)};
        if (data_push(out, &p) || game_play(&g, &m)) goto oom;
    }
    GameResult result = game_end(c, &g);
    if (result == GAME_ONGOING) {
        km_fail(err, "game %d stops before its end (after %lld moves)", i, k);
        goto fail;
    }
    if (result != said) {
        km_fail(err, "game %d ends %s, not %s", i, game_result_text(result), tok[2]);
        goto fail;
    }
    finish_game(out, first, result);
    if (selfplay_records_checksum(out, first) != sum) {
        out->games--;
        out->wins[result == GAME_BLACK_WINS ? 0 : result == GAME_WHITE_WINS ? 1 : 2]--;
        km_fail(err, "game %d: the checksum does not match its positions and scores", i);
        goto fail;
    }
    rc = 0;
    goto done;
oom:
    km_fail(err, "out of memory");
fail:
    out->n = first;
done:
    game_free(&g);
    return rc;
}

/* ---- a run: one job a game, on the runner (workers.h) ---------------------- */

typedef struct WRun {
    const SelfplayConfig *c;
    const char *dir;
    uint64_t key;
    int *game;             /* job -> game */
    SelfplayData **chunks; /* a chunk's games (c->chunk slots) while some are to come */
    int *left;             /* a chunk's games to come */
    pthread_mutex_t lock;  /* the above, the counts and the progress calls */
    int found, done, nchunks, games;
    uint64_t positions;
    double t0;
    SelfplayProgressFn progress;
    void *user;
    Searcher *s; /* the local threads' (each its own), made at its first game */
    bool *s_made;
    WprotoFiles *files;
} WRun;

static void wrun_progress(WRun *W)
{
    if (!W->progress) return;
    SelfplayProgress p = {.chunks_done = W->found + W->done,
                          .chunks = W->nchunks,
                          .games_done = W->games,
                          .positions = W->positions,
                          .elapsed = km_now() - W->t0,
                          .eta = -1};
    if (W->done) p.eta = p.elapsed / W->done * (W->nchunks - W->found - W->done);
    W->progress(&p, W->user);
}

/* Game g of job i (taken over): into its chunk, which is written when whole.
 * 0, or -1 with err (the run fails). */
static int wrun_store(WRun *W, int i, SelfplayData *g, char *err)
{
    const SelfplayConfig *c = W->c;
    int game = W->game[i], k = game / c->chunk;
    int rc = 0;
    pthread_mutex_lock(&W->lock);
    if (!W->chunks[k] && !(W->chunks[k] = calloc((size_t)c->chunk, sizeof **W->chunks))) {
        rc = km_fail(err, "out of memory");
        goto out;
    }
    SelfplayData *slot = &W->chunks[k][game - k * c->chunk];
    if (slot->games) goto out; /* played twice: the same game */
    *slot = *g;
    memset(g, 0, sizeof *g);
    if (--W->left[k]) goto out;
    SelfplayData d = {0};
    int n = (k + 1) * c->chunk > c->games ? c->games - k * c->chunk : c->chunk;
    for (int j = 0; j < n && rc == 0; j++) {
        const SelfplayData *s = &W->chunks[k][j];
        for (size_t q = 0; q < s->n && rc == 0; q++)
            if (data_push(&d, &s->pos[q])) rc = km_fail(err, "out of memory");
        d.games += s->games;
        for (int r = 0; r < 3; r++) d.wins[r] += s->wins[r];
    }
    if (rc == 0) {
        char path[4096];
        chunk_path(W->dir, k, path, sizeof path);
        rc = write_chunk(path, W->key, k, &d, err);
    }
    if (rc == 0) {
        W->done++;
        W->games += d.games;
        W->positions += d.n;
        wrun_progress(W);
    }
    selfplay_data_free(&d);
    for (int j = 0; j < n; j++) selfplay_data_free(&W->chunks[k][j]);
    free(W->chunks[k]);
    W->chunks[k] = NULL;
out:
    pthread_mutex_unlock(&W->lock);
    selfplay_data_free(g);
    return rc;
}

static char *wrun_line(void *ctx, int i, uint64_t *need, int *nneed)
{
    WRun *W = ctx;
    const SelfplayConfig *c = W->c;
    WprotoSelfplay j = {.n = i,
                        .game = W->game[i],
                        .seed = c->seed,
                        .nodes = c->nodes,
                        .random_plies = c->random_plies,
                        .margin = c->margin,
                        .max_plies = c->max_plies,
                        .hash_mb = c->hash_mb};
    if (wproto_files_vector(W->files, &c->weights, j.vector, need, nneed)) return NULL;
    wproto_egdb_digest(c->egdb, j.egdb);
    return wproto_selfplay_line(&j);
}

static int wrun_take(void *ctx, int i, char **tok, int nt, char *why)
{
    WRun *W = ctx;
    SelfplayData g = {0};
    char e2[KM_ERR_MAX];
    if (selfplay_take_played(W->c, W->game[i], tok, nt, &g, e2)) {
        selfplay_data_free(&g);
        return km_fail(why, "answered garbage: %s", e2);
    }
    return wrun_store(W, i, &g, why) ? -2 : 0;
}

static int wrun_play(void *ctx, int thread, int i, const atomic_bool *stop, char *err)
{
    WRun *W = ctx;
    if (stop && atomic_load(stop)) return 1;
    if (!W->s_made[thread]) {
        if (search_init(&W->s[thread], &W->c->weights, (size_t)W->c->hash_mb, W->c->seed, err)) return -1;
        W->s_made[thread] = true;
    }
    SelfplayData g = {0};
    if (play_game(&W->s[thread], W->c, W->game[i], &g, NULL, err)) {
        selfplay_data_free(&g);
        return -1;
    }
    return wrun_store(W, i, &g, err);
}

/* Whether c can travel in the protocol's lines. */
static int workers_can_play(const SelfplayConfig *c, char *err)
{
    if (c->max_plies < 1 || c->max_plies > SELFPLAY_WORKER_MAX_PLIES)
        return km_fail(err, "with workers, a game is at most %d plies (each travels on one line)",
                       SELFPLAY_WORKER_MAX_PLIES);
    if (c->nodes < 1 || c->nodes > 1000000000000ull || c->random_plies < 0 || c->random_plies > 1000 ||
        c->margin < 0 || c->margin > 1000000 || c->hash_mb < 0 || c->hash_mb > 65536 || c->games > (1 << 30))
        return km_fail(err, "these self-play settings cannot be sent to workers");
    return 0;
}

static int run_games(const SelfplayConfig *c, const char *dir, uint64_t key, const bool *have, int nchunks,
                     int found, uint64_t found_positions, int threads, struct WorkerSet *workers,
                     SelfplayProgressFn progress, void *user, const atomic_bool *stop, char *err)
{
    WRun W = {.c = c,
              .dir = dir,
              .key = key,
              .found = found,
              .positions = found_positions,
              .nchunks = nchunks,
              .t0 = km_now(),
              .progress = progress,
              .user = user};
    int n = 0;
    for (int k = 0; k < nchunks; k++)
        if (!have[k]) n += (k + 1) * c->chunk > c->games ? c->games - k * c->chunk : c->chunk;
    W.game = malloc((size_t)(n ? n : 1) * sizeof *W.game);
    size_t nc = nchunks > 0 ? (size_t)nchunks : 1;
    W.chunks = calloc(nc, sizeof *W.chunks);
    W.left = calloc(nc, sizeof *W.left);
    W.s = calloc((size_t)threads + 1, sizeof *W.s);
    W.s_made = calloc((size_t)threads + 1, sizeof *W.s_made);
    W.files = wproto_files_new();
    if (!W.game || !W.chunks || !W.left || !W.s || !W.s_made || !W.files) {
        wproto_files_free(W.files);
        free(W.game);
        free(W.chunks);
        free(W.left);
        free(W.s);
        free(W.s_made);
        return km_fail(err, "out of memory");
    }
    for (int k = 0, j = 0; k < nchunks; k++) {
        if (have[k]) continue;
        int first = k * c->chunk, last = first + c->chunk > c->games ? c->games : first + c->chunk;
        W.left[k] = last - first;
        for (int i = first; i < last; i++) W.game[j++] = i;
    }
    pthread_mutex_init(&W.lock, NULL);
    wrun_progress(&W);
    char dg[WPROTO_DIGEST_MAX];
    wproto_egdb_digest(c->egdb, dg);
    WorkersJobs jobs = {.n = n,
                        .ctx = &W,
                        .line = wrun_line,
                        .files = W.files,
                        .answer = "played",
                        .take = wrun_take,
                        .play = wrun_play,
                        .egdb = dg};
    int rc = workers_run_jobs(workers, &jobs, threads, stop, err);
    for (int k = 0; k < nchunks; k++) /* the chunks not whole (a stop) are not written */
        if (W.chunks[k]) {
            for (int j = 0; j < c->chunk; j++) selfplay_data_free(&W.chunks[k][j]);
            free(W.chunks[k]);
        }
    for (int t = 0; t < threads; t++)
        if (W.s_made[t]) search_free(&W.s[t]);
    pthread_mutex_destroy(&W.lock);
    wproto_files_free(W.files);
    free(W.s);
    free(W.s_made);
    free(W.game);
    free(W.chunks);
    free(W.left);
    return rc;
}

int selfplay_run(const SelfplayConfig *c, const char *dir, int threads, struct WorkerSet *workers,
                 SelfplayProgressFn progress, void *user, const atomic_bool *stop, char *err)
{
    if (c->games < 1 || c->chunk < 1 || threads < (workers ? 0 : 1))
        return km_fail(err, "selfplay: nothing to do");
    if (c->chunk > SELFPLAY_CHUNK_MAX)
        return km_fail(err, "selfplay: at most %d games a chunk", SELFPLAY_CHUNK_MAX);
    if (workers && workers_can_play(c, err)) return -1;
    if (textio_make_dirs(dir, err)) return -1; /* its parents too, as every file kingme writes */
    struct {
        uint64_t key, positions;
        int nchunks;
    } r = {selfplay_config_key(c), 0, (c->games + c->chunk - 1) / c->chunk};
    bool *have = calloc((size_t)r.nchunks, 1);
    if (!have) return km_fail(err, "out of memory");
    int found = 0;
    for (int k = 0; k < r.nchunks; k++) {
        char path[4096];
        chunk_path(dir, k, path, sizeof path);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        SelfplayData d = {0};
        int games = (k + 1) * c->chunk > c->games ? c->games - k * c->chunk : c->chunk;
        if (selfplay_read_chunk(path, r.key, k, &d, err) || d.games != games) {
            if (d.games != games && err[0] == '\0')
                km_fail(err, "%s: holds %d games, not %d", path, d.games, games);
            selfplay_data_free(&d);
            free(have);
            return -1;
        }
        r.positions += d.n; /* the progress counts the positions already kept */
        selfplay_data_free(&d);
        have[k] = true;
        found++;
    }
    int rc = run_games(c, dir, r.key, have, r.nchunks, found, r.positions,
                       threads > WORKERS_THREADS_MAX ? WORKERS_THREADS_MAX : threads, workers, progress, user,
                       stop, err);
    free(have);
    return rc;
}

/* ---- the worker's side: the selfplay lines (worker.h) --------------------- */

static char *sp_handle(WorkerState *ws, void *data, char **tok, int nt)
{
    char err[KM_ERR_MAX];
    WprotoSelfplay j;
    if (wproto_parse_selfplay(tok, nt, &j, err))
        return worker_answer("error %s %s", nt > 1 ? tok[1] : "-", err);
    const Weights *w = worker_vector(ws, j.vector, err);
    if (!w) return worker_answer("error %d %s", j.n, err);
    if (j.max_plies > SELFPLAY_WORKER_MAX_PLIES)
        return worker_answer("error %d a game of at most %d plies travels on one line", j.n,
                             SELFPLAY_WORKER_MAX_PLIES);
    SelfplayConfig c;
    selfplay_config_default(&c);
    c.seed = j.seed;
    c.games = j.game + 1;
    c.chunk = 1;
    c.nodes = j.nodes;
    c.random_plies = j.random_plies;
    c.margin = j.margin;
    c.max_plies = j.max_plies;
    c.hash_mb = j.hash_mb;
    c.weights = *w;
    c.egdb = worker_egdb(ws, j.egdb, err);
    if (err[0]) return worker_answer("error %d %s", j.n, err);
    Searcher *s = worker_kept_searcher(data, w, j.hash_mb, err);
    if (!s) return worker_answer("error %d %s", j.n, err);
    char *r = selfplay_played_line(s, &c, j.n, j.game, err);
    return r ? r : worker_answer("error %d %s", j.n, err);
}

int selfplay_worker_kind(WorkerState *ws)
{
    WorkerKept *k = worker_kept_new();
    if (!k) return -1;
    return worker_register(ws, "selfplay", sp_handle, k, worker_kept_free);
}
