/* ember: the CUDA radix sort's counting kernel srt_up and what the pass
 * kernels share with it (src/codegen/sort_onesweep.c pastes it after
 * sort_onesweep_key.cuh, with OS_MINB0, OS_DYNBUF, OS_KEEP, OS_ADAPT and
 * EM_SRT_OS_MAP_WORDS defined; the schedule is in
 * src/algo/radix_onesweep.c).
 *
 * hist holds npass * 256 counts (zeroed by the caller); pass p's digit is
 * bits [begin + 8p, begin + 8p + 8) of the image, the last pass masked by
 * lastmask. srt_up: blocks of 1,024 threads, each with dynamic shared
 * memory of 4 * 256 << lg counters per byte of the image: each digit has
 * 2^lg of them and lane l of a warp counts into number l mod 2^lg, so
 * with lg 5 no two lanes' atomics meet in a bank (one counter per digit
 * took 3-4 passes over the banks per warp instruction, and the kernel
 * ran at 2.25 TB/s). */
/* The steps of a 256-thread block's exclusive scan that srt_up and the
 * pass kernels share: x (a thread's count) becomes its warp's inclusive
 * sum, pre the sum of the earlier warps' totals (through wt[8]). */
#define OS_BLOCK_SCAN                                                      \
    for (int o = 1; o < 32; o <<= 1) {                                     \
        const unsigned y = __shfl_up_sync(0xffffffffu, x, o);              \
        if (lane >= o) x += y;                                             \
    }                                                                      \
    if (lane == 31) wt[w] = x;                                             \
    __syncthreads();                                                       \
    for (int k = 0; k < w; k++) pre += wt[k]
#define OS_FLAG_A 0x40000000u
#define OS_FLAG_P 0x80000000u
#define OS_VAL 0x3fffffffu
/* A pass's plan word (written by srt_up): OS_SKIP, or bits 1-2 its
 * source (the input, buffer a, buffer b), bit 3 its destination (a or
 * b), bit 4 its status array, bit 5 set when a pass runs after it. */
#define OS_SKIP 1u
/* Bits 8-13 the digit's shift and bits 14-17 its width (srt_up
 * chooses them: bytes from begin, or the data-chosen layout); bit 7:
 * the digit goes through the compressed map (OS_ADAPT). */
#define OS_CMAP 0x80u
/* With the data-chosen layout's counts (npass 4), hist holds after the
 * 4 x 256 byte counts those of bits [7, 14) and [14, 21) (OS_H7, 2 x
 * 128), of the top 11 bits (OS_H11, 2,048) and the top pass's map
 * (OS_HMAP, 2,048 bytes): EM_SRT_OS_ADAPT_WORDS in all. */
#define OS_H7 (4 * 256)
#define OS_H11 (OS_H7 + 256)
#define OS_HMAP (OS_H11 + 2048)
/* Blocks to keep resident per SM: registers are capped to fit them.
 * Integer keys without values (24 a thread, digits not kept) take
 * OS_MINB0, 4: ptxas spills about 100 bytes a thread there, yet that
 * ran as fast as 3 blocks without spills (bench/README.md,
 * 'onesweep'). Kept digits, or 8-byte keys, or 8-byte values (whose
 * staged tile leaves shared memory for 3 blocks): 3 blocks (about 80
 * registers). Values with more than 16 keys a thread: 2 (their
 * tile's keys, values and indices take 110.5 KiB at 29: two blocks
 * and their 1 KiB reserves fit the 228 KiB of an H100 SM). */
#define OS_MINB(items, p, vs) ((p) && (items) > 16 ? 2 : sizeof(srt_raw) > 4 || (p) && (vs) > 4 && (items) > 12 || ((p) || OS_KEEP) && (items) > 16 ? 3 : OS_MINB0)
/* The lanes whose digit (bits 0-7 of d) equals this lane's: one
 * ballot per bit, each lane keeping the ballot or its complement by its
 * own bit. Written in PTX so each bit costs four instructions; the
 * compiler's version of the same C took six or seven. */
__device__ __forceinline__ unsigned os_peers8(unsigned d)
{
    unsigned peers = 0xffffffffu;
#pragma unroll
    for (int b = 0; b < 8; b++) {
        unsigned on;
        asm("{\n\t.reg .pred p;\n\t.reg .u32 x;\n\t"
            "and.b32 x, %1, %2;\n\tsetp.ne.u32 p, x, 0;\n\t"
            "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
            "@!p not.b32 %0, %0;\n\t}" : "=r"(on) : "r"(d), "r"(1u << b));
        peers &= on;
    }
    return peers;
}
/* With the data-chosen layout's counts (adapt), bytes 0-2, bits [7,
 * 14) and [14, 21), and the top 11 bits (byte 3 is their sum by
 * eights). The top 11 bits have 2^(lg - 2) counters a value (lane tl
 * of them): 2,048 lane-private ones would take 256 KiB, more than a
 * block has, and the counting loop is bound by issue, not by the
 * lanes' atomics that meet. */
__device__ __forceinline__ void os_count(unsigned *h, srt_raw r, int desc, int begin, srt_img keep, int lg, int lane, int lt, int tl, int adapt)
{
    const srt_img b = (srt_key(r, desc) >> begin) & keep;
#pragma unroll
    for (int p = 0; p < (int)sizeof(srt_img); p++)
        if (!OS_ADAPT || p < 3 || !adapt)
            atomicAdd(&h[((p * 256 + ((unsigned)(b >> 8 * p) & 0xffu)) << lg) + lane], 1u);
#if OS_ADAPT
    if (adapt) {
        unsigned *e = h + (3 * 256 << lg);
        atomicAdd(&e[(((unsigned)(b >> 7) & 127u) << lg) + lane], 1u);
        atomicAdd(&e[((128 + ((unsigned)(b >> 14) & 127u)) << lg) + lane], 1u);
        atomicAdd(&e[(256 << lg) + ((unsigned)(b >> 21) << lt) + tl], 1u);
    }
#endif
}
/* The counting loop of srt_up: LG its lg when known at compile time
 * (else -1: lg0), AD its adapt. */
template <int LG, int AD>
__device__ __forceinline__ void os_keys(const srt_raw *keys, long long n, int desc, int begin, srt_img keep, int lg0, unsigned *h)
{
    const int lg = LG >= 0 ? LG : lg0, t = threadIdx.x, lane = t & ((1 << lg) - 1);
    const int lt = lg > 2 ? lg - 2 : 0, tl = t & ((1 << lt) - 1);
    const long long S = (long long)gridDim.x * 1024, g = (long long)blockIdx.x * 1024 + t;
    long long done = 0;
    /* 16-byte loads, two in flight per thread, when the keys are aligned
     * for them; then the rest one key at a time. */
    if (((size_t)keys & 15) == 0) {
        const int V = 16 / sizeof(srt_raw);
        const long long nv = n / V;
        const uint4 *kv = (const uint4 *)keys;
        for (long long i = g; i < nv; i += 2 * S) {
            union { uint4 v; srt_raw k[16 / sizeof(srt_raw)]; } a, c;
            a.v = kv[i];
            const int two = i + S < nv;
            if (two) c.v = kv[i + S];
#pragma unroll
            for (int u = 0; u < V; u++) os_count(h, a.k[u], desc, begin, keep, lg, lane, lt, tl, AD);
            if (two) {
#pragma unroll
                for (int u = 0; u < V; u++) os_count(h, c.k[u], desc, begin, keep, lg, lane, lt, tl, AD);
            }
        }
        done = nv * V;
    }
    for (long long i = done + g; i < n; i += S) os_count(h, keys[i], desc, begin, keep, lg, lane, lt, tl, AD);
}
/* Whether to sort 4-byte keys by digits [0, 7), [7, 14), [14, 21)
 * and the top 11 bits through a map to at most 256 digits, instead
 * of by bytes. A pass costs more the shorter the runs it writes (a
 * tile's keys of one digit; docs/algorithms.md): a 7-bit pass of pairs
 * over random digits is about 10% faster than an 8-bit one
 * (bench/README.md, 'onesweep'). Real
 * keys often fill few values of their top bits (floats: the sign and
 * exponent), so when the top 11 bits take at most 256 values the
 * three lower passes can be 7 bits wide at no extra pass. Taken when
 * that holds and the runs a tile is expected to write (a digit of
 * count c in a tile of T keys out of n: min(1, T c / n) runs) are
 * fewer. All 1,024 threads of the last block call it, thread t for
 * top values 2t and 2t + 1; hist: the summed counts (bytes, byte 3
 * already folded from the top 11 bits, then bits [7, 14) and [14,
 * 21), then the top 11 bits); nzw: 64 words of shared memory, left
 * holding each warp's occupied masks of the even top values (0-31)
 * and of the odd ones (32-63). */
#if OS_ADAPT
__device__ int os_layout(volatile const unsigned *hist, long long n, int tilesz, unsigned *nzw)
{
    __shared__ float gain_s;
    __shared__ unsigned occ_s;
    const int t = threadIdx.x, lane = t & 31;
    const float T = (float)tilesz, fn = (float)n;
    const unsigned c0 = hist[OS_H11 + 2 * t], c1 = hist[OS_H11 + 2 * t + 1];
    if (t == 0) gain_s = 0.f, occ_s = 0u;
    __syncthreads();
#define OS_RUNS(c) fminf(1.f, T * (float)(c) / fn)
    float g = OS_RUNS(c0) + OS_RUNS(c1);
    if (t < 256) g -= OS_RUNS(hist[t]) + OS_RUNS(hist[256 + t]) + OS_RUNS(hist[512 + t]) + OS_RUNS(hist[768 + t]);
    if (t < 128) g += OS_RUNS(hist[t] + hist[128 + t]) + OS_RUNS(hist[OS_H7 + t]) + OS_RUNS(hist[OS_H7 + 128 + t]);
#undef OS_RUNS
    for (int o = 16; o; o >>= 1) g += __shfl_xor_sync(0xffffffffu, g, o);
    const unsigned nz0 = __ballot_sync(0xffffffffu, c0 != 0u), nz1 = __ballot_sync(0xffffffffu, c1 != 0u);
    if (lane == 0) {
        nzw[t >> 5] = nz0;
        nzw[32 + (t >> 5)] = nz1;
        atomicAdd(&gain_s, g);
        atomicAdd(&occ_s, (unsigned)(__popc(nz0) + __popc(nz1)));
    }
    __syncthreads();
    return occ_s <= 256u && gain_s < 0.f;
}
#endif
extern "C" __global__ void __launch_bounds__(1024) srt_up(const srt_raw *keys, long long n, int begin, int npass, unsigned lastmask, int desc, int lg, unsigned *hist, unsigned *fin, unsigned *plan, int adapt, int tilesz)
{
    extern __shared__ unsigned h[];
    const int t = threadIdx.x, L = 1 << lg;
#if !OS_ADAPT
    adapt = 0;
#endif
    const int nb = adapt ? 3 : (int)sizeof(srt_img);
    const int words = nb * 256 * L;
    const int lt = lg > 2 ? lg - 2 : 0;
    const int ewords = adapt ? (256 << lg) + (2048 << lt) : 0;
    /* The bits of the image that the passes sort by, from bit begin:
     * each pass's digit is then one byte of it. */
    const srt_img keep = ((srt_img)lastmask << 8 * (npass - 1)) | (((srt_img)1 << 8 * (npass - 1)) - 1);
    for (int i = t; i < words + ewords; i += 1024) h[i] = 0u;
    __syncthreads();
    /* lg is 5 wherever shared memory allows (Hopper, Ampere): then the
     * counters' addresses fold into fewer instructions, which the loop,
     * bound by issue, repays (bench/README.md, 'onesweep'). */
    if (lg == 5) {
        if (adapt) os_keys<5, 1>(keys, n, desc, begin, keep, lg, h);
        else os_keys<5, 0>(keys, n, desc, begin, keep, lg, h);
    } else {
        if (adapt) os_keys<-1, 1>(keys, n, desc, begin, keep, lg, h);
        else os_keys<-1, 0>(keys, n, desc, begin, keep, lg, h);
    }
    __syncthreads();
    /* Thread q adds digit q's lane counters, starting at a lane that
     * depends on q so that a warp's reads fall in distinct banks. */
    for (int q = t; q < nb * 256 && q < npass * 256; q += 1024) {
        const unsigned *row = h + (q << lg);
        unsigned c = 0u;
        for (int l = 0; l < L; l++) c += row[(l + q) & (L - 1)];
        if (c) atomicAdd(&hist[q], c);
    }
    if (adapt) {
        for (int q = t; q < 256 + 2048; q += 1024) {
            const int top = q >= 256, k = top ? lt : lg, K = 1 << k;
            const unsigned *row = h + words + (top ? (256 << lg) + ((q - 256) << lt) : q << lg);
            unsigned c = 0u;
            for (int l = 0; l < K; l++) c += row[(l + q) & (K - 1)];
            if (c) atomicAdd(&hist[OS_H7 + q], c);
        }
    }
    /* The last block to finish turns the counts into each digit's first
     * place, pass by pass (one launch fewer), and writes the plan. */
    __shared__ unsigned wt[32];
    __shared__ int last, alike[8];
    int own = 0;
    __threadfence();
    __syncthreads();
    if (t == 0) last = atomicAdd(fin, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!last) return;
    __threadfence();
    {
        volatile unsigned *vh = hist;
        const int lane = t & 31, w = t >> 5;
        if (t < 8) alike[t] = 0;
#if OS_ADAPT
        __shared__ unsigned nzw[64];
        if (adapt && t < 256) {
            unsigned c = 0u;
            for (int j = 0; j < 8; j++) c += vh[OS_H11 + 8 * t + j];
            vh[3 * 256 + t] = c;
        }
        __syncthreads();
        own = adapt && os_layout(vh, n, tilesz, nzw);
#endif
        __syncthreads();
        /* With the data-chosen layout, pass 0's counts fold byte 0's (bits
         * [0, 7)), passes 1 and 2 were counted, and pass 3's digit is the
         * rank of its top-11-bit value among those that occur: the map
         * (OS_HMAP) takes each value to it, and each occurring value's offset
         * goes to its rank's slot. Thread t scans top values 2t and 2t + 1
         * (c0, c1) as one. */
        for (int p = 0; p < npass; p++) {
            unsigned c = t < 256 ? vh[p * 256 + t] : 0u, c0 = 0u, c1 = 0u;
            if (own && p == 0) c = t < 128 ? vh[t] + vh[128 + t] : 0u;
            if (own && p == 1) c = t < 128 ? vh[OS_H7 + t] : 0u;
            if (own && p == 2) c = t < 128 ? vh[OS_H7 + 128 + t] : 0u;
            if (own && p == 3) c0 = vh[OS_H11 + 2 * t], c1 = vh[OS_H11 + 2 * t + 1], c = c0 + c1;
            unsigned x = c, pre = 0u;
            if (own && p == 3 ? c0 == (unsigned)n || c1 == (unsigned)n : c == (unsigned)n) alike[p] = 1;
            OS_BLOCK_SCAN;
#if OS_ADAPT
            if (own && p == 3) {
                const unsigned below = (1u << lane) - 1u;
                unsigned r = (unsigned)(__popc(nzw[w] & below) + __popc(nzw[32 + w] & below));
                for (int k = 0; k < w; k++) r += (unsigned)(__popc(nzw[k]) + __popc(nzw[32 + k]));
                unsigned char *const cm = (unsigned char *)(hist + OS_HMAP);
                const unsigned r1 = r + (c0 != 0u);
                cm[2 * t] = (unsigned char)r;
                cm[2 * t + 1] = (unsigned char)r1;
                if (c0) vh[3 * 256 + r] = pre + x - c;
                if (c1) vh[3 * 256 + r1] = pre + x - c1;
            } else
#endif
            if (t < 256) vh[p * 256 + t] = pre + x - c;
            __syncthreads();
        }
    }
    /* A pass whose digit every key shares would only copy: skip it
     * (float32 values held as float64 leave 29 low bits zero: 3 of 8
     * passes). The passes that run take turns between the two buffers so
     * that the last lands in the output, and between the two status
     * arrays. With every pass skippable the last still runs: a stable
     * copy, which also writes argsort's positions. */
    if (t == 0) {
        int e = 0, k = 0;
        for (int p = 0; p < npass; p++) e += !alike[p];
        if (!e) alike[npass - 1] = 0, e = 1;
        for (int p = 0; p < npass; p++) {
            if (alike[p]) { plan[p] = OS_SKIP; continue; }
            const unsigned src = k == 0 ? 0u : (e - k) % 2 == 0 ? 1u : 2u;
            const unsigned dst = (e - 1 - k) % 2 == 0 ? 0u : 1u;
            plan[p] = src << 1 | dst << 3 | (unsigned)(k % 2) << 4 | (unsigned)(k + 1 < e) << 5;
            unsigned sh = begin + 8 * p, wd = p == npass - 1 ? __popc(lastmask) : 8;
            if (own) {
                sh = 7u * (unsigned)p;
                wd = p == 3 ? 11u : 7u;
                plan[p] |= p == 3 ? OS_CMAP : 0u;
            }
            plan[p] |= sh << 8 | wd << 14;
            k++;
        }
    }
}
