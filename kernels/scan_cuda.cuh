/* ember: the CUDA scan kernel's body (src/codegen/scan.c pastes it after
 * the types and operator it generates: sc_t, sc_in, sc_acc, sc_op, SC_LD,
 * SC_ST, SC_CONV, SC_SEG, SC_EXV and the SC_* sizes; each whole-word
 * occurrence of the kernel-name placeholder, in capitals, becomes the
 * kernel's name, so this file never spells it in prose).
 *
 * One tile per block, 256 threads of SC_ITEMS consecutive elements each.
 * Each warp stages its 32 x SC_ITEMS elements through shared memory:
 * 16-byte coalesced global loads/stores where the row is contiguous and
 * aligned (scalar otherwise), 16-byte reads of each lane's own run. The
 * 16-byte chunks are permuted within every 128-byte group (SC_SW) so both
 * passes hit 32 distinct banks. Warp-shuffle scans inside the tile; one
 * warp looks back over 32 predecessors at a time. A tile's status is one
 * word: flag + value in 64 bits for values of up to 4 bytes, in an aligned
 * 128-bit access (as CUB does) for 8-byte values, else a flag word and two
 * value slots (aggregate, inclusive) ordered by fences. Tile ids come from
 * an atomic counter, so a tile only ever waits on tiles that started. */
#define SC_BLOCK 256
#define SC_WARPS (SC_BLOCK / 32)
#define SC_TILE (SC_BLOCK * SC_ITEMS)
#define SC_WIN (32 * SC_ITEMS)
#define SC_WBYTES (SC_WIN * SC_BUFSZ)
#define SC_CIN (SC_ITEMS * (int)sizeof(sc_in) / 16)
#define SC_COUT (SC_ITEMS * (int)sizeof(sc_t) / 16)
#define SC_EPC (16 / (int)sizeof(sc_in))
#define SC_FULL 0xffffffffu
#define SC_SW(o) (((((o) >> 4) ^ (((o) >> 7) & 7)) << 4) | ((o) & 15))
typedef char sc_size_check[sizeof(sc_acc) == SC_ACCSZ ? 1 : -1];
typedef union sc_words { sc_acc v; unsigned w[(SC_ACCSZ + 3) / 4]; } sc_words;
/* A shuffle of an accumulator of any size, a 32-bit word at a time; one
 * macro stamps the up and down directions. */
#define SC_SHFL(dir)                                                          \
    EW_FN sc_acc sc_shfl_##dir(sc_acc v, int d)                               \
    {                                                                         \
        sc_words u;                                                           \
        u.v = v;                                                              \
        _Pragma("unroll")                                                     \
        for (int k = 0; k < (SC_ACCSZ + 3) / 4; k++)                          \
            u.w[k] = __shfl_##dir##_sync(SC_FULL, u.w[k], d);                 \
        return u.v;                                                           \
    }
SC_SHFL(up)
SC_SHFL(down)
#undef SC_SHFL
#if SC_PACK == 1
typedef union sc_word { sc_acc v; unsigned long long b; unsigned u[2]; } sc_word;
EW_FN void sc_put(void *st, long long t, long long total, unsigned f, sc_acc v)
{
    sc_word w;
    (void)total;
    w.b = 0ull;
    w.v = v;
    w.u[1] = f;
    *((volatile unsigned long long *)st + t) = w.b;
}
EW_FN unsigned sc_get(const void *st, long long t, long long total, sc_acc *v)
{
    sc_word w;
    (void)total;
    w.b = *((const volatile unsigned long long *)st + t);
    *v = w.v;
    return w.u[1];
}
#elif SC_PACK == 2
typedef union sc_word { sc_acc v; unsigned long long b[2]; } sc_word;
EW_FN void sc_put(void *st, long long t, long long total, unsigned f, sc_acc v)
{
    sc_word w;
    (void)total;
    w.b[0] = 0ull;
    w.v = v;
    w.b[1] = f;
    asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(
                     (unsigned long long *)st + 2 * t),
                 "l"(w.b[0]), "l"(w.b[1])
                 : "memory");
}
EW_FN unsigned sc_get(const void *st, long long t, long long total, sc_acc *v)
{
    sc_word w;
    (void)total;
    asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(w.b[0]), "=l"(w.b[1])
                 : "l"((const unsigned long long *)st + 2 * t)
                 : "memory");
    *v = w.v;
    return (unsigned)w.b[1];
}
#else
struct __align__(8) sc_slot2 { sc_acc v; };
#define SC_FBYTES(total) (((total) * 4 + 15) / 16 * 16)
EW_FN struct sc_slot2 *sc_slots(void *st, long long total, unsigned f)
{
    return (struct sc_slot2 *)((char *)st + SC_FBYTES(total)) +
           (f == 2u ? total : 0);
}
EW_FN void sc_put(void *st, long long t, long long total, unsigned f, sc_acc v)
{
    sc_slots(st, total, f)[t].v = v;
    __threadfence();
    *((volatile unsigned *)st + t) = f;
}
EW_FN unsigned sc_get(const void *st, long long t, long long total, sc_acc *v)
{
    (void)total;
    (void)v;
    return *((const volatile unsigned *)st + t);
}
EW_FN sc_acc sc_ldcg(const struct sc_slot2 *p)
{
    struct sc_slot2 r;
    const unsigned long long *s = (const unsigned long long *)p;
    unsigned long long *d = (unsigned long long *)&r;
#pragma unroll
    for (int k = 0; k < (int)(sizeof(r) / 8); k++)
        d[k] = __ldcg(s + k);
    return r.v;
}
#define SC_GET_AGAIN(st, t, total, v, f)                                     \
    do {                                                                     \
        __threadfence();                                                     \
        (v) = sc_ldcg(sc_slots((void *)(st), (total), (f)) + (t));           \
    } while (0)
#endif
/* The tile's exclusive prefix: one warp walks back over the tile status
 * words of its predecessors, 32 at a time, until one holds an inclusive
 * prefix. Only tiles with smaller ids are read: they took their ids
 * earlier, so they run or ran, and publish without waiting for us. */
EW_FN sc_acc sc_lookback(const void *st, long long t, long long first,
                         long long total, sc_acc dflt)
{
    const int lane = threadIdx.x & 31;
    sc_acc run = dflt;
    int has = 0;
    for (long long j = t - 1;; j -= 32) {
        const long long jj = j - lane;
        const int valid = jj >= first;
        unsigned f = 0;
        sc_acc v = dflt;
        do {
            if (valid)
                f = sc_get(st, jj, total, &v);
        } while (__any_sync(SC_FULL, valid && f == 0u));
#if SC_PACK == 0
        if (valid)
            SC_GET_AGAIN(st, jj, total, v, f);
#endif
        const unsigned pm = __ballot_sync(SC_FULL, valid && f == 2u);
        const int stop = pm ? __ffs(pm) - 1 : 31;
        /* lane L holds tile t-1-L: fold lanes stop..0 in index order */
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const sc_acc o = sc_shfl_down(v, d);
            if (lane + d <= stop)
                v = sc_op(o, v);
        }
        run = has ? sc_op(v, run) : v;
        has = 1;
        if (pm)
            break;
    }
    return run;
}
/* Lane `lane`'s SC_ITEMS elements, converted: from the warp's staging
 * area, or (tuples) straight from the component arrays. */
#if SC_TUPLE
#define SC_ELEMS(xin) ((void)0)
#define SC_ELEM(xin, k)                                                      \
    SC_LD(sc_tload(tp, lo + (full || (k) < cnt ? i0 + (k) : n - 1)))
#elif SC_VIN
#define SC_ELEMS(xin)                                                        \
    do {                                                                     \
        _Pragma("unroll") for (int q = 0; q < SC_CIN; q++)                   \
            ((uint4 *)(xin))[q] =                                            \
                *(const uint4 *)(sw + SC_SW((lane * SC_CIN + q) * 16));      \
    } while (0)
#define SC_ELEM(xin, k) SC_CONV((xin)[k])
#else
#define SC_ELEMS(xin)                                                        \
    do {                                                                     \
        _Pragma("unroll") for (int k = 0; k < SC_ITEMS; k++)                 \
            (xin)[k] = *(const sc_in *)(sw + SC_SW((lane * SC_ITEMS + k) *   \
                                                   (int)sizeof(sc_in)));     \
    } while (0)
#define SC_ELEM(xin, k) SC_CONV((xin)[k])
#endif
/* One tile; `full` is a constant after inlining, so a full tile has no
 * per-element bounds checks. The elements stay in shared memory while the
 * tile waits for its prefix and are read again afterwards, so few
 * registers live across the look-back and more blocks fit an SM. */
EW_FN void sc_tile(const char *in, char *out, void *st, struct sc_geom g,
                   struct sc_init init, const unsigned char *heads,
                   struct sc_tup tp, const int full, long long t, int n,
                   unsigned char *s_buf, sc_acc *s_warp, sc_acc *s_prefix)
{
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const long long total = g.nrows * g.ntiles;
    const long long row = t / g.ntiles, c = t % g.ntiles, lo = c * SC_TILE;
    const char *pin = in + row * g.irs + lo * g.ies;
    char *pout = out + row * g.ors + lo * g.oes;
    unsigned char *sw = s_buf + w * SC_WBYTES;
    const int i0 = tid * SC_ITEMS;
    const int cnt = full ? SC_ITEMS : n - i0;
    (void)tp;
    (void)pin;
    (void)sw;
    (void)heads;
#if !SC_TUPLE
#if SC_VIN
    if (full && g.ies == (long long)sizeof(sc_in) &&
        !((unsigned long long)pin & 15)) {
        const uint4 *src =
            (const uint4 *)pin + w * (SC_WIN * (int)sizeof(sc_in) / 16);
#if SC_LEAN && __CUDA_ARCH__ >= 800
#pragma unroll
        for (int k = 0; k < SC_CIN; k++) {
            const unsigned d = (unsigned)__cvta_generic_to_shared(sw + SC_SW((k * 32 + lane) * 16));
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src + k * 32 + lane) : "memory");
        }
        asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
#else
        uint4 r[SC_CIN];
#pragma unroll
        for (int k = 0; k < SC_CIN; k++)
            r[k] = src[k * 32 + lane];
#pragma unroll
        for (int k = 0; k < SC_CIN; k++)
            *(uint4 *)(sw + SC_SW((k * 32 + lane) * 16)) = r[k];
#endif
    } else
#endif
    {
#pragma unroll
        for (int k = 0; k < SC_ITEMS; k++) {
            const int e = k * 32 + lane, i = w * SC_WIN + e;
            if (full || i < n)
                *(sc_in *)(sw + SC_SW(e * (int)sizeof(sc_in))) =
                    *(const sc_in *)(pin + (long long)i * g.ies);
        }
    }
    __syncwarp();
#endif
    /* This thread's total. */
    sc_acc x;
#if SC_LEAN
    /* SC_LEAN: the lane's run is read 16 bytes at a time (few registers
     * live, so more blocks fit an SM), here and for the outputs, which
     * replace the inputs chunk by chunk (same element size). */
    {
#pragma unroll
        for (int c = 0; c < SC_CIN; c++) {
            union { uint4 u; sc_in e[SC_EPC]; } ch;
            ch.u = *(const uint4 *)(sw + SC_SW((lane * SC_CIN + c) * 16));
#pragma unroll
            for (int e = 0; e < SC_EPC; e++) {
                const int k = c * SC_EPC + e;
                sc_acc v = SC_CONV(ch.e[e]);
                if (k == 0) {
                    x = v;
                    if (full || cnt > 0)
                        SC_SEG(x, row, lo + i0);
                } else if (full || k < cnt) {
                    SC_SEG(v, row, lo + i0 + k);
                    x = sc_op(x, v);
                }
            }
        }
    }
#else
    {
        __align__(16) sc_in xin[SC_ITEMS];
        SC_ELEMS(xin);
        x = SC_ELEM(xin, 0);
        if (full || cnt > 0)
            SC_SEG(x, row, lo + i0);
#pragma unroll
        for (int k = 1; k < SC_ITEMS; k++)
            if (full || k < cnt) {
                sc_acc v = SC_ELEM(xin, k);
                SC_SEG(v, row, lo + i0 + k);
                x = sc_op(x, v);
            }
    }
#endif
    /* Warp scan of the totals; lane L's exclusive prefix in xe. */
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const sc_acc y = sc_shfl_up(x, d);
        if (lane >= d)
            x = sc_op(y, x);
    }
    const sc_acc xe = sc_shfl_up(x, 1);
    const int nthr = full ? SC_BLOCK : (n + SC_ITEMS - 1) / SC_ITEMS;
    const int lastw = (nthr - 1) >> 5;
    if (lane == (w < lastw ? 31 : (nthr - 1) & 31))
        s_warp[w] = x;
    __syncthreads();
    if (w == 0) {
        sc_acc agg = s_warp[0];
        for (int k = 1; k <= lastw; k++)
            agg = sc_op(agg, s_warp[k]);
        if (c == 0) {
#if SC_HAS_INIT
            agg = sc_op(SC_LD(init.v), agg);
#endif
            if (lane == 0)
                sc_put(st, t, total, 2u, agg);
        } else {
            if (lane == 0)
                sc_put(st, t, total, 1u, agg);
            const sc_acc p = sc_lookback(st, t, t - c, total, agg);
            if (lane == 0) {
                sc_put(st, t, total, 2u, sc_op(p, agg));
                *s_prefix = p;
            }
        }
    }
    /* This thread's prefix: the tiles before, the warps before, the
     * lanes before. */
    sc_acc pre = SC_LD(init.v);
    int hp = SC_HAS_INIT;
    if (w > 0) {
        sc_acc wp = s_warp[0];
        for (int k = 1; k < w; k++)
            wp = sc_op(wp, s_warp[k]);
        pre = lane > 0 ? sc_op(wp, xe) : wp;
    } else if (lane > 0)
        pre = xe;
    const int ht = w > 0 || lane > 0;
    __syncthreads();
    if (c > 0) {
        pre = ht ? sc_op(*s_prefix, pre) : *s_prefix;
        hp = 1;
    } else if (ht) {
#if SC_HAS_INIT
        pre = sc_op(SC_LD(init.v), pre);
#endif
        hp = 1;
    }
    /* The outputs, in index order after the prefix (so the first
     * elements' results round as a sequential loop's). */
#if SC_LEAN
#pragma unroll
    for (int c = 0; c < SC_CIN; c++) {
        uint4 *cp = (uint4 *)(sw + SC_SW((lane * SC_CIN + c) * 16));
        union { uint4 u; sc_in e[SC_EPC]; } ch;
        union { uint4 u; sc_t e[SC_EPC]; } oy;
        ch.u = *cp;
#pragma unroll
        for (int e = 0; e < SC_EPC; e++) {
            const int k = c * SC_EPC + e;
            sc_acc v = SC_CONV(ch.e[e]);
            if (full || k < cnt)
                SC_SEG(v, row, lo + i0 + k);
#if SC_EXCL
            oy.e[e] = SC_ST(SC_EXV(pre, v));
#endif
            pre = hp ? sc_op(pre, v) : v;
            hp = 1;
#if !SC_EXCL
            oy.e[e] = SC_ST(pre);
#endif
        }
        *cp = oy.u;
    }
    __syncwarp();
#else
    __align__(16) sc_t y[SC_ITEMS];
    {
        __align__(16) sc_in xin[SC_ITEMS];
        SC_ELEMS(xin);
#pragma unroll
        for (int k = 0; k < SC_ITEMS; k++) {
            sc_acc v = SC_ELEM(xin, k);
            if (full || k < cnt)
                SC_SEG(v, row, lo + i0 + k);
#if SC_EXCL
            y[k] = SC_ST(SC_EXV(pre, v));
#endif
            pre = hp ? sc_op(pre, v) : v;
            hp = 1;
#if !SC_EXCL
            y[k] = SC_ST(pre);
#endif
        }
    }
#if SC_TUPLE
#pragma unroll
    for (int k = 0; k < SC_ITEMS; k++)
        if (full || k < cnt)
            sc_tstore(tp, lo + i0 + k, y[k]);
#else
    /* every lane has read its inputs before any output lands on them */
    __syncwarp();
#if SC_VOUT
#pragma unroll
    for (int q = 0; q < SC_COUT; q++)
        *(uint4 *)(sw + SC_SW((lane * SC_COUT + q) * 16)) =
            ((const uint4 *)y)[q];
#else
#pragma unroll
    for (int k = 0; k < SC_ITEMS; k++)
        *(sc_t *)(sw + SC_SW((lane * SC_ITEMS + k) * (int)sizeof(sc_t))) = y[k];
#endif
    __syncwarp();
#endif
#endif
#if !SC_TUPLE
#if SC_VOUT
    if (full && g.oes == (long long)sizeof(sc_t) &&
        !((unsigned long long)pout & 15)) {
        uint4 *dst = (uint4 *)pout + w * (SC_WIN * (int)sizeof(sc_t) / 16);
#pragma unroll
        for (int k = 0; k < SC_COUT; k++)
            dst[k * 32 + lane] =
                *(const uint4 *)(sw + SC_SW((k * 32 + lane) * 16));
        return;
    }
#endif
#pragma unroll
    for (int k = 0; k < SC_ITEMS; k++) {
        const int e = k * 32 + lane, i = w * SC_WIN + e;
        if (full || i < n)
            *(sc_t *)(pout + (long long)i * g.oes) =
                *(const sc_t *)(sw + SC_SW(e * (int)sizeof(sc_t)));
    }
#endif
}
extern "C" __global__ void __launch_bounds__(SC_BLOCK, SC_MINB) NAME(const char *in, char *out, void *st, unsigned *counter, struct sc_geom g, struct sc_init init, const unsigned char *heads, struct sc_tup tp)
{
    __shared__ __align__(16) unsigned char s_buf[SC_WARPS * SC_WBYTES];
    __shared__ sc_acc s_warp[SC_WARPS];
    __shared__ sc_acc s_prefix;
    __shared__ unsigned s_tile;
    if (threadIdx.x == 0)
        s_tile = atomicAdd(counter, 1u);
    __syncthreads();
    const long long t = s_tile;
    const long long lo = (t % g.ntiles) * SC_TILE;
    const int n = (int)(g.len - lo < SC_TILE ? g.len - lo : SC_TILE);
    if (n == SC_TILE)
        sc_tile(in, out, st, g, init, heads, tp, 1, t, n, s_buf, s_warp, &s_prefix);
    else
        sc_tile(in, out, st, g, init, heads, tp, 0, t, n, s_buf, s_warp, &s_prefix);
}
