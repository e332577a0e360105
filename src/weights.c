/* weights.c - weights files: "name value" lines and '#' comments.
 *
 * Accepted: blank lines, full-line comments, a trailing "# ..." after a value,
 * spaces or tabs between the fields, CRLF line ends, a missing final newline.
 * Rejected, with "where:LINE: what": an unknown name, a name given twice, a
 * value that is missing, not an integer, followed by more text, or outside
 * -32768..32767; a file without any parameter ("where: no parameters ..."). The
 * comment lines before the first parameter are the header
 * and are returned without their "#" (and one space after it), so that
 * weights_write(weights_read(f)) keeps them. */
#include "kingme/weights.h"
#include "kingme/nn.h"
#include "kingme/patterns.h"
#include "kingme/textio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char weights_default_text[];

#define WEIGHTS_FILE_MAX (16 << 20) /* a few kB, about 0.5 MB with a pattern layer; refuse huge files */

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/* Shorten a token for a message. */
static const char *clip(const char *s, size_t n, char out[40])
{
    if (n > 32) {
        memcpy(out, s, 29);
        memcpy(out + 29, "...", 4);
    } else {
        memcpy(out, s, n);
        out[n] = '\0';
    }
    return out;
}

/* The pattern tables being read: "table NAME" (or "table end.NAME") starts
 * one, and the lines "CELL: v v ..." that follow give its cells from CELL on. */
typedef struct TableParse {
    EvalPatterns *pat; /* allocated at the first table */
    int table, phase;  /* the table being read (-1: none) */
    int seen[2][PAT_NTABLES];
} TableParse;

/* Whether every cell of every table of p, in both phases, is 0. */
static bool pat_all_zero(const EvalPatterns *p)
{
    for (int ph = 0; ph < 2; ph++)
        for (int t = 0; t < PAT_NTABLES; t++) {
            const int16_t *c = pat_cells_const(p, t, ph);
            for (int i = 0; i < pat_tables[t].cells; i++)
                if (c[i]) return false;
        }
    return true;
}

/* The next whitespace-separated value of a "CELL: v v ..." line at *p
 * (before e): 1 with *val (its magnitude capped near 10^9, above every
 * range a caller allows, within a 32-bit long) and *p past it, 0 at the line's end, -1 when the
 * word at *v is not an integer. */
static int next_value(const char **p, const char *e, const char **v, long *val)
{
    const char *q = *p;
    while (q < e && is_space(*q)) q++;
    *v = q;
    if (q == e) return 0;
    if (*q == '-' || *q == '+') q++;
    long x = 0;
    int nd = 0;
    for (; q < e && *q >= '0' && *q <= '9'; q++, nd++)
        if (x < 100000000) x = x * 10 + (*q - '0');
    if (!nd || (q < e && !is_space(*q))) return -1;
    *val = **v == '-' ? -x : x;
    *p = q;
    return 1;
}

/* 1 when [s, e) was a table line (read into tp), 0 when it is not one, -1 on
 * error (message in err). */
static int table_line(TableParse *tp, const char *s, const char *e, const char *where, int lineno, char *err)
{
    char nm[40];
    if (e - s > 6 && memcmp(s, "table", 5) == 0 && is_space(s[5])) {
        const char *n = s + 6;
        while (n < e && is_space(*n)) n++;
        const char *ne = n;
        while (ne < e && !is_space(*ne)) ne++;
        int ph = 0;
        const char *bare = n;
        if (ne - n > 4 && memcmp(n, "end.", 4) == 0) ph = 1, bare += 4;
        int t = pat_table_find(bare, (size_t)(ne - bare));
        if (t < 0)
            return km_fail(err, "%s:%d: unknown table '%s'", where, lineno, clip(n, (size_t)(ne - n), nm));
        if (ne != e) return km_fail(err, "%s:%d: unexpected text after the table's name", where, lineno);
        if (tp->seen[ph][t])
            return km_fail(err, "%s:%d: duplicate table '%s' (first given on line %d)", where, lineno,
                           clip(n, (size_t)(ne - n), nm), tp->seen[ph][t]);
        if (!tp->pat && !(tp->pat = pat_new())) return km_fail(err, "%s: out of memory", where);
        tp->seen[ph][t] = lineno;
        tp->table = t + 1; /* 0: none */
        tp->phase = ph;
        return 1;
    }
    const char *digits = s;
    while (digits < e && *digits >= '0' && *digits <= '9') digits++;
    bool cell_line = digits > s && digits < e && *digits == ':';
    if (!cell_line && !(tp->table && digits > s)) {
        tp->table = 0; /* a named weight ends the table */
        return 0;
    }
    if (!tp->table) return km_fail(err, "%s:%d: cell values outside a table", where, lineno);
    int t = tp->table - 1, cells = pat_tables[t].cells;
    const char *p = s;
    long cell = 0;
    while (p < e && *p >= '0' && *p <= '9' && cell <= cells) cell = cell * 10 + (*p++ - '0');
    if (p == e || *p != ':')
        return km_fail(err, "%s:%d: expected 'CELL: values' in table '%s'", where, lineno,
                       pat_tables[t].name);
    p++;
    int16_t *c = pat_cells(tp->pat, t, tp->phase);
    for (;;) {
        const char *v;
        long val;
        int got = next_value(&p, e, &v, &val);
        if (got == 0) break;
        if (got < 0)
            return km_fail(err, "%s:%d: value '%s' in table '%s' is not an integer", where, lineno,
                           clip(v, (size_t)(e - v) < 12 ? (size_t)(e - v) : 12, nm), pat_tables[t].name);
        if (cell >= cells)
            return km_fail(err, "%s:%d: table '%s' has cells 0..%d only", where, lineno, pat_tables[t].name,
                           cells - 1);
        if (val < -PAT_WEIGHT_MAX || val > PAT_WEIGHT_MAX)
            return km_fail(err, "%s:%d: value %ld in table '%s' is out of range -%d..%d", where, lineno, val,
                           pat_tables[t].name, PAT_WEIGHT_MAX, PAT_WEIGHT_MAX);
        c[cell++] = (int16_t)val;
    }
    return 1;
}

/* The network being read: "network H crc XXXXXXXX" starts it, "layer NAME"
 * one of its layers, and the lines "CELL: v v ..." that follow give the
 * layer's values from CELL on. */
typedef struct NetParse {
    EvalNet *net; /* allocated at the network line */
    int line;     /* the network line */
    uint32_t crc; /* the checksum it gives */
    int layer;    /* the layer being read + 1 (0: none) */
    int seen[NN_NLAYERS];
} NetParse;

/* Whether [s, e) starts with the word w followed by a blank. */
static bool starts_word(const char *s, const char *e, const char *w)
{
    size_t n = strlen(w);
    return (size_t)(e - s) > n && memcmp(s, w, n) == 0 && is_space(s[n]);
}

/* 1 when [s, e) was a network line (read into np), 0 when it is not one, -1
 * on error (message in err). */
static int net_line(NetParse *np, TableParse *tp, const char *s, const char *e, const char *where, int lineno,
                    char *err)
{
    char nm[40];
    if (starts_word(s, e, "network")) {
        if (np->net)
            return km_fail(err, "%s:%d: a second network (the first on line %d)", where, lineno, np->line);
        char buf[80];
        size_t n = (size_t)(e - s) < sizeof buf - 1 ? (size_t)(e - s) : sizeof buf - 1;
        memcpy(buf, s, n);
        buf[n] = '\0';
        int h = 0, used = 0, pieces = 0, more = 0;
        unsigned crc = 0;
        bool ok = sscanf(buf, "network %d crc %8x%n", &h, &crc, &used) == 2;
        if (ok && (size_t)used != n) /* an ending network: "pieces N" after */
            ok = sscanf(buf + used, " pieces %d%n", &pieces, &more) == 1 && (size_t)(used + more) == n;
        if (!ok)
            return km_fail(err,
                           "%s:%d: expected 'network H crc XXXXXXXX' (and 'pieces N' for an ending network)",
                           where, lineno);
        if ((size_t)used != n && (pieces < 2 || pieces > 24))
            return km_fail(err, "%s:%d: a network for positions of at most %d pieces (2..24)", where, lineno,
                           pieces);
        if (h < 16 || h > NN_MAX_HIDDEN || h % 16)
            return km_fail(err, "%s:%d: a network of %d units (16..%d, a multiple of 16)", where, lineno, h,
                           NN_MAX_HIDDEN);
        if (!(np->net = nn_new(h))) return km_fail(err, "%s: out of memory", where);
        np->net->max_pieces = pieces;
        np->line = lineno;
        np->crc = crc;
        np->layer = 0;
        tp->table = 0;
        return 1;
    }
    if (starts_word(s, e, "layer")) {
        if (!np->net) return km_fail(err, "%s:%d: a layer before the 'network' line", where, lineno);
        const char *n = s + 6;
        while (n < e && is_space(*n)) n++;
        int l = -1;
        for (int k = 0; k < NN_NLAYERS; k++)
            if ((size_t)(e - n) == strlen(nn_layer_names[k]) &&
                !memcmp(n, nn_layer_names[k], (size_t)(e - n)))
                l = k;
        if (l < 0)
            return km_fail(err, "%s:%d: unknown layer '%s'", where, lineno, clip(n, (size_t)(e - n), nm));
        if (np->seen[l])
            return km_fail(err, "%s:%d: duplicate layer '%s' (first given on line %d)", where, lineno,
                           nn_layer_names[l], np->seen[l]);
        np->seen[l] = lineno;
        np->layer = l + 1;
        tp->table = 0;
        return 1;
    }
    const char *digits = s;
    while (digits < e && *digits >= '0' && *digits <= '9') digits++;
    if (!np->layer || !(digits > s && digits < e && *digits == ':')) {
        np->layer = 0; /* anything else ends the layer */
        return 0;
    }
    int l = np->layer - 1;
    long size = nn_layer_size(np->net->hidden, l), cell = 0;
    const char *p = s;
    while (p < digits && cell <= size) cell = cell * 10 + (*p++ - '0');
    p = digits + 1;
    int32_t lim = nn_layer_max(l);
    for (;;) {
        const char *v;
        long val;
        int got = next_value(&p, e, &v, &val);
        if (got == 0) break;
        if (got < 0)
            return km_fail(err, "%s:%d: value '%s' in layer '%s' is not an integer", where, lineno,
                           clip(v, (size_t)(e - v) < 12 ? (size_t)(e - v) : 12, nm), nn_layer_names[l]);
        if (cell >= size)
            return km_fail(err, "%s:%d: layer '%s' has values 0..%ld only", where, lineno, nn_layer_names[l],
                           size - 1);
        if (val < -lim || val > lim)
            return km_fail(err, "%s:%d: value %ld in layer '%s' is out of range -%ld..%ld", where, lineno,
                           val, nn_layer_names[l], (long)lim, (long)lim);
        nn_set(np->net, l, cell++, (int32_t)val);
    }
    return 1;
}

int weights_parse(Weights *w, const char *text, const char *where, char **comments, char *err)
{
    text = textio_skip_bom(text); /* an editor's byte order mark is no parameter */
    Weights r;
    memset(&r, 0, sizeof r);
    TableParse tp = {0};
    NetParse np = {0};
    int seen[2 * EVAL_NTERMS] = {0}; /* line where each weight was given (end. ones after) */
    KmBuf hdr = {0};
    int in_header = 1;
    int lineno = 0;
    const char *p = text;
    while (*p) {
        lineno++;
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        const char *next = eol ? eol + 1 : p + n;
        /* [s, e): the line without its end and surrounding blanks */
        const char *s = p, *e = p + n;
        while (s < e && is_space(*s)) s++;
        while (e > s && is_space(e[-1])) e--;
        p = next;
        if (s == e) continue;
        if (*s == '#') {
            if (in_header) {
                const char *c = s + 1;
                if (c < e && *c == ' ') c++;
                textio_buf_add(&hdr, c, (size_t)(e - c));
                textio_buf_add(&hdr, "\n", 1);
            }
            continue;
        }
        in_header = 0;
        /* a trailing comment ends the line's data */
        const char *hash = memchr(s, '#', (size_t)(e - s));
        if (hash) {
            e = hash;
            while (e > s && is_space(e[-1])) e--;
        }
        if (s == e) continue;
        int nr = net_line(&np, &tp, s, e, where, lineno, err);
        if (nr < 0) goto fail;
        if (nr > 0) continue;
        int tr = table_line(&tp, s, e, where, lineno, err);
        if (tr < 0) goto fail;
        if (tr > 0) continue;
        const char *name = s, *ne = s;
        while (ne < e && !is_space(*ne)) ne++;
        char tok[40], nm[40];
        clip(name, (size_t)(ne - name), nm);
        int idx = -1, ending = 0;
        const char *bare = name; /* the name without "end." */
        if (ne - name > 4 && memcmp(name, "end.", 4) == 0) {
            ending = 1;
            bare += 4;
        }
        for (int i = 0; i < EVAL_NTERMS; i++) {
            size_t len = strlen(eval_params[i].name);
            if (len == (size_t)(ne - bare) && memcmp(eval_params[i].name, bare, len) == 0) {
                idx = i;
                break;
            }
        }
        if (idx < 0) {
            km_fail(err, "%s:%d: unknown parameter '%s'", where, lineno, nm);
            goto fail;
        }
        int slot = ending * EVAL_NTERMS + idx;
        if (seen[slot]) {
            km_fail(err, "%s:%d: duplicate parameter '%s' (first given on line %d)", where, lineno, nm,
                    seen[slot]);
            goto fail;
        }
        seen[slot] = lineno;
        const char *v = ne;
        while (v < e && is_space(*v)) v++;
        const char *ve = v;
        while (ve < e && !is_space(*ve)) ve++;
        if (v == ve) {
            km_fail(err, "%s:%d: missing value for '%s'", where, lineno, nm);
            goto fail;
        }
        const char *d = v;
        if (*d == '-' || *d == '+') d++;
        int digits = d < ve;
        for (const char *q = d; q < ve; q++)
            if (*q < '0' || *q > '9') digits = 0;
        if (!digits) {
            km_fail(err, "%s:%d: value '%s' of '%s' is not an integer", where, lineno,
                    clip(v, (size_t)(ve - v), tok), nm);
            goto fail;
        }
        const char *x = ve;
        while (x < e && is_space(*x)) x++;
        if (x < e) {
            km_fail(err, "%s:%d: unexpected '%s' after the value of '%s'", where, lineno,
                    clip(x, (size_t)(e - x), tok), nm);
            goto fail;
        }
        /* digits only, so overflow is the only way strtol can fail */
        char num[40];
        clip(v, (size_t)(ve - v), num);
        errno = 0;
        long val = (ve - v) > 30 ? 0 : strtol(num, NULL, 10);
        if ((ve - v) > 30 || errno == ERANGE || val < -32768 || val > 32767) {
            km_fail(err, "%s:%d: value %s of '%s' is out of range -32768..32767", where, lineno, num, nm);
            goto fail;
        }
        if (ending) {
            r.end[idx] = (int16_t)val;
            r.phased = 1;
        } else {
            r.w[idx] = (int16_t)val;
        }
    }
    if (in_header) {
        /* every weight 0 is no evaluation at all: an empty or truncated file */
        km_fail(err, "%s: no parameters (the file is empty or holds only comments)", where);
        goto fail;
    }
    if (np.net && nn_crc(np.net) != np.crc) {
        km_fail(err, "%s:%d: the network's values have checksum %08x, not %08x (a damaged section)", where,
                np.line, (unsigned)nn_crc(np.net), (unsigned)np.crc);
        goto fail;
    }
    if (tp.pat && pat_all_zero(tp.pat)) {
        /* every cell 0 (a "table NAME" line and no values, or rows of
         * zeros) adds nothing: no layer, as weights_format writes it */
        free(tp.pat);
        tp.pat = NULL;
    }
    /* interning takes the layer (and frees it when it fails) */
    if (tp.pat) {
        r.pat = pat_intern(tp.pat);
        tp.pat = NULL;
        if (!r.pat) {
            km_fail(err, "%s: out of memory", where);
            goto fail;
        }
    }
    if (np.net) {
        r.net = nn_intern(np.net);
        np.net = NULL;
        if (!r.net) {
            km_fail(err, "%s: out of memory", where);
            goto fail;
        }
    }
    char *h = textio_buf_done(&hdr);
    if (!h) { /* textio_buf_done freed the header */
        km_fail(err, "%s: out of memory", where);
        goto fail;
    }
    *w = r;
    if (comments) *comments = h;
    else free(h);
    return 0;

fail: /* the one way out of a failure: what the parse holds is freed */
    free(hdr.s);
    free(tp.pat);
    free(np.net);
    return -1;
}

int weights_read(Weights *w, const char *path, char **comments, char *err)
{
    static const KmReadOpts opts = {
        .max_bytes = WEIGHTS_FILE_MAX,
        .cannot_open = "cannot open",
        .read_error = "read error",
        .too_large = "too large for a weights file",
        .nul_byte = "not a text file (contains a NUL byte)",
    };
    char *text = textio_read_text(path, &opts, NULL, err);
    if (!text) return -1;
    int rc = weights_parse(w, text, path, comments, err);
    free(text);
    return rc;
}

char *weights_format(const Weights *w, const char *comments)
{
    KmBuf b = {0};
    textio_buf_lines(&b, comments, "# "); /* "#" alone for an empty line */
    /* the 60 always; the new terms when one has a weight or there is a
     * phase; the ending vector ("end." names) when there is a phase */
    int n = EVAL_NPARAMS;
    for (int i = EVAL_NPARAMS; i < EVAL_NTERMS; i++)
        if (w->w[i]) n = EVAL_NTERMS;
    if (w->phased) n = EVAL_NTERMS;
    for (int i = 0; i < n; i++) {
        char line[64];
        int len = snprintf(line, sizeof line, "%-23s %6d\n", eval_params[i].name, w->w[i]);
        textio_buf_add(&b, line, (size_t)len);
    }
    for (int i = 0; w->phased && i < EVAL_NTERMS; i++) {
        char line[64], nm[40];
        snprintf(nm, sizeof nm, "end.%s", eval_params[i].name);
        int len = snprintf(line, sizeof line, "%-27s %6d\n", nm, w->end[i]);
        textio_buf_add(&b, line, (size_t)len);
    }
    /* the pattern tables: rows of 16 cells, the rows of zeros left out */
    for (int ph = 0; w->pat && ph < 2; ph++)
        for (int t = 0; t < PAT_NTABLES; t++) {
            const int16_t *c = pat_cells_const(w->pat, t, ph);
            int any = 0;
            for (int i = 0; i < pat_tables[t].cells; i++) any |= c[i];
            if (!any) continue;
            textio_buf_printf(&b, "table %s%s\n", ph ? "end." : "", pat_tables[t].name);
            for (int i = 0; i < pat_tables[t].cells; i += 16) {
                int cells = pat_tables[t].cells - i < 16 ? pat_tables[t].cells - i : 16, row = 0;
                for (int k = 0; k < cells; k++) row |= c[i + k];
                if (!row) continue;
                textio_buf_printf(&b, "%d:", i);
                for (int k = 0; k < cells; k++) textio_buf_printf(&b, " %d", c[i + k]);
                textio_buf_add(&b, "\n", 1);
            }
        }
    /* the network: its shape and checksum, then each layer in rows of 16,
     * the rows of zeros left out */
    if (w->net) {
        const EvalNet *net = w->net;
        textio_buf_printf(&b, "network %d crc %08x", net->hidden, (unsigned)net->crc);
        if (net->max_pieces) textio_buf_printf(&b, " pieces %d", net->max_pieces);
        textio_buf_add(&b, "\n", 1);
        for (int l = 0; l < NN_NLAYERS; l++) {
            long size = nn_layer_size(net->hidden, l);
            textio_buf_printf(&b, "layer %s\n", nn_layer_names[l]);
            for (long i = 0; i < size; i += 16) {
                long m = size - i < 16 ? size - i : 16;
                int32_t row = 0;
                for (long k = 0; k < m; k++) row |= nn_get(net, l, i + k);
                if (!row) continue;
                textio_buf_printf(&b, "%ld:", i);
                for (long k = 0; k < m; k++) textio_buf_printf(&b, " %ld", (long)nn_get(net, l, i + k));
                textio_buf_add(&b, "\n", 1);
            }
        }
    }
    return textio_buf_done(&b);
}

int weights_write(const Weights *w, const char *path, const char *comments, char *err)
{
    char *text = weights_format(w, comments);
    if (!text) return km_fail(err, "%s: out of memory", path);
    int rc = textio_write_atomic(path, text, strlen(text), err);
    free(text);
    return rc;
}

bool weights_beyond_60(const Weights *w)
{
    if (w->phased || w->pat || w->net) return true;
    for (int i = EVAL_NPARAMS; i < EVAL_NTERMS; i++)
        if (w->w[i]) return true;
    return false;
}

int weights_default_with_comments(Weights *w, char **comments, char *err)
{
    return weights_parse(w, weights_default_text, "weights/default.w", comments, err);
}

void weights_default(Weights *w)
{
    char err[KM_ERR_MAX];
    /* The text is weights/default.w, built in; a test checks that it parses,
     * so the fallback (all zero) never happens in a released program. */
    if (weights_default_with_comments(w, NULL, err) != 0) memset(w, 0, sizeof *w);
}
