/* search_params.c - the search's and the time manager's parameters: the
 * list's table, defaults, checks and parameters files (search_params.h). */
#include "kingme/search_params.h"
#include "kingme/base.h"
#include "kingme/textio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEARCH_PARAM_KIND_(kind) SEARCH_PARAM_##kind

const SearchParamInfo search_params_info[SEARCH_NPARAMS] = {
#define SEARCH_PARAM_INFO_(field, kind, def, lo, hi, measured, help) \
    {#field, SEARCH_PARAM_KIND_(kind), def, lo, hi, measured, help},
    SEARCH_PARAM_LIST(SEARCH_PARAM_INFO_)
#undef SEARCH_PARAM_INFO_
};

const SearchParams search_params_defaults = {
#define SEARCH_PARAM_DEFAULT_(field, kind, def, ...) .field = def,
    SEARCH_PARAM_LIST(SEARCH_PARAM_DEFAULT_)
#undef SEARCH_PARAM_DEFAULT_
};

void search_params_default(SearchParams *p) { *p = search_params_defaults; }

double search_params_get(const SearchParams *p, int i)
{
    switch (i) {
#define SEARCH_PARAM_GET_(field, ...) \
    case SP_##field:                  \
        return (double)p->field;
        SEARCH_PARAM_LIST(SEARCH_PARAM_GET_)
#undef SEARCH_PARAM_GET_
    }
    return 0;
}

#define SEARCH_PARAM_FROM_INT(v) ((int)lround(v))
#define SEARCH_PARAM_FROM_REAL(v) (v)

void search_params_set(SearchParams *p, int i, double v)
{
    switch (i) {
#define SEARCH_PARAM_SET_(field, kind, ...)     \
    case SP_##field:                            \
        p->field = SEARCH_PARAM_FROM_##kind(v); \
        break;
        SEARCH_PARAM_LIST(SEARCH_PARAM_SET_)
#undef SEARCH_PARAM_SET_
    }
}

int search_params_find(const char *name)
{
    for (int i = 0; i < SEARCH_NPARAMS; i++)
        if (strcmp(search_params_info[i].name, name) == 0) return i;
    return -1;
}

void search_params_value_text(int i, double v, char *buf, size_t len)
{
    if (search_params_info[i].kind == SEARCH_PARAM_INT) {
        snprintf(buf, len, "%ld", lround(v));
        return;
    }
    /* as few digits as read back the same */
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v && !strchr(buf, 'e')) return;
    }
    snprintf(buf, len, "%.17g", v);
}

void search_params_text(const SearchParams *p, int i, char *buf, size_t len)
{
    search_params_value_text(i, search_params_get(p, i), buf, len);
}

/* value as parameter i's: false with a message when it is not one. */
static bool parse_value(int i, const char *value, double *out, char *err)
{
    const SearchParamInfo *in = &search_params_info[i];
    char lo[32], hi[32];
    search_params_value_text(i, in->lo, lo, sizeof lo);
    search_params_value_text(i, in->hi, hi, sizeof hi);
    if (in->kind == SEARCH_PARAM_INT) {
        long long v;
        if (!textio_parse_ll(value, (long long)in->lo, (long long)in->hi, &v)) {
            if (in->lo == 0 && in->hi == 1)
                km_fail(err, "%s '%.40s' is not 0 (off) or 1 (on)", in->name, value);
            else km_fail(err, "%s '%.40s' is not a whole number from %s to %s", in->name, value, lo, hi);
            return false;
        }
        *out = (double)v;
        return true;
    }
    char *end;
    double v = value[0] ? strtod(value, &end) : 0;
    if (!value[0] || *end || !isfinite(v) || v < in->lo || v > in->hi) {
        km_fail(err, "%s '%.40s' is not a number from %s to %s", in->name, value, lo, hi);
        return false;
    }
    *out = v;
    return true;
}

int search_params_set_text(SearchParams *p, const char *name, const char *value, char *err)
{
    int i = search_params_find(name);
    if (i < 0)
        return km_fail(err, "unknown search parameter '%.60s' (kingme show --search lists them)", name);
    double v;
    if (!parse_value(i, value, &v, err)) return -1;
    search_params_set(p, i, v);
    return 0;
}

int search_params_assign(SearchParams *p, const char *assignment, char *err)
{
    const char *eq = strchr(assignment, '=');
    if (!eq) return km_fail(err, "'%.60s' is not NAME=VALUE", assignment);
    char name[64];
    size_t n = (size_t)(eq - assignment);
    if (n >= sizeof name) n = sizeof name - 1;
    memcpy(name, assignment, n);
    name[n] = 0;
    return search_params_set_text(p, name, eq + 1, err);
}

bool search_params_equal(const SearchParams *a, const SearchParams *b)
{
    for (int i = 0; i < SEARCH_NPARAMS; i++)
        if (search_params_get(a, i) != search_params_get(b, i)) return false;
    return true;
}

bool search_params_are_default(const SearchParams *p)
{
    return search_params_equal(p, &search_params_defaults);
}

/* ---- parameters files ------------------------------------------------------- */

int search_params_parse(SearchParams *p, const char *text, const char *where, char *err)
{
    SearchParams q = search_params_defaults;
    bool seen[SEARCH_NPARAMS] = {false};
    bool magic = false;
    int line = 0;
    text = textio_skip_bom(text);
    for (const char *s = text; *s;) {
        const char *eol = strchr(s, '\n');
        size_t n = eol ? (size_t)(eol - s) : strlen(s);
        line++;
        char buf[256];
        if (n >= sizeof buf) return km_fail(err, "%s:%d: line too long", where, line);
        memcpy(buf, s, n);
        buf[n] = 0;
        s = eol ? eol + 1 : s + n;
        char *hash = strchr(buf, '#');
        if (hash) *hash = 0;
        char *tok[3];
        int k = textio_split(buf, tok, 2);
        if (k == 0) continue;
        if (!magic) {
            long long v;
            if (strcmp(tok[0], SEARCH_PARAMS_MAGIC) != 0 || k != 2 ||
                !textio_parse_ll(tok[1], 1, 1000000, &v))
                return km_fail(err, "%s:%d: not a search parameters file (no '%s %d' line first)", where,
                               line, SEARCH_PARAMS_MAGIC, SEARCH_PARAMS_VERSION);
            if (v > SEARCH_PARAMS_VERSION)
                return km_fail(err, "%s:%d: format %lld is newer than this kingme reads (%d)", where, line, v,
                               SEARCH_PARAMS_VERSION);
            magic = true;
            continue;
        }
        int i = search_params_find(tok[0]);
        if (i < 0) return km_fail(err, "%s:%d: unknown search parameter '%.60s'", where, line, tok[0]);
        if (k != 2) return km_fail(err, "%s:%d: %s: one value expected", where, line, tok[0]);
        if (seen[i]) return km_fail(err, "%s:%d: %s given twice", where, line, tok[0]);
        seen[i] = true;
        double v;
        char e2[KM_ERR_MAX];
        if (!parse_value(i, tok[1], &v, e2)) return km_fail(err, "%s:%d: %s", where, line, e2);
        search_params_set(&q, i, v);
    }
    if (!magic) return km_fail(err, "%s: empty, not a search parameters file", where);
    *p = q;
    return 0;
}

int search_params_read(SearchParams *p, const char *path, char *err)
{
    KmReadOpts opts = {
        .max_bytes = 1 << 20,
        .too_large = "too large for a search parameters file",
        .nul_byte = "not a text file (contains a NUL byte)",
    };
    char *text = textio_read_text(path, &opts, NULL, err);
    if (!text) return -1;
    int rc = search_params_parse(p, text, path, err);
    free(text);
    return rc;
}

char *search_params_format(const SearchParams *p, const char *header)
{
    KmBuf b = {0};
    textio_buf_printf(&b, "%s %d\n", SEARCH_PARAMS_MAGIC, SEARCH_PARAMS_VERSION);
    textio_buf_lines(&b, header, "# ");
    for (int i = 0; i < SEARCH_NPARAMS; i++) {
        char v[40], d[40];
        search_params_text(p, i, v, sizeof v);
        search_params_value_text(i, search_params_info[i].def, d, sizeof d);
        if (strcmp(v, d) == 0) textio_buf_printf(&b, "%-22s %s\n", search_params_info[i].name, v);
        else textio_buf_printf(&b, "%-22s %-8s # default %s\n", search_params_info[i].name, v, d);
    }
    return textio_buf_done(&b);
}

int search_params_write(const SearchParams *p, const char *header, const char *path, char *err)
{
    char *t = search_params_format(p, header);
    if (!t) return km_fail(err, "%s: out of memory", path);
    int rc = textio_write_atomic(path, t, strlen(t), err);
    free(t);
    return rc;
}
