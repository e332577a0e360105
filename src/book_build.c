/* book_build.c - building an opening book by drop-out expansion (book.h).
 *
 * The build keeps every position it has scored (a node): its board, and for
 * each legal move the move's code, its search score and the key of the
 * position it leads to. Each round it works out, from those alone:
 * - every move's score in use: the search's, or, when the move is a man
 *   move or a capture leading to a scored position, minus that position's
 *   value (the book's minimax; only through irreversible moves, so that the
 *   positions a value passes through can never form a cycle); a node's value
 *   is its best move's score;
 * - the positions to score next (book.h: main lines first, then the leaves
 *   of least expansion cost, by Dijkstra's algorithm from the roots);
 * then scores them on the threads (and workers), adds them in the order
 * chosen, and writes the book. A search score is clamped to +-BOOK_SCORE_MAX
 * at once, so that what the file keeps is all the build ever uses: the
 * scores in use are written, and a resumed build recomputes the rest. */
#include "kingme/book_build.h"
#include "kingme/book.h"
#include "kingme/opening.h"
#include "kingme/search.h"
#include "kingme/textio.h"
#include "kingme/weights.h"
#include "kingme/worker.h"
#include "kingme/worker_proto.h"
#include "kingme/workers.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COST_PLY 1000 /* a ply's cost; a deviation of one spread costs as much */
#define COST_INF INT64_MAX

typedef struct Node {
    uint64_t key;
    Board b;
    uint32_t first; /* into the move arrays */
    int n;          /* moves */
    int32_t value;  /* this round's */
    int8_t mark;    /* value: 0 not known, 1 being computed, 2 known */
} Node;

struct BookBuild {
    BookBuildParams p;
    Weights w;
    uint64_t weights_id;
    int32_t man;
    char *command;
    double seconds;    /* of earlier runs */
    double save_every; /* seconds between writes of the book */
    int rounds;
    /* the nodes */
    Node *node;
    int nnodes, cap;
    int32_t *slot; /* open addressing: node index + 1, 0 empty */
    size_t smask;
    /* their moves */
    uint16_t *code;
    int16_t *raw;   /* the search's score (the score in use, after a resume) */
    int16_t *eff;   /* the score in use this round */
    uint64_t *ckey; /* the position after the move */
    uint8_t *irrev; /* a man move or a capture */
    uint32_t nmoves, mcap;
    /* the roots */
    Board root[BOOK_ROOTS];
    uint64_t root_key[BOOK_ROOTS];
};

/* ---- the roots, and how far the book reaches from them ----------------------------- */

int book_build_root(int r, Board *out, char *err)
{
    board_init(out);
    if (r == 0) return 0;
    if (r < 0 || r > BALLOT_COUNT) return km_fail(err, "no book root %d", r);
    Opening o;
    if (opening_from_ballot(&o, &opening_ballots[r - 1], err)) return -1;
    *out = o.start;
    for (int i = 0; i < o.nply; i++) mg_make_move(out, &o.moves[i]);
    return 0;
}

/* The state of one book_build_coverage: a memo per side over the stored positions. */
typedef struct Cov {
    const Book *bk;
    int32_t margin;
    int max;
    int16_t *memo[2]; /* [side][index]: -1 not known, -2 being computed, else plies */
} Cov;

/* The book's moves at b and b's index, or 0 moves and -1 when b is not in it. */
static int moves_at(const Book *bk, const Board *b, BookMove *mv, int *index)
{
    *index = book_find_index(bk, book_key(b));
    int n = *index >= 0 ? book_moves(bk, b, mv, MAX_MOVES) : 0;
    if (!n) *index = -1;
    return n;
}

static int cov_side(Cov *c, const Board *b, int x)
{
    BookMove mv[MAX_MOVES];
    int idx, n = moves_at(c->bk, b, mv, &idx);
    if (idx < 0 && b->stm == x)
        return mg_count_moves(b) ? 0 : c->max; /* no book move (or the game is over) */
    if (idx >= 0) {
        int16_t m = c->memo[x][idx];
        if (m == -2) return 0; /* a cycle: count nothing more */
        if (m >= 0) return m;
        c->memo[x][idx] = -2;
    }
    int v;
    if (b->stm == x) {
        Board ch = *b;
        mg_make_move(&ch, &mv[0].move);
        v = 1 + cov_side(c, &ch, x);
    } else {
        MoveList ml;
        int k = 0;
        if (idx < 0) {
            mg_moves(b, &ml);
            k = ml.count;
        } else {
            while (k < n && mv[0].score - mv[k].score <= c->margin) k++;
        }
        v = c->max; /* no reply: the game is over */
        for (int i = 0; i < k; i++) {
            Board ch = *b;
            mg_make_move(&ch, idx < 0 ? &ml.moves[i] : &mv[i].move);
            int w = 1 + cov_side(c, &ch, x);
            if (w < v) v = w;
        }
    }
    if (v > c->max) v = c->max;
    if (idx >= 0) c->memo[x][idx] = (int16_t)v;
    return v;
}

int book_build_coverage(const Book *bk, const Board *root, int32_t margin, int max_plies, BookCoverage *out)
{
    memset(out, 0, sizeof *out);
    if (max_plies > 200) max_plies = 200; /* the recursion goes as deep */
    Cov c = {bk, margin, max_plies, {NULL, NULL}};
    int n = book_count(bk) ? book_count(bk) : 1;
    c.memo[0] = malloc((size_t)n * sizeof(int16_t));
    c.memo[1] = malloc((size_t)n * sizeof(int16_t));
    int *queue = malloc((size_t)n * sizeof *queue);
    Board *boards = malloc((size_t)n * sizeof *boards);
    uint8_t *seen = calloc((size_t)n, 1);
    int rc = -1;
    if (!c.memo[0] || !c.memo[1] || !queue || !boards || !seen) goto done;
    for (int i = 0; i < n; i++) c.memo[0][i] = c.memo[1][i] = -1;
    /* the main line */
    Board b = *root;
    BookMove mv[MAX_MOVES];
    int idx;
    while (out->line < max_plies && moves_at(bk, &b, mv, &idx)) {
        mg_make_move(&b, &mv[0].move);
        out->line++;
    }
    if (out->line < max_plies && idx < 0 && !mg_count_moves(&b)) out->line = max_plies; /* the game ended */
    out->side[KM_BLACK] = cov_side(&c, root, KM_BLACK);
    out->side[KM_WHITE] = cov_side(&c, root, KM_WHITE);
    /* the positions reachable through book moves */
    int head = 0, tail = 0;
    if (moves_at(bk, root, mv, &idx)) {
        seen[idx] = 1;
        boards[idx] = *root;
        queue[tail++] = idx;
    }
    while (head < tail) {
        int at = queue[head++];
        int k = moves_at(bk, &boards[at], mv, &idx);
        for (int i = 0; i < k; i++) {
            Board ch = boards[at];
            mg_make_move(&ch, &mv[i].move);
            BookMove cm[MAX_MOVES];
            int j;
            moves_at(bk, &ch, cm, &j);
            if (j < 0 || seen[j]) continue;
            seen[j] = 1;
            boards[j] = ch;
            queue[tail++] = j;
        }
    }
    out->positions = tail;
    rc = 0;
done:
    free(c.memo[0]);
    free(c.memo[1]);
    free(queue);
    free(boards);
    free(seen);
    return rc;
}

/* ---- parameters ------------------------------------------------------------------ */

void book_build_params_default(BookBuildParams *p)
{
    p->depth = 18;
    p->target = 6000;
    p->start_plies = 16;
    p->ballot_plies = 6;
    p->spread = 100;
    p->own_spread = 20;
    p->batch = 64;
    p->hash_mb = 32;
}

/* n bytes of s at most, cut before a UTF-8 continuation byte. */
static size_t whole_chars(const char *s, size_t n)
{
    size_t len = strlen(s);
    if (len <= n) return len;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    return n;
}

_Static_assert(BOOK_DEPTH_MAX == SEARCH_MAX_PLY - 2, "the book's deepest search");

static int check_params(const BookBuildParams *p, char *err)
{
    if (p->depth < 2 || p->depth > SEARCH_MAX_PLY - 2)
        return km_fail(err, "depth %d: 2 to %d", p->depth, SEARCH_MAX_PLY - 2);
    if (p->target < 1 || p->target > 10000000) return km_fail(err, "positions %d: 1 to 10000000", p->target);
    if (p->start_plies < 0 || p->start_plies > 100 || p->ballot_plies < 0 || p->ballot_plies > 100)
        return km_fail(err, "main lines of 0 to 100 plies");
    if (p->spread < 0 || p->own_spread < 0) return km_fail(err, "a spread is 0 or more");
    if (p->batch < 1 || p->batch > 100000) return km_fail(err, "batch %d: 1 to 100000", p->batch);
    if (p->hash_mb < 0 || p->hash_mb > 65536) return km_fail(err, "hash %d MB: 0 to 65536", p->hash_mb);
    return 0;
}

const BookBuildParams *book_build_params(const BookBuild *bb) { return &bb->p; }
int book_build_done(const BookBuild *bb) { return bb->nnodes; }

/* ---- the nodes --------------------------------------------------------------------- */

static int find_node(const BookBuild *bb, uint64_t key)
{
    if (!bb->slot) return -1;
    for (size_t i = km_mix64(key) & bb->smask;; i = (i + 1) & bb->smask) {
        int32_t v = bb->slot[i];
        if (!v) return -1;
        if (bb->node[v - 1].key == key) return v - 1;
    }
}

static int rehash(BookBuild *bb, size_t size)
{
    int32_t *s = calloc(size, sizeof *s);
    if (!s) return -1;
    free(bb->slot);
    bb->slot = s;
    bb->smask = size - 1;
    for (int k = 0; k < bb->nnodes; k++) {
        size_t i = km_mix64(bb->node[k].key) & bb->smask;
        while (bb->slot[i]) i = (i + 1) & bb->smask;
        bb->slot[i] = k + 1;
    }
    return 0;
}

/* Add a scored position (its moves in the generator's order). */
static int add_node(BookBuild *bb, const Board *b, int n, const uint16_t *codes, const int16_t *scores)
{
    if (bb->nnodes == bb->cap) {
        int cap = bb->cap ? 2 * bb->cap : 1024;
        Node *x = realloc(bb->node, (size_t)cap * sizeof *x);
        if (!x) return -1;
        bb->node = x;
        bb->cap = cap;
    }
    if (bb->nmoves + (uint32_t)n > bb->mcap) {
        uint32_t cap = bb->mcap ? 2 * bb->mcap : 16384;
        while (cap < bb->nmoves + (uint32_t)n) cap *= 2;
        uint16_t *c = realloc(bb->code, cap * sizeof *c);
        if (c) bb->code = c;
        int16_t *r = realloc(bb->raw, cap * sizeof *r);
        if (r) bb->raw = r;
        int16_t *e = realloc(bb->eff, cap * sizeof *e);
        if (e) bb->eff = e;
        uint64_t *k = realloc(bb->ckey, cap * sizeof *k);
        if (k) bb->ckey = k;
        uint8_t *v = realloc(bb->irrev, cap * sizeof *v);
        if (v) bb->irrev = v;
        if (!c || !r || !e || !k || !v) return -1;
        bb->mcap = cap;
    }
    if ((size_t)(bb->nnodes + 1) * 2 > bb->smask + 1 || !bb->slot) {
        size_t size = bb->slot ? 2 * (bb->smask + 1) : 4096;
        while (size < (size_t)(bb->nnodes + 1) * 2) size *= 2;
        if (rehash(bb, size)) return -1;
    }
    Node *nd = &bb->node[bb->nnodes];
    nd->key = book_key(b);
    nd->b = *b;
    nd->first = bb->nmoves;
    nd->n = n;
    for (int i = 0; i < n; i++) {
        uint32_t j = bb->nmoves + (uint32_t)i;
        Move m;
        bb->code[j] = codes[i];
        bb->raw[j] = scores[i];
        bb->eff[j] = scores[i];
        if (!book_move_decode(b, codes[i], &m)) return -1; /* cannot happen: the codes are b's */
        Board c = *b;
        mg_make_move(&c, &m);
        bb->ckey[j] = book_key(&c);
        bb->irrev[j] = mg_move_resets_count(b, &m);
    }
    bb->nmoves += (uint32_t)n;
    size_t i = km_mix64(nd->key) & bb->smask;
    while (bb->slot[i]) i = (i + 1) & bb->smask;
    bb->slot[i] = bb->nnodes + 1;
    bb->nnodes++;
    return 0;
}

void book_build_free(BookBuild *bb)
{
    if (!bb) return;
    free(bb->node);
    free(bb->slot);
    free(bb->code);
    free(bb->raw);
    free(bb->eff);
    free(bb->ckey);
    free(bb->irrev);
    free(bb->command);
    free(bb);
}

static BookBuild *make_build(const BookBuildParams *p, const Weights *w, const char *command, char *err)
{
    if (check_params(p, err)) return NULL;
    BookBuild *bb = calloc(1, sizeof *bb);
    if (!command) command = "";
    size_t clen = whole_chars(command, BOOK_COMMAND_MAX);
    if (bb && (bb->command = malloc(clen + 1))) {
        memcpy(bb->command, command, clen);
        bb->command[clen] = '\0';
    }
    if (!bb || !bb->command) {
        free(bb);
        km_fail(err, "out of memory");
        return NULL;
    }
    bb->p = *p;
    bb->w = *w;
    bb->save_every = 30;
    bb->weights_id = book_weights_id(w);
    int man = abs(w->w[EP_own_men]);
    bb->man = man ? man : 1000;
    for (int r = 0; r < BOOK_ROOTS; r++) {
        if (book_build_root(r, &bb->root[r], err)) {
            book_build_free(bb);
            return NULL;
        }
        bb->root_key[r] = book_key(&bb->root[r]);
    }
    return bb;
}

BookBuild *book_build_new(const BookBuildParams *p, const Weights *w, const char *command, char *err)
{
    return make_build(p, w, command, err);
}

#define ELIDED "; ...; "

int book_build_add_command(BookBuild *bb, const char *text)
{
    size_t a = strlen(bb->command), b = strlen(text);
    if (a + 2 + b <= BOOK_COMMAND_MAX) {
        char *c = realloc(bb->command, a + b + 3);
        if (!c) return -1;
        memcpy(c + a, "; ", 2);
        memcpy(c + a + 2, text, b + 1);
        bb->command = c;
        return 0;
    }
    /* the header would grow past what a reader takes: the first command
     * (the build's settings), "...", and this one, within the bound */
    const char *semi = strstr(bb->command, "; ");
    size_t first = whole_chars(bb->command, semi ? (size_t)(semi - bb->command) : a);
    if (first > BOOK_COMMAND_MAX / 2) first = whole_chars(bb->command, BOOK_COMMAND_MAX / 2);
    size_t room = BOOK_COMMAND_MAX - first - strlen(ELIDED);
    size_t keep = whole_chars(text, room);
    char *c = malloc(first + strlen(ELIDED) + keep + 1);
    if (!c) return -1;
    memcpy(c, bb->command, first);
    memcpy(c + first, ELIDED, strlen(ELIDED));
    memcpy(c + first + strlen(ELIDED), text, keep);
    c[first + strlen(ELIDED) + keep] = '\0';
    free(bb->command);
    bb->command = c;
    return 0;
}

const char *book_build_command(const BookBuild *bb) { return bb->command; }

void book_build_set_save_every(BookBuild *bb, double seconds) { bb->save_every = seconds > 0 ? seconds : 0; }

BookBuild *book_build_resume(const Book *bk, const Weights *w, int target, char *err)
{
    const BookHeader *h = book_header(bk);
    BookBuildParams p = {h->depth,  h->target,     h->start_plies, h->ballot_plies,
                         h->spread, h->own_spread, h->batch,       h->hash_mb};
    if (target > 0) p.target = target;
    if (book_weights_id(w) != h->weights_id) {
        km_fail(err, "%s was built with other weights (ID %016llx); give those", book_path(bk),
                (unsigned long long)h->weights_id);
        return NULL;
    }
    BookBuild *bb = make_build(&p, w, h->command, err);
    if (!bb) return NULL;
    bb->seconds = h->seconds;
    /* the nodes, found from the roots through the moves (every scored
     * position was reached so), in the order of a breadth-first walk */
    int n = book_count(bk);
    Board *queue = malloc(((size_t)n + 1) * sizeof *queue);
    if (!queue) {
        book_build_free(bb);
        km_fail(err, "out of memory");
        return NULL;
    }
    int head = 0, tail = 0;
    uint16_t codes[256];
    int16_t scores[256];
    for (int r = 0; r < BOOK_ROOTS && tail < n; r++) {
        BookEntry e;
        if (find_node(bb, bb->root_key[r]) >= 0 || !book_find(bk, bb->root_key[r], &e)) continue;
        queue[tail++] = bb->root[r];
        for (int i = 0; i < e.nmoves; i++)
            codes[i] = (uint16_t)book_entry_code(&e, i), scores[i] = (int16_t)book_entry_score(&e, i);
        if (add_node(bb, &bb->root[r], e.nmoves, codes, scores)) goto oom;
    }
    while (head < tail) {
        int at = find_node(bb, book_key(&queue[head]));
        head++;
        const Node nd = bb->node[at];
        for (int i = 0; i < nd.n && tail < n; i++) {
            uint32_t j = nd.first + (uint32_t)i;
            BookEntry e;
            if (find_node(bb, bb->ckey[j]) >= 0 || !book_find(bk, bb->ckey[j], &e)) continue;
            Move m;
            book_move_decode(&nd.b, bb->code[j], &m);
            Board c = nd.b;
            mg_make_move(&c, &m);
            Move x;
            for (int k = 0; k < e.nmoves; k++) {
                codes[k] = (uint16_t)book_entry_code(&e, k);
                scores[k] = (int16_t)book_entry_score(&e, k);
                if (!book_move_decode(&c, codes[k], &x)) {
                    free(queue);
                    book_build_free(bb);
                    km_fail(err, "%s: a stored move is not legal in its position", book_path(bk));
                    return NULL;
                }
            }
            queue[tail++] = c;
            if (add_node(bb, &c, e.nmoves, codes, scores)) goto oom;
        }
    }
    free(queue);
    if (bb->nnodes != n) {
        km_fail(err,
                "%s: %d of its %d positions cannot be reached from the roots: not a book this kingme built",
                book_path(bk), n - bb->nnodes, n);
        book_build_free(bb);
        return NULL;
    }
    return bb;
oom:
    free(queue);
    book_build_free(bb);
    km_fail(err, "out of memory");
    return NULL;
}

/* ---- values and the next positions ---------------------------------------------- */

/* The value of node k (its best move's score in use), computing the scores
 * in use of its moves first. Only irreversible moves pass values on, so
 * the recursion never meets a node being computed. */
static int32_t node_value(BookBuild *bb, int k)
{
    Node *nd = &bb->node[k];
    if (nd->mark == 2) return nd->value;
    nd->mark = 1;
    int32_t best = -BOOK_SCORE_MAX - 1;
    for (int i = 0; i < nd->n; i++) {
        uint32_t j = nd->first + (uint32_t)i;
        int32_t v = bb->raw[j];
        if (bb->irrev[j]) {
            int c = find_node(bb, bb->ckey[j]);
            if (c >= 0 && bb->node[c].mark != 1) v = -node_value(bb, c);
            nd = &bb->node[k]; /* (the array does not move, but keep the pointer honest) */
        }
        bb->eff[j] = (int16_t)v;
        if (v > best) best = v;
    }
    nd->value = best;
    nd->mark = 2;
    return best;
}

static void compute_values(BookBuild *bb)
{
    for (int k = 0; k < bb->nnodes; k++) bb->node[k].mark = 0;
    for (int k = 0; k < bb->nnodes; k++) node_value(bb, k);
}

/* The index (into the move arrays) of node k's best move in use: the
 * highest score, the lowest code among equals (as the file orders them). */
static uint32_t best_move(const BookBuild *bb, int k)
{
    const Node *nd = &bb->node[k];
    uint32_t best = nd->first;
    for (uint32_t j = nd->first + 1; j < nd->first + (uint32_t)nd->n; j++)
        if (bb->eff[j] > bb->eff[best] || (bb->eff[j] == bb->eff[best] && bb->code[j] < bb->code[best]))
            best = j;
    return best;
}

/* A position chosen to be scored. */
typedef struct Pick {
    uint64_t key;
    Board b;
    int64_t cost;
} Pick;

typedef struct Picks {
    Pick *p;
    int n, cap;
} Picks;

static bool picked(const Picks *ps, uint64_t key)
{
    for (int i = 0; i < ps->n; i++)
        if (ps->p[i].key == key) return true;
    return false;
}

static int pick_add(Picks *ps, const Board *b, uint64_t key, int64_t cost)
{
    if (ps->n == ps->cap) {
        int cap = ps->cap ? 2 * ps->cap : 64;
        Pick *x = realloc(ps->p, (size_t)cap * sizeof *x);
        if (!x) return -1;
        ps->p = x;
        ps->cap = cap;
    }
    ps->p[ps->n++] = (Pick){key, *b, cost};
    return 0;
}

/* The board after the move at index j of node k. */
static Board child_board(const BookBuild *bb, int k, uint32_t j)
{
    Move m;
    Board c = bb->node[k].b;
    if (book_move_decode(&c, bb->code[j], &m)) mg_make_move(&c, &m);
    return c;
}

/* The positions that end a root's main line while it is too short, in root
 * order, at most `room` of them (and how many roots are short). */
static int main_line_picks(BookBuild *bb, Picks *ps, int room, int *short_roots)
{
    *short_roots = 0;
    for (int r = 0; r < BOOK_ROOTS; r++) {
        int need = r == 0 ? bb->p.start_plies : bb->p.ballot_plies;
        Board b = bb->root[r];
        uint64_t key = bb->root_key[r];
        for (int ply = 0; ply < need; ply++) {
            int k = find_node(bb, key);
            if (k < 0) {
                if (!mg_count_moves(&b)) break; /* the game is over: the line is complete */
                (*short_roots)++;
                if (ps->n < room && !picked(ps, key) && pick_add(ps, &b, key, -1)) return -1;
                break;
            }
            uint32_t j = best_move(bb, k);
            b = child_board(bb, k, j);
            key = bb->ckey[j];
        }
    }
    return 0;
}

/* A binary heap of (cost, node) for Dijkstra. */
typedef struct HeapItem {
    int64_t cost;
    int node;
} HeapItem;

typedef struct Heap {
    HeapItem *a;
    int n, cap;
} Heap;

static int heap_push(Heap *h, int64_t cost, int node)
{
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 1024;
        HeapItem *x = realloc(h->a, (size_t)cap * sizeof *x);
        if (!x) return -1;
        h->a = x;
        h->cap = cap;
    }
    int i = h->n++;
    while (i > 0) {
        int up = (i - 1) / 2;
        if (h->a[up].cost < cost || (h->a[up].cost == cost && h->a[up].node <= node)) break;
        h->a[i] = h->a[up];
        i = up;
    }
    h->a[i] = (HeapItem){cost, node};
    return 0;
}

static HeapItem heap_pop(Heap *h)
{
    HeapItem top = h->a[0], last = h->a[--h->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && (h->a[c + 1].cost < h->a[c].cost ||
                             (h->a[c + 1].cost == h->a[c].cost && h->a[c + 1].node < h->a[c].node)))
            c++;
        if (last.cost < h->a[c].cost || (last.cost == h->a[c].cost && last.node <= h->a[c].node)) break;
        h->a[i] = h->a[c];
        i = c;
    }
    h->a[i] = last;
    return top;
}

/* The cost of move j of a node whose side to move is stm, for book side x. */
static int64_t edge_cost(const BookBuild *bb, int32_t value, uint32_t j, int stm, int x)
{
    int32_t dev = value - bb->eff[j];
    int32_t spread = stm == x ? bb->p.own_spread : bb->p.spread;
    if (dev <= 0) return COST_PLY;
    if (spread <= 0) return COST_INF;
    return COST_PLY + (int64_t)dev * COST_PLY / spread;
}

static int by_cost(const void *a, const void *b)
{
    const Pick *x = a, *y = b;
    if (x->cost != y->cost) return x->cost < y->cost ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

static int by_key_cost(const void *a, const void *b)
{
    const Pick *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->cost < y->cost ? -1 : x->cost > y->cost;
}

/* The `room` leaves of least cost (not already picked) into ps. */
static int leaf_picks(BookBuild *bb, Picks *ps, int room)
{
    int n = bb->nnodes;
    int64_t *dist = malloc(((size_t)n + 1) * sizeof *dist);
    Heap h = {0};
    Picks leaves = {0};
    int rc = -1;
    if (!dist) goto done;
    /* leaf candidates: each key once, at its least cost over both sides */
    for (int x = 0; x < 2; x++) {
        for (int k = 0; k < n; k++) dist[k] = COST_INF;
        h.n = 0;
        for (int r = 0; r < BOOK_ROOTS; r++) {
            int k = find_node(bb, bb->root_key[r]);
            if (k < 0) {
                if (mg_count_moves(&bb->root[r]) && pick_add(&leaves, &bb->root[r], bb->root_key[r], 0))
                    goto done;
            } else if (dist[k] > 0) {
                dist[k] = 0;
                if (heap_push(&h, 0, k)) goto done;
            }
        }
        while (h.n) {
            HeapItem it = heap_pop(&h);
            if (it.cost != dist[it.node]) continue;
            const Node *nd = &bb->node[it.node];
            for (int i = 0; i < nd->n; i++) {
                uint32_t j = nd->first + (uint32_t)i;
                int64_t e = edge_cost(bb, nd->value, j, nd->b.stm, x);
                if (e == COST_INF) continue;
                int64_t c = it.cost + e;
                int k = find_node(bb, bb->ckey[j]);
                if (k >= 0) {
                    if (c < dist[k]) {
                        dist[k] = c;
                        if (heap_push(&h, c, k)) goto done;
                    }
                } else {
                    Board cb = child_board(bb, it.node, j);
                    if (mg_count_moves(&cb) && pick_add(&leaves, &cb, bb->ckey[j], c)) goto done;
                }
            }
        }
    }
    /* each key once, at its least cost; then least cost first */
    qsort(leaves.p, (size_t)leaves.n, sizeof *leaves.p, by_key_cost);
    int u = 0;
    for (int i = 0; i < leaves.n; i++)
        if (!u || leaves.p[i].key != leaves.p[u - 1].key) leaves.p[u++] = leaves.p[i];
    leaves.n = u;
    qsort(leaves.p, (size_t)leaves.n, sizeof *leaves.p, by_cost);
    for (int i = 0; i < leaves.n && room > 0; i++) {
        if (picked(ps, leaves.p[i].key)) continue;
        if (pick_add(ps, &leaves.p[i].b, leaves.p[i].key, leaves.p[i].cost)) goto done;
        room--;
    }
    rc = 0;
done:
    free(dist);
    free(h.a);
    free(leaves.p);
    return rc;
}

/* ---- scoring a position ------------------------------------------------------------ */

int book_build_score_position(Searcher *s, const Board *b, int depth, const atomic_bool *stop,
                              uint16_t *codes, int16_t *scores)
{
    MoveList ml;
    mg_moves(b, &ml);
    int n = ml.count < 255 ? ml.count : 255;
    search_clear(s);
    SearchLimits lim;
    search_limits_default(&lim);
    lim.depth = depth > 1 ? depth - 1 : 1;
    search_set_tiebreak(s, TIEBREAK_FIRST);
    lim.abort = stop;
    for (int i = 0; i < n; i++) {
        const Move *m = &ml.moves[i];
        int k = 0;
        for (int j = 0; j < i; j++) k += ml.moves[j].from == m->from && ml.moves[j].to == m->to;
        codes[i] = (uint16_t)(m->from | m->to << 5 | k << 10);
        Board c = *b;
        mg_make_move(&c, m);
        SearchResult r;
        if (search_run(s, &c, NULL, 0, 0, &lim, &r, NULL, NULL)) return -1;
        if (stop && atomic_load(stop)) return 0;
        int32_t v = -r.score; /* a position without a move scores -SCORE_WIN: the mover won */
        scores[i] = (int16_t)(v > BOOK_SCORE_MAX    ? BOOK_SCORE_MAX
                              : v < -BOOK_SCORE_MAX ? -BOOK_SCORE_MAX
                                                    : v);
    }
    return n;
}

/* ---- writing the book ------------------------------------------------------------- */

/* The book as it stands (compute_values done), written to path. */
static int save(BookBuild *bb, const char *path, double seconds, bool finished, char *err)
{
    BookOutPos *pos = malloc(((size_t)bb->nnodes + 1) * sizeof *pos);
    if (!pos) return km_fail(err, "out of memory");
    for (int k = 0; k < bb->nnodes; k++) {
        const Node *nd = &bb->node[k];
        pos[k] = (BookOutPos){nd->key, nd->n, bb->code + nd->first, bb->eff + nd->first};
    }
    BookHeader h;
    memset(&h, 0, sizeof h);
    h.weights_id = bb->weights_id;
    h.man = bb->man;
    h.depth = bb->p.depth;
    h.target = bb->p.target;
    h.start_plies = bb->p.start_plies;
    h.ballot_plies = bb->p.ballot_plies;
    h.spread = bb->p.spread;
    h.own_spread = bb->p.own_spread;
    h.batch = bb->p.batch;
    h.hash_mb = bb->p.hash_mb;
    h.finished = finished;
    h.seconds = seconds;
    h.written = (int64_t)time(NULL);
    h.command = bb->command;
    size_t len;
    char why[KM_ERR_MAX];
    uint8_t *bytes = book_encode(&h, pos, bb->nnodes, &len, why);
    free(pos);
    if (!bytes) return km_fail(err, "%s: %s", path, why);
    int rc = textio_write_atomic(path, (const char *)bytes, len, err);
    free(bytes);
    return rc;
}

/* ---- the rounds -------------------------------------------------------------------- */

typedef struct Job {
    Board b;
    int n; /* moves scored; 0: not done */
    uint16_t codes[255];
    int16_t scores[255];
} Job;

typedef struct Pool {
    BookBuild *bb;
    Searcher *s; /* one per thread */
    Job *jobs;
    int njobs;
    const atomic_bool *stop;
    WprotoFiles *files;
    pthread_mutex_t mu; /* the progress calls */
    BookProgress *pr;
    BookProgressFn fn;
    void *user;
    double t0;
} Pool;

static bool stopped(const atomic_bool *stop) { return stop && atomic_load(stop); }

/* Job j scored (its moves in job->codes, job->scores): counted and said. */
static void scored(Pool *P, int j, int n)
{
    pthread_mutex_lock(&P->mu);
    P->jobs[j].n = n;
    P->pr->done++;
    P->pr->run_done++;
    P->pr->elapsed = km_now() - P->t0;
    P->pr->round_end = P->pr->saved = false;
    if (P->fn) P->fn(P->pr, P->user);
    pthread_mutex_unlock(&P->mu);
}

/* ---- the round's positions: jobs of the runner (workers.h) ---- */

static char *job_line(void *ctx, int i, uint64_t *need, int *nneed)
{
    Pool *P = ctx;
    WprotoScore j = {.n = i, .depth = P->bb->p.depth, .hash_mb = P->bb->p.hash_mb, .b = P->jobs[i].b};
    if (wproto_files_vector(P->files, &P->bb->w, j.vector, need, nneed)) return NULL;
    return wproto_score_line(&j);
}

static int job_take(void *ctx, int i, char **tok, int nt, char *why)
{
    Pool *P = ctx;
    Job *job = &P->jobs[i];
    char e2[KM_ERR_MAX];
    int n = wproto_parse_scored(tok, nt, &job->b, job->codes, job->scores, e2);
    if (n <= 0) return km_fail(why, "answered garbage for position %d: %s", i, e2);
    scored(P, i, n);
    return 0;
}

static int job_play(void *ctx, int thread, int i, const atomic_bool *stop, char *err)
{
    Pool *P = ctx;
    Job *job = &P->jobs[i];
    int n = book_build_score_position(&P->s[thread], &job->b, P->bb->p.depth, stop, job->codes, job->scores);
    if (n < 0) return km_fail(err, "out of memory");
    if (n == 0) return 1;
    scored(P, i, n);
    return 0;
}

int book_build_run(BookBuild *bb, const char *path, int threads, struct WorkerSet *workers, BookProgressFn fn,
                   void *user, const atomic_bool *stop, char *err)
{
    if (threads < (workers ? 0 : 1)) threads = workers ? 0 : 1;
    if (threads > WORKERS_THREADS_MAX) threads = WORKERS_THREADS_MAX;
    Pool P;
    memset(&P, 0, sizeof P);
    P.bb = bb;
    P.stop = stop;
    P.fn = fn;
    P.user = user;
    P.t0 = km_now();
    pthread_mutex_init(&P.mu, NULL);
    BookProgress pr = {0};
    P.pr = &pr;
    P.s = calloc((size_t)threads + 1, sizeof *P.s);
    P.files = wproto_files_new();
    Picks ps = {0};
    int rc = -1, made = 0;
    if (!P.s || !P.files) {
        km_fail(err, "out of memory");
        goto done;
    }
    for (; made < threads; made++)
        if (search_init(&P.s[made], &bb->w, (size_t)bb->p.hash_mb, 1, err)) goto done;
    compute_values(bb);
    double last_save = km_now();
    bool unsaved = false;
    for (;;) {
        int short_roots;
        ps.n = 0;
        if (main_line_picks(bb, &ps, bb->p.batch, &short_roots)) goto oom;
        /* every round is whole (batch positions), so that a build to N
         * positions is where a build to more passes: a build resumed with
         * a higher aim is the same as one that had it from the start */
        if (ps.n || bb->nnodes < bb->p.target) {
            int room = bb->p.batch - ps.n;
            if (room > 0 && leaf_picks(bb, &ps, room)) goto oom;
        }
        pr.done = bb->nnodes;
        pr.target = bb->nnodes + ps.n > bb->p.target ? bb->nnodes + ps.n : bb->p.target;
        pr.round_end = pr.saved = false;
        pr.round = bb->rounds;
        pr.short_roots = short_roots;
        if (ps.n == 0) { /* the aim is reached */
            pr.seconds = bb->seconds + (km_now() - P.t0);
            if (save(bb, path, pr.seconds, true, err)) goto done;
            pr.round_end = pr.saved = true;
            pr.elapsed = km_now() - P.t0;
            if (fn) fn(&pr, user);
            break;
        }
        free(P.jobs);
        P.jobs = calloc((size_t)ps.n, sizeof *P.jobs);
        if (!P.jobs) goto oom;
        for (int i = 0; i < ps.n; i++) P.jobs[i].b = ps.p[i].b;
        P.njobs = ps.n;
        WorkersJobs jobs = {.n = ps.n,
                            .ctx = &P,
                            .line = job_line,
                            .files = P.files,
                            .answer = "scored",
                            .take = job_take,
                            .play = job_play};
        if (workers_run_jobs(workers, &jobs, threads, stop, err)) goto done;
        if (stopped(stop)) { /* the round is dropped whole */
            if (unsaved && save(bb, path, bb->seconds + (km_now() - P.t0), false, err)) goto done;
            rc = 0;
            goto done;
        }
        for (int i = 0; i < ps.n; i++)
            if (P.jobs[i].n == 0) {
                km_fail(err, "internal error: position %d of the round was not scored", i);
                goto done;
            }
        for (int i = 0; i < ps.n; i++)
            if (add_node(bb, &P.jobs[i].b, P.jobs[i].n, P.jobs[i].codes, P.jobs[i].scores)) goto oom;
        bb->rounds++;
        compute_values(bb);
        pr.done = bb->nnodes;
        pr.round = bb->rounds;
        pr.seconds = bb->seconds + (km_now() - P.t0);
        pr.round_end = true;
        pr.saved = km_now() - last_save >= bb->save_every;
        unsaved = !pr.saved;
        if (pr.saved) {
            if (save(bb, path, pr.seconds, false, err)) goto done;
            last_save = km_now();
        }
        pr.elapsed = km_now() - P.t0;
        if (fn) fn(&pr, user);
    }
    rc = 0;
    goto done;
oom:
    km_fail(err, "out of memory");
done:
    bb->seconds += km_now() - P.t0;
    for (int t = 0; t < made; t++) search_free(&P.s[t]);
    free(P.s);
    wproto_files_free(P.files);
    free(P.jobs);
    free(ps.p);
    pthread_mutex_destroy(&P.mu);
    return rc;
}

/* ---- the worker's side: the score lines (worker.h) --------------------------------- */

static char *bk_handle(WorkerState *ws, void *data, char **tok, int nt)
{
    char err[KM_ERR_MAX];
    WprotoScore j;
    if (wproto_parse_score(tok, nt, &j, err)) return worker_answer("error %s %s", nt > 1 ? tok[1] : "-", err);
    const Weights *w = worker_vector(ws, j.vector, err);
    if (!w) return worker_answer("error %d %s", j.n, err);
    Searcher *s = worker_kept_searcher(data, w, j.hash_mb, err);
    if (!s) return worker_answer("error %d %s", j.n, err);
    uint16_t codes[255];
    int16_t scores[255];
    int k = book_build_score_position(s, &j.b, j.depth, NULL, codes, scores);
    if (k < 0) return worker_answer("error %d out of memory", j.n);
    char *r = wproto_scored_line(j.n, k, codes, scores);
    return r ? r : worker_answer("error %d out of memory", j.n);
}

int book_build_worker_kind(WorkerState *ws)
{
    WorkerKept *k = worker_kept_new();
    if (!k) return -1;
    return worker_register(ws, "score", bk_handle, k, worker_kept_free);
}
