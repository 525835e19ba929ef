/* ember codegen: C-string kernels, the description: parameter lists
 * ("T x, raw T y, float32 z"), the copies of the snippets, the object's
 * lifetime and accessors. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/ckernel.h"
#include "ember/util.h"

static const char *const c_words[] = {
    "float", "double", "int", "char", "short", "long", "unsigned", "signed",
    "void", "half", "size_t", "const", "struct", NULL};

static int is_ident(const char *s)
{
    if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}

static int dtype_named(const char *t)
{
    for (int d = 0; d < EM_DTYPE_COUNT; d++)
        if (!strcmp(em_dtype_get((em_dtype)d)->name, t))
            return d;
    return -1;
}

/* Split s at whitespace into at most 4 words of CK_NAME_MAX. */
static int words(const char *s, size_t n, char w[4][CK_NAME_MAX])
{
    int k = 0;
    size_t i = 0;
    while (i < n) {
        size_t j;
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i >= n)
            break;
        j = i;
        while (j < n && !isspace((unsigned char)s[j]))
            j++;
        if (k == 4 || j - i >= CK_NAME_MAX)
            return -1;
        memcpy(w[k], s + i, j - i);
        w[k][j - i] = 0;
        k++;
        i = j;
    }
    return k;
}

static em_status parse_list(em_ckernel *k, const char *list, int out,
                            const char *what)
{
    const char *s = list ? list : "";
    int first = k->np;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        char w[4][CK_NAME_MAX];
        int nw = words(s, n, w), raw = 0;
        ck_param *p;
        if (nw == 0 && !e && k->np == first)
            break; /* an empty list */
        if (nw > 0 && !strcmp(w[0], "raw"))
            raw = 1;
        if (nw != 2 + raw)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: cannot parse the parameter '%.*s' of "
                            "'%s' (write 'TYPE NAME' or 'raw TYPE NAME')",
                            what, (int)n, s, list);
        if (k->np == EM_CK_MAX_PARAMS)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: more than %d parameters", what,
                            EM_CK_MAX_PARAMS);
        p = &k->p[k->np];
        memset(p, 0, sizeof *p);
        strcpy(p->type, w[raw]);
        strcpy(p->name, w[raw + 1]);
        p->raw = raw;
        p->out = out;
        if (!is_ident(p->name) || !is_ident(p->type))
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: the parameter '%.*s' is not 'TYPE NAME' "
                            "with identifiers",
                            what, (int)n, s);
        if (!strcmp(p->name, "i") || !strcmp(p->name, "_ind") ||
            (k->reduction && (!strcmp(p->name, "a") ||
                              !strcmp(p->name, "b"))) ||
            !strncmp(p->name, "_ck_", 4) || !strcmp(p->name, "_type_reduce"))
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: the parameter name '%s' is reserved", what,
                            p->name);
        for (int j = 0; j < k->np; j++)
            if (!strcmp(k->p[j].name, p->name))
                return em_error(EM_ERR_INVALID_VALUE,
                                "%s: the parameter name '%s' appears twice",
                                what, p->name);
        for (int j = 0; c_words[j]; j++)
            if (!strcmp(p->type, c_words[j]))
                return em_error(EM_ERR_INVALID_VALUE,
                                "%s: the type '%s' of parameter '%s' is a C "
                                "type; write a dtype name (float32, float64, "
                                "int32, ...) or a placeholder such as T",
                                what, p->type, p->name);
        p->dtype = dtype_named(p->type);
        p->ph = -1;
        if (p->dtype < 0) {
            int j;
            for (j = 0; j < k->nph; j++)
                if (!strcmp(k->ph[j], p->type))
                    break;
            if (j == k->nph)
                strcpy(k->ph[k->nph++], p->type);
            p->ph = j;
        }
        k->np++;
        if (!e)
            break;
        s = e + 1;
    }
    return EM_OK;
}

/* A copy of s where `_ind.size()` reads `_ind_size` and `R.size()` reads
 * `R_size` for each raw parameter R. */
static char *rewrite(const em_ckernel *k, const char *s)
{
    em_sb sb = {0};
    const char *p = s ? s : "";
    em_sb_puts(&sb, "");
    while (*p) {
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *q = p;
            size_t n;
            int hit = 0;
            while (isalnum((unsigned char)*q) || *q == '_')
                q++;
            n = (size_t)(q - p);
            if (!strncmp(q, ".size()", 7)) {
                if (n == 4 && !strncmp(p, "_ind", 4))
                    hit = 1;
                for (int j = 0; j < k->np && !hit; j++)
                    if (k->p[j].raw && strlen(k->p[j].name) == n &&
                        !strncmp(k->p[j].name, p, n))
                        hit = 1;
            }
            if (hit) {
                em_sb_printf(&sb, "%.*s_size", (int)n, p);
                p = q + 7;
            } else {
                em_sb_printf(&sb, "%.*s", (int)n, p);
                p = q;
            }
        } else if (isdigit((unsigned char)*p)) {
            /* a number's letters (1e5f, 0x1fu) are not identifiers */
            const char *q = p;
            while (isalnum((unsigned char)*q) || *q == '_' || *q == '.')
                q++;
            em_sb_printf(&sb, "%.*s", (int)(q - p), p);
            p = q;
        } else {
            em_sb_printf(&sb, "%c", *p);
            p++;
        }
    }
    if (sb.oom) {
        free(sb.p);
        return NULL;
    }
    return sb.p;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static em_status create(const em_ckernel_desc *d, int reduction,
                        em_ckernel **out)
{
    em_ckernel *k;
    em_status st;
    int oom = 0;
    const char *what = reduction ? "ReductionKernel" : "ElementwiseKernel";
    const char *name = d->name ? d->name : reduction ? "reduce_kernel"
                                                     : "kernel";
    *out = NULL;
    if (!is_ident(name) || strlen(name) >= 200)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: the name '%s' is not a C identifier", what, name);
    if (!reduction && !d->operation)
        return em_error(EM_ERR_INVALID_VALUE, "%s: no operation", what);
    if (reduction && (!d->map_expr || !d->reduce_expr || !d->post_map_expr))
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: map_expr, reduce_expr and post_map_expr are "
                        "needed",
                        what);
    if (!(k = calloc(1, sizeof *k)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
    k->reduction = reduction;
    {
        const char *cc = em_knob_text(EM_KNOB_CKERNEL_CHECK_CUDA);
        k->check_cuda = cc && strcmp(cc, "0");
    }
    pthread_mutex_init(&k->lock, NULL);
    if ((st = parse_list(k, d->in_params, 0, what)) != EM_OK)
        goto fail;
    k->nin = k->np;
    if ((st = parse_list(k, d->out_params, 1, what)) != EM_OK)
        goto fail;
    k->nout = k->np - k->nin;
    if (k->nout == 0) {
        st = em_error(EM_ERR_INVALID_VALUE,
                      "%s '%s': at least one output parameter is needed",
                      what, name);
        goto fail;
    }
    if (reduction)
        for (int j = 0; j < k->np; j++)
            if (k->p[j].raw) {
                st = em_error(EM_ERR_NOT_SUPPORTED,
                              "%s '%s': raw parameters ('%s') are not "
                              "supported in reductions",
                              what, name, k->p[j].name);
                goto fail;
            }
    k->name = strdup(name);
    k->operation = d->operation ? rewrite(k, d->operation) : NULL;
    k->map_expr = d->map_expr ? rewrite(k, d->map_expr) : NULL;
    k->reduce_expr = dup_or_null(d->reduce_expr);
    k->post_map_expr = d->post_map_expr ? rewrite(k, d->post_map_expr) : NULL;
    k->identity = dup_or_null(d->identity);
    k->reduce_type = dup_or_null(d->reduce_type);
    k->preamble = strdup(d->preamble ? d->preamble : "");
    k->loop_prep = rewrite(k, d->loop_prep);
    k->after_loop = rewrite(k, d->after_loop);
    k->reduce_dims = d->reduce_dims;
    if (d->n_options > 0 &&
        (k->options = calloc((size_t)d->n_options, sizeof(char *)))) {
        k->n_options = d->n_options;
        for (int j = 0; j < d->n_options; j++)
            if (!(k->options[j] = strdup(d->options[j] ? d->options[j] : "")))
                oom = 1;
    }
    if (oom || !k->name || !k->preamble || !k->loop_prep || !k->after_loop ||
        (d->operation && !k->operation) || (d->map_expr && !k->map_expr) ||
        (d->post_map_expr && !k->post_map_expr) ||
        (d->n_options > 0 && !k->options)) {
        st = em_error(EM_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
        goto fail;
    }
    *out = k;
    return EM_OK;
fail:
    em_ckernel_destroy(k);
    return st;
}

em_status em_ckernel_create_elementwise(const em_ckernel_desc *d,
                                        em_ckernel **out)
{
    return create(d, 0, out);
}

em_status em_ckernel_create_reduction(const em_ckernel_desc *d,
                                      em_ckernel **out)
{
    return create(d, 1, out);
}

void em_ckernel_destroy(em_ckernel *k)
{
    if (!k)
        return;
    free(k->name);
    free(k->operation);
    free(k->map_expr);
    free(k->reduce_expr);
    free(k->post_map_expr);
    free(k->identity);
    free(k->reduce_type);
    free(k->preamble);
    free(k->loop_prep);
    free(k->after_loop);
    for (int j = 0; j < k->n_options; j++)
        free(k->options[j]);
    free(k->options);
    free(k->specs);
    pthread_mutex_destroy(&k->lock);
    free(k);
}

int em_ckernel_nin(const em_ckernel *k) { return k->nin; }
int em_ckernel_nout(const em_ckernel *k) { return k->nout; }
const char *em_ckernel_name(const em_ckernel *k) { return k->name; }

const char *em_ckernel_param_name(const em_ckernel *k, int i)
{
    return i >= 0 && i < k->np ? k->p[i].name : NULL;
}

int em_ckernel_param_raw(const em_ckernel *k, int i)
{
    return i >= 0 && i < k->np ? k->p[i].raw : 0;
}

int em_ckernel_param_dtype(const em_ckernel *k, int i)
{
    return i >= 0 && i < k->np ? k->p[i].dtype : -1;
}

int em_ckernel_cached(const em_ckernel *k)
{
    int n;
    pthread_mutex_lock((pthread_mutex_t *)&k->lock);
    n = k->nspecs;
    pthread_mutex_unlock((pthread_mutex_t *)&k->lock);
    return n;
}

void em_ckernel_set_check_cuda(em_ckernel *k, int on)
{
    k->check_cuda = on != 0;
}
