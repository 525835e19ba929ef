/* ember: one pass of the CUDA radix sort (src/codegen/sort_onesweep.c
 * pastes it once per value kind after sort_onesweep_up.cuh, with OS_VT
 * the value type, OS_VALS 1 with values, OS_ITEMS keys per thread and
 * OS_WIN tiles read at once in the look-back defined; it replaces the
 * capitalised name placeholder with the kernel's name as text, since the
 * runtime reads kernel names from the source before preprocessing).
 *
 * The pass's plan word (OS_SKIP, srt_up) picks its digit, its source
 * among the input k0/v0 and the buffers a and b, its destination, and its
 * status array among s0 and s1. v0 NULL: the values are the keys' input
 * positions (argsort's first pass). offs: this pass's 256 digit offsets;
 * a status array: ntiles * 256 words, zero before the pass (a pass zeroes
 * the next one's); ctr: the tile counter, zero before the pass. Dynamic
 * shared memory holds, for 8-byte keys (OS_DYNBUF), the tile's keys in
 * order (buf: 20 keys a thread take 40 KiB, past the 48 KiB of static
 * shared memory with the counters; smaller keys keep buf static), then
 * with values the tile's values in input order (vst, loaded with
 * cp.async while the keys are ranked) and each place's input index
 * (inv), 256 * OS_ITEMS * (sizeof(OS_VT) + 2) bytes.
 *
 * The value type under a name of this kernel's own: the host compiler's
 * launchers, written after all three passes, name the parameter types. */
typedef OS_VT OS_NAME_vt;
extern "C" __global__ void __launch_bounds__(256, OS_MINB(OS_ITEMS, OS_VALS, sizeof(OS_NAME_vt))) OS_NAME(const srt_raw *k0, srt_raw *ka, srt_raw *kb, const OS_NAME_vt *v0, OS_NAME_vt *va, OS_NAME_vt *vb, long long n, int desc, const unsigned *offs, unsigned *s0, unsigned *s1, unsigned *ctr, const unsigned *plan, const unsigned *cmap)
{
    __shared__ unsigned wh[8][256];
#if OS_ADAPT
    /* the compressed map of a data-chosen top pass (srt_up), as bytes */
    __shared__ unsigned cm_s[EM_SRT_OS_MAP_WORDS];
    for (int i = threadIdx.x; i < EM_SRT_OS_MAP_WORDS; i += 256) cm_s[i] = cmap[i];
#endif
    /* n < 2^30: a key's place, and gbase, fit an int */
    __shared__ int gbase[256];
    __shared__ unsigned wt[8];
    __shared__ unsigned tile_s, plan_s;
    extern __shared__ __align__(16) unsigned char os_dyn[];
#if OS_DYNBUF
    srt_raw *const buf = (srt_raw *)os_dyn;
#else
    __shared__ srt_raw buf[256 * OS_ITEMS];
#endif
    OS_NAME_vt *const vst = (OS_NAME_vt *)(os_dyn + OS_DYNBUF * sizeof(srt_raw) * 256 * OS_ITEMS);
    unsigned short *const inv = (unsigned short *)(os_dyn + (OS_DYNBUF * sizeof(srt_raw) + sizeof(OS_NAME_vt)) * 256 * OS_ITEMS);
    const int t = threadIdx.x, lane = t & 31, w = t >> 5;
    srt_raw key[OS_ITEMS];
    /* dg: a key's digit (256: no key). */
    unsigned dg[OS_ITEMS];
/* Integer keys only: the digit is taken from the key again where
 * needed rather than kept, so 24 keys a thread fit 64 registers. A
 * float's image costs more to take twice than the registers save:
 * OS_KEEP (bench/README.md, 'onesweep'). */
#undef OS_D
#define OS_D(j) (OS_VALS || OS_KEEP ? dg[j] : wbase + (j) * 32 < tn ? OS_DIG(key[j]) : 256u)
#undef OS_DIG
#if OS_ADAPT
#define OS_DIG(k) (cmp ? (unsigned)((const unsigned char *)cm_s)[SRT_DIG(k)] : SRT_DIG(k))
#else
#define OS_DIG(k) SRT_DIG(k)
#endif
    if (t == 0) {
        tile_s = atomicAdd(ctr, 1u);
        plan_s = *plan;
    }
    for (int i = t; i < 8 * 256; i += 256) (&wh[0][0])[i] = 0u;
    __syncthreads();
    const unsigned pl = plan_s, tile = tile_s;
    if (pl & OS_SKIP) return;
    const int shift = pl >> 8 & 63u, cmp = (pl & OS_CMAP) != 0u;
    const unsigned mask = (1u << (pl >> 14 & 15u)) - 1u;
    (void)cmp;
    const unsigned src = pl >> 1 & 3u;
    const srt_raw *const kin = src == 0u ? k0 : src == 1u ? ka : kb;
    srt_raw *const kout = pl >> 3 & 1u ? kb : ka;
    const OS_NAME_vt *const vin = src == 0u ? v0 : src == 1u ? va : vb;
    OS_NAME_vt *const vout = pl >> 3 & 1u ? vb : va;
    volatile unsigned *const st = (volatile unsigned *)(pl >> 4 & 1u ? s1 : s0);
    unsigned *const next = pl >> 5 & 1u ? (pl >> 4 & 1u ? s0 : s1) : NULL;
    const long long t0 = (long long)tile * (256 * OS_ITEMS);
    const int tn = n - t0 < 256 * OS_ITEMS ? (int)(n - t0) : 256 * OS_ITEMS;
    const int wbase = w * (32 * OS_ITEMS) + lane;
    /* The next pass's status words for this tile start at zero (that pass
     * starts after this one ends), so the host clears only the first. */
    if (next) next[(long long)tile * 256 + t] = 0u;
    /* All OS_ITEMS loads are issued before any key is used: with the digit
     * taken in the same guarded step, each load sat in its own branch and
     * the block waited out one memory latency per key (ncu: half of a
     * float64 pass's warp samples on the first use of each load). */
    const int full = tn == 256 * OS_ITEMS;
#pragma unroll
    for (int j = 0; j < OS_ITEMS; j++)
        key[j] = full || wbase + j * 32 < tn ? kin[t0 + wbase + j * 32] : (srt_raw)0;
    /* The tile's values start on their way to shared memory; they are
     * needed only after the look-back. */
    if (OS_VALS && vin) {
        if (!((size_t)vin & (sizeof(OS_NAME_vt) - 1))) {
#pragma unroll
            for (int q = 0; q < OS_ITEMS; q++) {
                const int i = t + q * 256;
                if (full || i < tn) {
                    const unsigned d = (unsigned)__cvta_generic_to_shared(vst + i);
                    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(d), "l"(vin + t0 + i), "n"(sizeof(OS_NAME_vt) == 4 ? 4 : 8) : "memory");
                }
            }
            asm volatile("cp.async.commit_group;" ::: "memory");
        } else {
#pragma unroll
            for (int q = 0; q < OS_ITEMS; q++)
                if (full || t + q * 256 < tn) vst[t + q * 256] = vin[t0 + t + q * 256];
        }
    }
    if (OS_VALS || OS_KEEP) {
#pragma unroll
        for (int j = 0; j < OS_ITEMS; j++)
            dg[j] = full || wbase + j * 32 < tn ? OS_DIG(key[j]) : 256u;
    }
    /* Each warp's digit counts first (one shared atomic a key), so the
     * tile's counts are published before the ranking: later tiles' look-back
     * then seldom waits on this one. */
    if (full) {
#pragma unroll
        for (int j = 0; j < OS_ITEMS; j++) atomicAdd(&wh[w][OS_D(j)], 1u);
    } else {
#pragma unroll
        for (int j = 0; j < OS_ITEMS; j++)
            if (OS_D(j) < 256u) atomicAdd(&wh[w][OS_D(j)], 1u);
    }
    __syncthreads();
    unsigned cnt = 0u, tstart;
    for (int k = 0; k < 8; k++) cnt += wh[k][t];
    st[(long long)tile * 256 + t] = (tile ? OS_FLAG_A : OS_FLAG_P) | cnt;
    {
        unsigned x = cnt, pre = 0u;
        OS_BLOCK_SCAN;
        tstart = pre + x - cnt;
    }
    /* wh[k][d]: where warp k's first key of digit d goes in the tile. */
    {
        unsigned run = tstart;
        for (int k = 0; k < 8; k++) {
            const unsigned v = wh[k][t];
            wh[k][t] = run;
            run += v;
        }
    }
    __syncthreads();
/* Rank within the warp, step by step in input order (stable). The
 * lanes of one digit find each other through one ballot per digit bit
 * (ALU work: __match_any_sync goes through the shared-memory pipe, which
 * ncu showed saturated); the no-key bit only in a partial tile. The
 * lowest peer takes the run's places from the warp's next place for the
 * digit and tells the others; each key goes to its place at once. */
#pragma unroll
    for (int j = 0; j < OS_ITEMS; j++) {
        const unsigned d = OS_D(j);
        unsigned peers = os_peers8(d);
        if (!full) {
            const unsigned on = __ballot_sync(0xffffffffu, d >> 8);
            peers &= d >> 8 ? on : ~on;
        }
        const int leader = __ffs(peers) - 1;
        unsigned old = 0u;
        if (lane == leader && d < 256u) old = atomicAdd(&wh[w][d], __popc(peers));
        old = __shfl_sync(0xffffffffu, old, leader);
        if (d < 256u) {
            const unsigned pos = old + __popc(peers & ((1u << lane) - 1u));
            buf[pos] = key[j];
            if (OS_VALS) inv[pos] = (unsigned short)(wbase + j * 32);
        }
    }
    /* Look back over earlier tiles only (they were handed out before
     * this one, so their blocks are running and will publish). OS_WIN earlier
     * tiles are read at once (independent loads); the sum runs from the
     * nearest back to the first inclusive prefix, or stops at a tile not yet
     * published and reads again from there. */
    {
        unsigned excl = 0u;
        if (tile) {
            long long k = (long long)tile - 1;
            int done = 0;
            while (!done) {
                unsigned v[OS_WIN];
                int live = 1;
#pragma unroll
                for (int q = 0; q < OS_WIN; q++)
                    v[q] = k - q >= 0 ? st[(k - q) * 256 + t] : OS_FLAG_P;
#pragma unroll
                for (int q = 0; q < OS_WIN; q++) {
                    if (live) {
                        if (!(v[q] & (OS_FLAG_A | OS_FLAG_P))) {
                            live = 0;
                        } else {
                            excl += v[q] & OS_VAL;
                            k--;
                            if (v[q] & OS_FLAG_P) live = 0, done = 1;
                        }
                    }
                }
            }
            st[(long long)tile * 256 + t] = OS_FLAG_P | (excl + cnt);
        }
        gbase[t] = (int)(offs[t] + excl) - (int)tstart;
    }
    if (OS_VALS && vin) asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
/* Unrolled (a guard, not a loop bound) so the shared-memory reads
 * and global stores of all OS_ITEMS keys overlap; consecutive threads write
 * one digit's run. */
#pragma unroll
    for (int q = 0; q < OS_ITEMS; q++) {
        const int i = t + q * 256;
        if (i < tn) {
            const srt_raw k = buf[i];
            const int o = gbase[OS_DIG(k)] + i;
            kout[o] = k;
            if (OS_VALS) {
                const unsigned from = inv[i];
                vout[o] = vin ? vst[from] : (OS_NAME_vt)(t0 + from);
            }
        }
    }
}
