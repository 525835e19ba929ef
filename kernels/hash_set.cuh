/* ember: the hash set of 4- or 8-byte keys (CC_ESIZE) that unique and the
 * set operations build (src/codegen/compact.c pastes it after
 * compact_common.cuh; the schedule is in src/codegen/compact.h).
 * Open addressing with linear probing; the all-ones key marks an empty
 * slot, so it is recorded apart. w[0] keys inserted, w[1] overflow, w[2]
 * the empty key was seen, w[3] the extraction cursor, w[4] how often the
 * empty key was seen (with counts, CH_COUNTS: cnt[slot] counts each key,
 * 32-bit as n < 2^32). Inserts are reported every 1024 keys (cuda: summed
 * over a warp's 1024 keys first), so the table's fill is known early
 * enough to stop a hopeless attempt. */
typedef CC_WORD ch_k;
#define CH_EMPTY ((ch_k)~(ch_k)0)
/* MurmurHash3's finalizer of the key's width: its shifts S1..S3 and
 * multipliers M1, M2 for 64 or 32 bits. */
#if CC_ESIZE == 8
typedef unsigned long long ch_hw;
#define CH_S1 33
#define CH_M1 0xff51afd7ed558ccdull
#define CH_S2 33
#define CH_M2 0xc4ceb9fe1a85ec53ull
#define CH_S3 33
#else
typedef unsigned int ch_hw;
#define CH_S1 16
#define CH_M1 0x85ebca6bu
#define CH_S2 13
#define CH_M2 0xc2b2ae35u
#define CH_S3 16
#endif
__device__ __forceinline__ unsigned long long ch_hash(ch_hw x)
{
    x ^= x >> CH_S1;
    x *= CH_M1;
    x ^= x >> CH_S2;
    x *= CH_M2;
    return x ^ (x >> CH_S3);
}
/* One key into the table; returns 1 when it was new. */
__device__ __forceinline__ int ch_put(ch_k *table, unsigned long long mask, ch_k k, volatile unsigned long long *vw, unsigned int *cnt)
{
    (void)cnt;
    if (k == CH_EMPTY) {
        if (!vw[2])
            vw[2] = 1;
        if (CH_COUNTS)
            atomicAdd((unsigned long long *)vw + 4, 1ull);
        return 0;
    }
    unsigned long long h = ch_hash(k) & mask;
    for (int p = 0;; p++) {
        const ch_k cur = ((volatile ch_k *)table)[h];
        int isnew = 0;
        if (cur == CH_EMPTY) {
            const ch_k old = atomicCAS(table + h, CH_EMPTY, k);
            isnew = old == CH_EMPTY;
            if (isnew || old == k) {
                if (CH_COUNTS)
                    atomicAdd(cnt + h, 1u);
                return isnew;
            }
        } else if (cur == k) {
            if (CH_COUNTS)
                atomicAdd(cnt + h, 1u);
            return 0;
        }
        if (p >= CH_MAX_PROBE) {
            vw[1] = 1;
            return 0;
        }
        h = (h + 1) & mask;
    }
}
extern "C" __global__ void ch_insert(const ch_k *keys, long long n, ch_k *table, unsigned long long mask, unsigned long long *w, unsigned long long limit, long long chunk, unsigned int *cnt)
{
    volatile unsigned long long *vw = w;
    unsigned long long mine = 0;
    long long it = 0;
#if CC_CUDA
    /* A warp takes 128 keys a round (four loads in flight a thread).
     * Whole warps go round the loop together (keys past n idle), so the
     * warp-wide sums and the stop decision stay uniform. */
    const int lane = threadIdx.x & 31;
    const long long step = (long long)gridDim.x * blockDim.x * 4;
    (void)chunk;
    for (long long wb = ((long long)blockIdx.x * blockDim.x + threadIdx.x - lane) * 4; wb < n; wb += step, it++) {
        if ((it & 7) == 7) {
            int stop = 0;
            for (int o = 16; o > 0; o >>= 1)
                mine += __shfl_xor_sync(0xffffffffu, mine, o);
            if (lane == 0) {
                if (mine && atomicAdd(w, mine) + mine > limit)
                    vw[1] = 1;
                stop = vw[1] != 0;
            }
            mine = 0;
            if (__shfl_sync(0xffffffffu, stop, 0))
                return;
        }
        ch_k kk[4];
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const long long i = wb + j * 32 + lane;
            kk[j] = i < n ? keys[i] : 0;
        }
#pragma unroll
        for (int j = 0; j < 4; j++)
            if (wb + j * 32 + lane < n)
                mine += ch_put(table, mask, kk[j], vw, cnt);
    }
    for (int o = 16; o > 0; o >>= 1)
        mine += __shfl_xor_sync(0xffffffffu, mine, o);
    if (lane == 0 && mine)
        atomicAdd(w, mine);
#else
    const long long lo = (long long)blockIdx.x * chunk;
    const long long hi = n - lo < chunk ? n : lo + chunk;
    for (long long i = lo; i < hi; i++, it++) {
        if ((it & 1023) == 1023) {
            if (mine && atomicAdd(w, mine) + mine > limit)
                vw[1] = 1;
            mine = 0;
            if (vw[1])
                return;
        }
        mine += ch_put(table, mask, keys[i], vw, cnt);
    }
    if (mine)
        atomicAdd(w, mine);
#endif
}
extern "C" __global__ void ch_extract(const ch_k *table, long long slots, ch_k *out, unsigned long long *w, long long distinct, long long chunk, const unsigned int *cnt, long long *oc)
{
    (void)cnt;
    (void)oc;
#if CC_CUDA
    /* 16 slots a thread; a warp takes its places with one atomicAdd. */
    const int lane = threadIdx.x & 31;
    const long long lo = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 16;
    (void)chunk;
    ch_k v[16];
    int c = 0;
#pragma unroll
    for (int j = 0; j < 16; j++) {
        v[j] = lo + j < slots ? table[lo + j] : CH_EMPTY;
        c += v[j] != CH_EMPTY;
    }
    int incl = c;
    for (int o = 1; o < 32; o <<= 1) {
        const int y = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o)
            incl += y;
    }
    unsigned long long at = 0;
    const int sum = __shfl_sync(0xffffffffu, incl, 31);
    if (lane == 31 && sum)
        at = atomicAdd(w + 3, (unsigned long long)sum);
    at = __shfl_sync(0xffffffffu, at, 31) + (incl - c);
#pragma unroll
    for (int j = 0; j < 16; j++)
        if (v[j] != CH_EMPTY) {
            if (CH_COUNTS)
                oc[at] = cnt[lo + j];
            out[at++] = v[j];
        }
    if (blockIdx.x == 0 && threadIdx.x == 0 && w[2]) {
        out[distinct] = CH_EMPTY;
        if (CH_COUNTS)
            oc[distinct] = (long long)w[4];
    }
#else
    const long long lo = (long long)blockIdx.x * chunk;
    const long long hi = slots - lo < chunk ? slots : lo + chunk;
    unsigned long long c = 0, at;
    for (long long i = lo; i < hi; i++)
        c += table[i] != CH_EMPTY;
    at = c ? atomicAdd(w + 3, c) : 0;
    for (long long i = lo; i < hi && c; i++)
        if (table[i] != CH_EMPTY) {
            if (CH_COUNTS)
                oc[at] = cnt[i];
            out[at++] = table[i];
        }
    if (blockIdx.x == 0 && w[2]) {
        out[distinct] = CH_EMPTY;
        if (CH_COUNTS)
            oc[distinct] = (long long)w[4];
    }
#endif
}
