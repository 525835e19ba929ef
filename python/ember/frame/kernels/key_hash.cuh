/* ember.frame's hash groups (_hash_groups.py): each row's key, 64 bits
 * (an integer, a float's normalised bits, or codes combined from several
 * columns), to a slot of an open-addressing table (linear probing, one
 * atomicCAS where a key is new), and each slot's first row by a checked
 * atomicMin. value_counts, duplicated and drop_duplicates then read
 * counts, first rows and slots without a sort, as pandas' hash tables do.
 *
 * Slots: [0, cap) the table (or, for keys in a small range, key - lo
 * directly, no probing), cap the null rows' slot, cap + 1 the all-ones
 * key's (the table's empty marker), cap + 2 the rows that found a
 * guessed table full (see em_kh_slot). `order` numbers the rows as they are
 * taken: row i itself, or n - 1 - i when `rev` (keep='last' is keep='first'
 * of the reversed rows), and a slot's first row is the least such number. Slots
 * are int32 (S = int) while they fit, halving the bytes the row pass
 * writes and the next one reads.
 *
 * Rows as in rows.cuh (on cpu a block's rows in order, so the atomicMin
 * check rarely fires and no call is made a row). */

#define EM_KH_EMPTY 0xffffffffffffffffull
/* mode bits: write each row's slot; count the rows of each slot (value_counts
 * needs no slots, only counts and first rows) */
#define EM_KH_SLOTS 1
#define EM_KH_COUNTS 2

__device__ __forceinline__ unsigned long long em_kh_mix(unsigned long long x)
{
    /* MurmurHash3's 64-bit finaliser: every key bit reaches the low bits
     * the mask keeps */
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

/* A key's slot. A table sized from a guess of the distinct keys (the
 * caller's sample) may fill up: after `limit` probes the row takes the
 * overflow slot mask + 3 instead, whose first row then tells the caller
 * to insert again into a table of twice the rows (where limit exceeds the
 * table and is never reached). */
__device__ __forceinline__ long long em_kh_slot(unsigned long long k,
                                                unsigned long long lo,
                                                int direct,
                                                unsigned long long mask,
                                                long long limit,
                                                unsigned long long *tkeys)
{
    if (k == EM_KH_EMPTY)
        return (long long)mask + 2;
    if (direct)
        return (long long)(k - lo);
    unsigned long long h = em_kh_mix(k) & mask;
    for (long long probe = 0;; probe++) {
        if (probe > limit)
            return (long long)mask + 3;
        const unsigned long long cur = ((volatile unsigned long long *)tkeys)[h];
        if (cur == k)
            return (long long)h;
        if (cur == EM_KH_EMPTY) {
            const unsigned long long old = atomicCAS(tkeys + h, EM_KH_EMPTY, k);
            if (old == EM_KH_EMPTY || old == k)
                return (long long)h;
        }
        h = (h + 1) & mask;   /* the table has twice the rows' slots */
    }
}

template <typename S>
__device__ __forceinline__ void em_kh_row(long long i, const unsigned long long *keys,
                                          const unsigned char *valid, int has_valid,
                                          long long n, int rev, unsigned long long lo,
                                          int direct, unsigned long long mask,
                                          long long limit, unsigned long long *tkeys,
                                          long long *ent, S *slot, int mode)
{
    const long long s = has_valid && !valid[i] ? (long long)mask + 1
                                               : em_kh_slot(keys[i], lo, direct, mask, limit,
                                                            tkeys);
    const long long o = rev ? n - 1 - i : i;
    if (mode & EM_KH_SLOTS)
        slot[i] = (S)s;
    if (mode & EM_KH_COUNTS)
        atomicAdd((unsigned long long *)ent + 2 * s + 1, 1ull);
    if (o < ((volatile long long *)ent)[2 * s])
        atomicMin(ent + 2 * s, o);
}

/* cap = mask + 1 table slots (a power of two, or the direct range);
 * ent[] holds two long longs a slot (cap + 3 of them), its first row
 * (starts at n) and its count (starts at 0), side by side so that a row
 * touches one cache line of them; tkeys starts at all ones. valid (one
 * byte a row, 0: null) is read only when has_valid. */
/* The rows [a, e) (backwards when back) with direct and has_valid fixed
 * at compile time: the row loop carries no test of them. */
template <typename S, int D, int V>
__device__ void em_kh_run(long long a, long long e, long long st, int back,
                          const unsigned long long *keys, const unsigned char *valid,
                          long long n, int rev, unsigned long long lo, unsigned long long mask,
                          long long limit, unsigned long long *tkeys, long long *ent, S *slot,
                          int mode)
{
    if (back) {
        for (long long i = e - 1; i >= a; i--)
            em_kh_row(i, keys, valid, V, n, rev, lo, D, mask, limit, tkeys, ent, slot, mode);
    } else {
        for (long long i = a; i < e; i += st)
            em_kh_row(i, keys, valid, V, n, rev, lo, D, mask, limit, tkeys, ent, slot, mode);
    }
}

template <typename S>
__device__ void em_kh_insert(const unsigned long long *keys, const unsigned char *valid,
                             int has_valid, long long n, long long chunk, int rev,
                             unsigned long long lo, int direct, unsigned long long mask,
                             long long limit, unsigned long long *tkeys, long long *ent,
                             S *slot, int mode)
{
    long long a, e, st;
    em_rows_range(n, chunk, &a, &e, &st);
    /* a cpu run backwards when rev: the reversed order's first rows come first */
    const int back = chunk > 0 && rev;
    if (direct && has_valid)
        em_kh_run<S, 1, 1>(a, e, st, back, keys, valid, n, rev, lo, mask, limit, tkeys,
                                 ent, slot, mode);
    else if (direct)
        em_kh_run<S, 1, 0>(a, e, st, back, keys, valid, n, rev, lo, mask, limit, tkeys,
                                 ent, slot, mode);
    else if (has_valid)
        em_kh_run<S, 0, 1>(a, e, st, back, keys, valid, n, rev, lo, mask, limit, tkeys,
                                 ent, slot, mode);
    else
        em_kh_run<S, 0, 0>(a, e, st, back, keys, valid, n, rev, lo, mask, limit, tkeys,
                                 ent, slot, mode);
}

/* duplicated: a row repeats an earlier one (in `order`) of its slot. */
template <typename S>
__device__ void em_kh_dup(const S *slot, const long long *ent, long long n,
                          long long chunk, int rev, unsigned char *out)
{
    long long a, e, st;
    em_rows_range(n, chunk, &a, &e, &st);
    for (long long i = a; i < e; i += st)
        out[i] = ent[2 * (long long)slot[i]] != (rev ? n - 1 - i : i);
}

/* The kernels, one pair a slot width (written out: the cpu launcher
 * reads each kernel's parameters from its own text). */
extern "C" __global__ void em_kh_insert32(const unsigned long long *keys,
                                          const unsigned char *valid, int has_valid,
                                          long long n, long long chunk, int rev,
                                          unsigned long long lo, int direct,
                                          unsigned long long mask, long long limit,
                                          unsigned long long *tkeys, long long *ent, int *slot,
                                          int mode)
{
    em_kh_insert<int>(keys, valid, has_valid, n, chunk, rev, lo, direct, mask, limit, tkeys,
                   ent, slot, mode);
}

extern "C" __global__ void em_kh_dup32(const int *slot, const long long *ent, long long n,
                                       long long chunk, int rev, unsigned char *out)
{
    em_kh_dup<int>(slot, ent, n, chunk, rev, out);
}

extern "C" __global__ void em_kh_insert64(const unsigned long long *keys,
                                          const unsigned char *valid, int has_valid,
                                          long long n, long long chunk, int rev,
                                          unsigned long long lo, int direct,
                                          unsigned long long mask, long long limit,
                                          unsigned long long *tkeys, long long *ent, long long *slot,
                                          int mode)
{
    em_kh_insert<long long>(keys, valid, has_valid, n, chunk, rev, lo, direct, mask, limit, tkeys,
                   ent, slot, mode);
}

extern "C" __global__ void em_kh_dup64(const long long *slot, const long long *ent, long long n,
                                       long long chunk, int rev, unsigned char *out)
{
    em_kh_dup<long long>(slot, ent, n, chunk, rev, out);
}

/* The least and greatest key of this thread's rows (lo[t], hi[t]; none:
 * the int64 extremes reversed), one pass where min() and max() take two:
 * a small range is addressed directly. */
extern "C" __global__ void em_kh_bounds(const long long *keys, long long n, long long chunk,
                                        long long *lo, long long *hi)
{
    long long a, e, st;
    em_rows_range(n, chunk, &a, &e, &st);
    long long l = 0x7fffffffffffffffll, h = -0x7fffffffffffffffll - 1;
    for (long long i = a; i < e; i += st) {
        const long long k = keys[i];
        l = k < l ? k : l;
        h = k > h ? k : h;
    }
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    lo[t] = l;
    hi[t] = h;
}
