/* ember: the most significant key of a complex sort (src/codegen/sort.c
 * pastes it after sort_image.cuh, with SRT_INF the magnitude of +inf in a
 * component's bits; a larger one is NaN). NumPy's complex order puts
 * R+Rj, then R+nanj, then nan+Rj, then nan+nanj: this group. */
extern "C" __global__ void srt_group(const char *keys, const long long *p_in, srt_u32 *u, long long *p_out, long long n)
{
    SRT_FOR(i, n) {
        const long long j = p_in ? p_in[i] : i;
        const srt_raw *x = (const srt_raw *)(keys + j * 2 * sizeof(srt_raw));
        srt_u32 g = 0;
        if ((x[0] & ~SRT_SIGN) > (srt_raw)SRT_INF) g |= 2;
        if ((x[1] & ~SRT_SIGN) > (srt_raw)SRT_INF) g |= 1;
        u[i] = g;
        if (p_out) p_out[i] = i;
    }
}
