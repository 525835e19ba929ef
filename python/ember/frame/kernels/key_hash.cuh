/* ember.frame's hash groups (_hash_groups.py): each row's key, 64 bits
 * (an integer, a float's normalised bits, or codes combined from several
 * columns), to a slot of an open-addressing table (linear probing, one
 * atomicCAS where a key is new), and each slot's first row by a checked
 * atomicMin. value_counts, duplicated and drop_duplicates then read
 * counts, first rows and slots without a sort, as pandas' hash tables do.
 *
 * Slots: [0, cap) the table (or, for keys in a small range, key - lo
 * directly, no probing), cap the null rows' slot, cap + 1 the all-ones
 * key's (the table's empty marker). `order` numbers the rows as they are
 * taken: row i itself, or n - 1 - i when `rev` (keep='last' is keep='first'
 * of the reversed rows), and first[] holds the least such number.
 *
 * Rows: with chunk > 0 (cpu) block b takes rows [b * chunk, (b + 1) *
 * chunk) in order, so the atomicMin check rarely fires; chunk == 0 (cuda)
 * is the grid-stride loop of coalesced loads. */

#define EM_KH_EMPTY 0xffffffffffffffffull

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

__device__ __forceinline__ long long em_kh_slot(unsigned long long k,
                                                unsigned long long lo,
                                                int direct,
                                                unsigned long long mask,
                                                unsigned long long *tkeys)
{
    if (k == EM_KH_EMPTY)
        return (long long)mask + 2;
    if (direct)
        return (long long)(k - lo);
    unsigned long long h = em_kh_mix(k) & mask;
    for (;;) {
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

__device__ __forceinline__ void em_kh_row(long long i, const unsigned long long *keys,
                                          const unsigned char *valid, int has_valid,
                                          long long n, int rev, unsigned long long lo, int direct,
                                          unsigned long long mask,
                                          unsigned long long *tkeys, long long *first,
                                          long long *slot)
{
    const long long s = has_valid && !valid[i] ? (long long)mask + 1
                                           : em_kh_slot(keys[i], lo, direct, mask, tkeys);
    const long long o = rev ? n - 1 - i : i;
    slot[i] = s;
    if (o < ((volatile long long *)first)[s])
        atomicMin(first + s, o);
}

/* cap = mask + 1 table slots (a power of two, or the direct range);
 * first[] (cap + 2 entries) starts at n, tkeys at all ones. valid (one
 * byte a row, 0: null) is read only when has_valid. */
extern "C" __global__ void em_kh_insert(const unsigned long long *keys,
                                        const unsigned char *valid, int has_valid,
                                        long long n, long long chunk, int rev,
                                        unsigned long long lo, int direct,
                                        unsigned long long mask,
                                        unsigned long long *tkeys, long long *first,
                                        long long *slot)
{
    if (chunk > 0) {
        const long long a = (long long)blockIdx.x * chunk;
        const long long b = n - a < chunk ? n : a + chunk;
        if (rev) {   /* the reversed order's first rows are met first */
            for (long long i = b - 1; i >= a; i--)
                em_kh_row(i, keys, valid, has_valid, n, rev, lo, direct, mask, tkeys, first, slot);
        } else {
            for (long long i = a; i < b; i++)
                em_kh_row(i, keys, valid, has_valid, n, rev, lo, direct, mask, tkeys, first, slot);
        }
        return;
    }
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        em_kh_row(i, keys, valid, has_valid, n, rev, lo, direct, mask, tkeys, first, slot);
}

/* duplicated: a row repeats an earlier one (in `order`) of its slot. */
extern "C" __global__ void em_kh_dup(const long long *slot, const long long *first,
                                     long long n, int rev, unsigned char *out)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        out[i] = first[slot[i]] != (rev ? n - 1 - i : i);
}
