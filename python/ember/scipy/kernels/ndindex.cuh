/* ember.scipy's array geometry for its kernels (ndfilter.cuh,
 * ndfilter1d.cuh, lfilter.cuh; _kernels.source pastes it in where they
 * include it): lines along an axis, and ndimage's boundary modes.
 *
 * An array filtered along one axis is seen as outer x n x inner; a line is
 * one (outer, inner) pair, its n elements `inner` apart, and a kernel that
 * takes one line a thread strides over lines = outer x inner of them. */
__device__ __forceinline__ long long em_nd_line_start(long long l, long long n,
                                                      long long inner)
{
    return l / inner * n * inner + l % inner;
}

/* The boundary modes: a position outside [0, n) is folded by the mode:
 * 0 reflect (d c b a | a b c d | d c b a), 1 mirror (d c b | a b c d | c b a),
 * 2 nearest (a a | a b c d | d d), 3 wrap (a b c d | a b c d), 4 constant
 * (cval; em_nd_index answers -1). */
__device__ __forceinline__ long long em_nd_index(long long i, long long n,
                                                 int mode)
{
    if (i >= 0 && i < n)
        return i;
    switch (mode) {
    case 0:
        i %= 2 * n;
        if (i < 0)
            i += 2 * n;
        return i < n ? i : 2 * n - 1 - i;
    case 1:
        if (n == 1)
            return 0;
        i %= 2 * n - 2;
        if (i < 0)
            i += 2 * n - 2;
        return i < n ? i : 2 * n - 2 - i;
    case 2:
        return i < 0 ? 0 : n - 1;
    case 3:
        i %= n;
        return i < 0 ? i + n : i;
    default:
        return -1;
    }
}
