/* ember codegen: C-string kernels, what both kinds do at a call: bind the
 * arguments' dtypes to the parameters (CuPy's rules), find or build the
 * specialisation, stage raw arguments, size the grid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/ckernel.h"
#include "codegen/ctype.h"
#include "codegen/linalg_table.h"
#include "core/layout.h"

const char *ck_ctype(em_dtype d)
{
    return d == EM_BOOL                            ? "bool"
           : d == EM_FLOAT16 || d == EM_BFLOAT16 ? "float"
                                                   : em_gen_ctype(d);
}

const char *ck_stype(em_dtype d)
{
    return d == EM_FLOAT16 ? "ew_f16" : d == EM_BFLOAT16 ? "ew_bf16"
                                                         : ck_ctype(d);
}

const char *ck_load(em_dtype d)
{
    return d == EM_FLOAT16 ? "ew_f16_to_f32" : d == EM_BFLOAT16
                                                   ? "ew_bf16_to_f32"
                                                   : NULL;
}

const char *ck_store(em_dtype d)
{
    return d == EM_FLOAT16 ? "ew_f32_to_f16" : d == EM_BFLOAT16
                                                   ? "ew_f32_to_bf16"
                                                   : NULL;
}

size_t ck_csize(em_dtype d)
{
    return ck_load(d) ? sizeof(float) : em_dtype_size(d);
}

static const char *kind_name(const em_ckernel *k)
{
    return k->reduction ? "ReductionKernel" : "ElementwiseKernel";
}

static const char *dname(em_dtype d)
{
    const em_dtype_info *i = em_dtype_get(d);
    return i ? i->name : "?";
}

/* Bind parameter j to dtype d from an argument (strict). */
static em_status bind_one(const em_ckernel *k, ck_bound *b, int *bound,
                          int *from, int j, em_dtype d)
{
    const ck_param *p = &k->p[j];
    if (p->dtype >= 0) {
        if ((em_dtype)p->dtype != d)
            return em_error(EM_ERR_TYPE,
                            "%s '%s': Type is mismatched: the argument for "
                            "'%s' is %s, but the parameter is %s",
                            kind_name(k), k->name, p->name, dname(d),
                            p->type);
        return EM_OK;
    }
    if (bound[p->ph]) {
        if (b->ph[p->ph] != d)
            return em_error(EM_ERR_TYPE,
                            "%s '%s': Type is mismatched: the argument for "
                            "'%s' is %s, but %s is already %s (from '%s')",
                            kind_name(k), k->name, p->name, dname(d), p->type,
                            dname(b->ph[p->ph]), k->p[from[p->ph]].name);
        return EM_OK;
    }
    bound[p->ph] = 1;
    from[p->ph] = j;
    b->ph[p->ph] = d;
    return EM_OK;
}

/* Parameter j's array argument: an input's array, a given output, else
 * NULL (a scalar, or an output still to be made). */
static const em_array *array_arg(const em_ckernel *k, const em_operand *in,
                                 const em_array *out, int j)
{
    if (j < k->nin)
        return in[j].array;
    return out[j - k->nin].storage ? &out[j - k->nin] : NULL;
}

em_status ck_bind(const em_ckernel *k, const em_operand *in,
                  const em_array *out, ck_bound *b)
{
    int bound[EM_CK_MAX_PARAMS] = {0}, from[EM_CK_MAX_PARAMS] = {0};
    em_status st;
    memset(b, 0, sizeof *b);
    /* the device: every array's, and one for all */
    for (int j = 0; j < k->np; j++) {
        const em_array *a = array_arg(k, in, out, j);
        if (!a)
            continue;
        if (!b->dev)
            b->dev = a->device;
        else if (a->device != b->dev)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s '%s': the argument for '%s' is on %s, "
                            "others on %s",
                            kind_name(k), k->name, k->p[j].name,
                            em_device_name(a->device), em_device_name(b->dev));
    }
    if (!b->dev && (st = em_current_device(&b->dev)) != EM_OK)
        return st;
    /* outputs given, then arrays and NumPy scalars: strict */
    for (int j = k->nin; j < k->np; j++) {
        if (!out[j - k->nin].storage) {
            if (k->p[j].raw)
                return em_error(EM_ERR_INVALID_VALUE,
                                "%s '%s': the raw output '%s' must be given "
                                "(ember cannot know its size)",
                                kind_name(k), k->name, k->p[j].name);
            continue;
        }
        if ((st = bind_one(k, b, bound, from, j, out[j - k->nin].dtype)) !=
            EM_OK)
            return st;
    }
    for (int j = 0; j < k->nin; j++) {
        if (!in[j].array && k->p[j].raw)
            return em_error(EM_ERR_TYPE,
                            "%s '%s': the raw parameter '%s' needs an array, "
                            "not a scalar",
                            kind_name(k), k->name, k->p[j].name);
        if (in[j].array)
            st = bind_one(k, b, bound, from, j, in[j].array->dtype);
        else if (!in[j].weak)
            st = bind_one(k, b, bound, from, j, in[j].dtype);
        else
            continue;
        if (st != EM_OK)
            return st;
    }
    /* Python scalars bind only what nothing else did */
    for (int j = 0; j < k->nin; j++)
        if (!in[j].array && in[j].weak && k->p[j].ph >= 0 &&
            !bound[k->p[j].ph])
            (void)bind_one(k, b, bound, from, j, in[j].dtype);
    for (int j = 0; j < k->np; j++) {
        const ck_param *p = &k->p[j];
        if (p->dtype >= 0)
            b->dt[j] = (em_dtype)p->dtype;
        else if (bound[p->ph])
            b->dt[j] = b->ph[p->ph];
        else
            return em_error(EM_ERR_TYPE,
                            "%s '%s': cannot determine the type %s of '%s': "
                            "no argument binds it (pass out=, or an input "
                            "of type %s)",
                            kind_name(k), k->name, p->type, p->name, p->type);
        if (!ck_ctype(b->dt[j]))
            return em_error(EM_ERR_NOT_SUPPORTED,
                            "%s '%s': '%s' is %s; C-string kernels support "
                            "bool, the integer types and the real floats",
                            kind_name(k), k->name, p->name, dname(b->dt[j]));
        if (p->raw && ck_load(b->dt[j]))
            return em_error(EM_ERR_NOT_SUPPORTED,
                            "%s '%s': the raw parameter '%s' is %s; raw "
                            "16-bit floats are not supported",
                            kind_name(k), k->name, p->name, dname(b->dt[j]));
        if (j < k->nin && !in[j].array) {
            /* 16-bit floats travel as the float they compute in */
            b->scalar[j] = 1;
            if ((st = em_scalar_cast(in[j].value.bytes, in[j].dtype,
                                     b->val[j],
                                     ck_load(b->dt[j]) ? EM_FLOAT32
                                                       : b->dt[j])) != EM_OK)
                return st;
        }
    }
    return EM_OK;
}

em_status ck_broadcast(const em_ckernel *k, const em_operand *in,
                       const em_array *out, int np, int *nd, int64_t *shape,
                       int *narr)
{
    int ndim[EM_CK_MAX_PARAMS];
    const int64_t *shapes[EM_CK_MAX_PARAMS];
    *narr = 0;
    for (int j = 0; j < np; j++) {
        const em_array *a = array_arg(k, in, out, j);
        int arr = a && !k->p[j].raw;
        ndim[j] = arr ? a->ndim : 0;
        shapes[j] = arr ? a->shape : NULL;
        *narr += arr;
    }
    return em_layout_broadcast(np, ndim, shapes, nd, shape);
}

em_status ck_check_outputs(const em_ckernel *k, const em_array *out, int nd,
                           const int64_t *shape, const char *expected)
{
    for (int j = k->nin; j < k->np; j++) {
        const em_array *o = &out[j - k->nin];
        char b1[128], b2[128];
        if (!o->storage || k->p[j].raw)
            continue;
        if (o->ndim != nd ||
            memcmp(o->shape, shape, sizeof(int64_t) * (size_t)nd))
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s '%s': the output '%s' has shape %s, %s %s",
                            kind_name(k), k->name, k->p[j].name,
                            em_shape_format(o->ndim, o->shape, b1, sizeof b1),
                            expected,
                            em_shape_format(nd, shape, b2, sizeof b2));
        if (!(o->flags & EM_ARRAY_WRITEABLE))
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s '%s': the output '%s' is read-only",
                            kind_name(k), k->name, k->p[j].name);
    }
    return EM_OK;
}

em_status ck_make_outputs(const em_ckernel *k, const ck_bound *b,
                          em_array *out, int nd, const int64_t *shape,
                          em_stream *s, int *made)
{
    em_status st;
    for (int j = k->nin; j < k->np; j++) {
        if (out[j - k->nin].storage)
            continue;
        if ((st = em_array_empty(b->dev, b->dt[j], nd, shape, 'C', s,
                                 &out[j - k->nin])) != EM_OK)
            return st;
        made[j] = 1;
    }
    return EM_OK;
}

void ck_drop_outputs(const em_ckernel *k, em_array *out, const int *made)
{
    for (int j = k->nin; j < k->np; j++)
        if (made[j])
            em_array_release(&out[j - k->nin]);
}

void ck_key_init(ck_key *key, const em_ckernel *k, const ck_bound *b)
{
    memset(key, 0, sizeof *key);
    key->dev_type = (uint8_t)em_device_get_type(b->dev);
    key->dev_id = (uint8_t)em_device_get_id(b->dev);
    /* np <= EM_CK_MAX_PARAMS (the parser's limit); the bound in the loop
     * tells GCC -O3's overflow warning so too. */
    for (int j = 0; j < k->np && j < EM_CK_MAX_PARAMS; j++)
        key->dt[j] = (uint8_t)(b->dt[j] | (b->scalar[j] ? CK_SCALAR : 0));
}

void ck_emit_head(em_sb *sb, const em_ckernel *k, const ck_bound *b,
                  em_device_type target)
{
    int half = 0;
    (void)target;
    em_sb_printf(sb, "/* ember %s '%s' */\n", kind_name(k), k->name);
    for (int j = 0; j < k->np; j++)
        half |= ck_load(b->dt[j]) != NULL;
    if (half)   /* the 16-bit float conversions */
        em_sb_printf(sb, "%s\n", em_gen_ops_base());
    for (int h = 0; h < k->nph; h++) {
        int used = 0;
        for (int j = 0; j < k->np; j++)
            used |= k->p[j].ph == h;
        if (used)
            em_sb_printf(sb, "typedef %s %s;\n", ck_ctype(b->ph[h]), k->ph[h]);
    }
    if (k->reduction) {
        const char *rt = k->reduce_type;
        if (!rt)
            rt = ck_ctype(b->dt[k->nin]);
        else
            for (int d = 0; d < EM_DTYPE_COUNT; d++)
                if (ck_ctype((em_dtype)d) &&
                    !strcmp(em_dtype_get((em_dtype)d)->name, rt))
                    rt = ck_ctype((em_dtype)d);
        em_sb_printf(sb, "typedef %s _type_reduce;\n", rt);
    }
    em_sb_printf(sb, "%s\n", k->preamble);
}

static int key_find(const em_ckernel *k, const ck_key *key)
{
    for (int s = 0; s < k->nspecs; s++)
        if (!memcmp(&k->specs[s].key, key, sizeof *key))
            return s;
    return -1;
}

/* A compile failure reworded to name the kernel and its snippets. */
static em_status compile_error(const em_ckernel *k, em_status st)
{
    char *msg;
    if (st != EM_ERR_COMPILE || !(msg = strdup(em_last_error())))
        return st;
    if (k->reduction)
        st = em_error(EM_ERR_COMPILE,
                      "ReductionKernel '%s' does not compile (map_expr "
                      "`%s`, reduce_expr `%s`, post_map_expr `%s`):\n%s",
                      k->name, k->map_expr, k->reduce_expr, k->post_map_expr,
                      msg);
    else
        st = em_error(EM_ERR_COMPILE,
                      "ElementwiseKernel '%s' does not compile (operation "
                      "`%s`):\n%s",
                      k->name, k->operation, msg);
    free(msg);
    return st;
}

/* The CUDA source of a host specialisation, compiled to PTX for sm_90, so
 * tests without a GPU still see every variant through NVRTC. */
static em_status cuda_twin(const em_ckernel *k, const ck_bound *b,
                           const ck_key *key, ck_gen_fn gen)
{
    ck_key ck = *key;
    char *src = NULL;
    em_code *code = NULL;
    em_status st;
    ck.dev_type = EM_DEVICE_CUDA;
    ck.bs = 8;
    /* reductions: every schedule (CK_SCHED_*) */
    for (int split = 0; split <= 2 * k->reduction; split++) {
        ck.split = (uint8_t)split;
        ck.bs = split == CK_SCHED_COLUMN ? 10 : 8;
        if ((st = gen(k, b, &ck, EM_DEVICE_CUDA, &src)) != EM_OK)
            return st;
        st = em_compile_cuda(src, k->name, (const char *const *)k->options,
                             k->n_options, 90, EM_CODE_PTX, &code, NULL);
        free(src);
        em_code_free(code);
        code = NULL;
        if (st != EM_OK)
            return st;
    }
    return EM_OK;
}

/* The kernel cache for a specialisation's source. The user's snippets are
 * C++ as NVRTC reads them (T(0), overloaded abs): on cpu the host compiler
 * is asked for C++ by an option of its own, which NVRTC never sees. */
static em_status cache_get(const em_ckernel *k, em_device *dev, const char *src,
                           em_module **m)
{
    const char **opts;
    em_status st;
    if (em_device_get_type(dev) != EM_DEVICE_CPU)
        return em_kernel_cache_get(dev, src, 0, (const char *const *)k->options,
                                   k->n_options, EM_CK_VERSION, m, NULL);
    opts = malloc(((size_t)k->n_options + 1) * sizeof *opts);
    if (!opts)
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory compiling kernel '%s'",
                        k->name);
    for (int i = 0; i < k->n_options; i++)
        opts[i] = k->options[i];
    opts[k->n_options] = EM_HOST_OPTION_CXX;
    st = em_kernel_cache_get(dev, src, 0, opts, k->n_options + 1, EM_CK_VERSION, m,
                             NULL);
    free(opts);
    return st;
}

em_status ck_function(em_ckernel *k, em_device *dev, const ck_bound *b,
                      const ck_key *key, ck_gen_fn gen, em_function **out,
                      em_function **fin)
{
    int s;
    char *src = NULL, fname[256];
    em_module *m = NULL;
    em_function *fn, *fn2 = NULL;
    em_status st;
    pthread_mutex_lock(&k->lock);
    s = key_find(k, key);
    fn = s >= 0 ? k->specs[s].fn : NULL;
    if (fn && fin)
        *fin = k->specs[s].fin;
    pthread_mutex_unlock(&k->lock);
    if (fn) {
        *out = fn;
        return EM_OK;
    }
    if (k->check_cuda && em_device_get_type(dev) != EM_DEVICE_CUDA &&
        (st = cuda_twin(k, b, key, gen)) != EM_OK)
        return compile_error(k, st);
    if ((st = gen(k, b, key, em_device_get_type(dev), &src)) != EM_OK)
        return st;
    st = cache_get(k, dev, src, &m);
    free(src);
    if (st != EM_OK)
        return compile_error(k, st);
    if ((st = em_module_get_function(m, k->name, &fn)) != EM_OK)
        return st;
    if (fin) {
        snprintf(fname, sizeof fname, "%s_ck_fin", k->name);
        if ((st = em_module_get_function(m, fname, &fn2)) != EM_OK)
            return st;
        *fin = fn2;
    }
    pthread_mutex_lock(&k->lock);
    if (key_find(k, key) < 0) {
        if (k->nspecs == k->capspecs) {
            int cap = k->capspecs ? 2 * k->capspecs : 8;
            ck_spec *p = realloc(k->specs, (size_t)cap * sizeof *p);
            if (p) {
                k->specs = p;
                k->capspecs = cap;
            }
        }
        if (k->nspecs < k->capspecs) {
            k->specs[k->nspecs].key = *key;
            k->specs[k->nspecs].fn = fn;
            k->specs[k->nspecs].fin = fn2;
            k->nspecs++;
        }
    }
    pthread_mutex_unlock(&k->lock);
    *out = fn;
    return EM_OK;
}

static const em_array *raw_arg(const em_ckernel *k, const em_operand *in,
                               const em_array *out, int j)
{
    if (!k->p[j].raw)
        return NULL;
    return j < k->nin ? in[j].array : &out[j - k->nin];
}

em_status ck_raw_prepare(const em_ckernel *k, const em_operand *in,
                         const em_array *out, ck_raw *r, em_stream *s)
{
    em_status st;
    memset(r, 0, sizeof *r);
    for (int j = 0; j < k->np; j++) {
        const em_array *a = raw_arg(k, in, out, j);
        if (!a || (a->flags & EM_ARRAY_C_CONTIGUOUS))
            continue;
        if ((st = em_array_empty(a->device, a->dtype, a->ndim, a->shape, 'C',
                                 s, &r->tmp[j])) != EM_OK)
            return st;
        r->used[j] = 1;
        if ((st = em_array_copy(&r->tmp[j], a, s)) != EM_OK)
            return st;
    }
    return EM_OK;
}

em_status ck_raw_finish(const em_ckernel *k, const em_operand *in,
                        em_array *out, ck_raw *r, em_stream *s, em_status st)
{
    for (int j = 0; j < k->np; j++) {
        em_array *a = (em_array *)raw_arg(k, in, out, j);
        if (!r->used[j])
            continue;
        if (st == EM_OK && (a->flags & EM_ARRAY_WRITEABLE))
            st = em_array_copy(a, &r->tmp[j], s);
        em_array_release(&r->tmp[j]);
    }
    return st;
}

void ck_geometry(em_device *dev, int64_t n, em_dim3 *grid, em_dim3 *block)
{
    static int units[2][64];
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA,
        id = em_device_get_id(dev), u = 0;
    int64_t g, per = cuda ? 256 : 16384, cap;
    if (id >= 0 && id < 64)
        u = __atomic_load_n(&units[cuda][id], __ATOMIC_RELAXED);
    if (u <= 0) {
        em_device_props p;
        u = em_device_get_props(dev, &p) == EM_OK && p.multiprocessor_count > 0
                ? p.multiprocessor_count
                : 1;
        if (id >= 0 && id < 64)
            __atomic_store_n(&units[cuda][id], u, __ATOMIC_RELAXED);
    }
    cap = cuda ? (int64_t)u * 16 : (int64_t)u * 4;
    g = (n + per - 1) / per;
    g = g < 1 ? 1 : g > cap ? cap : g;
    *grid = (em_dim3){(unsigned)g, 1, 1};
    *block = (em_dim3){cuda ? 256u : 1u, 1, 1};
}
