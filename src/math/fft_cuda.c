/* ember math: em_fft_exec (include/ember/fft.h) on cuFFT, opened at run
 * time. cuFFT's types are declared here from its documented ABI (handles
 * and results are ints), so ember builds without CUDA's headers. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ember/fft.h"
#include "ember/runtime.h"
#include "ember/util.h"

typedef int cufft_handle;
enum { CUFFT_R2C = 0x2a, CUFFT_C2R = 0x2c, CUFFT_C2C = 0x29,
       CUFFT_D2Z = 0x6a, CUFFT_Z2D = 0x6c, CUFFT_Z2Z = 0x69 };

typedef struct cufft_fns {
    int (*create)(cufft_handle *);
    int (*make_plan)(cufft_handle, int, long long *, long long *, long long,
                     long long, long long *, long long, long long, int,
                     long long, size_t *);
    int (*set_stream)(cufft_handle, void *);
    int (*destroy)(cufft_handle);
    int (*c2c)(cufft_handle, void *, void *, int);
    int (*z2z)(cufft_handle, void *, void *, int);
    int (*r2c)(cufft_handle, void *, void *);
    int (*d2z)(cufft_handle, void *, void *);
    int (*c2r)(cufft_handle, void *, void *);
    int (*z2d)(cufft_handle, void *, void *);
} cufft_fns;

static cufft_fns cu;

static const em_vendor_sym syms[] = {
    {"cufftCreate", offsetof(cufft_fns, create)},
    {"cufftMakePlanMany64", offsetof(cufft_fns, make_plan)},
    {"cufftSetStream", offsetof(cufft_fns, set_stream)},
    {"cufftDestroy", offsetof(cufft_fns, destroy)},
    {"cufftExecC2C", offsetof(cufft_fns, c2c)},
    {"cufftExecZ2Z", offsetof(cufft_fns, z2z)},
    {"cufftExecR2C", offsetof(cufft_fns, r2c)},
    {"cufftExecD2Z", offsetof(cufft_fns, d2z)},
    {"cufftExecC2R", offsetof(cufft_fns, c2r)},
    {"cufftExecZ2D", offsetof(cufft_fns, z2d)},
};

static em_vendor_lazy lib = EM_VENDOR_LAZY(EM_VENDOR_CUFFT, syms, &cu);

/* cufftResult's codes, as cufft.h numbers them. */
static em_status fail(int r, const char *what)
{
    static const char *const names[] = {
        "CUFFT_SUCCESS", "CUFFT_INVALID_PLAN", "CUFFT_ALLOC_FAILED",
        "CUFFT_INVALID_TYPE", "CUFFT_INVALID_VALUE", "CUFFT_INTERNAL_ERROR",
        "CUFFT_EXEC_FAILED", "CUFFT_SETUP_FAILED", "CUFFT_INVALID_SIZE",
        "CUFFT_UNALIGNED_DATA"};
    const char *name = r >= 0 && r < (int)(sizeof names / sizeof *names)
                           ? names[r] : "a cufftResult";
    return em_error_native(r == 2 ? EM_ERR_OUT_OF_MEMORY : EM_ERR_CUDA, r,
                           name, "%s failed: %s (%d)", what, name, r);
}

/* ---- the plan table ------------------------------------------------------ */

#define PLANS EM_FFT_PLANS

typedef struct plan_key {
    em_device *dev;
    int type, rank;
    long long n[3], batch;
} plan_key;

typedef struct plan {
    plan_key k;
    cufft_handle h;
    unsigned long long used; /* 0: the slot is free */
} plan;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static plan plans[PLANS];
static unsigned long long tick;
static int capacity = PLANS; /* slots in use at most (em_fft_plans_resize) */

/* Destroys p's plan, its device current for the call (the lock held). */
static void drop(plan *p)
{
    if (em_device_enter(p->k.dev) == EM_OK)
        cu.destroy(p->h);
    p->used = 0;
}

/* The plan for k, made if missing in a free slot or the least recently
 * used one's, with the lock held; k's device current on return. *slot is
 * its slot, or -1 when the cache holds none (capacity 0) and the caller
 * destroys it after use. */
static em_status get_plan(const plan_key *k, cufft_handle *out, int *slot)
{
    plan *victim = NULL;
    size_t work;
    em_status st;
    int r;
    if ((st = em_device_enter(k->dev)) != EM_OK)
        return st;
    for (int i = 0; i < capacity; i++) {
        if (plans[i].used && !memcmp(&plans[i].k, k, sizeof *k)) {
            plans[i].used = ++tick;
            *out = plans[i].h;
            *slot = i;
            return EM_OK;
        }
        if (!victim || plans[i].used < victim->used)
            victim = &plans[i];
    }
    if (victim && victim->used) {
        drop(victim);
        if ((st = em_device_enter(k->dev)) != EM_OK)
            return st;
    }
    if ((r = cu.create(out)) != 0)
        return fail(r, "cufftCreate");
    {
        long long n[3] = {k->n[0], k->n[1], k->n[2]};
        /* NULL layouts: each transform's data is contiguous and the next
         * follows it (cuFFT's default strides and distances) */
        r = cu.make_plan(*out, k->rank, n, NULL, 1, 0, NULL, 1, 0, k->type,
                         k->batch, &work);
    }
    if (r != 0) {
        cu.destroy(*out);
        return fail(r, "cufftMakePlanMany64");
    }
    *slot = -1;
    if (victim) {
        victim->k = *k;
        victim->h = *out;
        victim->used = ++tick;
        *slot = (int)(victim - plans);
    }
    return EM_OK;
}

void em_fft_plans(int *cap, int *held)
{
    int n = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < PLANS; i++)
        n += plans[i].used != 0;
    if (cap)
        *cap = capacity;
    if (held)
        *held = n;
    pthread_mutex_unlock(&lock);
}

em_status em_fft_plans_resize(int cap)
{
    if (cap < 0 || cap > PLANS)
        return em_error(EM_ERR_INVALID_VALUE, "the FFT plan cache holds 0 to "
                        "%d plans, not %d", PLANS, cap);
    pthread_mutex_lock(&lock);
    /* keep the most recently used: move the survivors to the front */
    for (;;) {
        int n = 0, oldest = -1;
        for (int i = 0; i < PLANS; i++)
            if (plans[i].used) {
                n++;
                if (oldest < 0 || plans[i].used < plans[oldest].used)
                    oldest = i;
            }
        if (n <= cap)
            break;
        drop(&plans[oldest]);
    }
    for (int i = 0, j = 0; i < PLANS; i++)
        if (plans[i].used) {
            plan p = plans[i];
            plans[i].used = 0;
            plans[j++] = p;
        }
    capacity = cap;
    pthread_mutex_unlock(&lock);
    return EM_OK;
}

em_status em_fft_plans_clear(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < PLANS; i++)
        if (plans[i].used)
            drop(&plans[i]);
    pthread_mutex_unlock(&lock);
    return EM_OK;
}

/* ---- em_fft_exec --------------------------------------------------------- */

static int complex_of(em_dtype real, em_dtype cplx)
{
    return (real == EM_FLOAT32 && cplx == EM_COMPLEX64) ||
           (real == EM_FLOAT64 && cplx == EM_COMPLEX128);
}

static em_status check(const em_array *in, const em_array *out, int rank,
                       em_fft_type type, int sign)
{
    const em_array *real = type == EM_FFT_C2R ? out : in,
                   *cplx = type == EM_FFT_C2R ? in : out;
    int nd = in->ndim;
    if (rank < 1 || rank > 3 || nd < rank || out->ndim != nd ||
        (unsigned)type > EM_FFT_C2R || (sign != -1 && sign != 1) ||
        (type == EM_FFT_R2C && sign != -1) || (type == EM_FFT_C2R && sign != 1))
        return em_error(EM_ERR_INVALID_VALUE, "em_fft_exec: rank %d of %d "
                        "and %d dimensions, type %d, sign %d", rank, nd,
                        out->ndim, (int)type, sign);
    if (in->device != out->device)
        return em_error(EM_ERR_INVALID_VALUE, "em_fft_exec: in is on %s, out "
                        "on %s", em_device_name(in->device),
                        em_device_name(out->device));
    if (!(in->flags & EM_ARRAY_C_CONTIGUOUS) ||
        !(out->flags & EM_ARRAY_C_CONTIGUOUS) ||
        !(out->flags & EM_ARRAY_WRITEABLE))
        return em_error(EM_ERR_INVALID_VALUE, "em_fft_exec: in and out must "
                        "be C-contiguous and out writeable");
    if (type == EM_FFT_C2C ? in->dtype != out->dtype ||
                                 (in->dtype != EM_COMPLEX64 &&
                                  in->dtype != EM_COMPLEX128)
                           : !complex_of(real->dtype, cplx->dtype))
        return em_error(EM_ERR_TYPE, "em_fft_exec: no %s transform from %s "
                        "to %s", type == EM_FFT_C2C ? "complex" : "real",
                        em_dtype_get(in->dtype)->name,
                        em_dtype_get(out->dtype)->name);
    for (int d = 0; d < nd; d++) {
        int64_t want = real->shape[d];
        if (type != EM_FFT_C2C && d == nd - 1)
            want = want / 2 + 1;
        if (cplx->shape[d] != want)
            return em_error(EM_ERR_INVALID_VALUE, "em_fft_exec: axis %d has "
                            "%lld elements on the %s side, %lld expected",
                            d, (long long)cplx->shape[d],
                            type == EM_FFT_C2C ? "output" : "complex",
                            (long long)want);
    }
    if (em_device_get_type(in->device) != EM_DEVICE_CUDA)
        return em_error(EM_ERR_NOT_SUPPORTED, "em_fft_exec runs on CUDA "
                        "devices (cuFFT), not %s", em_device_name(in->device));
    return EM_OK;
}

em_status em_fft_exec(const em_array *in, em_array *out, int rank,
                      em_fft_type type, int sign, em_stream *s)
{
    const em_array *real;
    plan_key k;
    cufft_handle h = 0;
    em_status st;
    int r, dbl, slot = 0;
    if (!in || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_fft_exec: NULL array");
    if ((st = check(in, out, rank, type, sign)) != EM_OK)
        return st;
    if (in->size == 0 || out->size == 0)
        return EM_OK;
    if ((st = em_vendor_ready(&lib)) != EM_OK)
        return st;
    if (!s) {
        s = em_current_stream();
        if (!s || em_stream_device(s) != in->device)
            s = em_stream_default(in->device);
    } else if (em_stream_device(s) != in->device) {
        return em_error(EM_ERR_INVALID_VALUE, "em_fft_exec: the stream is on "
                        "%s, the arrays on %s",
                        em_device_name(em_stream_device(s)),
                        em_device_name(in->device));
    }
    real = type == EM_FFT_C2R ? out : in;
    dbl = in->dtype == EM_FLOAT64 || in->dtype == EM_COMPLEX128;
    memset(&k, 0, sizeof k);
    k.dev = in->device;
    k.type = type == EM_FFT_C2C ? (dbl ? CUFFT_Z2Z : CUFFT_C2C)
             : type == EM_FFT_R2C ? (dbl ? CUFFT_D2Z : CUFFT_R2C)
                                  : (dbl ? CUFFT_Z2D : CUFFT_C2R);
    k.rank = rank;
    k.batch = 1;
    for (int d = 0; d < real->ndim - rank; d++)
        k.batch *= real->shape[d];
    for (int d = 0; d < rank; d++)
        k.n[d] = real->shape[real->ndim - rank + d];

    pthread_mutex_lock(&lock);
    if ((st = get_plan(&k, &h, &slot)) == EM_OK) {
        void *i = in->data, *o = out->data;
        if ((r = cu.set_stream(h, em_stream_native(s))) != 0)
            st = fail(r, "cufftSetStream");
        else {
            switch (k.type) {
            case CUFFT_C2C: r = cu.c2c(h, i, o, sign); break;
            case CUFFT_Z2Z: r = cu.z2z(h, i, o, sign); break;
            case CUFFT_R2C: r = cu.r2c(h, i, o); break;
            case CUFFT_D2Z: r = cu.d2z(h, i, o); break;
            case CUFFT_C2R: r = cu.c2r(h, i, o); break;
            default: r = cu.z2d(h, i, o); break;
            }
            if (r != 0)
                st = fail(r, "cufftExec");
        }
        if (slot < 0) {
            /* no cache: the plan goes once its work is done */
            em_status w = em_stream_synchronize(s);
            if (st == EM_OK)
                st = w;
            if (em_device_enter(in->device) == EM_OK)
                cu.destroy(h);
        }
    }
    pthread_mutex_unlock(&lock);
    return st;
}
