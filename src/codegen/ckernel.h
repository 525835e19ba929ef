/* ember codegen (internal): what the C-string kernel files share
 * (ckernel_parse.c, ckernel_bind.c, ckernel_ewise.c, ckernel_reduce.c).
 *
 * A kernel object holds its parsed description and a small table of
 * compiled specialisations. A specialisation's key is fixed-size (device,
 * each parameter's dtype and whether its argument is a scalar, the
 * collapsed ranks, the layout class), compared with memcmp under the
 * object's lock, so a repeated call builds no source and no strings.
 */
#ifndef EMBER_CODEGEN_CKERNEL_H
#define EMBER_CODEGEN_CKERNEL_H

#include <pthread.h>
#include <stdint.h>

#include "core/strbuf.h"
#include "ember/ckernel.h"

/* Bump when generated source changes meaning (it is in the cache key). */
#define EM_CK_VERSION 1u

#define CK_NAME_MAX 64

typedef struct ck_param {
    char name[CK_NAME_MAX];
    char type[CK_NAME_MAX]; /* as written */
    int dtype;              /* fixed dtype, or -1 for a placeholder */
    int ph;                 /* placeholder index, or -1 */
    int raw, out;
} ck_param;

typedef struct ck_key {
    uint8_t dev_type, dev_id;
    uint8_t dt[EM_CK_MAX_PARAMS]; /* dtype | CK_SCALAR for scalar args */
    uint8_t nd0, nd1;             /* ewise: rank, contig; reduce: K, R ranks */
    uint8_t bs;                   /* reduce: cuda block size class */
    uint8_t split;                /* reduce: CK_SCHED_* */
    uint8_t pad[2];
} ck_key;

#define CK_SCALAR 0x80u

/* Reduction schedules beyond one output per block (cuda) or thread (host):
 * SPLIT each output over several blocks, then a second pass; COLUMN 32
 * consecutive outputs per block (cuda only). */
enum { CK_SCHED_PLAIN = 0, CK_SCHED_SPLIT = 1, CK_SCHED_COLUMN = 2 };

typedef struct ck_spec {
    ck_key key;
    em_function *fn, *fin; /* fin: a split reduction's second pass */
} ck_spec;

struct em_ckernel {
    int reduction;
    int nin, nout, np;
    ck_param p[EM_CK_MAX_PARAMS];
    int nph;
    char ph[EM_CK_MAX_PARAMS][CK_NAME_MAX];
    /* owned copies, rewritten (`_ind.size()`, `raw.size()`) */
    char *name, *operation, *map_expr, *reduce_expr, *post_map_expr;
    char *identity, *reduce_type, *preamble, *loop_prep, *after_loop;
    char **options;
    int n_options;
    int reduce_dims;
    int check_cuda; /* also compile each new host variant with NVRTC */
    pthread_mutex_t lock;
    ck_spec *specs;
    int nspecs, capspecs;
};

/* The result of binding a call's arguments to the parameters. */
typedef struct ck_bound {
    em_dtype dt[EM_CK_MAX_PARAMS];  /* every parameter's resolved dtype */
    em_dtype ph[EM_CK_MAX_PARAMS];  /* each placeholder's */
    int scalar[EM_CK_MAX_PARAMS];   /* input given as a scalar */
    unsigned char val[EM_CK_MAX_PARAMS][16]; /* scalars, as dt[] */
    em_device *dev;
} ck_bound;

/* The kernel-side C type a snippet sees for a supported dtype ("float",
 * "long long"; float16 and bfloat16 compute in float), the type of its
 * storage ("ew_f16" for those two, else the same) and, for the 16-bit
 * floats, the load and store conversions (NULL otherwise). */
const char *ck_ctype(em_dtype d);
const char *ck_stype(em_dtype d);
const char *ck_load(em_dtype d);
const char *ck_store(em_dtype d);
/* Bytes of ck_ctype(d). */
size_t ck_csize(em_dtype d);

/* Bind arguments: dtypes of placeholders and parameters, scalar values
 * cast to their parameter's dtype, the device. Checks that raw
 * parameters get arrays and that every array is on one device. */
em_status ck_bind(const em_ckernel *k, const em_operand *in,
                  const em_array *out, ck_bound *b);

/* The broadcast shape (*nd, shape) of the array arguments among the
 * first np parameters (outputs only where given, raw ones left out);
 * *narr counts them. */
em_status ck_broadcast(const em_ckernel *k, const em_operand *in,
                       const em_array *out, int np, int *nd, int64_t *shape,
                       int *narr);
/* EM_ERR_INVALID_VALUE unless every given non-raw output has the shape
 * (nd, shape) and is writeable; `expected` introduces the shape in the
 * message ("the result's is"). */
em_status ck_check_outputs(const em_ckernel *k, const em_array *out, int nd,
                           const int64_t *shape, const char *expected);
/* Allocate the outputs not given, C-ordered, marking each in made[]; on
 * a failure (of this or a later step) ck_drop_outputs releases those
 * marked. */
em_status ck_make_outputs(const em_ckernel *k, const ck_bound *b,
                          em_array *out, int nd, const int64_t *shape,
                          em_stream *s, int *made);
void ck_drop_outputs(const em_ckernel *k, em_array *out, const int *made);
/* A key's device and dtype fields (the rest zero). */
void ck_key_init(ck_key *key, const em_ckernel *k, const ck_bound *b);

/* The compiled specialisation for key (from k's table or built by gen);
 * on a compile failure the message names the kernel and its snippets. */
typedef em_status (*ck_gen_fn)(const em_ckernel *k, const ck_bound *b,
                               const ck_key *key, em_device_type target,
                               char **src);
em_status ck_function(em_ckernel *k, em_device *dev, const ck_bound *b,
                      const ck_key *key, ck_gen_fn gen, em_function **out,
                      em_function **fin);

/* The typedefs of the placeholders, `_type_reduce` when given, and the
 * preamble. */
void ck_emit_head(em_sb *sb, const em_ckernel *k, const ck_bound *b,
                  em_device_type target);

/* Raw arguments: C-contiguous stand-ins for the ones that are not, copied
 * back by ck_raw_finish. */
typedef struct ck_raw {
    em_array tmp[EM_CK_MAX_PARAMS];
    int used[EM_CK_MAX_PARAMS];
} ck_raw;
em_status ck_raw_prepare(const em_ckernel *k, const em_operand *in,
                         const em_array *out, ck_raw *r, em_stream *s);
em_status ck_raw_finish(const em_ckernel *k, const em_operand *in,
                        em_array *out, ck_raw *r, em_stream *s,
                        em_status st);

/* Elements per block on the host and the grid for n elements on dev. */
void ck_geometry(em_device *dev, int64_t n, em_dim3 *grid, em_dim3 *block);

#endif
