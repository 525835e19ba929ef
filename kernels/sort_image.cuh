/* ember: the radix sort's bit image of a key dtype (src/codegen/sort.c
 * pastes it after the dtype's srt_raw, srt_img, SRT_ONES, SRT_SIGN,
 * SRT_IMG and SRT_FOR).
 *
 * keys + j * stride is key j (stride: the item size, or a complex item's
 * size for one component); p_in (may be NULL: the identity) is the
 * current order; p_out, when given, gets the identity. NaNs take the
 * largest image, ascending or descending. */
extern "C" __global__ void srt_image(const char *keys, long long stride, const long long *p_in, srt_img *u, long long *p_out, long long n, int desc)
{
    SRT_FOR(i, n) {
        const long long j = p_in ? p_in[i] : i;
        srt_img b = (srt_img)*(const srt_raw *)(keys + j * stride);
        int nan = 0;
        SRT_IMG(b, nan);
        if (desc && !nan) b = ~b & SRT_ONES;
        if (nan) b = SRT_ONES;
        u[i] = b;
        if (p_out) p_out[i] = i;
    }
}
