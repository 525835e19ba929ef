/* ember: the host scan kernels' bodies (src/codegen/scan.c pastes them
 * after the types and operator it generates, with SC_X and SC_PUT; the
 * capitalised kernel-name placeholder becomes the kernel's name).
 *
 * Chunk totals, the serial pass over them, the chunk scans. A block is one
 * thread; blocks never wait on each other. */
extern "C" __global__ void NAME_reduce(const char *in, struct sc_slot *tot, struct sc_geom g, struct sc_init init, const unsigned char *heads, struct sc_tup tp)
{
    const long long nt = g.nrows * g.ntiles;
    (void)tp;
    for (long long t = blockIdx.x; t < nt; t += gridDim.x) {
        const long long row = t / g.ntiles, lo = (t % g.ntiles) * g.tile;
        const long long hi = lo + g.tile < g.len ? lo + g.tile : g.len;
        const char *p = in + row * g.irs;
        sc_acc acc = SC_X(p, lo);
        (void)p;
        SC_SEG(acc, row, lo);
        for (long long i = lo + 1; i < hi; i++) {
            sc_acc x = SC_X(p, i);
            SC_SEG(x, row, i);
            acc = sc_op(acc, x);
        }
        tot[t].v = acc;
    }
}
extern "C" __global__ void NAME_carry(struct sc_slot *tot, struct sc_geom g, struct sc_init init)
{
    for (long long row = blockIdx.x; row < g.nrows; row += gridDim.x) {
        struct sc_slot *r = tot + row * g.ntiles;
        sc_acc run = SC_LD(init.v);
        int has = SC_HAS_INIT;
        for (long long c = 0; c < g.ntiles; c++) {
            sc_acc x = r[c].v;
            r[c].v = run;
            run = has ? sc_op(run, x) : x;
            has = 1;
        }
    }
}
extern "C" __global__ void NAME_scan(const char *in, char *out, const struct sc_slot *tot, struct sc_geom g, struct sc_init init, const unsigned char *heads, struct sc_tup tp)
{
    const long long nt = g.nrows * g.ntiles;
    (void)tp;
    for (long long t = blockIdx.x; t < nt; t += gridDim.x) {
        const long long row = t / g.ntiles, c = t % g.ntiles, lo = c * g.tile;
        const long long hi = lo + g.tile < g.len ? lo + g.tile : g.len;
        const char *p = in + row * g.irs;
        char *q = out + row * g.ors;
        sc_acc run = c > 0 ? tot[t].v : SC_LD(init.v);
        int has = c > 0 || SC_HAS_INIT;
        (void)p;
        (void)q;
        for (long long i = lo; i < hi; i++) {
            sc_acc x = SC_X(p, i);
            SC_SEG(x, row, i);
#if SC_EXCL
            SC_PUT(q, i, SC_ST(SC_EXV(run, x)));
#endif
            run = has ? sc_op(run, x) : x;
            has = 1;
#if !SC_EXCL
            SC_PUT(q, i, SC_ST(run));
#endif
        }
    }
}
