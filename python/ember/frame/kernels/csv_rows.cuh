/* ember.frame's read_csv rows (_io_csv.Rows): from the positions of the
 * fields that end a row (`last`) and every field's end byte (`ends`),
 * each row's field count, first and end byte, and whether it may be
 * blank (one field, empty or starting with a space, a tab or a CR: the
 * CSV parse's BLANK mode looks closer at those). One pass instead of a
 * diff, three gathers and a handful of comparisons over the rows.
 * Rows as in rows.cuh: chunk > 0 a contiguous run a block (cpu),
 * chunk == 0 a grid stride (cuda). */

extern "C" __global__ void em_csv_rows(const long long *last, const long long *ends,
                                       const unsigned char *buf, long long size,
                                       long long n, long long chunk, long long *nf,
                                       long long *rs, long long *re, unsigned char *blank)
{
    long long a, e, st;
    em_rows_range(n, chunk, &a, &e, &st);
    for (long long r = a; r < e; r += st) {
        const long long l = last[r], p = r ? last[r - 1] : -1;
        const long long s = r ? ends[p] + 1 : 0, t = ends[l];
        const int fb = buf[s < size - 1 ? s : size - 1];
        nf[r] = l - p;
        rs[r] = s;
        re[r] = t;
        blank[r] = l - p == 1 && (t == s || fb == 32 || fb == 9 || fb == 13);
    }
}
