/* nn.c - the network layer of the evaluation (nn.h): integer inference,
 * plain C loops that the compiler vectorises (int16 adds, int16 x int16
 * products summed in int32). */
#include "kingme/nn.h"
#include "kingme/textio.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

long nn_nparams(int hidden)
{
    return (long)NN_INPUTS * hidden + hidden + (long)NN_L2 * 2 * hidden + NN_L2 + NN_L2 + 1;
}

EvalNet *nn_new(int hidden)
{
    EvalNet *n = calloc(1, sizeof *n);
    if (n) n->hidden = hidden;
    return n;
}

const char *const nn_layer_names[NN_NLAYERS] = {"w1", "b1", "w2", "b2", "w3", "b3"};

long nn_layer_size(int hidden, int layer)
{
    switch (layer) {
    case NN_W1:
        return (long)NN_INPUTS * hidden;
    case NN_B1:
        return hidden;
    case NN_W2:
        return (long)NN_L2 * 2 * hidden;
    case NN_B2:
        return NN_L2;
    case NN_W3:
        return NN_L2;
    default:
        return 1;
    }
}

int32_t nn_layer_max(int layer)
{
    return layer == NN_W1 || layer == NN_B1 ? NN_W1_MAX : layer == NN_B2 || layer == NN_B3 ? 1 << 24 : 32767;
}

int32_t nn_get(const EvalNet *n, int layer, long i)
{
    int h = n->hidden;
    switch (layer) {
    case NN_W1:
        return n->w1[i / h][i % h];
    case NN_B1:
        return n->b1[i];
    case NN_W2:
        return n->w2[i / (2 * h)][i % (2 * h)];
    case NN_B2:
        return n->b2[i];
    case NN_W3:
        return n->w3[i];
    default:
        return n->b3;
    }
}

void nn_set(EvalNet *n, int layer, long i, int32_t v)
{
    int h = n->hidden;
    switch (layer) {
    case NN_W1:
        n->w1[i / h][i % h] = (int16_t)v;
        break;
    case NN_B1:
        n->b1[i] = (int16_t)v;
        break;
    case NN_W2:
        n->w2[i / (2 * h)][i % (2 * h)] = (int16_t)v;
        break;
    case NN_B2:
        n->b2[i] = v;
        break;
    case NN_W3:
        n->w3[i] = (int16_t)v;
        break;
    default:
        n->b3 = v;
    }
}

uint32_t nn_crc(const EvalNet *n)
{
    uint32_t c = 0;
    for (int l = 0; l < NN_NLAYERS; l++)
        for (long i = 0; i < nn_layer_size(n->hidden, l); i++) {
            uint8_t b[4];
            km_put32(b, (uint32_t)nn_get(n, l, i));
            c = textio_crc32(c, b, 4);
        }
    if (n->max_pieces) {
        uint8_t b[4];
        km_put32(b, (uint32_t)n->max_pieces);
        c = textio_crc32(c, b, 4);
    }
    return c;
}

void nn_finish(EvalNet *n)
{
    n->crc = nn_crc(n);
    n->key = km_mix64(0x6E6574776F726Bull ^ ((uint64_t)n->crc << 16) ^ (uint64_t)n->hidden);
}

static bool same_net(const EvalNet *a, const EvalNet *b)
{
    int h = a->hidden;
    if (a->hidden != b->hidden || a->max_pieces != b->max_pieces || a->b3 != b->b3) return false;
    for (int i = 0; i < NN_INPUTS; i++)
        if (memcmp(a->w1[i], b->w1[i], sizeof(int16_t) * (size_t)h)) return false;
    for (int k = 0; k < NN_L2; k++)
        if (memcmp(a->w2[k], b->w2[k], sizeof(int16_t) * 2 * (size_t)h)) return false;
    return !memcmp(a->b1, b->b1, sizeof(int16_t) * (size_t)h) && !memcmp(a->b2, b->b2, sizeof a->b2) &&
           !memcmp(a->w3, b->w3, sizeof a->w3);
}

static struct Interned {
    EvalNet *n;
    struct Interned *next;
} * interned;
static pthread_mutex_t interned_lock = PTHREAD_MUTEX_INITIALIZER;

const EvalNet *nn_intern(EvalNet *n)
{
    if (!n) return NULL;
    nn_finish(n);
    pthread_mutex_lock(&interned_lock);
    for (struct Interned *i = interned; i; i = i->next)
        if (i->n->key == n->key && same_net(i->n, n)) {
            pthread_mutex_unlock(&interned_lock);
            free(n);
            return i->n;
        }
    struct Interned *e = malloc(sizeof *e);
    if (!e) {
        pthread_mutex_unlock(&interned_lock);
        free(n);
        return NULL;
    }
    e->n = n;
    e->next = interned;
    interned = e;
    pthread_mutex_unlock(&interned_lock);
    return n;
}

/* acc += column (H a multiple of 16); the usual sizes are compiled with a
 * constant count (unrolled, no tail). */
static inline __attribute__((always_inline)) void add_n(int16_t *restrict acc, const int16_t *restrict col,
                                                        int h)
{
    for (int j = 0; j < h; j++) acc[j] = (int16_t)(acc[j] + col[j]);
}
static inline __attribute__((always_inline)) void sub_n(int16_t *restrict acc, const int16_t *restrict col,
                                                        int h)
{
    for (int j = 0; j < h; j++) acc[j] = (int16_t)(acc[j] - col[j]);
}
static inline void add_column(int16_t *restrict acc, const int16_t *restrict col, int h)
{
    switch (h) {
    case 32:
        add_n(acc, col, 32);
        break;
    case 64:
        add_n(acc, col, 64);
        break;
    case 128:
        add_n(acc, col, 128);
        break;
    default:
        add_n(acc, col, h);
    }
}
static inline void sub_column(int16_t *restrict acc, const int16_t *restrict col, int h)
{
    switch (h) {
    case 32:
        sub_n(acc, col, 32);
        break;
    case 64:
        sub_n(acc, col, 64);
        break;
    case 128:
        sub_n(acc, col, 128);
        break;
    default:
        sub_n(acc, col, h);
    }
}

void nn_accumulate(const EvalNet *n, const Board *b, int view, int16_t acc[NN_MAX_HIDDEN])
{
    int h = n->hidden;
    memcpy(acc, n->b1, sizeof(int16_t) * (size_t)h);
    for (int colour = 0; colour < 2; colour++)
        for (int king = 0; king < 2; king++) {
            uint32_t x = b->pieces[colour] & (king ? b->kings : ~b->kings);
            while (x) {
                int s = __builtin_ctz(x);
                x &= x - 1;
                add_column(acc, n->w1[nn_input(view, colour, king, s)], h);
            }
        }
}

static inline __attribute__((always_inline)) int32_t output_n(const EvalNet *n, const int16_t *acc_stm,
                                                              const int16_t *acc_other, int h)
{
    int16_t a[2 * NN_MAX_HIDDEN];
    for (int j = 0; j < h; j++) {
        int16_t x = acc_stm[j], y = acc_other[j];
        a[j] = x < 0 ? 0 : x > NN_QA ? NN_QA : x;
        a[h + j] = y < 0 ? 0 : y > NN_QA ? NN_QA : y;
    }
    int32_t out = n->b3;
    for (int k = 0; k < NN_L2; k++) {
        const int16_t *w = n->w2[k];
        int32_t s = 0;
        for (int j = 0; j < 2 * h; j++) s += (int32_t)a[j] * w[j];
        s += n->b2[k];
        s = s < 0 ? 0 : s / NN_QB;
        if (s > NN_QA) s = NN_QA;
        out += s * n->w3[k];
    }
    return (int32_t)((int64_t)out * NN_OUT_SCALE / (NN_QA * NN_QB));
}

int32_t nn_output(const EvalNet *n, const int16_t *acc_stm, const int16_t *acc_other)
{
    switch (n->hidden) {
    case 32:
        return output_n(n, acc_stm, acc_other, 32);
    case 64:
        return output_n(n, acc_stm, acc_other, 64);
    case 128:
        return output_n(n, acc_stm, acc_other, 128);
    default:
        return output_n(n, acc_stm, acc_other, n->hidden);
    }
}

int32_t nn_eval(const EvalNet *n, const Board *b, int side)
{
    if (!nn_applies(n, b)) return 0;
    int16_t acc[2][NN_MAX_HIDDEN];
    nn_accumulate(n, b, b->stm, acc[0]);
    nn_accumulate(n, b, b->stm ^ 1, acc[1]);
    int32_t v = nn_output(n, acc[0], acc[1]);
    return side == b->stm ? v : -v;
}

void nn_acc_set(const EvalNet *n, NnAcc *a, const NnAcc *from, const Board *b)
{
    int h = n->hidden;
    /* the pieces of each kind before and after */
    uint32_t was[4], now[4];
    int changed = 64;
    if (from && from->valid) {
        changed = 0;
        for (int k = 0; k < 4; k++) {
            int colour = k & 1, king = k >> 1;
            was[k] = from->b.pieces[colour] & (king ? from->b.kings : ~from->b.kings);
            now[k] = b->pieces[colour] & (king ? b->kings : ~b->kings);
            changed += __builtin_popcount(was[k] ^ now[k]);
        }
    }
    if (changed > __builtin_popcount(board_occupied(b))) {
        nn_accumulate(n, b, KM_BLACK, a->acc[KM_BLACK]);
        nn_accumulate(n, b, KM_WHITE, a->acc[KM_WHITE]);
    } else {
        if (from != a)
            for (int view = 0; view < 2; view++)
                memcpy(a->acc[view], from->acc[view], sizeof(int16_t) * (size_t)h);
        for (int k = 0; k < 4; k++) {
            int colour = k & 1, king = k >> 1;
            uint32_t gone = was[k] & ~now[k], added = now[k] & ~was[k];
            for (int view = 0; view < 2; view++) {
                for (uint32_t x = gone; x; x &= x - 1)
                    sub_column(a->acc[view], n->w1[nn_input(view, colour, king, __builtin_ctz(x))], h);
                for (uint32_t x = added; x; x &= x - 1)
                    add_column(a->acc[view], n->w1[nn_input(view, colour, king, __builtin_ctz(x))], h);
            }
        }
    }
    a->b = *b;
    a->valid = 1;
}
