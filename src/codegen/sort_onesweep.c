/* ember codegen: the radix sort kernels that move the keys themselves
 * (see src/algo/radix_onesweep.c for the schedule).
 *
 * They go into a key dtype's image module (sort.c) because each needs the
 * dtype's order-preserving image: the digit of a key is taken from its
 * image on the fly while the raw key bits travel. So -0.0 and 0.0 tie
 * (both image as +0.0) yet come out with their own signs, NaNs sort last
 * with their payloads, and a float sort needs no permutation and no
 * gather at the end.
 *
 * CUDA (Onesweep): srt_up builds the digit histograms of every pass in one
 * read of the keys (shared-memory counters, then global atomics) and its
 * last block turns them into each digit's first output position; then one
 * kernel per pass (srt_os0: keys only, srt_os4 / srt_os8: with 4- or
 * 8-byte values). A block takes a tile id from an atomic counter, loads
 * its 256 x items keys (em_gen_sort_os_items per thread, warp-striped so
 * loads are coalesced), counts their digits per warp and publishes the
 * tile's counts (flag A) to a status array at once; then it ranks the keys
 * by digit within each warp (ballots find a digit's lanes, steps in input
 * order: stable) straight to their places in the tile, looks back over
 * earlier tiles (a thread per digit) until it finds an inclusive prefix
 * (flag P), publishes its own, and scatters from shared memory so each
 * digit's run is written by consecutive threads.
 * With values (em_gen_sort_os_adapt), 4-byte keys sorted by all their
 * bits may take digits chosen from the data: when their top 11 bits take
 * at most 256 values (floats: the sign and a narrow exponent range),
 * srt_up's last block (os_layout) sorts by bits [0, 7), [7, 14), [14,
 * 21) and then the top 11 bits through a map of the values that occur,
 * so three passes write runs twice as long; each pass learns its digit
 * from its plan word.
 * Look-back only ever waits on tiles with smaller ids, which were handed
 * out earlier to blocks already running: no wait can hang. A status word
 * is 2 flag bits and a 30-bit count, so the schedule takes n < 2^30.
 *
 * Host: a pool thread per chunk cannot cooperate, so the host sorts by
 * the most significant digit on which keys differ first, with the
 * chunked schedule (per-chunk histogram srt_khist, the generic scan,
 * per-chunk stable scatter srt_kscat0/4/8), then each of the 256 buckets
 * by the lower digits, LSD, one thread each (srt_kbucket0/4/8).
 */
#include <stdio.h>
#include <stdlib.h>

#include "codegen/kernel_table.h"
#include "codegen/linalg_table.h"
#include "codegen/sort.h"

/* The image of a raw key as its digits see it: NaNs largest either way;
 * descending flips every other key. */
static const char key_fn[] =
    "__device__ __forceinline__ srt_img srt_key(srt_raw r, int desc)\n"
    "{\n"
    "    srt_img b = (srt_img)r;\n"
    "    int nan = 0;\n"
    "    SRT_IMG(b, nan);\n"
    "    if (desc) b = ~b & SRT_ONES;\n"
    "    if (nan) b = SRT_ONES;\n"
    "    return b;\n"
    "}\n"
    "#define SRT_DIG(k) ((unsigned)(srt_key((k), desc) >> shift) & mask)\n";

/* The steps of a 256-thread block's exclusive scan that srt_osscan and the
 * pass kernels share: x (a thread's count) becomes its warp's inclusive
 * sum, pre the sum of the earlier warps' totals (through wt[8]). */
#define OS_BLOCK_SCAN                                                          \
    "        for (int o = 1; o < 32; o <<= 1) {\n"                             \
    "            const unsigned y = __shfl_up_sync(0xffffffffu, x, o);\n"      \
    "            if (lane >= o) x += y;\n"                                     \
    "        }\n"                                                              \
    "        if (lane == 31) wt[w] = x;\n"                                     \
    "        __syncthreads();\n"                                               \
    "        for (int k = 0; k < w; k++) pre += wt[k];\n"

/* hist holds npass * 256 counts (zeroed by the caller); pass p's digit is
 * bits [begin + 8p, begin + 8p + 8) of the image, the last pass masked by
 * lastmask. srt_up: blocks of 1,024 threads, each with dynamic shared
 * memory of 4 * 256 << lg counters per byte of the image: each digit has
 * 2^lg of them and lane l of a warp counts into number l mod 2^lg, so
 * with lg 5 no two lanes' atomics meet in a bank (one counter per digit
 * took 3-4 passes over the banks per warp instruction, and the kernel
 * ran at 2.25 TB/s). */
static const char up_cuda[] =
    "#define OS_FLAG_A 0x40000000u\n"
    "#define OS_FLAG_P 0x80000000u\n"
    "#define OS_VAL 0x3fffffffu\n"
    /* A pass's plan word (written by srt_up): OS_SKIP, or bits 1-2 its
     * source (the input, buffer a, buffer b), bit 3 its destination (a or
     * b), bit 4 its status array, bit 5 set when a pass runs after it. */
    "#define OS_SKIP 1u\n"
    /* Bits 8-13 the digit's shift and bits 14-17 its width (srt_up
     * chooses them: bytes from begin, or the data-chosen layout); bit 7:
     * the digit goes through the compressed map (OS_ADAPT). */
    "#define OS_CMAP 0x80u\n"
    /* With the data-chosen layout's counts (npass 4), hist holds after the
     * 4 x 256 byte counts those of bits [7, 14) and [14, 21) (OS_H7, 2 x
     * 128), of the top 11 bits (OS_H11, 2,048) and the top pass's map
     * (OS_HMAP, 2,048 bytes): EM_SRT_OS_ADAPT_WORDS in all. */
    "#define OS_H7 (4 * 256)\n"
    "#define OS_H11 (OS_H7 + 256)\n"
    "#define OS_HMAP (OS_H11 + 2048)\n"
    /* Blocks to keep resident per SM: registers are capped to fit them.
     * Integer keys without values (24 a thread, digits not kept) take
     * OS_MINB0, 4: ptxas spills about 100 bytes a thread there, yet
     * uint32 sorted at 47.3 Gkeys/s against 47.2 with 3 blocks and no
     * spills. Kept digits, or 8-byte keys, or 8-byte values (whose
     * staged tile leaves shared memory for 3 blocks): 3 blocks (about 80
     * registers). Values with more than 16 keys a thread: 2 (their
     * tile's keys, values and indices take 110.5 KiB at 29: two blocks
     * and their 1 KiB reserves fit the 228 KiB of an H100 SM). */
    "#define OS_MINB(items, p, vs) ((p) && (items) > 16 ? 2 : sizeof(srt_raw) > 4 || (p) && (vs) > 4 && (items) > 12 || ((p) || OS_KEEP) && (items) > 16 ? 3 : OS_MINB0)\n"
    /* The lanes whose digit (bits 0-7 of d) equals this lane's: one
     * ballot per bit, each lane keeping the ballot or its complement by its
     * own bit. Written in PTX so each bit costs four instructions; the
     * compiler's version of the same C took six or seven. */
    "__device__ __forceinline__ unsigned os_peers8(unsigned d)\n"
    "{\n"
    "    unsigned peers = 0xffffffffu;\n"
    "#pragma unroll\n"
    "    for (int b = 0; b < 8; b++) {\n"
    "        unsigned on;\n"
    "        asm(\"{\\n\\t.reg .pred p;\\n\\t.reg .u32 x;\\n\\t\"\n"
    "            \"and.b32 x, %1, %2;\\n\\tsetp.ne.u32 p, x, 0;\\n\\t\"\n"
    "            \"vote.sync.ballot.b32 %0, p, 0xffffffff;\\n\\t\"\n"
    "            \"@!p not.b32 %0, %0;\\n\\t}\" : \"=r\"(on) : \"r\"(d), \"r\"(1u << b));\n"
    "        peers &= on;\n"
    "    }\n"
    "    return peers;\n"
    "}\n"
    /* With the data-chosen layout's counts (adapt), bytes 0-2, bits [7,
     * 14) and [14, 21), and the top 11 bits (byte 3 is their sum by
     * eights). The top 11 bits have 2^(lg - 2) counters a value (lane tl
     * of them): 2,048 lane-private ones would take 256 KiB, more than a
     * block has, and the counting loop is bound by issue, not by the
     * lanes' atomics that meet. */
    "__device__ __forceinline__ void os_count(unsigned *h, srt_raw r, int desc, int begin, srt_img keep, int lg, int lane, int lt, int tl, int adapt)\n"
    "{\n"
    "    const srt_img b = (srt_key(r, desc) >> begin) & keep;\n"
    "#pragma unroll\n"
    "    for (int p = 0; p < (int)sizeof(srt_img); p++)\n"
    "        if (!OS_ADAPT || p < 3 || !adapt)\n"
    "            atomicAdd(&h[((p * 256 + ((unsigned)(b >> 8 * p) & 0xffu)) << lg) + lane], 1u);\n"
    "#if OS_ADAPT\n"
    "    if (adapt) {\n"
    "        unsigned *e = h + (3 * 256 << lg);\n"
    "        atomicAdd(&e[(((unsigned)(b >> 7) & 127u) << lg) + lane], 1u);\n"
    "        atomicAdd(&e[((128 + ((unsigned)(b >> 14) & 127u)) << lg) + lane], 1u);\n"
    "        atomicAdd(&e[(256 << lg) + ((unsigned)(b >> 21) << lt) + tl], 1u);\n"
    "    }\n"
    "#endif\n"
    "}\n"
    /* The counting loop of srt_up: LG its lg when known at compile time
     * (else -1: lg0), AD its adapt. */
    "template <int LG, int AD>\n"
    "__device__ __forceinline__ void os_keys(const srt_raw *keys, long long n, int desc, int begin, srt_img keep, int lg0, unsigned *h)\n"
    "{\n"
    "    const int lg = LG >= 0 ? LG : lg0, t = threadIdx.x, lane = t & ((1 << lg) - 1);\n"
    "    const int lt = lg > 2 ? lg - 2 : 0, tl = t & ((1 << lt) - 1);\n"
    "    const long long S = (long long)gridDim.x * 1024, g = (long long)blockIdx.x * 1024 + t;\n"
    "    long long done = 0;\n"
    /* 16-byte loads, two in flight per thread, when the keys are aligned
     * for them; then the rest one key at a time. */
    "    if (((size_t)keys & 15) == 0) {\n"
    "        const int V = 16 / sizeof(srt_raw);\n"
    "        const long long nv = n / V;\n"
    "        const uint4 *kv = (const uint4 *)keys;\n"
    "        for (long long i = g; i < nv; i += 2 * S) {\n"
    "            union { uint4 v; srt_raw k[16 / sizeof(srt_raw)]; } a, c;\n"
    "            a.v = kv[i];\n"
    "            const int two = i + S < nv;\n"
    "            if (two) c.v = kv[i + S];\n"
    "#pragma unroll\n"
    "            for (int u = 0; u < V; u++) os_count(h, a.k[u], desc, begin, keep, lg, lane, lt, tl, AD);\n"
    "            if (two) {\n"
    "#pragma unroll\n"
    "                for (int u = 0; u < V; u++) os_count(h, c.k[u], desc, begin, keep, lg, lane, lt, tl, AD);\n"
    "            }\n"
    "        }\n"
    "        done = nv * V;\n"
    "    }\n"
    "    for (long long i = done + g; i < n; i += S) os_count(h, keys[i], desc, begin, keep, lg, lane, lt, tl, AD);\n"
    "}\n"
    /* Whether to sort 4-byte keys by digits [0, 7), [7, 14), [14, 21)
     * and the top 11 bits through a map to at most 256 digits, instead
     * of by bytes. A pass costs more the shorter the runs it writes (a
     * tile's keys of one digit; docs/algorithms.md): an 8-bit pass of
     * pairs over random digits took 1.70 ms, a 7-bit one 1.55. Real
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
    "#if OS_ADAPT\n"
    "__device__ int os_layout(volatile const unsigned *hist, long long n, int tilesz, unsigned *nzw)\n"
    "{\n"
    "    __shared__ float gain_s;\n"
    "    __shared__ unsigned occ_s;\n"
    "    const int t = threadIdx.x, lane = t & 31;\n"
    "    const float T = (float)tilesz, fn = (float)n;\n"
    "    const unsigned c0 = hist[OS_H11 + 2 * t], c1 = hist[OS_H11 + 2 * t + 1];\n"
    "    if (t == 0) gain_s = 0.f, occ_s = 0u;\n"
    "    __syncthreads();\n"
    "#define OS_RUNS(c) fminf(1.f, T * (float)(c) / fn)\n"
    "    float g = OS_RUNS(c0) + OS_RUNS(c1);\n"
    "    if (t < 256) g -= OS_RUNS(hist[t]) + OS_RUNS(hist[256 + t]) + OS_RUNS(hist[512 + t]) + OS_RUNS(hist[768 + t]);\n"
    "    if (t < 128) g += OS_RUNS(hist[t] + hist[128 + t]) + OS_RUNS(hist[OS_H7 + t]) + OS_RUNS(hist[OS_H7 + 128 + t]);\n"
    "#undef OS_RUNS\n"
    "    for (int o = 16; o; o >>= 1) g += __shfl_xor_sync(0xffffffffu, g, o);\n"
    "    const unsigned nz0 = __ballot_sync(0xffffffffu, c0 != 0u), nz1 = __ballot_sync(0xffffffffu, c1 != 0u);\n"
    "    if (lane == 0) {\n"
    "        nzw[t >> 5] = nz0;\n"
    "        nzw[32 + (t >> 5)] = nz1;\n"
    "        atomicAdd(&gain_s, g);\n"
    "        atomicAdd(&occ_s, (unsigned)(__popc(nz0) + __popc(nz1)));\n"
    "    }\n"
    "    __syncthreads();\n"
    "    return occ_s <= 256u && gain_s < 0.f;\n"
    "}\n"
    "#endif\n"
    "extern \"C\" __global__ void __launch_bounds__(1024) srt_up(const srt_raw *keys, long long n, int begin, int npass, unsigned lastmask, int desc, int lg, unsigned *hist, unsigned *fin, unsigned *plan, int adapt, int tilesz)\n"
    "{\n"
    "    extern __shared__ unsigned h[];\n"
    "    const int t = threadIdx.x, L = 1 << lg;\n"
    "#if !OS_ADAPT\n"
    "    adapt = 0;\n"
    "#endif\n"
    "    const int nb = adapt ? 3 : (int)sizeof(srt_img);\n"
    "    const int words = nb * 256 * L;\n"
    "    const int lt = lg > 2 ? lg - 2 : 0;\n"
    "    const int ewords = adapt ? (256 << lg) + (2048 << lt) : 0;\n"
    /* The bits of the image that the passes sort by, from bit begin:
     * each pass's digit is then one byte of it. */
    "    const srt_img keep = ((srt_img)lastmask << 8 * (npass - 1)) | (((srt_img)1 << 8 * (npass - 1)) - 1);\n"
    "    for (int i = t; i < words + ewords; i += 1024) h[i] = 0u;\n"
    "    __syncthreads();\n"
    /* lg is 5 wherever shared memory allows (Hopper, Ampere): then the
     * counters' addresses fold into fewer instructions. The loop is bound
     * by issue: on the H100 this took srt_up with the earlier
     * data-chosen layout's counts from 297 to 255 us for 2^27 keys. */
    "    if (lg == 5) {\n"
    "        if (adapt) os_keys<5, 1>(keys, n, desc, begin, keep, lg, h);\n"
    "        else os_keys<5, 0>(keys, n, desc, begin, keep, lg, h);\n"
    "    } else {\n"
    "        if (adapt) os_keys<-1, 1>(keys, n, desc, begin, keep, lg, h);\n"
    "        else os_keys<-1, 0>(keys, n, desc, begin, keep, lg, h);\n"
    "    }\n"
    "    __syncthreads();\n"
    /* Thread q adds digit q's lane counters, starting at a lane that
     * depends on q so that a warp's reads fall in distinct banks. */
    "    for (int q = t; q < nb * 256 && q < npass * 256; q += 1024) {\n"
    "        const unsigned *row = h + (q << lg);\n"
    "        unsigned c = 0u;\n"
    "        for (int l = 0; l < L; l++) c += row[(l + q) & (L - 1)];\n"
    "        if (c) atomicAdd(&hist[q], c);\n"
    "    }\n"
    "    if (adapt) {\n"
    "        for (int q = t; q < 256 + 2048; q += 1024) {\n"
    "            const int top = q >= 256, k = top ? lt : lg, K = 1 << k;\n"
    "            const unsigned *row = h + words + (top ? (256 << lg) + ((q - 256) << lt) : q << lg);\n"
    "            unsigned c = 0u;\n"
    "            for (int l = 0; l < K; l++) c += row[(l + q) & (K - 1)];\n"
    "            if (c) atomicAdd(&hist[OS_H7 + q], c);\n"
    "        }\n"
    "    }\n"
    /* The last block to finish turns the counts into each digit's first
     * place, pass by pass (one launch fewer), and writes the plan. */
    "    __shared__ unsigned wt[32];\n"
    "    __shared__ int last, alike[8];\n"
    "    int own = 0;\n"
    "    __threadfence();\n"
    "    __syncthreads();\n"
    "    if (t == 0) last = atomicAdd(fin, 1u) == gridDim.x - 1;\n"
    "    __syncthreads();\n"
    "    if (!last) return;\n"
    "    __threadfence();\n"
    "    {\n"
    "        volatile unsigned *vh = hist;\n"
    "        const int lane = t & 31, w = t >> 5;\n"
    "        if (t < 8) alike[t] = 0;\n"
    "#if OS_ADAPT\n"
    "        __shared__ unsigned nzw[64];\n"
    "        if (adapt && t < 256) {\n"
    "            unsigned c = 0u;\n"
    "            for (int j = 0; j < 8; j++) c += vh[OS_H11 + 8 * t + j];\n"
    "            vh[3 * 256 + t] = c;\n"
    "        }\n"
    "        __syncthreads();\n"
    "        own = adapt && os_layout(vh, n, tilesz, nzw);\n"
    "#endif\n"
    "        __syncthreads();\n"
    /* With the data-chosen layout, pass 0's counts fold byte 0's (bits
     * [0, 7)), passes 1 and 2 were counted, and pass 3's digit is the
     * rank of its top-11-bit value among those that occur: the map
     * (OS_HMAP) takes each value to it, and each occurring value's offset
     * goes to its rank's slot. Thread t scans top values 2t and 2t + 1
     * (c0, c1) as one. */
    "        for (int p = 0; p < npass; p++) {\n"
    "            unsigned c = t < 256 ? vh[p * 256 + t] : 0u, c0 = 0u, c1 = 0u;\n"
    "            if (own && p == 0) c = t < 128 ? vh[t] + vh[128 + t] : 0u;\n"
    "            if (own && p == 1) c = t < 128 ? vh[OS_H7 + t] : 0u;\n"
    "            if (own && p == 2) c = t < 128 ? vh[OS_H7 + 128 + t] : 0u;\n"
    "            if (own && p == 3) c0 = vh[OS_H11 + 2 * t], c1 = vh[OS_H11 + 2 * t + 1], c = c0 + c1;\n"
    "            unsigned x = c, pre = 0u;\n"
    "            if (own && p == 3 ? c0 == (unsigned)n || c1 == (unsigned)n : c == (unsigned)n) alike[p] = 1;\n"
    OS_BLOCK_SCAN
    "#if OS_ADAPT\n"
    "            if (own && p == 3) {\n"
    "                const unsigned below = (1u << lane) - 1u;\n"
    "                unsigned r = (unsigned)(__popc(nzw[w] & below) + __popc(nzw[32 + w] & below));\n"
    "                for (int k = 0; k < w; k++) r += (unsigned)(__popc(nzw[k]) + __popc(nzw[32 + k]));\n"
    "                unsigned char *const cm = (unsigned char *)(hist + OS_HMAP);\n"
    "                const unsigned r1 = r + (c0 != 0u);\n"
    "                cm[2 * t] = (unsigned char)r;\n"
    "                cm[2 * t + 1] = (unsigned char)r1;\n"
    "                if (c0) vh[3 * 256 + r] = pre + x - c;\n"
    "                if (c1) vh[3 * 256 + r1] = pre + x - c1;\n"
    "            } else\n"
    "#endif\n"
    "            if (t < 256) vh[p * 256 + t] = pre + x - c;\n"
    "            __syncthreads();\n"
    "        }\n"
    "    }\n"
    /* A pass whose digit every key shares would only copy: skip it
     * (float32 values held as float64 leave 29 low bits zero: 3 of 8
     * passes). The passes that run take turns between the two buffers so
     * that the last lands in the output, and between the two status
     * arrays. With every pass skippable the last still runs: a stable
     * copy, which also writes argsort's positions. */
    "    if (t == 0) {\n"
    "        int e = 0, k = 0;\n"
    "        for (int p = 0; p < npass; p++) e += !alike[p];\n"
    "        if (!e) alike[npass - 1] = 0, e = 1;\n"
    "        for (int p = 0; p < npass; p++) {\n"
    "            if (alike[p]) { plan[p] = OS_SKIP; continue; }\n"
    "            const unsigned src = k == 0 ? 0u : (e - k) % 2 == 0 ? 1u : 2u;\n"
    "            const unsigned dst = (e - 1 - k) % 2 == 0 ? 0u : 1u;\n"
    "            plan[p] = src << 1 | dst << 3 | (unsigned)(k % 2) << 4 | (unsigned)(k + 1 < e) << 5;\n"
    "            unsigned sh = begin + 8 * p, wd = p == npass - 1 ? __popc(lastmask) : 8;\n"
    "            if (own) {\n"
    "                sh = 7u * (unsigned)p;\n"
    "                wd = p == 3 ? 11u : 7u;\n"
    "                plan[p] |= p == 3 ? OS_CMAP : 0u;\n"
    "            }\n"
    "            plan[p] |= sh << 8 | wd << 14;\n"
    "            k++;\n"
    "        }\n"
    "    }\n"
    "}\n";

/* One pass. @V is the value type, @P 1 with values. The pass's plan
 * word (OS_SKIP, srt_up) picks its digit, its source among the input k0/v0 and the
 * buffers a and b, its destination, and its status array among s0 and
 * s1. v0 NULL: the values are the keys' input positions (argsort's first
 * pass). offs: this pass's 256 digit offsets; a status array: ntiles *
 * 256 words, zero before the pass (a pass zeroes the next one's); ctr:
 * the tile counter, zero before the pass. Dynamic shared memory holds,
 * for 8-byte keys (OS_DYNBUF), the tile's keys in order (buf: 20 keys a
 * thread take 40 KiB, past the 48 KiB of static shared memory with the
 * counters; smaller keys keep buf static), then with values the tile's
 * values in input order (vst, loaded with cp.async while the keys are
 * ranked) and each place's input index (inv), 256 * @I * (sizeof(@V) +
 * 2) bytes. */
static const char pass_cuda[] =
    "extern \"C\" __global__ void __launch_bounds__(256, OS_MINB(@I, @P, sizeof(@V))) @N(const srt_raw *k0, srt_raw *ka, srt_raw *kb, const @V *v0, @V *va, @V *vb, long long n, int desc, const unsigned *offs, unsigned *s0, unsigned *s1, unsigned *ctr, const unsigned *plan, const unsigned *cmap)\n"
    "{\n"
    "    __shared__ unsigned wh[8][256];\n"
    "#if OS_ADAPT\n"
    /* the compressed map of a data-chosen top pass (srt_up), as bytes */
    "    __shared__ unsigned cm_s[EM_SRT_OS_MAP_WORDS];\n"
    "    for (int i = threadIdx.x; i < EM_SRT_OS_MAP_WORDS; i += 256) cm_s[i] = cmap[i];\n"
    "#endif\n"
    /* n < 2^30: a key's place, and gbase, fit an int */
    "    __shared__ int gbase[256];\n"
    "    __shared__ unsigned wt[8];\n"
    "    __shared__ unsigned tile_s, plan_s;\n"
    "    extern __shared__ __align__(16) unsigned char os_dyn[];\n"
    "#if OS_DYNBUF\n"
    "    srt_raw *const buf = (srt_raw *)os_dyn;\n"
    "#else\n"
    "    __shared__ srt_raw buf[256 * @I];\n"
    "#endif\n"
    "    @V *const vst = (@V *)(os_dyn + OS_DYNBUF * sizeof(srt_raw) * 256 * @I);\n"
    "    unsigned short *const inv = (unsigned short *)(os_dyn + (OS_DYNBUF * sizeof(srt_raw) + sizeof(@V)) * 256 * @I);\n"
    "    const int t = threadIdx.x, lane = t & 31, w = t >> 5;\n"
    "    srt_raw key[@I];\n"
    /* dg: a key's digit (256: no key). */
    "    unsigned dg[@I];\n"
    /* Integer keys only: the digit is taken from the key again where
     * needed rather than kept, so 24 keys a thread fit 64 registers (H100,
     * 2^27 uint32: 47.3 Gkeys/s against 42.7). A float's image costs more
     * to take twice than the registers save (39.5 against 42.1): OS_KEEP. */
    "#undef OS_D\n"
    "#define OS_D(j) (@P || OS_KEEP ? dg[j] : wbase + (j) * 32 < tn ? OS_DIG(key[j]) : 256u)\n"
    "#undef OS_DIG\n"
    "#if OS_ADAPT\n"
    "#define OS_DIG(k) (cmp ? (unsigned)((const unsigned char *)cm_s)[SRT_DIG(k)] : SRT_DIG(k))\n"
    "#else\n"
    "#define OS_DIG(k) SRT_DIG(k)\n"
    "#endif\n"
    "    if (t == 0) {\n"
    "        tile_s = atomicAdd(ctr, 1u);\n"
    "        plan_s = *plan;\n"
    "    }\n"
    "    for (int i = t; i < 8 * 256; i += 256) (&wh[0][0])[i] = 0u;\n"
    "    __syncthreads();\n"
    "    const unsigned pl = plan_s, tile = tile_s;\n"
    "    if (pl & OS_SKIP) return;\n"
    "    const int shift = pl >> 8 & 63u, cmp = (pl & OS_CMAP) != 0u;\n"
    "    const unsigned mask = (1u << (pl >> 14 & 15u)) - 1u;\n"
    "    (void)cmp;\n"
    "    const unsigned src = pl >> 1 & 3u;\n"
    "    const srt_raw *const kin = src == 0u ? k0 : src == 1u ? ka : kb;\n"
    "    srt_raw *const kout = pl >> 3 & 1u ? kb : ka;\n"
    "    const @V *const vin = src == 0u ? v0 : src == 1u ? va : vb;\n"
    "    @V *const vout = pl >> 3 & 1u ? vb : va;\n"
    "    volatile unsigned *const st = (volatile unsigned *)(pl >> 4 & 1u ? s1 : s0);\n"
    "    unsigned *const next = pl >> 5 & 1u ? (pl >> 4 & 1u ? s0 : s1) : NULL;\n"
    "    const long long t0 = (long long)tile * (256 * @I);\n"
    "    const int tn = n - t0 < 256 * @I ? (int)(n - t0) : 256 * @I;\n"
    "    const int wbase = w * (32 * @I) + lane;\n"
    /* The next pass's status words for this tile start at zero (that pass
     * starts after this one ends), so the host clears only the first. */
    "    if (next) next[(long long)tile * 256 + t] = 0u;\n"
    /* All @I loads are issued before any key is used: with the digit
     * taken in the same guarded step, each load sat in its own branch and
     * the block waited out one memory latency per key (ncu: half of a
     * float64 pass's warp samples on the first use of each load). */
    "    const int full = tn == 256 * @I;\n"
    "#pragma unroll\n"
    "    for (int j = 0; j < @I; j++)\n"
    "        key[j] = full || wbase + j * 32 < tn ? kin[t0 + wbase + j * 32] : (srt_raw)0;\n"
    /* The tile's values start on their way to shared memory; they are
     * needed only after the look-back. */
    "    if (@P && vin) {\n"
    "        if (!((size_t)vin & (sizeof(@V) - 1))) {\n"
    "#pragma unroll\n"
    "            for (int q = 0; q < @I; q++) {\n"
    "                const int i = t + q * 256;\n"
    "                if (full || i < tn) {\n"
    "                    const unsigned d = (unsigned)__cvta_generic_to_shared(vst + i);\n"
    "                    asm volatile(\"cp.async.ca.shared.global [%0], [%1], %2;\" ::\"r\"(d), \"l\"(vin + t0 + i), \"n\"(sizeof(@V) == 4 ? 4 : 8) : \"memory\");\n"
    "                }\n"
    "            }\n"
    "            asm volatile(\"cp.async.commit_group;\" ::: \"memory\");\n"
    "        } else {\n"
    "#pragma unroll\n"
    "            for (int q = 0; q < @I; q++)\n"
    "                if (full || t + q * 256 < tn) vst[t + q * 256] = vin[t0 + t + q * 256];\n"
    "        }\n"
    "    }\n"
    "    if (@P || OS_KEEP) {\n"
    "#pragma unroll\n"
    "        for (int j = 0; j < @I; j++)\n"
    "            dg[j] = full || wbase + j * 32 < tn ? OS_DIG(key[j]) : 256u;\n"
    "    }\n"
    /* Each warp's digit counts first (one shared atomic a key), so the
     * tile's counts are published before the ranking: later tiles' look-back
     * then seldom waits on this one. */
    "    if (full) {\n"
    "#pragma unroll\n"
    "        for (int j = 0; j < @I; j++) atomicAdd(&wh[w][OS_D(j)], 1u);\n"
    "    } else {\n"
    "#pragma unroll\n"
    "        for (int j = 0; j < @I; j++)\n"
    "            if (OS_D(j) < 256u) atomicAdd(&wh[w][OS_D(j)], 1u);\n"
    "    }\n"
    "    __syncthreads();\n"
    "    unsigned cnt = 0u, tstart;\n"
    "    for (int k = 0; k < 8; k++) cnt += wh[k][t];\n"
    "    st[(long long)tile * 256 + t] = (tile ? OS_FLAG_A : OS_FLAG_P) | cnt;\n"
    "    {\n"
    "        unsigned x = cnt, pre = 0u;\n" OS_BLOCK_SCAN
    "        tstart = pre + x - cnt;\n"
    "    }\n"
    /* wh[k][d]: where warp k's first key of digit d goes in the tile. */
    "    {\n"
    "        unsigned run = tstart;\n"
    "        for (int k = 0; k < 8; k++) {\n"
    "            const unsigned v = wh[k][t];\n"
    "            wh[k][t] = run;\n"
    "            run += v;\n"
    "        }\n"
    "    }\n"
    "    __syncthreads();\n"
    /* Rank within the warp, step by step in input order (stable). The
     * lanes of one digit find each other through one ballot per digit bit
     * (ALU work: __match_any_sync goes through the shared-memory pipe, which
     * ncu showed saturated); the no-key bit only in a partial tile. The
     * lowest peer takes the run's places from the warp's next place for the
     * digit and tells the others; each key goes to its place at once. */
    "#pragma unroll\n"
    "    for (int j = 0; j < @I; j++) {\n"
    "        const unsigned d = OS_D(j);\n"
    "        unsigned peers = os_peers8(d);\n"
    "        if (!full) {\n"
    "            const unsigned on = __ballot_sync(0xffffffffu, d >> 8);\n"
    "            peers &= d >> 8 ? on : ~on;\n"
    "        }\n"
    "        const int leader = __ffs(peers) - 1;\n"
    "        unsigned old = 0u;\n"
    "        if (lane == leader && d < 256u) old = atomicAdd(&wh[w][d], __popc(peers));\n"
    "        old = __shfl_sync(0xffffffffu, old, leader);\n"
    "        if (d < 256u) {\n"
    "            const unsigned pos = old + __popc(peers & ((1u << lane) - 1u));\n"
    "            buf[pos] = key[j];\n"
    "            if (@P) inv[pos] = (unsigned short)(wbase + j * 32);\n"
    "        }\n"
    "    }\n"
    /* Look back over earlier tiles only (they were handed out before
     * this one, so their blocks are running and will publish). @W earlier
     * tiles are read at once (independent loads); the sum runs from the
     * nearest back to the first inclusive prefix, or stops at a tile not yet
     * published and reads again from there. */
    "    {\n"
    "        unsigned excl = 0u;\n"
    "        if (tile) {\n"
    "            long long k = (long long)tile - 1;\n"
    "            int done = 0;\n"
    "            while (!done) {\n"
    "                unsigned v[@W];\n"
    "                int live = 1;\n"
    "#pragma unroll\n"
    "                for (int q = 0; q < @W; q++)\n"
    "                    v[q] = k - q >= 0 ? st[(k - q) * 256 + t] : OS_FLAG_P;\n"
    "#pragma unroll\n"
    "                for (int q = 0; q < @W; q++) {\n"
    "                    if (live) {\n"
    "                        if (!(v[q] & (OS_FLAG_A | OS_FLAG_P))) {\n"
    "                            live = 0;\n"
    "                        } else {\n"
    "                            excl += v[q] & OS_VAL;\n"
    "                            k--;\n"
    "                            if (v[q] & OS_FLAG_P) live = 0, done = 1;\n"
    "                        }\n"
    "                    }\n"
    "                }\n"
    "            }\n"
    "            st[(long long)tile * 256 + t] = OS_FLAG_P | (excl + cnt);\n"
    "        }\n"
    "        gbase[t] = (int)(offs[t] + excl) - (int)tstart;\n"
    "    }\n"
    "    if (@P && vin) asm volatile(\"cp.async.wait_all;\" ::: \"memory\");\n"
    "    __syncthreads();\n"
    /* Unrolled (a guard, not a loop bound) so the shared-memory reads
     * and global stores of all @I keys overlap; consecutive threads write
     * one digit's run. */
    "#pragma unroll\n"
    "    for (int q = 0; q < @I; q++) {\n"
    "        const int i = t + q * 256;\n"
    "        if (i < tn) {\n"
    "            const srt_raw k = buf[i];\n"
    "            const int o = gbase[OS_DIG(k)] + i;\n"
    "            kout[o] = k;\n"
    "            if (@P) {\n"
    "                const unsigned from = inv[i];\n"
    "                vout[o] = vin ? vst[from] : (@V)(t0 + from);\n"
    "            }\n"
    "        }\n"
    "    }\n"
    "}\n";

/* Host: a thread per chunk of [0, n); counts[c * 256 + d] as in sort.c's
 * chunked kernels (the generic module's scan turns them into
 * positions). */
/* Host, the most significant digit first. Chunk c of [0, n) is a thread
 * (block c). The top digit is the highest one on which keys differ:
 * srt_khist for pass npass - 1 also records each chunk's OR and AND of
 * the images (vary), srt_ktop picks the top pass from them (*top), and
 * srt_khist for a lower pass `me` then runs only when it is the top
 * (*top == me). counts[c * 256 + d] as in sort.c's chunked kernels (the
 * generic module's scan turns them into positions). */
static const char hist_host[] =
    "#define SRT_TOP_DIGIT(me) const int shift = begin + 8 * (me); "
    "const unsigned mask = (me) == npass - 1 ? lastmask : 0xffu\n"
    "extern \"C\" __global__ void srt_khist(const srt_raw *k, long long n, "
    "long long chunk, int begin, int npass, unsigned lastmask, int desc, "
    "long long *counts, srt_img *vary, const int *top, int me)\n"
    "{\n"
    "    const long long c = blockIdx.x, lo = c * chunk;\n"
    "    const long long hi = lo + chunk < n ? lo + chunk : n;\n"
    "    SRT_TOP_DIGIT(me);\n"
    "    long long h[256];\n"
    "    srt_img o = 0, a = SRT_ONES;\n"
    "    if (top && *top != me) return;\n"
    "    for (int d = 0; d < 256; d++) h[d] = 0;\n"
    "    if (vary) {\n"
    "        for (long long i = lo; i < hi; i++) {\n"
    "            const srt_img x = srt_key(k[i], desc);\n"
    "            h[(unsigned)(x >> shift) & mask]++;\n"
    "            o |= x;\n"
    "            a &= x;\n"
    "        }\n"
    "        vary[2 * c] = o;\n"
    "        vary[2 * c + 1] = a;\n"
    "    } else {\n"
    "        for (long long i = lo; i < hi; i++) h[SRT_DIG(k[i])]++;\n"
    "    }\n"
    "    for (int d = 0; d < 256; d++) counts[c * 256 + d] = h[d];\n"
    "}\n"
    "extern \"C\" __global__ void srt_ktop(const srt_img *vary, long long "
    "nchunks, int begin, int npass, unsigned lastmask, int *top)\n"
    "{\n"
    "    srt_img o = 0, a = SRT_ONES;\n"
    "    int t = npass - 1;\n"
    "    for (long long c = 0; c < nchunks; c++) {\n"
    "        o |= vary[2 * c];\n"
    "        a &= vary[2 * c + 1];\n"
    "    }\n"
    "    o ^= a;\n"
    /* All keys alike: any pass is a stable copy; keep the counted one. */
    "    if (!(o >> begin)) { *top = t; return; }\n"
    "    while (t > 0 && !((o >> (begin + 8 * t)) & (t == npass - 1 ? "
    "lastmask : 0xffu)))\n"
    "        t--;\n"
    "    *top = t;\n"
    "}\n";

static const char scat_host[] =
    "extern \"C\" __global__ void @N(const srt_raw *k, srt_raw *k2, const @V "
    "*v, @V *v2, long long n, long long chunk, int begin, int npass, "
    "unsigned lastmask, int desc, const long long *counts, const int *top)\n"
    "{\n"
    "    const long long c = blockIdx.x, lo = c * chunk;\n"
    "    const long long hi = lo + chunk < n ? lo + chunk : n;\n"
    "    SRT_TOP_DIGIT(*top);\n"
    "    long long o[256];\n"
    "    for (int d = 0; d < 256; d++) o[d] = counts[c * 256 + d];\n"
    "    for (long long i = lo; i < hi; i++) {\n"
    "        const srt_raw x = k[i];\n"
    "        const long long j = o[SRT_DIG(x)]++;\n"
    "        k2[j] = x;\n"
    "        if (@P) v2[j] = v ? v[i] : (@V)i;\n"
    "    }\n"
    "}\n";

/* Host, after the chunked pass by the top digit: bucket (block) d sorts
 * its keys [counts[d], next start) by the lower digits alone, from ka
 * into kb. One thread owns a bucket, so every digit's counts come from
 * one read and a digit that all its keys share costs nothing. A large
 * bucket first splits by its highest lower digit (MSD) so that each part
 * finishes its LSD passes in cache. @N_lsd: LSD over digits [0, np) of
 * keys [s, e) of x (y the scratch), ending in y when to_y, else in x. */
static const char bucket_host[] =
    "__device__ void @N_lsd(srt_raw *x, srt_raw *y, @V *vx, @V *vy, long "
    "long s, long long e, int begin, int np, int desc, int to_y)\n"
    "{\n"
    "    const unsigned mask = 0xffu;\n"
    "    long long h[7][256];\n"
    "    int in_y = 0;\n"
    "    for (int p = 0; p < np; p++)\n"
    "        for (int d = 0; d < 256; d++) h[p][d] = 0;\n"
    "    for (long long i = s; i < e; i++) {\n"
    "        const srt_img k = srt_key(x[i], desc);\n"
    "        for (int p = 0; p < np; p++)\n"
    "            h[p][(unsigned)(k >> (begin + 8 * p)) & mask]++;\n"
    "    }\n"
    "    for (int p = 0; p < np; p++) {\n"
    "        const int shift = begin + 8 * p;\n"
    "        srt_raw *ks = in_y ? y : x, *kd = in_y ? x : y;\n"
    "        @V *vs = in_y ? vy : vx, *vd = in_y ? vx : vy;\n"
    "        long long o = s;\n"
    "        if (h[p][SRT_DIG(ks[s])] == e - s) continue;\n"
    "        for (int d = 0; d < 256; d++) {\n"
    "            const long long c = h[p][d];\n"
    "            h[p][d] = o;\n"
    "            o += c;\n"
    "        }\n"
    "        for (long long i = s; i < e; i++) {\n"
    "            const srt_raw k = ks[i];\n"
    "            const long long j = h[p][SRT_DIG(k)]++;\n"
    "            kd[j] = k;\n"
    "            if (@P) vd[j] = vs[i];\n"
    "        }\n"
    "        in_y = !in_y;\n"
    "    }\n"
    "    if (in_y != to_y) {\n"
    "        srt_raw *ks = in_y ? y : x, *kd = in_y ? x : y;\n"
    "        memcpy(kd + s, ks + s, (size_t)(e - s) * sizeof(srt_raw));\n"
    "        if (@P) memcpy((in_y ? vx : vy) + s, (in_y ? vy : vx) + s, "
    "(size_t)(e - s) * sizeof(@V));\n"
    "    }\n"
    "}\n"
    "extern \"C\" __global__ void @N(srt_raw *ka, srt_raw *kb, @V *va, @V "
    "*vb, long long n, const long long *counts, int begin, const int *top, "
    "int desc)\n"
    "{\n"
    "    const int b = blockIdx.x, np = *top;\n"
    "    const long long s = counts[b], e = b < 255 ? counts[b + 1] : n;\n"
    "    const int shift = begin + 8 * (np - 1);\n"
    "    const unsigned mask = 0xffu;\n"
    "    long long h[256], o;\n"
    "    if (e <= s) return;\n"
    "    if (np < 2 || e - s <= 32768) {\n"
    "        @N_lsd(ka, kb, va, vb, s, e, begin, np, desc, 1);\n"
    "        return;\n"
    "    }\n"
    "    for (int d = 0; d < 256; d++) h[d] = 0;\n"
    "    for (long long i = s; i < e; i++) h[SRT_DIG(ka[i])]++;\n"
    "    if (h[SRT_DIG(ka[s])] == e - s) {\n"
    "        @N_lsd(ka, kb, va, vb, s, e, begin, np - 1, desc, 1);\n"
    "        return;\n"
    "    }\n"
    "    o = s;\n"
    "    for (int d = 0; d < 256; d++) {\n"
    "        const long long c = h[d];\n"
    "        h[d] = o;\n"
    "        o += c;\n"
    "    }\n"
    "    for (long long i = s; i < e; i++) {\n"
    "        const srt_raw k = ka[i];\n"
    "        const long long j = h[SRT_DIG(k)]++;\n"
    "        kb[j] = k;\n"
    "        if (@P) vb[j] = va[i];\n"
    "    }\n"
    /* h[d] is now the end of part d. */
    "    for (int d = 0; d < 256; d++) {\n"
    "        const long long ps = d ? h[d - 1] : s;\n"
    "        if (h[d] > ps)\n"
    "            @N_lsd(kb, ka, vb, va, ps, h[d], begin, np - 1, desc, 0);\n"
    "    }\n"
    "}\n";

/* Keys per thread (a tile is 256 threads of them) and tiles read at once
 * in the look-back; EMBER_SORT_ITEMS (keys-only passes) and
 * EMBER_SORT_WINDOW try others (em_gen_env_knob). Measured on the H100,
 * 2^27 keys, with the counts published before the ranking: uint32 keys
 * 41.9, 40.6 and 42.4 Gkeys/s with 16, 20 and 24 keys per thread (float32
 * 40.4, 39.2, 41.6), 35.4 and 34.8 with 28 and 32 at 2 blocks per SM;
 * windows of 16 and 32 tiles were 5% and 13% slower than 8, and sleeping
 * between reads of an unpublished tile changed nothing. With 24 keys a
 * thread and integer digits taken twice: windows of 4, 8 and 12 tiles
 * 47.8, 47.3 and 46.3 Gkeys/s (float32 41.2, 39.5, 37.0). Pairs
 * (float32 + int64, values staged by cp.async; EMBER_SORT_VITEMS): 16
 * keys a thread at 3 blocks per SM 19.3 Gkeys/s, 12 at 4 blocks 17.6, 8
 * 16.0; windows of 4, 8 and 16 the same within 1%. At 28 keys a thread
 * the window matters (EMBER_SORT_VWINDOW): 1, 2, 3 and 4 tiles gave
 * 23.0, 22.7, 22.4 and 22.4 (argsort 24.1, 23.7, 23.6, 23.4), while
 * keys-only float32 lost 7% at 1 tile and uint32 gained 1%, so only the
 * passes with values take 1 (float64 + int64: 7.6 Gkeys/s at 1 tile, 7.4
 * at 4). */
static int items_knob, vitems_knob, window_knob, ditems_knob;

int em_gen_sort_os_items(em_dtype dt, int vals)
{
    /* 4-byte keys with values: 29, at 2 blocks per SM (OS_MINB). A
     * pass's cost follows the length of the runs it writes (about
     * tile / 256 keys of a digit): on the H100, pairs of float32 and
     * int64 took 1.8-1.9 ms a pass with random digits and 1.27 ms on
     * the top byte of normal floats, where few digits occur; 16, 20, 24,
     * 28 and 32 keys a thread gave 19.3, 21.3, 21.7, 22.5 and 21.1 Gkeys/s
     * (argsort 19.9, 22.3, 22.7, 23.5, 21.4; 32 leaves one block an SM);
     * later, 29 against 28: 5.870-5.872 ms against 5.906-5.931 for the
     * bench's pairs (argsort the same within 1%), the most that leaves
     * two blocks an SM (30 would need 230 KiB).
     * 20 for 8-byte keys (EMBER_SORT_DITEMS), their tile in dynamic
     * shared memory (OS_DYNBUF), 3 blocks per SM: 16, 18, 20 and 22 keys
     * a thread sorted 2^27 float64 at 15.9, 16.2, 16.4-16.5 and 16.1
     * Gkeys/s (float32 values held as float64: 24.3, 24.9, 25.3-25.5,
     * 24.9); 24 spills at 3 blocks and at 2 blocks read 15.3. 16 had
     * been the most whose tile fit 48 KiB of static shared memory. 12
     * for 8-byte keys with values, so that 3 blocks' keys and staged
     * values fit an SM. */
    if (vals && em_dtype_size(dt) > 4)
        return 12;
    if (vals)
        return em_gen_env_knob("EMBER_SORT_VITEMS", &vitems_knob, 29, 4, 32);
    if (em_dtype_size(dt) > 4)
        return em_gen_env_knob("EMBER_SORT_DITEMS", &ditems_knob, 20, 4, 22);
    return em_gen_env_knob("EMBER_SORT_ITEMS", &items_knob, 24, 4, 24);
}

static int adapt_knob;

/* EMBER_SORT_ADAPT: 0 never, 1 with values only, 2 always. Values
 * only by default: on the H100 (2^27 standard normal float32 keys)
 * pairs took 5.69 ms against 5.80 with bytes, and on another machine
 * 5.66-5.68 against 5.71-5.74 with the earlier layout ([0, 8), [8, 15),
 * [15, 22), top 10 bits), argsort 5.42-5.46 against 5.48-5.53; but keys
 * alone 3.01 against 2.97 ms: a keys-only pass costs the same at 7 bits as at 8
 * (0.68 ms), so srt_up's extra counts (246-250 us against 228) are not
 * paid back. */
int em_gen_sort_os_adapt(int vals)
{
    const int k = em_gen_env_knob("EMBER_SORT_ADAPT", &adapt_knob, 1, 0, 2);
    return k == 2 || (k == 1 && vals);
}

static int window(void)
{
    return em_gen_env_knob("EMBER_SORT_WINDOW", &window_knob, 4, 1, 32);
}

static int vwindow_knob;

/* The look-back window of the passes with values (EMBER_SORT_VWINDOW). */
static int vwindow(void)
{
    return em_gen_env_knob("EMBER_SORT_VWINDOW", &vwindow_knob, 1, 1, 32);
}

static int minb_knob;

/* Blocks per SM of the 4-byte-key passes (keys only, or at most 16 keys
 * a thread): EMBER_SORT_MINB tries others. */
static int minb0(void)
{
    return em_gen_env_knob("EMBER_SORT_MINB", &minb_knob, 4, 1, 8);
}

static void emit(em_gen_buf *b, const char *tpl, const char *name,
                 const char *vtype, int vals, int items)
{
    for (const char *q = tpl; *q; q++) {
        if (q[0] == '@' && (q[1] == 'N' || q[1] == 'V' || q[1] == 'P' ||
                            q[1] == 'I' || q[1] == 'W')) {
            if (q[1] == 'N')
                em_gen_buf_printf(b, "%s", name);
            else if (q[1] == 'V')
                em_gen_buf_printf(b, "%s", vtype);
            else if (q[1] == 'P')
                em_gen_buf_printf(b, "%d", vals);
            else if (q[1] == 'I')
                em_gen_buf_printf(b, "%d", items);
            else
                em_gen_buf_printf(b, "%d", vals ? vwindow() : window());
            q++;
        } else {
            em_gen_buf_printf(b, "%c", *q);
        }
    }
}

void em_gen_sort_keys_source(em_gen_buf *b, em_dtype dt, em_device_type target)
{
    static const struct {
        const char *sfx, *vtype;
        int vals;
    } kinds[3] = {
        {"0", "unsigned char", 0}, {"4", "srt_u32", 1}, {"8", "srt_u64", 1}};
    char name[32];
    em_gen_buf_printf(b, "%s", key_fn);
    if (target == EM_DEVICE_CUDA) {
        em_gen_buf_printf(b, "#define OS_MINB0 %d\n#define OS_DYNBUF %d\n#define OS_KEEP %d\n"
                          "#define OS_ADAPT %d\n#define EM_SRT_OS_MAP_WORDS %d\n%s",
                          minb0(), em_dtype_size(dt) > 4,
                          em_dtype_get(dt)->kind_id == EM_KIND_FLOAT,
                          em_dtype_size(dt) == 4, EM_SRT_OS_MAP_WORDS, up_cuda);
        for (int i = 0; i < 3; i++) {
            snprintf(name, sizeof name, "srt_os%s", kinds[i].sfx);
            const int items = em_gen_sort_os_items(dt, kinds[i].vals);
            emit(b, pass_cuda, name, kinds[i].vtype, kinds[i].vals, items);
        }
    } else {
        em_gen_buf_printf(b, "%s", hist_host);
        for (int i = 0; i < 3; i++) {
            snprintf(name, sizeof name, "srt_kscat%s", kinds[i].sfx);
            emit(b, scat_host, name, kinds[i].vtype, kinds[i].vals, 0);
            snprintf(name, sizeof name, "srt_kbucket%s", kinds[i].sfx);
            emit(b, bucket_host, name, kinds[i].vtype, kinds[i].vals, 0);
        }
    }
}
