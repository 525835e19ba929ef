/* ember: a key's image as the radix sort's digits see it (both backends;
 * src/codegen/sort_onesweep.c pastes it after the key dtype's image
 * module: srt_raw, srt_img, SRT_IMG, SRT_ONES). NaNs are largest either
 * way; descending flips every other key. SRT_DIG takes a digit where
 * `desc`, `shift` and `mask` are in scope. */
__device__ __forceinline__ srt_img srt_key(srt_raw r, int desc)
{
    srt_img b = (srt_img)r;
    int nan = 0;
    SRT_IMG(b, nan);
    if (desc) b = ~b & SRT_ONES;
    if (nan) b = SRT_ONES;
    return b;
}
#define SRT_DIG(k) ((unsigned)(srt_key((k), desc) >> shift) & mask)
