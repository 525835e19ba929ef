/* ember: the merge sort's kernels (src/algo/merge_sort.c pastes them
 * after srt_raw, srt_k, SRT_LD, SRT_FOR and srt_less, the user's
 * comparator: "a goes before b").
 *
 * srt_merge is one bottom-up merge pass of the permutation p into q:
 * every element finds its output position by itself (its offset in its
 * run plus a binary search in the other run: elements of the left run go
 * before equal elements of the right run, which keeps the sort stable).
 */
#define SRT_KEY(j) SRT_LD(((const srt_raw *)keys)[j])
/* Runs of width w at multiples of 2w, or (split >= 0) the two
 * runs [0, split) and [split, n). */
extern "C" __global__ void srt_merge(const char *keys, const long long *p, long long *q, long long n, long long w, long long split)
{
    SRT_FOR(i, n) {
        long long start, mid, end, lo, hi;
        srt_k x = SRT_KEY(p[i]);
        if (split >= 0) {
            start = 0; mid = split; end = n;
        } else {
            start = (i / (2 * w)) * 2 * w;
            mid = start + w < n ? start + w : n;
            end = start + 2 * w < n ? start + 2 * w : n;
        }
        if (i < mid) {
            lo = mid; hi = end;
            while (lo < hi) {
                long long m = lo + ((hi - lo) >> 1);
                if (srt_less(SRT_KEY(p[m]), x)) lo = m + 1;
                else hi = m;
            }
            q[i + (lo - mid)] = p[i];
        } else {
            lo = start; hi = mid;
            while (lo < hi) {
                long long m = lo + ((hi - lo) >> 1);
                if (!srt_less(x, SRT_KEY(p[m]))) lo = m + 1;
                else hi = m;
            }
            q[(i - mid) + lo] = p[i];
        }
    }
}
extern "C" __global__ void srt_iota(long long *p, long long n)
{
    SRT_FOR(i, n)
        p[i] = i;
}
