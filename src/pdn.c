/* pdn.c - reading and writing PDN games.
 *
 * The reader is a single pass over the text: each token is handled as it is
 * met, moves are resolved with notation_parse_move against the game's current position
 * and played at once, so a game needs no syntax tree and an error can name
 * the exact move. Nothing is copied into fixed-size buffers except move text,
 * which is refused when longer than any real move. */
#include "kingme/pdn.h"
#include "kingme/notation.h"
#include "kingme/textio.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- reading */

typedef struct Parser {
    const char *p, *end, *text;
    const char *where;
    int line;
    PdnGame *games;
    int n, cap;
    int cur;      /* index of the open game, -1 between games */
    bool started; /* the open game's Game is initialised (movetext began) */
    bool skip;    /* the open game has an error: ignore its moves */
    int movenum;  /* move number of the next move, as the file counts them */
    bool oom;     /* out of memory, or too_many: stop */
    int too_many; /* line of the game beyond PDN_MAX_GAMES, 0 if none */
} Parser;

static char *dup_range(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* At most 40 bytes of s for messages, shown as textio_escape shows any text
 * (control bytes and bytes that are not UTF-8 as \xHH). */
#define QUOTE_MAX (4 * 40 + 4)
static void quote(char out[QUOTE_MAX], const char *s, size_t n)
{
    size_t take = n > 40 ? 40 : n;
    while (take < n && take > 0 && ((unsigned char)s[take] & 0xC0) == 0x80) take--; /* a whole character */
    textio_escape_n(s, take, out, QUOTE_MAX - 3);
    if (take < n) strcat(out, "...");
}

static bool open_game(Parser *P, int line)
{
    if (P->n >= PDN_MAX_GAMES) {
        P->too_many = line;
        P->oom = true;
        return false;
    }
    if (P->n == P->cap) {
        int cap = P->cap ? P->cap * 2 : 64;
        PdnGame *g = realloc(P->games, (size_t)cap * sizeof *g);
        if (!g) {
            P->oom = true;
            return false;
        }
        P->games = g;
        P->cap = cap;
    }
    PdnGame *g = &P->games[P->n];
    memset(g, 0, sizeof *g);
    g->line = line;
    /* The Game is set up when the movetext starts (the tags may still bring
     * a FEN); until then it is zeroed, which game_free accepts. */
    P->cur = P->n++;
    P->started = false;
    P->skip = false;
    P->movenum = 1;
    return true;
}

static void end_game(Parser *P, const char *token, size_t len, int line);

/* Record the first error of the open game and skip the rest of its moves.
 * An error between games (a stray ')', an unterminated comment) becomes a
 * game of its own, closed at once, so that it is counted and the next game
 * is read as usual. */
static void fail(Parser *P, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(Parser *P, int line, const char *fmt, ...)
{
    bool alone = P->cur < 0;
    if (alone && !open_game(P, line)) return;
    PdnGame *g = &P->games[P->cur];
    P->skip = true;
    if (g->error) return;
    char msg[KM_ERR_MAX + 128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int len = snprintf(NULL, 0, "%s: game %d (line %d): %s", P->where, P->cur + 1, line, msg);
    g->error = malloc((size_t)len + 1);
    if (!g->error) {
        P->oom = true;
        return;
    }
    snprintf(g->error, (size_t)len + 1, "%s: game %d (line %d): %s", P->where, P->cur + 1, line, msg);
    if (alone) end_game(P, NULL, 0, line);
}

/* Set up the open game's Game from its FEN tag (or the initial position). */
static bool start_game(Parser *P, int line)
{
    if (P->cur < 0 && !open_game(P, line)) return false;
    if (P->started) return true;
    PdnGame *g = &P->games[P->cur];
    Board b;
    board_init(&b);
    const char *fen = pdn_tag(g, "FEN");
    if (fen) {
        char err[KM_ERR_MAX];
        if (board_from_fen(&b, fen, err)) {
            fail(P, line, "[FEN]: %s", err);
            board_init(&b);
        }
    }
    if (game_init(&g->game, &b)) {
        P->oom = true;
        return false;
    }
    P->started = true;
    return true;
}

static bool is_result(const char *w, size_t n)
{
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"};
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        if (strlen(results[i]) == n && memcmp(results[i], w, n) == 0) return true;
    return false;
}

/* Close the open game. token: the result that ended it, or NULL. */
static void end_game(Parser *P, const char *token, size_t len, int line)
{
    if (P->cur < 0 && !open_game(P, line)) return;
    if (!start_game(P, line)) return;
    PdnGame *g = &P->games[P->cur];
    if (!token) {
        token = pdn_tag(g, "Result");
        len = token ? strlen(token) : 0;
        if (token && !is_result(token, len)) token = NULL; /* not a result: "*" */
    }
    if (!token) {
        token = "*";
        len = 1;
    }
    if (!(g->result = dup_range(token, len))) {
        P->oom = true;
        return;
    }
    P->cur = -1;
    P->started = false;
    P->skip = false;
}

static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* [Name "value"]; P->p is on '['. One tag per line: a tag not closed on its
 * line is an error and the rest of the line is skipped. */
static void read_tag(Parser *P)
{
    int line = P->line;
    if (P->cur >= 0 && P->started) end_game(P, NULL, 0, line); /* a new tag section: a new game */
    if (P->oom) return;
    if (P->cur < 0 && !open_game(P, line)) return;
    const char *p = P->p + 1, *end = P->end;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    const char *name = p;
    while (p < end && is_name_char(*p)) p++;
    size_t nlen = (size_t)(p - name);
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    char q[QUOTE_MAX];
    if (nlen == 0 || p >= end || *p != '"') {
        const char *e = P->p;
        while (e < end && *e != '\n' && *e != '\r') e++;
        quote(q, P->p, (size_t)(e - P->p));
        fail(P, line, "bad tag '%s': expected [Name \"value\"]", q);
        P->p = e;
        return;
    }
    /* The value ends at the quote followed by ']' (a lone quote inside it,
     * as in "The "Big" match", is kept as text). */
    const char *v = ++p, *close = NULL, *after = NULL;
    for (; p < end && *p != '\n' && *p != '\r'; p++) {
        if (*p == '\\' && p + 1 < end && (p[1] == '"' || p[1] == '\\')) {
            p++;
            continue;
        }
        if (*p == '"') {
            const char *t = p + 1;
            while (t < end && (*t == ' ' || *t == '\t')) t++;
            if (t < end && *t == ']') {
                close = p;
                after = t + 1;
                break;
            }
        }
    }
    if (!close) {
        quote(q, name, nlen);
        fail(P, line, "tag '%s' is not closed: no '\"]' before the end of the line", q);
        P->p = p;
        return;
    }
    PdnGame *g = &P->games[P->cur];
    int nt = g->ntags;
    if (nt == 0 || (nt >= 4 && (nt & (nt - 1)) == 0)) { /* capacity 4, 8, 16... */
        PdnTag *t = realloc(g->tags, (size_t)(nt ? 2 * nt : 4) * sizeof *t);
        if (!t) {
            P->oom = true;
            return;
        }
        g->tags = t;
    }
    char *val = malloc((size_t)(close - v) + 1);
    char *nm = dup_range(name, nlen);
    if (!val || !nm) {
        free(val);
        free(nm);
        P->oom = true;
        return;
    }
    size_t k = 0;
    for (const char *s = v; s < close; s++) {
        if (*s == '\\' && s + 1 < close && (s[1] == '"' || s[1] == '\\')) s++;
        val[k++] = (unsigned char)*s < ' ' ? ' ' : *s; /* a tab or control character: a space, as written */
    }
    val[k] = '\0';
    g->tags[g->ntags].name = nm;
    g->tags[g->ntags].value = val;
    g->ntags++;
    P->p = after;
}

static void newline(Parser *P, const char *p)
{
    /* LF, CRLF and a lone CR each end a line */
    if (*p == '\n' || (*p == '\r' && (p + 1 >= P->end || p[1] != '\n'))) P->line++;
}

/* {comment}; P->p is on '{'. */
static void skip_comment(Parser *P)
{
    int line = P->line;
    const char *p = P->p + 1;
    for (; p < P->end && *p != '}'; p++) newline(P, p);
    if (p >= P->end) {
        fail(P, line, "unterminated comment: '{' without '}' (the rest of the text is inside it)");
        P->p = P->end;
        return;
    }
    P->p = p + 1;
}

/* (variation), nested, with comments inside; P->p is on '('. */
static void skip_variation(Parser *P)
{
    int line = P->line, depth = 0;
    const char *p = P->p;
    for (; p < P->end; p++) {
        newline(P, p);
        if (*p == '(') {
            depth++;
        } else if (*p == ')') {
            if (--depth == 0) break;
        } else if (*p == '{') {
            while (p + 1 < P->end && p[1] != '}') newline(P, ++p);
            if (p + 1 >= P->end) break;
            p++;
        } else if (*p == ';') {
            while (p + 1 < P->end && p[1] != '\n') p++;
        }
    }
    if (p >= P->end || depth != 0) {
        fail(P, line, "unterminated variation: '(' without ')' (the rest of the text is inside it)");
        P->p = P->end;
        return;
    }
    P->p = p + 1;
}

static bool is_delim(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '[' ||
           c == ']' || c == '{' || c == '}' || c == '(' || c == ')' || c == ';' || c == '$';
}

/* Length of the move text at the start of w: squares (numbers or a1-h8)
 * joined by '-', 'x' or ':'. */
static size_t move_prefix(const char *w, size_t n)
{
    size_t i = 0, good = 0;
    for (;;) {
        if (i < n && isdigit((unsigned char)w[i])) {
            while (i < n && isdigit((unsigned char)w[i])) i++;
        } else if (i + 1 < n && strchr("abcdefghABCDEFGH", w[i]) && w[i + 1] >= '1' && w[i + 1] <= '8') {
            i += 2;
        } else {
            return good;
        }
        good = i;
        if (i < n && (w[i] == '-' || w[i] == 'x' || w[i] == 'X' || w[i] == ':')) i++;
        else return good;
    }
}

static void play_word(Parser *P, const char *w, size_t n, int line)
{
    char q[QUOTE_MAX];
    if (!start_game(P, line) || P->skip) return;
    PdnGame *g = &P->games[P->cur];
    size_t k = move_prefix(w, n), s = k;
    while (s < n && (w[s] == '!' || w[s] == '?')) s++; /* annotation: 15-18! */
    /* Text glued to a move ("8-11Redoversteppedthetimecontrol..." in
     * tinsley.pdn, a comment that lost its braces and spaces) is ignored
     * when it starts with a letter; anything else makes the word unreadable. */
    if (k == 0 || (s < n && !isalpha((unsigned char)w[s]))) {
        quote(q, w, n);
        fail(P, line, "'%s' is not a move, move number or result", q);
        return;
    }
    const char *who = g->game.cur.stm == KM_BLACK ? "Black" : "White";
    char text[64];
    if (k >= sizeof text) {
        quote(q, w, k);
        fail(P, line, "move %d (%s): '%s' is too long for a move", P->movenum, who, q);
        return;
    }
    memcpy(text, w, k);
    text[k] = '\0';
    Move m;
    char err[KM_ERR_MAX];
    if (notation_parse_move(&g->game.cur, text, &m, err)) {
        fail(P, line, "move %d (%s): %s", P->movenum, who, err);
        return;
    }
    if (game_play(&g->game, &m)) {
        P->oom = true;
        return;
    }
    if (g->game.cur.stm == KM_BLACK && P->movenum < 1000000) P->movenum++; /* White has moved */
}

/* A control byte (ESC, DEL, ...): no PDN token holds one. */
static bool is_control(char c) { return ((unsigned char)c < 0x20 && !strchr(" \t\n\r\f\v", c)) || c == 0x7F; }

static void read_word(Parser *P)
{
    const char *w = P->p;
    while (P->p < P->end && !is_delim(*P->p)) P->p++;
    /* a control byte makes the word unreadable up to the next blank: the
     * '[' of an escape sequence (ESC [ 3 1 m) is not a tag, a new game */
    bool ctl = false;
    for (const char *c = w; c < P->p && !ctl; c++) ctl = is_control(*c);
    if (ctl)
        while (P->p < P->end && !strchr(" \t\n\r\f\v", *P->p)) P->p++;
    size_t n = (size_t)(P->p - w);
    int line = P->line;
    if (is_result(w, n)) {
        end_game(P, w, n, line);
        return;
    }
    /* move number: "12." or "12..." possibly glued to the move ("1.11-15") */
    size_t i = 0;
    long num = 0;
    while (i < n && isdigit((unsigned char)w[i])) {
        if (num < 1000000) num = num * 10 + (w[i] - '0');
        i++;
    }
    if (i > 0 && i < n && w[i] == '.') {
        while (i < n && w[i] == '.') i++;
        if (!start_game(P, line)) return;
        P->movenum = (int)num;
        w += i;
        n -= i;
        if (n == 0) return;
    }
    size_t a = 0;
    while (a < n && (w[a] == '!' || w[a] == '?' || w[a] == '.')) a++;
    if (a == n) return; /* a lone annotation ("!", "?!") or "..." */
    play_word(P, w, n, line);
}

static int parse(const char *text, size_t len, const char *where, PdnGame **games, int *ngames, char *err)
{
    const char *body = textio_skip_bom(text); /* an editor's byte order mark is not PDN */
    len -= (size_t)(body - text);
    text = body;
    Parser P = {text, text + len, text, where, 1, NULL, 0, 0, -1, false, false, 1, false, 0};
    while (P.p < P.end && !P.oom) {
        char c = *P.p;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            newline(&P, P.p);
            P.p++;
        } else if (c == '%' && (P.p == P.text || P.p[-1] == '\n' || P.p[-1] == '\r')) {
            while (P.p < P.end && *P.p != '\n' && *P.p != '\r') P.p++; /* escape line */
        } else if (c == ';') {
            while (P.p < P.end && *P.p != '\n' && *P.p != '\r') P.p++;
        } else if (c == '[') {
            read_tag(&P);
        } else if (c == '{') {
            skip_comment(&P);
        } else if (c == '(') {
            skip_variation(&P);
        } else if (c == '$') {
            P.p++;
            while (P.p < P.end && isdigit((unsigned char)*P.p)) P.p++; /* NAG */
        } else if (c == ')' || c == ']' || c == '}') {
            fail(&P, P.line, "unexpected '%c'", c);
            P.p++;
        } else {
            read_word(&P);
        }
    }
    if (!P.oom && P.cur >= 0) end_game(&P, NULL, 0, P.line);
    if (P.oom) {
        pdn_free_games(P.games, P.n);
        if (P.too_many)
            return km_fail(err, "%s:%d: more than %d games (split the file)", where, P.too_many,
                           PDN_MAX_GAMES);
        return km_fail(err, "%s: out of memory", where);
    }
    if (P.n == 0) {
        free(P.games);
        return km_fail(err, "%s: no games", where);
    }
    *games = P.games;
    *ngames = P.n;
    return 0;
}

int pdn_parse(const char *text, const char *where, PdnGame **games, int *ngames, char *err)
{
    return parse(text, strlen(text), where, games, ngames, err);
}

/* The whole file, NUL-terminated (*len excludes the NUL); missing_ok: a
 * missing file reads as "". At most PDN_FILE_MAX bytes of text, so that
 * /dev/zero or a runaway file ends with a message instead of all the memory. */
static char *read_all(const char *path, size_t *len, bool missing_ok, char *err)
{
    KmReadOpts opts = {
        .max_bytes = PDN_FILE_MAX,
        .missing_ok = missing_ok,
        .cannot_open = "cannot read",
        .too_large = "too large for a PDN file (more than " PDN_FILE_MAX_TEXT ")",
    };
    return textio_read_text(path, &opts, len, err);
}

int pdn_read_file(const char *path, PdnGame **games, int *ngames, char *err)
{
    size_t len;
    char *text = read_all(path, &len, false, err);
    if (!text) return -1;
    int r = parse(text, len, path, games, ngames, err);
    free(text);
    return r;
}

void pdn_free_games(PdnGame *games, int ngames)
{
    if (!games) return;
    for (int i = 0; i < ngames; i++) {
        PdnGame *g = &games[i];
        for (int t = 0; t < g->ntags; t++) {
            free(g->tags[t].name);
            free(g->tags[t].value);
        }
        free(g->tags);
        game_free(&g->game);
        free(g->result);
        free(g->error);
    }
    free(games);
}

const char *pdn_tag(const PdnGame *pg, const char *name)
{
    for (int i = 0; i < pg->ntags; i++)
        if (strcmp(pg->tags[i].name, name) == 0) return pg->tags[i].value;
    return NULL;
}

/* ---------------------------------------------------------------- writing */

static void write_tag(KmBuf *b, const char *name, const char *value)
{
    textio_buf_str(b, "[");
    for (const char *p = name; *p; p++) textio_buf_add(b, is_name_char(*p) ? p : "_", 1);
    textio_buf_str(b, " \"");
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\') textio_buf_add(b, "\\", 1);
        textio_buf_add(b, (unsigned char)*p < ' ' ? " " : p, 1); /* one tag, one line */
    }
    textio_buf_str(b, "\"]\n");
}

#define PDN_LINE_MAX 79 /* lines stay under 80 columns */

/* Text of a comment: braces would end or nest it, so they become
 * parentheses; control characters become spaces. */
static void comment_words(KmBuf *b, size_t *col, const char *text)
{
    const char *p = text;
    bool first = true;
    while (*p) {
        while (*p && (*p == ' ' || (unsigned char)*p < 32)) p++;
        if (!*p) break;
        size_t n = 0;
        while (p[n] && p[n] != ' ' && (unsigned char)p[n] >= 32) n++;
        if (*col > 0 && *col + 1 + n > PDN_LINE_MAX) {
            textio_buf_str(b, "\n");
            *col = 0;
        } else if (*col > 0 && !first) {
            textio_buf_str(b, " ");
            (*col)++;
        }
        first = false;
        for (size_t k = 0; k < n; k++) {
            char c = p[k] == '{' ? '(' : p[k] == '}' ? ')' : p[k];
            textio_buf_add(b, &c, 1);
        }
        *col += n;
        p += n;
    }
}

/* One unit of movetext: a new line when it would pass the margin. */
static void movetext_unit(KmBuf *b, size_t *col, const char *unit)
{
    size_t len = strlen(unit);
    if (*col > 0 && *col + 1 + len > PDN_LINE_MAX) {
        textio_buf_str(b, "\n");
        *col = 0;
    } else if (*col > 0) {
        textio_buf_str(b, " ");
        (*col)++;
    }
    textio_buf_add(b, unit, len);
    *col += len;
}

static void movetext_comment(KmBuf *b, size_t *col, const char *text)
{
    /* the brace with the first word, so that a line never ends with "{" */
    const char *w = text;
    while (*w && (*w == ' ' || (unsigned char)*w < 32)) w++;
    size_t n = 0;
    while (w[n] && w[n] != ' ' && (unsigned char)w[n] >= 32) n++;
    if (*col > 0 && *col + 2 + n > PDN_LINE_MAX) {
        textio_buf_str(b, "\n");
        *col = 0;
    }
    movetext_unit(b, col, "{");
    comment_words(b, col, text);
    textio_buf_str(b, "}");
    (*col)++;
}

char *pdn_format_game(const Game *g, const PdnTag *tags, int ntags, const char *result)
{
    return pdn_format_notes(g, tags, ntags, result, NULL, NULL);
}

char *pdn_format_notes(const Game *g, const PdnTag *tags, int ntags, const char *result, const char *before,
                       const PdnNote *notes)
{
    KmBuf b = {0};
    if (!result) result = game_result_text(g->result);
    if (!is_result(result, strlen(result))) result = "*"; /* keep the text readable */
    bool has_result = false;
    for (int i = 0; i < ntags; i++) {
        const char *name = tags[i].name ? tags[i].name : "";
        if (!*name || !strcmp(name, "FEN") || !strcmp(name, "SetUp")) continue;
        bool is_res = strcmp(name, "Result") == 0;
        has_result |= is_res;
        write_tag(&b, name, is_res ? result : tags[i].value ? tags[i].value : "");
    }
    if (!has_result) write_tag(&b, "Result", result);
    Board init;
    board_init(&init);
    if (!board_equal(&g->start, &init)) {
        char fen[128];
        board_to_fen(&g->start, fen, sizeof fen);
        write_tag(&b, "FEN", fen);
    }
    /* movetext: "N. black white" units, a new line when the next would pass
     * the margin; after a comment, White's move is numbered again (N...) */
    size_t col = 0;
    int num = 1;
    bool renumber = false;
    if (before && *before) {
        movetext_comment(&b, &col, before);
        renumber = true;
    }
    Board cur = g->start;
    for (int i = 0; i < g->nply; i++) {
        char unit[MOVE_TEXT_MAX + 40], mv[MOVE_TEXT_MAX];
        notation_move_to_text(&g->moves[i], mv);
        const char *mark = notes && notes[i].mark ? notes[i].mark : "";
        if (cur.stm == KM_BLACK) snprintf(unit, sizeof unit, "%d. %s%.4s", num, mv, mark);
        else if (i == 0 || renumber) snprintf(unit, sizeof unit, "%d... %s%.4s", num, mv, mark);
        else snprintf(unit, sizeof unit, "%s%.4s", mv, mark);
        if (cur.stm == KM_WHITE) num++;
        mg_make_move(&cur, &g->moves[i]);
        movetext_unit(&b, &col, unit);
        renumber = false;
        if (notes && notes[i].comment && *notes[i].comment) {
            movetext_comment(&b, &col, notes[i].comment);
            renumber = true;
        }
    }
    movetext_unit(&b, &col, result);
    textio_buf_str(&b, "\n\n");
    return textio_buf_done(&b);
}

int pdn_save_text(const char *path, const char *text, bool append, char *err)
{
    if (!append) return textio_write_atomic(path, text, strlen(text), err);
    size_t oldlen;
    char *old = read_all(path, &oldlen, true, err);
    if (!old) return -1;
    KmBuf b = {0};
    textio_buf_add(&b, old, oldlen);
    /* keep a blank line between the old games and the new */
    if (oldlen && old[oldlen - 1] != '\n') textio_buf_str(&b, "\n\n");
    else if (oldlen && (oldlen < 2 || old[oldlen - 2] != '\n')) textio_buf_str(&b, "\n");
    free(old);
    textio_buf_str(&b, text);
    size_t len = b.len;
    char *all = textio_buf_done(&b);
    if (!all) return km_fail(err, "%s: out of memory", path);
    int r = textio_write_atomic(path, all, len, err);
    free(all);
    return r;
}

int pdn_save_game(const char *path, const Game *g, const PdnTag *tags, int ntags, const char *result,
                  bool append, char *err)
{
    char *text = pdn_format_game(g, tags, ntags, result);
    if (!text) return km_fail(err, "%s: out of memory", path);
    int r = pdn_save_text(path, text, append, err);
    free(text);
    return r;
}
