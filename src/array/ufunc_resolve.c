/* ember ufuncs: dtype promotion, casting rules and loop selection (NumPy 2,
 * NEP 50).
 *
 * Promotion is written as rules over kinds and sizes rather than a table,
 * so bfloat16 (which NumPy lacks) follows from the same rules; the C tests
 * check every pair against numpy.promote_types.
 *
 * Loop selection is NumPy's linear search: the first loop, in the table's
 * order, that every input can be cast to safely. Python scalars are
 * "weak": a Python int next to an int8 array is an int8 (and must fit
 * one), but it may still go to any integer or inexact loop input, which is
 * how ldexp(float16, 2) finds its float16-with-int32 loop. A weak scalar
 * whose kind is above every array's (a float next to ints) is a strong
 * default-precision value instead. Only alone do Python scalars take their
 * defaults (int64, float64, complex128).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "array/ufunc_internal.h"

/* Kind and size of each dtype, copied once from em_dtype_get: resolving
 * one operation asks for them a dozen times, and each was a call into
 * dtype.c (through the PLT in the extension's copy of the library). */
static unsigned char kind_tab[EM_DTYPE_COUNT], size_tab[EM_DTYPE_COUNT];
static pthread_once_t info_once = PTHREAD_ONCE_INIT;
static atomic_int info_ready;

static void info_init(void)
{
    for (int d = 0; d < EM_DTYPE_COUNT; d++) {
        const em_dtype_info *i = em_dtype_get((em_dtype)d);
        kind_tab[d] = i ? (unsigned char)i->kind_id : 0;
        size_tab[d] = i ? (unsigned char)i->size : 0;
    }
    atomic_store_explicit(&info_ready, 1, memory_order_release);
}

static em_dtype_kind kind_of(em_dtype d)
{
    if (!atomic_load_explicit(&info_ready, memory_order_acquire))
        pthread_once(&info_once, info_init);
    return (em_dtype_kind)kind_tab[d];
}
static int size_of(em_dtype d)
{
    if (!atomic_load_explicit(&info_ready, memory_order_acquire))
        pthread_once(&info_once, info_init);
    return size_tab[d];
}
static int is_int_kind(em_dtype d)
{
    em_dtype_kind k = kind_of(d);
    return k == EM_KIND_INT || k == EM_KIND_UINT;
}

int em_ufunc_kind_rank(em_dtype d)
{
    switch (kind_of(d)) {
    case EM_KIND_BOOL:
        return 0;
    case EM_KIND_INT:
    case EM_KIND_UINT:
        return 1;
    case EM_KIND_FLOAT:
        return 2;
    default:
        return 3;
    }
}

static em_dtype int_of_size(int size, int is_signed)
{
    switch (size) {
    case 1:
        return is_signed ? EM_INT8 : EM_UINT8;
    case 2:
        return is_signed ? EM_INT16 : EM_UINT16;
    case 4:
        return is_signed ? EM_INT32 : EM_UINT32;
    default:
        return is_signed ? EM_INT64 : EM_UINT64;
    }
}

/* The smallest float size that holds every value of d: 8-bit integers fit
 * a 2-byte float, 16-bit ones float32, wider ones float64; a complex
 * type's component size. */
static int float_size_for(em_dtype d)
{
    switch (kind_of(d)) {
    case EM_KIND_BOOL:
        return 2;
    case EM_KIND_INT:
    case EM_KIND_UINT:
        return size_of(d) == 1 ? 2 : size_of(d) == 2 ? 4 : 8;
    case EM_KIND_FLOAT:
        return size_of(d);
    default:
        return size_of(d) / 2;
    }
}

static em_dtype promote(em_dtype a, em_dtype b)
{
    em_dtype_kind ka = kind_of(a), kb = kind_of(b);
    int need;
    if (a == b || kb == EM_KIND_BOOL)
        return a;
    if (ka == EM_KIND_BOOL)
        return b;
    if (is_int_kind(a) && is_int_kind(b)) {
        em_dtype s, u;
        if (ka == kb)
            return size_of(a) >= size_of(b) ? a : b;
        s = ka == EM_KIND_INT ? a : b;
        u = ka == EM_KIND_INT ? b : a;
        if (size_of(s) > size_of(u))
            return s;
        /* A signed type twice the unsigned one's size holds both; past 64
         * bits only float64 comes close, as in NumPy. */
        return size_of(u) < 8 ? int_of_size(2 * size_of(u), 1) : EM_FLOAT64;
    }
    need = float_size_for(a) > float_size_for(b) ? float_size_for(a)
                                                 : float_size_for(b);
    if (need == 2) {
        /* Two different 16-bit floats (float16, bfloat16) hold neither
         * each other's values: float32 holds both. */
        int h = a == EM_FLOAT16 || b == EM_FLOAT16;
        int bf = a == EM_BFLOAT16 || b == EM_BFLOAT16;
        if (h && bf)
            need = 4;
        else if (ka != EM_KIND_COMPLEX && kb != EM_KIND_COMPLEX)
            return bf ? EM_BFLOAT16 : EM_FLOAT16;
    }
    if (ka == EM_KIND_COMPLEX || kb == EM_KIND_COMPLEX)
        return need <= 4 ? EM_COMPLEX64 : EM_COMPLEX128;
    return need == 4 ? EM_FLOAT32 : EM_FLOAT64;
}

em_status em_dtype_promote(em_dtype a, em_dtype b, em_dtype *out)
{
    if (!em_dtype_get(a) || !em_dtype_get(b) || !out)
        return em_error(EM_ERR_TYPE, "em_dtype_promote: invalid dtype %d or %d",
                        (int)a, (int)b);
    *out = promote(a, b);
    return EM_OK;
}

/* Safe casts as a table: the loop search asks for one per candidate loop
 * and operand on every operation, and computing promote() each time was
 * a quarter of a recorded operation's host time. */
static unsigned char safe_tab[EM_DTYPE_COUNT][EM_DTYPE_COUNT];
static pthread_once_t safe_once = PTHREAD_ONCE_INIT;

static void safe_init(void)
{
    for (int f = 0; f < EM_DTYPE_COUNT; f++)
        for (int t = 0; t < EM_DTYPE_COUNT; t++)
            safe_tab[f][t] = em_dtype_get((em_dtype)f) &&
                             em_dtype_get((em_dtype)t) &&
                             promote((em_dtype)f, (em_dtype)t) == (em_dtype)t;
}

static atomic_int safe_ready;

static int can_cast_safe(em_dtype from, em_dtype to)
{
    if (!atomic_load_explicit(&safe_ready, memory_order_acquire)) {
        pthread_once(&safe_once, safe_init);
        atomic_store_explicit(&safe_ready, 1, memory_order_release);
    }
    return (unsigned)from < EM_DTYPE_COUNT && (unsigned)to < EM_DTYPE_COUNT &&
           safe_tab[from][to];
}

int em_dtype_can_cast(em_dtype from, em_dtype to, em_casting casting)
{
    int rf, rt;
    if (!em_dtype_get(from) || !em_dtype_get(to))
        return 0;
    switch (casting) {
    case EM_CASTING_NO:
    case EM_CASTING_EQUIV:
        return from == to;
    case EM_CASTING_SAFE:
        return can_cast_safe(from, to);
    case EM_CASTING_SAME_KIND:
        if (can_cast_safe(from, to))
            return 1;
        rf = em_ufunc_kind_rank(from);
        rt = em_ufunc_kind_rank(to);
        /* Signed to unsigned is a change of kind; the reverse is not. */
        if (rf == 1 && rt == 1)
            return !(kind_of(from) == EM_KIND_INT &&
                     kind_of(to) == EM_KIND_UINT);
        return rf <= rt;
    case EM_CASTING_UNSAFE:
        return 1;
    }
    return 0;
}

/* ---- operands -------------------------------------------------------- */

/* The categories of weak Python scalars. Python bool is strong (NEP 50
 * treats it as numpy.bool). */
enum { W_NONE = 0, W_INT, W_FLOAT, W_COMPLEX };

static em_dtype operand_dtype(const em_operand *o)
{
    return o->array ? o->array->dtype : o->dtype;
}

static int weak_category(const em_operand *o)
{
    if (o->array || !o->weak)
        return W_NONE;
    switch (kind_of(o->dtype)) {
    case EM_KIND_INT:
    case EM_KIND_UINT:
        return W_INT;
    case EM_KIND_FLOAT:
        return W_FLOAT;
    case EM_KIND_COMPLEX:
        return W_COMPLEX;
    default:
        return W_NONE;
    }
}

const char *em_ufunc_operand_type_name(const em_operand *o)
{
    switch (weak_category(o)) {
    case W_INT:
        return "Python int";
    case W_FLOAT:
        return "Python float";
    case W_COMPLEX:
        return "Python complex";
    default:
        return em_dtype_get(operand_dtype(o))->name;
    }
}

static em_status check_operands(const char *fn, const em_operand *in, int nin)
{
    if (!in && nin > 0)
        return em_error(EM_ERR_INVALID_VALUE, "%s: inputs are NULL", fn);
    for (int k = 0; k < nin; k++) {
        if (in[k].array ? !em_dtype_get(in[k].array->dtype)
                        : !em_dtype_get(in[k].dtype))
            return em_error(EM_ERR_TYPE, "%s: input %d has an invalid dtype",
                            fn, k);
    }
    return EM_OK;
}

/* The dtype each operand takes part in resolution with, and whether it
 * stays weak (see the top of the file). */
static void effective_dtypes(const em_operand *in, int nin, em_dtype *eff,
                             int *weak)
{
    em_dtype d = EM_BOOL;
    int any_strong = 0;
    for (int k = 0; k < nin; k++)
        if (weak_category(&in[k]) == W_NONE) {
            d = any_strong ? promote(d, operand_dtype(&in[k]))
                           : operand_dtype(&in[k]);
            any_strong = 1;
        }
    for (int k = 0; k < nin; k++) {
        int w = weak_category(&in[k]);
        weak[k] = W_NONE;
        eff[k] = operand_dtype(&in[k]);
        if (w == W_NONE || !any_strong)
            continue; /* alone, a Python scalar is its default dtype */
        if (em_ufunc_kind_rank(d) > 0 && w <= em_ufunc_kind_rank(d)) {
            eff[k] = d;
            weak[k] = w;
        } else if (w == W_INT) {
            eff[k] = EM_INT64;
        } else if (w == W_FLOAT) {
            eff[k] = EM_FLOAT64;
        } else {
            eff[k] = kind_of(d) == EM_KIND_FLOAT && size_of(d) <= 4
                         ? EM_COMPLEX64
                         : EM_COMPLEX128;
        }
    }
}

em_status em_result_type(const em_operand *in, int n, em_dtype *out)
{
    em_dtype eff[EM_MAX_NDIM];
    int weak[EM_MAX_NDIM];
    em_dtype r;
    em_status st;
    if (n < 1 || n > EM_MAX_NDIM || !out)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_result_type: %d operands (1 to %d)", n,
                        EM_MAX_NDIM);
    if ((st = check_operands("em_result_type", in, n)) != EM_OK)
        return st;
    effective_dtypes(in, n, eff, weak);
    r = eff[0];
    for (int k = 1; k < n; k++)
        r = promote(r, eff[k]);
    *out = r;
    return EM_OK;
}

/* ---- loop search ----------------------------------------------------- */

/* Where a weak scalar may go besides its effective dtype. */
static int weak_allows(int w, em_dtype to)
{
    int r = em_ufunc_kind_rank(to);
    return w == W_INT ? r >= 1 : w == W_FLOAT ? r >= 2 : r == 3;
}

static int find_loop(const em_ufunc_loop *loops, int n, int nin,
                     const em_dtype *eff, const int *weak)
{
    for (int i = 0; i < n; i++) {
        int k;
        for (k = 0; k < nin; k++) {
            em_dtype to = (em_dtype)loops[i].in[k];
            if (!can_cast_safe(eff[k], to) &&
                !(weak[k] && weak_allows(weak[k], to)))
                break;
        }
        if (k == nin)
            return i;
    }
    return -1;
}

/* find_loop's answers, remembered: each operation asks again with the
 * same op and operand dtypes, and the search walks every loop before the
 * one that fits (a float32 multiply passes a dozen integer loops). A slot
 * holds the key in its high half and the loop index plus one in its low
 * half, so one atomic load reads a consistent entry; a collision only
 * replaces an entry. */
#define LOOP_CACHE_SLOTS 1024
static _Atomic uint64_t loop_cache[LOOP_CACHE_SLOTS];
_Static_assert(EM_OP_COUNT <= 1024 && EM_DTYPE_COUNT <= 64,
               "find_loop_cached's key has 10 bits of op, 6 of each dtype");

static int find_loop_cached(em_op op, const em_ufunc_loop *loops, int n,
                            int nin, const em_dtype *eff, const int *weak)
{
    uint32_t key = 1u + ((uint32_t)op | (uint32_t)nin << 10 |
                         (uint32_t)eff[0] << 12 |
                         (uint32_t)(nin > 1 ? eff[1] : 0) << 18 |
                         (uint32_t)weak[0] << 24 |
                         (uint32_t)(nin > 1 ? weak[1] : 0) << 27);
    uint32_t slot = (key * 2654435761u) >> 22; /* 10 bits */
    uint64_t e = atomic_load_explicit(&loop_cache[slot], memory_order_relaxed);
    int i;
    if ((uint32_t)(e >> 32) == key)
        return (int)(uint32_t)e - 1;
    i = find_loop(loops, n, nin, eff, weak);
    atomic_store_explicit(&loop_cache[slot],
                          (uint64_t)key << 32 | (uint32_t)(i + 1),
                          memory_order_relaxed);
    return i;
}

/* np.sinc's dtypes (a composite in NumPy, a loop list "d e f" here): a
 * loop for exactly the operand's dtype first, so float16 and float32 keep
 * theirs, else the first loop it casts to safely (float64). SciPy's own
 * ufuncs list f before d and need no such rule. */
static int exact_first_loop(const em_ufunc_loop *loops, int n, int nin,
                            const em_operand *in, const em_dtype *eff,
                            const int *weak)
{
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < nin && weak_category(&in[k]) == W_NONE &&
               loops[i].in[k] == (unsigned char)operand_dtype(&in[k]))
            k++;
        if (k == nin)
            return i;
    }
    return find_loop(loops, n, nin, eff, weak);
}

static int int_fits(const em_operand *o, em_dtype to)
{
    int64_t lo, v;
    uint64_t hi, u;
    int neg;
    if (o->dtype == EM_UINT64) {
        u = o->value.u;
        neg = 0;
    } else {
        v = o->value.i;
        neg = v < 0;
        u = neg ? 0 - (uint64_t)v : (uint64_t)v;
    }
    switch (to) {
    case EM_INT8:
        lo = INT8_MIN;
        hi = INT8_MAX;
        break;
    case EM_INT16:
        lo = INT16_MIN;
        hi = INT16_MAX;
        break;
    case EM_INT32:
        lo = INT32_MIN;
        hi = INT32_MAX;
        break;
    case EM_INT64:
        lo = INT64_MIN;
        hi = INT64_MAX;
        break;
    case EM_UINT8:
        lo = 0;
        hi = UINT8_MAX;
        break;
    case EM_UINT16:
        lo = 0;
        hi = UINT16_MAX;
        break;
    case EM_UINT32:
        lo = 0;
        hi = UINT32_MAX;
        break;
    case EM_UINT64:
        lo = 0;
        hi = UINT64_MAX;
        break;
    default:
        return 1; /* an inexact loop: cast, maybe to inf */
    }
    if (neg)
        return lo < 0 && u <= (uint64_t)0 - (uint64_t)lo;
    return u <= hi;
}

static void format_int(const em_operand *o, char *buf, size_t n)
{
    if (o->dtype == EM_UINT64)
        snprintf(buf, n, "%" PRIu64, o->value.u);
    else
        snprintf(buf, n, "%" PRId64, o->value.i);
}

em_status em_ufunc_check_pyint(const em_operand *o, em_dtype to)
{
    char num[32];
    if (o->array || !o->weak || !is_int_kind(o->dtype) || int_fits(o, to))
        return EM_OK;
    format_int(o, num, sizeof num);
    return em_error(EM_ERR_OVERFLOW, "Python integer %s out of bounds for %s",
                    num, em_dtype_get(to)->name);
}

static em_status no_loop_error(const em_op_info *info, const em_operand *in,
                               int nin)
{
    if (nin == 1)
        return em_error(EM_ERR_TYPE,
                        "ufunc '%s' not supported for the input type %s",
                        info->name, em_ufunc_operand_type_name(&in[0]));
    return em_error(EM_ERR_TYPE,
                    "ufunc '%s' not supported for the input types %s, %s",
                    info->name, em_ufunc_operand_type_name(&in[0]),
                    em_ufunc_operand_type_name(&in[1]));
}

static em_status resolve_once(em_op op, const em_operand *in, int nin,
                              em_dtype *loop_in, em_dtype *loop_out,
                              int *overflow_at)
{
    const em_op_info *info = em_op_get(op);
    unsigned flags = em_ufunc_flags(op);
    em_dtype eff[2];
    int weak[2], n, i, all_bool = 1, all_int = 1;
    const em_ufunc_loop *loops = em_ufunc_loops(op, &n);

    *overflow_at = -1;
    effective_dtypes(in, nin, eff, weak);
    for (int k = 0; k < nin; k++) {
        all_bool = all_bool && eff[k] == EM_BOOL;
        all_int = all_int && em_ufunc_kind_rank(eff[k]) <= 1;
    }
    if ((flags & EM_UF_NO_BOOL) && all_bool) {
        if (op == EM_OP_SUBTRACT)
            return em_error(
                EM_ERR_TYPE,
                "numpy boolean subtract, the `-` operator, is "
                "not supported, use the bitwise_xor, the `^` operator, or "
                "the logical_xor function instead.");
        if (op == EM_OP_NEGATIVE)
            return em_error(
                EM_ERR_TYPE,
                "The numpy boolean negative, the `-` operator, "
                "is not supported, use the `~` operator or the logical_not "
                "function instead.");
        return no_loop_error(info, in, nin);
    }
    if ((flags & EM_UF_TRUE_DIVIDE) && all_int) {
        loop_in[0] = loop_in[1] = *loop_out = EM_FLOAT64;
    } else if (flags & EM_UF_LOGICAL) {
        /* NumPy computes mixed-type logical ops on bools. */
        em_dtype t = (!weak_category(&in[0]) && !weak_category(&in[1]) &&
                      operand_dtype(&in[0]) == operand_dtype(&in[1]))
                         ? operand_dtype(&in[0])
                         : EM_BOOL;
        loop_in[0] = loop_in[1] = t;
        *loop_out = EM_BOOL;
    } else {
        i = op == EM_OP_SINC ? exact_first_loop(loops, n, nin, in, eff, weak)
                             : find_loop_cached(op, loops, n, nin, eff, weak);
        if (i < 0)
            return no_loop_error(info, in, nin);
        for (int k = 0; k < nin; k++)
            loop_in[k] = (em_dtype)loops[i].in[k];
        *loop_out = (em_dtype)loops[i].out;
    }
    for (int k = 0; k < nin; k++)
        if (!in[k].array && is_int_kind(in[k].dtype) && in[k].weak &&
            !int_fits(&in[k], loop_in[k])) {
            *overflow_at = k;
            return EM_ERR_OVERFLOW;
        }
    return EM_OK;
}

/* Whole resolutions, remembered: every recorded operation of a fused
 * chain resolved the same (op, dtypes) again, a fifth of its host time.
 * The answer depends only on the op and, per operand, its dtype and weak
 * category (effective_dtypes, the loop search, the logical and division
 * rules); a Python int's value matters only to the overflow check, which
 * a hit still makes. Only successes are kept, so a hit also stands for
 * the checks of op, nin and dtypes that the slow path makes. A slot holds
 * the key in its high half and the three dtypes in its low half, read in
 * one atomic load; a collision only replaces an entry. */
#define RESOLVE_CACHE_SLOTS 512
static _Atomic uint64_t resolve_cache[RESOLVE_CACHE_SLOTS];

/* The key of in[0..nin) under op (never 0), or 0 when it has none. */
static uint32_t resolve_key(em_op op, const em_operand *in, int nin)
{
    uint32_t key;
    if (!in || (unsigned)op >= EM_OP_COUNT || nin < 1 || nin > 2)
        return 0;
    key = (uint32_t)op | (uint32_t)(nin - 1) << 10;
    for (int k = 0; k < nin; k++) {
        em_dtype d = operand_dtype(&in[k]);
        if ((unsigned)d >= EM_DTYPE_COUNT)
            return 0;
        key |= ((uint32_t)d | (uint32_t)weak_category(&in[k]) << 6)
               << (11 + 8 * k);
    }
    return key + 1;
}

static int resolve_slot(uint32_t key) { return (int)((key * 2654435761u) >> 23); }

/* A cached resolution of key into loop_in, loop_out: 1 when found and
 * every Python int fits its loop dtype (else the slow path reports it). */
static int resolve_cached(uint32_t key, const em_operand *in, int nin,
                          em_dtype *loop_in, em_dtype *loop_out)
{
    uint64_t e = atomic_load_explicit(&resolve_cache[resolve_slot(key)],
                                      memory_order_relaxed);
    if (!key || (uint32_t)(e >> 32) != key)
        return 0;
    for (int k = 0; k < nin; k++)
        if (weak_category(&in[k]) == W_INT &&
            !int_fits(&in[k], (em_dtype)(e >> (8 * k) & 0xff)))
            return 0;
    for (int k = 0; k < nin; k++)
        loop_in[k] = (em_dtype)(e >> (8 * k) & 0xff);
    *loop_out = (em_dtype)(e >> 16 & 0xff);
    return 1;
}

static void resolve_remember(uint32_t key, int nin, const em_dtype *loop_in,
                             em_dtype loop_out)
{
    uint64_t v = (uint64_t)loop_in[0] | (uint64_t)loop_out << 16;
    if (nin > 1)
        v |= (uint64_t)loop_in[1] << 8;
    atomic_store_explicit(&resolve_cache[resolve_slot(key)],
                          (uint64_t)key << 32 | v, memory_order_relaxed);
}
_Static_assert(EM_OP_COUNT <= 1024 && EM_DTYPE_COUNT <= 64,
               "resolve_key has 10 bits of op, 6 of each dtype");

em_status em_ufunc_resolve_full(em_op op, const em_operand *in, int nin,
                                em_dtype *loop_in, em_dtype *loop_out)
{
    const em_op_info *info;
    uint32_t key = resolve_key(op, in, nin);
    int at;
    em_status st;
    if (resolve_cached(key, in, nin, loop_in, loop_out))
        return EM_OK;
    info = em_op_get(op);
    if (!info)
        return em_error(EM_ERR_INVALID_VALUE, "invalid ufunc op %d", (int)op);
    if (nin != info->nin)
        return em_error(EM_ERR_INVALID_VALUE,
                        "ufunc '%s' takes %d input%s, not %d", info->name,
                        info->nin, info->nin == 1 ? "" : "s", nin);
    if ((st = check_operands(info->name, in, nin)) != EM_OK)
        return st;
    st = resolve_once(op, in, nin, loop_in, loop_out, &at);
    if (st == EM_OK && key)
        resolve_remember(key, nin, loop_in, *loop_out);
    if (st == EM_ERR_OVERFLOW && (em_ufunc_flags(op) & EM_UF_COMPARE)) {
        /* Compare the value itself: as a strong int64 (or uint64), which
         * the exact qQ/Qq loops handle against any integer type. */
        em_operand copy[2];
        memcpy(copy, in, (size_t)nin * sizeof *copy);
        copy[at].weak = 0;
        copy[at].dtype = in[at].dtype == EM_UINT64 && in[at].value.u > INT64_MAX
                             ? EM_UINT64
                             : EM_INT64;
        if (copy[at].dtype == EM_INT64 && in[at].dtype == EM_UINT64)
            copy[at].value.i = (int64_t)in[at].value.u;
        st = resolve_once(op, copy, nin, loop_in, loop_out, &at);
    }
    if (st == EM_ERR_OVERFLOW) {
        char num[32];
        format_int(&in[at], num, sizeof num);
        return em_error(EM_ERR_OVERFLOW,
                        "Python integer %s out of bounds for %s", num,
                        em_dtype_get(loop_in[at])->name);
    }
    return st;
}

em_status em_ufunc_check_supported(em_op op, const em_dtype *loop_in)
{
    if ((em_ufunc_flags(op) & EM_UF_NO_COMPLEX) &&
        kind_of(loop_in[0]) == EM_KIND_COMPLEX)
        return em_error(EM_ERR_TYPE,
                        "ufunc '%s' is not supported for %s yet in ember "
                        "(real types are)",
                        em_op_get(op)->name, em_dtype_get(loop_in[0])->name);
    return EM_OK;
}

em_status em_ufunc_resolve(em_op op, const em_operand *in, int nin,
                           em_dtype *loop_dtype, em_dtype *out_dtype)
{
    em_dtype li[2], lo;
    em_status st;
    if (nin < 1 || nin > 2)
        return em_error(EM_ERR_INVALID_VALUE, "em_ufunc_resolve: %d inputs",
                        nin);
    st = em_ufunc_resolve_full(op, in, nin, li, &lo);
    if (st != EM_OK)
        return st;
    if (loop_dtype)
        for (int k = 0; k < nin; k++)
            loop_dtype[k] = li[k];
    if (out_dtype)
        *out_dtype = lo;
    return EM_OK;
}
