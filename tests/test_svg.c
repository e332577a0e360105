/* test_svg.c - the pictures (svg.h): a small XML checker written here, and
 * charts and text that must come out well-formed. */
#include "kingme/svg.h"
#include "test.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

/* ---- a well-formedness checker ----------------------------------------------- */

typedef struct Xml {
    const char *p, *start;
    char *why;
    size_t len;
    bool bad;
} Xml;

static bool fail(Xml *x, const char *fmt, ...)
{
    if (x->bad) return false;
    int line = 1;
    for (const char *q = x->start; q < x->p; q++) line += *q == '\n';
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(x->why, x->len, "line %d: %s", line, msg);
    x->bad = true;
    return false;
}

static bool name_start(int c) { return isalpha(c) || c == '_' || c == ':' || c >= 0x80; }
static bool name_char(int c) { return name_start(c) || isdigit(c) || c == '-' || c == '.'; }

static bool read_name(Xml *x, char *out, size_t n)
{
    size_t k = 0;
    if (!name_start((unsigned char)*x->p)) return fail(x, "a name expected at '%.10s'", x->p);
    while (name_char((unsigned char)*x->p)) {
        if (k + 1 < n) out[k++] = *x->p;
        x->p++;
    }
    out[k] = '\0';
    return true;
}

static void skip_space(Xml *x)
{
    while (*x->p == ' ' || *x->p == '\t' || *x->p == '\n' || *x->p == '\r') x->p++;
}

/* An entity after '&': one of the five named ones or a character reference. */
static bool entity(Xml *x)
{
    static const char *const named[] = {"amp;", "lt;", "gt;", "quot;", "apos;"};
    for (int k = 0; k < 5; k++)
        if (strncmp(x->p, named[k], strlen(named[k])) == 0) {
            x->p += strlen(named[k]);
            return true;
        }
    if (*x->p == '#') {
        x->p++;
        bool hex = *x->p == 'x';
        if (hex) x->p++;
        int digits = 0;
        while (hex ? isxdigit((unsigned char)*x->p) : isdigit((unsigned char)*x->p)) x->p++, digits++;
        if (digits && *x->p == ';') {
            x->p++;
            return true;
        }
    }
    return fail(x, "a bad entity '&%.8s'", x->p);
}

/* Character data up to '<' (or the end): entities must be whole. */
static bool chars(Xml *x, char stop)
{
    while (*x->p && *x->p != stop && *x->p != '<') {
        unsigned char c = (unsigned char)*x->p;
        if (c == '&') {
            x->p++;
            if (!entity(x)) return false;
            continue;
        }
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return fail(x, "control character %d", c);
        if (c >= 0x80) {
            int n = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 && c < 0xF0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
            if (!n) return fail(x, "invalid UTF-8");
            unsigned long cp = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
            for (int k = 1; k < n; k++) {
                if (((unsigned char)x->p[k] & 0xC0) != 0x80) return fail(x, "invalid UTF-8");
                cp = cp << 6 | ((unsigned char)x->p[k] & 0x3F);
            }
            /* XML's Char: no overlong form, surrogate, U+FFFE, U+FFFF, nor past U+10FFFF */
            if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)) return fail(x, "an overlong UTF-8 form");
            if (cp >= 0xD800 && cp <= 0xDFFF) return fail(x, "a surrogate (U+%04lX)", cp);
            if (cp == 0xFFFE || cp == 0xFFFF || cp > 0x10FFFF)
                return fail(x, "not an XML character (U+%04lX)", cp);
            x->p += n;
            continue;
        }
        x->p++;
    }
    return true;
}

static bool comment(Xml *x)
{
    const char *end = strstr(x->p + 4, "--");
    if (!end || end[2] != '>') return fail(x, "a comment not closed by -->");
    x->p = end + 3;
    return true;
}

static bool element(Xml *x, int depth, char *root_name, size_t rn)
{
    if (depth > 200) return fail(x, "nested too deep");
    char name[64];
    x->p++; /* '<' */
    if (!read_name(x, name, sizeof name)) return false;
    if (depth == 0) snprintf(root_name, rn, "%s", name);
    char attrs[32][64];
    int na = 0;
    for (;;) {
        bool space = *x->p == ' ' || *x->p == '\t' || *x->p == '\n' || *x->p == '\r';
        skip_space(x);
        if (*x->p == '/') {
            if (x->p[1] != '>') return fail(x, "'/' not followed by '>'");
            x->p += 2;
            return true;
        }
        if (*x->p == '>') {
            x->p++;
            break;
        }
        if (!space) return fail(x, "attributes must be separated by space in <%s>", name);
        char an[64];
        if (!read_name(x, an, sizeof an)) return false;
        for (int k = 0; k < na; k++)
            if (strcmp(attrs[k], an) == 0) return fail(x, "attribute %s twice in <%s>", an, name);
        if (na < 32) snprintf(attrs[na++], sizeof attrs[0], "%s", an);
        skip_space(x);
        if (*x->p != '=') return fail(x, "'=' expected after %s", an);
        x->p++;
        skip_space(x);
        char q = *x->p;
        if (q != '"' && q != '\'') return fail(x, "attribute %s not quoted", an);
        x->p++;
        if (!chars(x, q)) return false;
        if (*x->p != q) return fail(x, "'<' in the value of %s", an);
        x->p++;
    }
    /* content */
    for (;;) {
        if (!chars(x, '\0')) return false;
        if (!*x->p) return fail(x, "<%s> not closed", name);
        if (strncmp(x->p, "<!--", 4) == 0) {
            if (!comment(x)) return false;
        } else if (x->p[1] == '/') {
            x->p += 2;
            char close[64];
            if (!read_name(x, close, sizeof close)) return false;
            if (strcmp(close, name)) return fail(x, "</%s> closes <%s>", close, name);
            skip_space(x);
            if (*x->p != '>') return fail(x, "'>' expected after </%s", close);
            x->p++;
            return true;
        } else if (!element(x, depth + 1, root_name, rn)) {
            return false;
        }
    }
}

bool test_xml_well_formed(const char *text, const char *root, char *why, size_t len)
{
    Xml x = {text, text, why, len, false};
    snprintf(why, len, "ok");
    if (strncmp(x.p, "<?xml", 5) == 0) {
        const char *e = strstr(x.p, "?>");
        if (!e) return fail(&x, "the declaration is not closed");
        x.p = e + 2;
    }
    char root_name[64] = "";
    bool seen = false;
    for (;;) {
        skip_space(&x);
        if (!*x.p) break;
        if (strncmp(x.p, "<!--", 4) == 0) {
            if (!comment(&x)) return false;
            continue;
        }
        if (*x.p != '<') return fail(&x, "text outside the root element");
        if (seen) return fail(&x, "a second root element");
        if (!element(&x, 0, root_name, sizeof root_name)) return false;
        seen = true;
    }
    if (!seen) return fail(&x, "no element");
    if (root && strcmp(root_name, root)) return fail(&x, "the root is <%s>, not <%s>", root_name, root);
    return true;
}

/* ---- the checker itself ------------------------------------------------------- */

TEST(svg_checker_tells_good_from_bad)
{
    char why[256];
    CHECK(test_xml_well_formed("<svg a=\"1\" b='2'><g/><text>x &amp; y &#60;</text></svg>", "svg", why,
                               sizeof why));
    CHECK(test_xml_well_formed("<?xml version=\"1.0\"?>\n<!-- c --><svg/>\n", "svg", why, sizeof why));
    static const char *const bad[] = {
        "<svg><g></svg>",         /* g not closed */
        "<svg a=1/>",             /* unquoted */
        "<svg a=\"1\" a=\"2\"/>", /* twice */
        "<svg>a & b</svg>",       /* bare & */
        "<svg a=\"<\"/>",         /* < in a value */
        "<svg/><svg/>",           /* two roots */
        "<svg><!-- x </svg>",     /* open comment */
        "<svg>\x01</svg>",        /* control character */
        "<svg>\xff</svg>",        /* not UTF-8 */
        "<svg a=\"1\"b=\"2\"/>",  /* no space */
        "",
        "<g/>", /* wrong root */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        CHECK_MSG(!test_xml_well_formed(bad[k], "svg", why, sizeof why), "accepted bad case %zu", k);
}

/* ---- the pictures -------------------------------------------------------------- */

TEST(svg_escape_makes_any_text_safe)
{
    KmBuf b = {0};
    textio_buf_str(&b, "<svg><text>");
    svg_escape(&b, "a<b & \"c\" 'd' >e \x01\x02 caf\xc3\xa9 \xff\xfe \xe2\x82");
    textio_buf_str(&b, "</text></svg>");
    char *s = textio_buf_done(&b);
    char why[256];
    CHECK_MSG(test_xml_well_formed(s, "svg", why, sizeof why), "%s: %s", why, s);
    CHECK(strstr(s, "caf\xc3\xa9") != NULL); /* valid UTF-8 is kept */
    CHECK(strstr(s, "&lt;b &amp; &quot;c&quot;") != NULL);
    free(s);
    /* what XML refuses though the bytes look like UTF-8 (a PDN player's
     * name, a weights file's name): each byte as \xHH, as on a terminal */
    static const char *const bad[][2] = {
        {"s\xED\xA0\x80"
         "e",
         "s\\xED\\xA0\\x80e"}, /* a surrogate, U+D800 */
        {"o\xE0\x80\xAF"
         "e",
         "o\\xE0\\x80\\xAFe"},                                              /* an overlong '/' */
        {"\xF4\x90\x80\x80", "\\xF4\\x90\\x80\\x80"},                       /* past U+10FFFF */
        {"f\xEF\xBF\xBF", "f\\xEF\\xBF\\xBF"},                              /* U+FFFF */
        {"\x7F\x1B[31m", "\\x7F\\x1B[31m"},                                 /* DEL, ESC */
        {"\xE2\x99\x9B \xF0\x9F\x98\x80", "\xE2\x99\x9B \xF0\x9F\x98\x80"}, /* kept */
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        KmBuf e = {0};
        textio_buf_str(&e, "<svg><text>");
        svg_escape(&e, bad[k][0]);
        textio_buf_str(&e, "</text></svg>");
        char *t = textio_buf_done(&e);
        CHECK_MSG(t && test_xml_well_formed(t, "svg", why, sizeof why), "case %zu: %s", k, why);
        CHECK_MSG(t && strncmp(t + 11, bad[k][1], strlen(bad[k][1])) == 0 &&
                      strcmp(t + 11 + strlen(bad[k][1]), "</text></svg>") == 0,
                  "case %zu: %s", k, t ? t : "");
        free(t);
    }
}

TEST(svg_chart_is_well_formed_with_gaps_bands_and_marks)
{
    double x[6] = {0, 1, 2, 3, 4, 5}, y[6] = {0.5, NAN, -1, 2, 40, -0.25};
    double lo[6] = {0, NAN, -2, 1, 30, -1}, hi[6] = {1, NAN, 0, 3, 50, 0.5};
    const char *mark[6] = {NULL, NULL, "??", "?", "", "<&>"};
    SvgSeries s[2] = {
        {"a & b", NULL, 6, x, y, lo, hi, mark, true, false, false},
        {"steps", "#000000", 6, x, y, NULL, NULL, NULL, false, true, false},
    };
    double h[2] = {1, -1};
    const char *hl[2] = {"+1 \"man\"", NULL};
    SvgChart c = {"title <1>", "x", "y", 0, 0, -3, 3, true, 2, s, 2, h, hl};
    KmBuf b = {0};
    svg_open(&b, 640, 400, "a <test> & more");
    svg_chart(&b, &c, 0, 0, 640, 200);
    c.y0 = c.y1 = 0; /* ranges from the data */
    c.nhline = 0;
    svg_chart(&b, &c, 0, 200, 640, 200);
    svg_close(&b);
    char *t = textio_buf_done(&b);
    char why[256];
    CHECK_MSG(test_xml_well_formed(t, "svg", why, sizeof why), "%s", why);
    CHECK(strstr(t, "<polygon") != NULL); /* the bands */
    CHECK(strstr(t, " H") != NULL);       /* the staircase */
    CHECK(strstr(t, ">?\?</text>") != NULL);
    /* two charts, two distinct clip paths */
    const char *c1 = strstr(t, "<clipPath id=\""), *c2 = c1 ? strstr(c1 + 1, "<clipPath id=\"") : NULL;
    CHECK(c1 && c2 && strncmp(c1, c2, 24) != 0);
    free(t);
}

TEST(svg_tick_steps_are_round)
{
    CHECK(fabs(svg_tick_step(0, 10, 5) - 2) < 1e-12);
    CHECK(fabs(svg_tick_step(-300, 300, 6) - 100) < 1e-12);
    CHECK(fabs(svg_tick_step(0, 0.7, 7) - 0.1) < 1e-12);
    CHECK(fabs(svg_tick_step(0, 1000, 8) - 100) < 1e-9);
}
