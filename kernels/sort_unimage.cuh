/* ember: images back into keys, for keys-only sorts of integers and bools
 * (src/codegen/sort.c pastes it after sort_image.cuh, with SRT_SIGNED 1
 * for signed integers). They sort the images alone; floats go through the
 * permutation instead, which keeps -0.0 and NaN payloads as they were. */
extern "C" __global__ void srt_unimage(const srt_img *u, char *out, long long n, int desc)
{
    SRT_FOR(i, n) {
        srt_img b = u[i];
        if (desc) b = ~b & SRT_ONES;
#if SRT_SIGNED
        b ^= SRT_SIGN;
#endif
        ((srt_raw *)out)[i] = (srt_raw)b;
    }
}
