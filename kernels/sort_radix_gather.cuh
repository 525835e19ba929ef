/* ember: the radix sort's gather of items of one size by a permutation.
 *
 * src/codegen/sort.c pastes this once per item width, replacing the
 * capitalised placeholders of the kernels' names and of the item type as
 * text: the host compiler and the runtime read kernel names and parameter
 * types from the source before preprocessing, and the host compiler's
 * launchers come after every copy. */
extern "C" __global__ void SRT_GATHER(const char *src, const long long *p, char *dst, long long n)
{
    SRT_FOR(i, n)
        ((SRT_ITEM_T *)dst)[i] = ((const SRT_ITEM_T *)src)[p[i]];
}
