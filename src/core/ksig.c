/* ember core: kernel signatures read from CUDA C source (see ksig.h).
 *
 * Three passes over blanked copies of the source: one collects the names
 * that can stand for types (tags, typedefs, `using`, #defines, -D), one
 * finds the __global__ declarations and splits their parameter lists, and
 * the last gives each parameter a kind and checks that the declarations of
 * one name agree. Everything it is unsure of ends as "unknown", which the
 * caller treats as "no checks", never as a guess.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/ksig.h"

#define KSIG_ALIAS_DEPTH 8   /* typedef of a typedef of ...: enough, and no loops */

/* ---- characters and words ---------------------------------------------- */

int em_ksig_is_ident(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

static int is_blank(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

size_t em_ksig_skip_space(const char *s, size_t i, size_t n)
{
    while (i < n && is_blank(s[i]))
        i++;
    return i;
}

int em_ksig_word_at(const char *s, size_t i, size_t n, const char *w)
{
    size_t k = strlen(w);
    return i + k <= n && !memcmp(s + i, w, k) &&
           (i + k == n || !em_ksig_is_ident(s[i + k])) &&
           (i == 0 || !em_ksig_is_ident(s[i - 1]));
}

static int word_is(const char *w, size_t len, const char *lit)
{
    return strlen(lit) == len && !memcmp(w, lit, len);
}

static int word_in(const char *w, size_t len, const char *const *list)
{
    for (; *list; list++)
        if (word_is(w, len, *list))
            return 1;
    return 0;
}

/* The index of the bracket closing the one at s[open], or n. */
static size_t match_close(const char *s, size_t open, size_t n)
{
    char o = s[open], c = o == '(' ? ')' : o == '[' ? ']' : o == '{' ? '}' : '>';
    int d = 0;
    for (size_t i = open; i < n; i++) {
        if (s[i] == o)
            d++;
        else if (s[i] == c && --d == 0)
            return i;
    }
    return n;
}

/* A copy of s[a, b) with runs of blanks made one space and the ends
 * trimmed. */
static char *squeeze(const char *s, size_t a, size_t b)
{
    char *out = malloc(b - a + 1);
    size_t k = 0;
    int space = 0;
    if (!out)
        return NULL;
    for (size_t i = a; i < b; i++) {
        if (is_blank(s[i])) {
            space = k > 0;
            continue;
        }
        if (space)
            out[k++] = ' ';
        space = 0;
        out[k++] = s[i];
    }
    out[k] = 0;
    return out;
}

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *format(const char *fmt, ...)
{
    va_list ap;
    char *p;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !(p = malloc((size_t)n + 1)))
        return NULL;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* ---- blanking ------------------------------------------------------------ */

void em_ksig_blank(const char *src, size_t n, char *out, int keep_directives)
{
    enum { NORMAL, LINE_COMMENT, BLOCK_COMMENT, STRING, CHAR } st = NORMAL;
    int at_line_start = 1, in_directive = 0;
    size_t opened = 0;

    memcpy(out, src, n);
    for (size_t i = 0; i < n; i++) {
        char c = src[i];
        /* A newline that ends a line (not one escaped by a backslash)
         * ends a directive too. */
        int line_end = c == '\n' && !(i > 0 && src[i - 1] == '\\');
        switch (st) {
        case LINE_COMMENT:
            if (line_end) {
                st = NORMAL;
                in_directive = 0;
                at_line_start = 1;
            } else if (c != '\n') {
                out[i] = ' ';
            }
            break;
        case BLOCK_COMMENT:
            /* i >= opened + 3: the '*' of the opening does not close it */
            if (c == '/' && src[i - 1] == '*' && i >= opened + 3)
                st = NORMAL;
            if (c != '\n')
                out[i] = ' ';
            break;
        case STRING:
        case CHAR:
            if (c == '\\' && i + 1 < n) {
                out[i] = ' ';
                if (src[i + 1] != '\n')
                    out[i + 1] = ' ';
                i++;
            } else if (c == '\n') {
                /* An unterminated literal ends with its line (an apostrophe
                 * in an #error text, in #if 0 prose), and so does the
                 * directive it is in. */
                st = NORMAL;
                in_directive = 0;
                at_line_start = 1;
            } else {
                if (c == (st == STRING ? '"' : '\''))
                    st = NORMAL;
                out[i] = ' ';
            }
            break;
        case NORMAL:
            if (c == '\n') {
                if (line_end)
                    in_directive = 0;
                at_line_start = 1;
                break;
            }
            if (c == '#' && at_line_start)
                in_directive = 1;
            if (c == '/' && i + 1 < n && src[i + 1] == '/') {
                st = LINE_COMMENT;
                out[i] = ' ';
                break;
            }
            if (c == '/' && i + 1 < n && src[i + 1] == '*') {
                st = BLOCK_COMMENT;
                opened = i;
                out[i] = ' ';
                break;
            }
            if (c == '"' || c == '\'') {
                st = c == '"' ? STRING : CHAR;
                out[i] = ' ';
                break;
            }
            if (c != ' ' && c != '\t' && c != '\r')
                at_line_start = 0;
            break;
        }
        if (in_directive && !keep_directives && out[i] != '\n')
            out[i] = ' ';
    }
}

/* ---- names that stand for types ------------------------------------------- */

/* name -> type text; a name given two different texts (a typedef under
 * #if and another under #else) resolves to nothing. */
typedef struct alias {
    char *name;
    char *text;
    int conflict;
} alias;

typedef struct aliases {
    alias *v;
    int n, cap;
    int oom;
} aliases;

static void aliases_free(aliases *a)
{
    for (int i = 0; i < a->n; i++) {
        free(a->v[i].name);
        free(a->v[i].text);
    }
    free(a->v);
}

static const alias *alias_find(const aliases *a, const char *w, size_t len)
{
    for (int i = 0; i < a->n; i++)
        if (word_is(w, len, a->v[i].name))
            return &a->v[i];
    return NULL;
}

/* Add name -> text (text is taken: malloc'd, or NULL on a failed
 * allocation). */
static void alias_add(aliases *a, const char *name, size_t len, char *text)
{
    alias *e;
    if (!text) {
        a->oom = 1;
        return;
    }
    for (int i = 0; i < a->n; i++) {
        e = &a->v[i];
        if (strlen(e->name) == len && !memcmp(e->name, name, len)) {
            if (strcmp(e->text, text))
                e->conflict = 1;
            free(text);
            return;
        }
    }
    if (a->n == a->cap) {
        int cap = a->cap ? 2 * a->cap : 16;
        alias *v = realloc(a->v, (size_t)cap * sizeof *v);
        if (!v) {
            free(text);
            a->oom = 1;
            return;
        }
        a->v = v;
        a->cap = cap;
    }
    e = &a->v[a->n];
    e->name = malloc(len + 1);
    if (!e->name) {
        free(text);
        a->oom = 1;
        return;
    }
    memcpy(e->name, name, len);
    e->name[len] = 0;
    e->text = text;
    e->conflict = 0;
    a->n++;
}

/* `NAME=TEXT` or `NAME` (which is 1, no type) of a -D option. */
static void alias_define(aliases *a, const char *def)
{
    size_t len = 0;
    while (em_ksig_is_ident(def[len]))
        len++;
    if (!len || is_digit(def[0]))
        return;
    if (def[len] == '=')
        alias_add(a, def, len, squeeze(def, len + 1, len + 1 + strlen(def + len + 1)));
    else if (!def[len])
        alias_add(a, def, len, format("1"));
}

static void collect_options(aliases *a, const char *const *options, int n)
{
    for (int i = 0; i < n; i++) {
        const char *o = options[i];
        if (!o)
            continue;
        if (!strcmp(o, "-D") || !strcmp(o, "--define-macro")) {
            if (i + 1 < n && options[i + 1])
                alias_define(a, options[++i]);
        } else if (!strncmp(o, "-D", 2)) {
            alias_define(a, o + 2);
        } else if (!strncmp(o, "--define-macro=", 15)) {
            alias_define(a, o + 15);
        }
    }
}

/* Object-like #defines: `text` keeps directives (with comments blanked),
 * `scan` has them blanked, so a '#' in one and not the other starts a real
 * directive. */
static void collect_defines(aliases *a, const char *text, const char *scan, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t p = i, e, nb, ne;
        /* the end of this logical line */
        for (e = i; e < n && !(text[e] == '\n' && !(e > 0 && text[e - 1] == '\\')); e++)
            ;
        i = e + 1;
        while (p < e && (text[p] == ' ' || text[p] == '\t'))
            p++;
        if (p >= e || text[p] != '#' || scan[p] == '#')
            continue;
        p = em_ksig_skip_space(text, p + 1, e);
        if (!em_ksig_word_at(text, p, e, "define"))
            continue;
        nb = p = em_ksig_skip_space(text, p + 6, e);
        while (p < e && em_ksig_is_ident(text[p]))
            p++;
        ne = p;
        if (ne == nb || is_digit(text[nb]) || (p < e && text[p] == '('))
            continue;   /* function-like macros are not types */
        {
            char *body = squeeze(text, p, e), *q;
            /* Line continuations are blanks here. */
            if (body)
                for (q = body; *q; q++)
                    if (*q == '\\')
                        *q = ' ';
            alias_add(a, text + nb, ne - nb, body);
        }
    }
}

/* Tags defined or declared in the source (`struct S {`, `enum class E :`,
 * `struct S;`), so that C++'s `S s` reads as `struct S s`. */
static void collect_tags(aliases *a, const char *scan, size_t n)
{
    static const char *const keys[] = {"struct", "union", "class", "enum"};
    for (size_t i = 0; i < n; i++) {
        size_t k, j, nb, ne;
        if (!em_ksig_is_ident(scan[i]) || (i > 0 && em_ksig_is_ident(scan[i - 1])))
            continue;
        for (k = 0; k < 4; k++)
            if (em_ksig_word_at(scan, i, n, keys[k]))
                break;
        if (k == 4) {
            while (i + 1 < n && em_ksig_is_ident(scan[i + 1]))
                i++;
            continue;
        }
        j = em_ksig_skip_space(scan, i + strlen(keys[k]), n);
        if (k == 3 && (em_ksig_word_at(scan, j, n, "class") ||
                       em_ksig_word_at(scan, j, n, "struct")))
            j = em_ksig_skip_space(scan, j + (scan[j] == 'c' ? 5 : 6), n);
        nb = j;
        while (j < n && em_ksig_is_ident(scan[j]))
            j++;
        ne = j;
        i = j > i ? j - 1 : i;
        if (ne == nb || is_digit(scan[nb]))
            continue;
        j = em_ksig_skip_space(scan, ne, n);
        if (j < n && (scan[j] == '{' || scan[j] == ';' || scan[j] == ':' ||
                      em_ksig_word_at(scan, j, n, "final")))
            alias_add(a, scan + nb, ne - nb,
                      format("%s %.*s", k == 3 ? "enum" : "struct", (int)(ne - nb),
                             scan + nb));
    }
}

/* The end of a declaration starting at i: its ';' at bracket depth 0, or
 * n. *body_open and *body_close: its first {...} at depth 0, if any. */
static size_t decl_end(const char *s, size_t i, size_t n, size_t *body_open,
                       size_t *body_close)
{
    int d = 0;
    *body_open = *body_close = n;
    for (; i < n; i++) {
        char c = s[i];
        if (c == '{' && d == 0 && *body_open == n)
            *body_open = i;
        if (c == '(' || c == '[' || c == '{') {
            d++;
        } else if (c == ')' || c == ']' || c == '}') {
            if (--d < 0)
                return n;   /* left the enclosing scope: not a declaration */
            if (c == '}' && d == 0 && *body_close == n && *body_open != n)
                *body_close = i;
        } else if (c == ';' && d == 0) {
            return i;
        }
    }
    return n;
}

/* typedef T NAME; typedef struct {...} NAME; using NAME = T; Several
 * declarators or a function type are skipped (their names stay
 * unresolved). */
static void collect_typedefs(aliases *a, const char *scan, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t semi, bo, bc, e, s, j;
        if (em_ksig_word_at(scan, i, n, "using")) {
            size_t nb, ne;
            j = em_ksig_skip_space(scan, i + 5, n);
            nb = j;
            while (j < n && em_ksig_is_ident(scan[j]))
                j++;
            ne = j;
            j = em_ksig_skip_space(scan, j, n);
            if (ne == nb || j >= n || scan[j] != '=' ||
                em_ksig_word_at(scan, nb, n, "namespace"))
                continue;
            semi = decl_end(scan, j + 1, n, &bo, &bc);
            if (semi < n && bo == n)
                alias_add(a, scan + nb, ne - nb, squeeze(scan, j + 1, semi));
            i = j;
            continue;
        }
        if (!em_ksig_word_at(scan, i, n, "typedef"))
            continue;
        j = i + 7;
        semi = decl_end(scan, j, n, &bo, &bc);
        if (semi == n)
            continue;
        /* The declarator part: after the body, if there is one. */
        s = bo != n ? (bc == n ? semi : bc + 1) : j;
        for (size_t k = s; k < semi; k++)
            if (scan[k] == ',' || scan[k] == '(' || scan[k] == ')') {
                s = semi;   /* several declarators, or a function type */
                break;
            }
        e = semi;
        while (e > s && is_blank(scan[e - 1]))
            e--;
        {
            int array = 0;
            size_t nb;
            char *head, *mid;
            if (e > s && scan[e - 1] == ']') {
                while (e > s && scan[e - 1] != '[')
                    e--;
                if (e > s)
                    e--;
                while (e > s && is_blank(scan[e - 1]))
                    e--;
                array = 1;
            }
            nb = e;
            while (nb > s && em_ksig_is_ident(scan[nb - 1]))
                nb--;
            if (nb == e || is_digit(scan[nb]) || e == s) {
                i = semi;
                continue;
            }
            /* T is the text before the name; with a body, the words before
             * it ("struct S", "enum") and any '*' after it. */
            head = bo != n ? squeeze(scan, j, bo) : squeeze(scan, j, nb);
            mid = bo != n ? squeeze(scan, bc + 1, nb) : format("%s", "");
            if (head && mid)
                alias_add(a, scan + nb, e - nb,
                          format("%s%s%s%s", head, *mid ? " " : "", mid,
                                 array ? " *" : ""));
            else
                a->oom = 1;
            free(head);
            free(mid);
        }
        i = semi;
    }
}

/* ---- kinds ------------------------------------------------------------------ */

static const char *const qualifiers[] = {
    "const", "volatile", "restrict", "__restrict__", "__restrict", "register",
    "typename", "__grid_constant__", "static", NULL,
};

/* Words after which a parenthesised argument follows. */
static const char *const attributes[] = {
    "__align__", "__attribute__", "alignas", "_Alignas", "__declspec", NULL,
};

/* The built-in type words: a declaration's last word that is one of these
 * is its type, not its name. */
static const char *const type_words[] = {
    "void", "char", "short", "int", "long", "float", "double", "signed",
    "unsigned", "bool", "_Bool", NULL,
};

/* int8_t .. uint64_t, intptr_t, intmax_t, int_fast16_t, int_least32_t ... */
static em_param_kind stdint_kind(const char *w, size_t len)
{
    static const char *const mids[] = {
        "8", "16", "32", "64", "ptr", "max", "_fast8", "_fast16", "_fast32",
        "_fast64", "_least8", "_least16", "_least32", "_least64", NULL,
    };
    int u = len > 0 && w[0] == 'u';
    const char *p = w + u;
    size_t l = len - (size_t)u;
    if (l < 6 || memcmp(p, "int", 3) || memcmp(p + l - 2, "_t", 2))
        return EM_PARAM_UNKNOWN;
    if (!word_in(p + 3, l - 5, mids))
        return EM_PARAM_UNKNOWN;
    return u ? EM_PARAM_UINT : EM_PARAM_INT;
}

static em_param_kind named_kind(const char *w, size_t len)
{
    static const char *const ints[] = {"ptrdiff_t", "ssize_t", NULL};
    static const char *const uints[] = {
        "size_t", "uint", "ushort", "ulong", "uchar", "cudaTextureObject_t",
        "cudaSurfaceObject_t", NULL,
    };
    /* IEEE half only: a bfloat16 (a struct in CUDA's headers) is OTHER,
     * so nothing packs a float into it as if it were half. */
    static const char *const floats[] = {"half", "__half", NULL};
    em_param_kind k = stdint_kind(w, len);
    if (k != EM_PARAM_UNKNOWN)
        return k;
    if (word_in(w, len, ints))
        return EM_PARAM_INT;
    if (word_in(w, len, uints))
        return EM_PARAM_UINT;
    if (word_in(w, len, floats))
        return EM_PARAM_FLOAT;
    return EM_PARAM_UNKNOWN;
}

/* CUDA's structs passed by value: float4, uint2, double4_32a, __half2 ... */
static int is_cuda_struct(const char *w, size_t len)
{
    static const char *const bases[] = {
        "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
        "longlong", "ulonglong", "float", "double", NULL,
    };
    static const char *const named[] = {
        "dim3", "half2", "__half2", "__nv_bfloat16", "nv_bfloat16",
        "__nv_bfloat162", "nv_bfloat162",
        "__half_raw", "__half2_raw", "__nv_bfloat16_raw", "__nv_bfloat162_raw",
        "cuComplex", "cuFloatComplex", "cuDoubleComplex", "CUtensorMap", NULL,
    };
    for (const char *const *b = bases; *b; b++) {
        size_t bl = strlen(*b);
        if (len > bl && !memcmp(w, *b, bl) && w[bl] >= '1' && w[bl] <= '4' &&
            (len == bl + 1 || w[bl + 1] == '_'))
            return 1;
    }
    return word_in(w, len, named);
}

/* What the words of a type add up to. */
typedef struct tally {
    int ptr, unknown;
    int chr, shrt, intw, longs, sign, usign, flt, dbl, bln, vd, agg, enm;
    int n_named;
    em_param_kind named;
} tally;

static void add_named(tally *t, em_param_kind k)
{
    if (t->n_named && t->named != k)
        t->unknown = 1;
    t->named = k;
    t->n_named++;
}

/* Index past a bracketed group at t[i] (which holds the opening). */
static size_t skip_group(const char *t, size_t i, size_t n)
{
    size_t c = match_close(t, i, n);
    return c < n ? c + 1 : n;
}

static void tally_type(const char *t, const aliases *al, int depth, tally *y)
{
    size_t n = strlen(t), i = 0;
    while (i < n) {
        char c = t[i];
        size_t b, k;
        if (is_blank(c)) {
            i++;
            continue;
        }
        if (c == '[' && i + 1 < n && t[i + 1] == '[') {    /* [[attribute]] */
            const char *e = strstr(t + i + 2, "]]");
            i = e ? (size_t)(e - t) + 2 : n;
            continue;
        }
        if (c == '*' || c == '[') {
            y->ptr = 1;
            i = c == '[' ? skip_group(t, i, n) : i + 1;
            continue;
        }
        if (c == '<') {         /* a class template's instance: by value */
            y->agg = 1;
            i = skip_group(t, i, n);
            continue;
        }
        if (c == ':' && i + 1 < n && t[i + 1] == ':') {
            i += 2;
            continue;
        }
        if (!em_ksig_is_ident(c) || is_digit(c)) {
            /* '&' (a reference), '(' (a function), numbers, anything else */
            y->unknown = 1;
            i = c == '(' ? skip_group(t, i, n) : i + 1;
            continue;
        }
        b = i;
        while (i < n && em_ksig_is_ident(t[i]))
            i++;
        k = em_ksig_skip_space(t, i, n);
        if (k + 1 < n && t[k] == ':' && t[k + 1] == ':') {
            /* std::size_t is size_t; other scopes are not known here */
            if (!word_is(t + b, i - b, "std") && !word_is(t + b, i - b, "cuda"))
                y->unknown = 1;
            i = k + 2;
            continue;
        }
        {
            const char *w = t + b;
            size_t len = i - b;
            em_param_kind nk;
            const alias *a;
            if (word_in(w, len, qualifiers))
                continue;
            if (word_in(w, len, attributes)) {
                if (k < n && t[k] == '(')
                    i = skip_group(t, k, n);
                continue;
            }
            if (word_is(w, len, "struct") || word_is(w, len, "union") ||
                word_is(w, len, "class") || word_is(w, len, "enum")) {
                int is_enum = w[0] == 'e';
                if (is_enum && (em_ksig_word_at(t, k, n, "class") ||
                                em_ksig_word_at(t, k, n, "struct")))
                    k = em_ksig_skip_space(t, k + (t[k] == 'c' ? 5 : 6), n);
                /* the tag, if any, says nothing more */
                i = k;
                while (i < n && em_ksig_is_ident(t[i]))
                    i++;
                if (is_enum)
                    y->enm++;
                else
                    y->agg++;
                continue;
            }
            if (word_is(w, len, "char"))
                y->chr++;
            else if (word_is(w, len, "short"))
                y->shrt++;
            else if (word_is(w, len, "int"))
                y->intw++;
            else if (word_is(w, len, "long"))
                y->longs++;
            else if (word_is(w, len, "signed"))
                y->sign++;
            else if (word_is(w, len, "unsigned"))
                y->usign++;
            else if (word_is(w, len, "float"))
                y->flt++;
            else if (word_is(w, len, "double"))
                y->dbl++;
            else if (word_is(w, len, "bool") || word_is(w, len, "_Bool"))
                y->bln++;
            else if (word_is(w, len, "void"))
                y->vd++;
            else if ((nk = named_kind(w, len)) != EM_PARAM_UNKNOWN)
                add_named(y, nk);
            else if (is_cuda_struct(w, len))
                y->agg++;
            else if ((a = alias_find(al, w, len)) && !a->conflict &&
                     depth < KSIG_ALIAS_DEPTH)
                tally_type(a->text, al, depth + 1, y);
            else
                y->unknown = 1;
        }
    }
}

static em_param_kind kind_of(const char *type, const aliases *al)
{
    tally y;
    int intish, bases;
    memset(&y, 0, sizeof y);
    tally_type(type, al, 0, &y);
    /* The declarator decides: whatever T is, T * is a pointer. */
    if (y.ptr)
        return EM_PARAM_POINTER;
    if (y.unknown)
        return EM_PARAM_UNKNOWN;
    intish = y.chr || y.shrt || y.intw || y.longs || y.sign || y.usign;
    bases = intish + (y.flt > 0) + (y.dbl > 0) + (y.bln > 0) + (y.vd > 0) +
            (y.agg > 0) + (y.enm > 0) + (y.n_named > 0);
    if (bases != 1)
        return EM_PARAM_UNKNOWN;   /* nothing, or a mix (long double, float int) */
    if (intish)
        return y.chr + y.shrt > 1 || y.intw > 1 || y.longs > 2 ||
                       ((y.chr || y.shrt) && y.longs) || y.sign + y.usign > 1
                   ? EM_PARAM_UNKNOWN : y.usign ? EM_PARAM_UINT : EM_PARAM_INT;
    if (y.flt || y.dbl)
        return y.flt + y.dbl > 1 ? EM_PARAM_UNKNOWN : EM_PARAM_FLOAT;
    if (y.bln)
        return y.bln > 1 ? EM_PARAM_UNKNOWN : EM_PARAM_BOOL;
    if (y.agg)
        return EM_PARAM_OTHER;
    if (y.enm)
        return EM_PARAM_INT;
    if (y.n_named)
        return y.named;
    return EM_PARAM_UNKNOWN;   /* void by value */
}

const char *em_ksig_kind_name(em_param_kind k)
{
    switch (k) {
    case EM_PARAM_POINTER: return "pointer";
    case EM_PARAM_INT: return "int";
    case EM_PARAM_UINT: return "uint";
    case EM_PARAM_FLOAT: return "float";
    case EM_PARAM_BOOL: return "bool";
    case EM_PARAM_OTHER: return "other";
    case EM_PARAM_UNKNOWN: break;
    }
    return "unknown";
}

/* ---- parameter lists ---------------------------------------------------------- */

static void kernel_clear(em_ksig_kernel *k)
{
    for (int p = 0; p < k->n_params; p++) {
        free(k->params[p].type);
        free(k->params[p].name);
    }
    free(k->params);
    free(k->name);
    free(k->why);
    memset(k, 0, sizeof *k);
}

/* Only qualifiers and tag keywords in text[0, e): `const` in `const
 * size_t`, so that size_t is the type, not a name. */
static int only_qualifiers(const char *text, size_t e)
{
    static const char *const more[] = {"struct", "union", "class", "enum", NULL};
    size_t i = 0;
    while (i < e) {
        size_t b;
        if (is_blank(text[i])) {
            i++;
            continue;
        }
        if (!em_ksig_is_ident(text[i]))
            return 0;
        b = i;
        while (i < e && em_ksig_is_ident(text[i]))
            i++;
        if (!word_in(text + b, i - b, qualifiers) && !word_in(text + b, i - b, more))
            return 0;
    }
    return 1;
}

/* One parameter declaration `text` (squeezed) into its type and name. A
 * default argument is dropped; `T name[]` is `T *`, as C adjusts it; a
 * declaration without a name is its own type. *status and *why on
 * failure. */
static int split_param(char *text, em_ksig_param *out, int index, const char *kname,
                       const char *file, int line, em_status *status, char **why)
{
    size_t n, e, s;
    int array = 0, d = 0;
    char *t;
    for (size_t i = 0; text[i]; i++) {
        char c = text[i];
        if (c == '(' || c == '[' || c == '<')
            d++;
        else if (c == ')' || c == ']' || c == '>')
            d--;
        else if (c == '=' && d == 0) {
            text[i] = 0;
            break;
        }
    }
    n = strlen(text);
    while (n && text[n - 1] == ' ')
        text[--n] = 0;
    e = n;
    if (e && text[e - 1] == ']') {
        size_t o = e;
        while (o > 0 && text[o - 1] != '[')
            o--;
        if (o > 0 && memchr(text, '[', o - 1)) {
            *status = EM_ERR_NOT_SUPPORTED;
            *why = format("parameter %d of kernel '%s' (%s:%d) is a multi-dimensional "
                          "array", index + 1, kname, file, line);
            return 0;
        }
        if (o == 0)
            goto unreadable;
        e = o - 1;
        while (e > 0 && text[e - 1] == ' ')
            e--;
        array = 1;
    }
    s = e;
    while (s > 0 && em_ksig_is_ident(text[s - 1]))
        s--;
    if (s == e) {
        /* `int *`, `float *const`: no name */
        if (!e || (text[e - 1] != '*' && text[e - 1] != '&'))
            goto unreadable;
        s = e;
    } else if (is_digit(text[s])) {
        goto unreadable;
    } else if (s == 0 || word_in(text + s, e - s, type_words) ||
               word_in(text + s, e - s, qualifiers) || only_qualifiers(text, s)) {
        s = e;   /* `size_t`, `unsigned int`, `const S`: no name either */
    } else if (text[s - 1] != ' ' && text[s - 1] != '*' && text[s - 1] != '&') {
        goto unreadable;
    }
    out->name = malloc(e - s + 1);
    t = malloc(s + 3);
    if (!out->name || !t) {
        free(out->name);
        free(t);
        out->name = NULL;
        *status = EM_ERR_OUT_OF_MEMORY;
        return 0;
    }
    memcpy(out->name, text + s, e - s);
    out->name[e - s] = 0;
    memcpy(t, text, s);
    while (s > 0 && t[s - 1] == ' ')
        s--;
    if (array)
        t[s++] = '*';
    t[s] = 0;
    out->type = t;
    return 1;
unreadable:
    *status = EM_ERR_COMPILE;
    *why = format("cannot read parameter %d of kernel '%s' at %s:%d ('%s'): "
                  "expected a type and a name", index + 1, kname, file, line, text);
    return 0;
}

/* Split the list scan[open+1, close) on top-level commas into k->params.
 * EM_ERR_OUT_OF_MEMORY only; a parameter that cannot be read sets
 * k->status and k->why and drops the list. */
static em_status parse_params(const char *scan, size_t open, size_t close,
                              em_ksig_kernel *k, const char *file)
{
    size_t a = open + 1;
    int d = 0, cap = 0;
    for (size_t i = open + 1; i <= close; i++) {
        char c = scan[i], *text;
        em_ksig_param p = {NULL, NULL, EM_PARAM_UNKNOWN};
        em_status st = EM_OK;
        if (c == '(' || c == '[' || c == '<')
            d++;
        else if ((c == ')' || c == ']' || c == '>') && i < close)
            d--;
        if (i < close && !(c == ',' && d == 0))
            continue;
        text = squeeze(scan, a, i);
        a = i + 1;
        if (!text)
            return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading kernel '%s'",
                            k->name);
        if (k->n_params == 0 && i == close && (!*text || !strcmp(text, "void"))) {
            free(text);
            break;
        }
        if (!split_param(text, &p, k->n_params, k->name, file, k->line, &st, &k->why)) {
            free(text);
            if (st == EM_ERR_OUT_OF_MEMORY || !k->why)
                return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading kernel "
                                "'%s'", k->name);
            k->status = st;
            for (int q = 0; q < k->n_params; q++) {
                free(k->params[q].type);
                free(k->params[q].name);
            }
            k->n_params = 0;
            return EM_OK;
        }
        free(text);
        if (k->n_params == cap) {
            em_ksig_param *np;
            cap = cap ? 2 * cap : 8;
            np = realloc(k->params, (size_t)cap * sizeof *np);
            if (!np) {
                free(p.type);
                free(p.name);
                return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading kernel "
                                "'%s'", k->name);
            }
            k->params = np;
        }
        k->params[k->n_params++] = p;
    }
    return EM_OK;
}

/* ---- finding kernels ------------------------------------------------------ */

typedef struct klist {
    em_ksig_kernel *v;
    int n, cap;
} klist;

static em_ksig_kernel *klist_push(klist *l)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 4;
        em_ksig_kernel *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        l->v = v;
        l->cap = cap;
    }
    memset(&l->v[l->n], 0, sizeof l->v[l->n]);
    return &l->v[l->n++];
}

static void klist_free(klist *l)
{
    for (int i = 0; i < l->n; i++)
        kernel_clear(&l->v[i]);
    free(l->v);
}

static int is_attribute_word(const char *s, size_t b, size_t e)
{
    static const char *const words[] = {
        "__launch_bounds__", "__attribute__", "__align__", "__cluster_dims__",
        "__maxnreg__", "__declspec", NULL,
    };
    return e > b && word_in(s + b, e - b, words);
}

/* Is the __global__ at i under `template <...>`? The declaration starts
 * after the last ';', '{' or '}' before it. */
static int under_template(const char *scan, size_t i)
{
    size_t p = i;
    while (p > 0 && scan[p - 1] != ';' && scan[p - 1] != '{' && scan[p - 1] != '}')
        p--;
    for (; p + 8 <= i; p++)
        if (em_ksig_word_at(scan, p, i, "template"))
            return 1;
    return 0;
}

/* Lines counted forward from the last call, so many kernels cost one pass. */
typedef struct line_counter {
    const char *s;
    size_t pos;
    int line;
} line_counter;

static int line_at(line_counter *lc, size_t pos)
{
    for (; lc->pos < pos; lc->pos++)
        lc->line += lc->s[lc->pos] == '\n';
    return lc->line;
}

/* Every __global__ function in scan: definitions (in defs, the first of
 * each name) and the rest (declarations, redefinitions: in others, only
 * to compare). Stops at a list that never closes. */
static em_status find_kernels(const char *scan, const char *text, size_t n,
                              const char *file, klist *defs, klist *others,
                              em_ksig *sig)
{
    line_counter lc = {scan, 0, 1};
    for (size_t i = 0; i < n; i++) {
        size_t j, open = 0, close, name_b = 0, name_e = 0;
        em_ksig_kernel *k;
        int body, dup = 0;
        em_status st;
        if (scan[i] != '_' || !em_ksig_word_at(scan, i, n, "__global__"))
            continue;
        /* Walk to the '(' of the parameter list: the identifier before it
         * is the name. Parenthesised attributes before the name are
         * skipped whole. */
        for (j = i + 10; j < n && scan[j] != ';' && scan[j] != '{';) {
            if (em_ksig_is_ident(scan[j])) {
                size_t e = j;
                while (e < n && em_ksig_is_ident(scan[e]))
                    e++;
                name_b = j;
                name_e = e;
                j = e;
                continue;
            }
            if (scan[j] == '(') {
                if (!is_attribute_word(scan, name_b, name_e)) {
                    open = j;
                    break;
                }
                j = match_close(scan, j, n) + 1;
                name_b = name_e = 0;
                continue;
            }
            j++;
        }
        if (!open || name_e == name_b) {
            i = j;
            continue;
        }
        close = match_close(scan, open, n);
        if (close >= n) {
            sig->status = EM_ERR_COMPILE;
            sig->why = format("unbalanced parentheses in the parameter list of kernel "
                              "'%.*s' at %s:%d", (int)(name_e - name_b), scan + name_b,
                              file, line_at(&lc, open));
            if (!sig->why)
                return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading kernels");
            return EM_OK;
        }
        j = em_ksig_skip_space(scan, close + 1, n);
        /* Attributes may also follow the list. */
        while (em_ksig_word_at(scan, j, n, "__attribute__")) {
            size_t p = em_ksig_skip_space(scan, j + 13, n);
            if (p >= n || scan[p] != '(')
                break;
            j = em_ksig_skip_space(scan, match_close(scan, p, n) + 1, n);
        }
        body = j < n && scan[j] == '{';
        if (!body && (j >= n || scan[j] != ';')) {
            i = close;
            continue;
        }
        for (int q = 0; body && q < defs->n; q++)
            if (word_is(scan + name_b, name_e - name_b, defs->v[q].name))
                dup = 1;
        k = body && !dup ? klist_push(defs) : klist_push(others);
        if (!k || !(k->name = squeeze(scan, name_b, name_e)))
            return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading kernels");
        k->line = line_at(&lc, open);
        k->templated = under_template(scan, i);
        k->conditional = memcmp(scan + open, text + open, close - open) != 0;
        st = parse_params(scan, open, close, k, file);
        if (st != EM_OK)
            return st;
        i = close;
    }
    return EM_OK;
}

/* Do two readings of one kernel give the same kinds? */
static int same_kinds(const em_ksig_kernel *a, const em_ksig_kernel *b)
{
    if (a->status != EM_OK || b->status != EM_OK || a->n_params != b->n_params)
        return 0;
    for (int p = 0; p < a->n_params; p++)
        if (a->params[p].kind != b->params[p].kind)
            return 0;
    return 1;
}

em_status em_ksig_parse(const char *src, const char *file, const char *const *options,
                        int n_options, em_ksig **out)
{
    size_t n;
    char *scan = NULL, *text = NULL;
    aliases al = {0};
    klist defs = {0}, others = {0};
    em_ksig *sig = NULL;
    em_status st = EM_OK;

    *out = NULL;
    if (!src)
        return em_error(EM_ERR_INVALID_VALUE, "em_ksig_parse: source is NULL");
    if (!file)
        file = "kernel.cu";
    n = strlen(src);
    scan = malloc(n + 1);
    text = malloc(n + 1);
    sig = calloc(1, sizeof *sig);
    if (!scan || !text || !sig) {
        st = em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading kernel signatures "
                      "(%zu bytes of source)", n);
        goto done;
    }
    em_ksig_blank(src, n, scan, 0);
    em_ksig_blank(src, n, text, 1);
    scan[n] = text[n] = 0;

    st = find_kernels(scan, text, n, file, &defs, &others, sig);
    if (st != EM_OK)
        goto done;

    collect_options(&al, options, n_options);
    collect_defines(&al, text, scan, n);
    collect_tags(&al, scan, n);
    collect_typedefs(&al, scan, n);
    if (al.oom) {
        st = em_error(EM_ERR_OUT_OF_MEMORY, "out of memory reading type names");
        goto done;
    }
    for (int q = 0; q < defs.n; q++)
        for (int p = 0; p < defs.v[q].n_params; p++)
            defs.v[q].params[p].kind = kind_of(defs.v[q].params[p].type, &al);
    for (int q = 0; q < others.n; q++) {
        em_ksig_kernel *o = &others.v[q];
        for (int p = 0; p < o->n_params; p++)
            o->params[p].kind = kind_of(o->params[p].type, &al);
        for (int d = 0; d < defs.n; d++)
            if (!strcmp(defs.v[d].name, o->name) && !same_kinds(&defs.v[d], o))
                defs.v[d].ambiguous = 1;
    }
    sig->kernels = defs.v;
    sig->n_kernels = defs.n;
    defs.v = NULL;
    defs.n = 0;
    *out = sig;
    sig = NULL;

done:
    klist_free(&defs);
    klist_free(&others);
    aliases_free(&al);
    em_ksig_free(sig);
    free(scan);
    free(text);
    return st;
}

void em_ksig_free(em_ksig *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n_kernels; i++)
        kernel_clear(&s->kernels[i]);
    free(s->kernels);
    free(s->why);
    free(s);
}

const em_ksig_kernel *em_ksig_find(const em_ksig *s, const char *name)
{
    if (!s || !name)
        return NULL;
    for (int i = 0; i < s->n_kernels; i++) {
        const em_ksig_kernel *k = &s->kernels[i];
        if (!strcmp(k->name, name))
            return k->status == EM_OK && !k->templated && !k->ambiguous &&
                           !k->conditional ? k : NULL;
    }
    return NULL;
}
