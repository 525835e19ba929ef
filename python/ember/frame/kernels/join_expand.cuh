/* ember.frame's merge (_merge_core.expand): each driving row's run of
 * output rows written by the row itself, the run's place from a scan of
 * the runs' lengths. Row i meets cnt[i] rows of the other side,
 * rorder[lo[i]] onwards; its run starts at start[i] and holds those
 * matches in order, or, when it meets none and keep_unmatched, one row
 * with no match (-1). One pass over the output instead of two scans of
 * jumps scattered over it and the gathers after them.
 * Rows as in rows.cuh: chunk > 0 a contiguous run a block (cpu, so
 * each thread writes one stretch of the output), chunk == 0 a grid stride
 * (cuda). */

extern "C" __global__ void em_join_expand(const long long *start, const long long *cnt,
                                          const long long *lo, const long long *rorder,
                                          long long n, long long chunk, int keep_unmatched,
                                          long long *li, long long *ri)
{
    long long a, e, st;
    em_rows_range(n, chunk, &a, &e, &st);
    for (long long i = a; i < e; i += st) {
        const long long s = start[i], c = cnt[i];
        if (c == 0) {
            if (keep_unmatched) {
                li[s] = i;
                ri[s] = -1;
            }
            continue;
        }
        const long long *r = rorder + lo[i];
        for (long long k = 0; k < c; k++) {
            li[s + k] = i;
            ri[s + k] = r[k];
        }
    }
}
