/* ember.scipy.ndimage.watershed_ift: the image foresting transform from
 * markers, SciPy's algorithm step for step so the labels are SciPy's: a
 * bucket queue of doubly linked elements, one bucket per path cost (the
 * largest absolute difference of neighbouring inputs along the path, so
 * 0..maxval for uint8 and uint16 inputs); object markers enter bucket 0
 * at its head and background (negative) markers at its tail; an element
 * taken from a bucket offers each neighbour not yet done its cost and
 * label, and a neighbour that improves moves to the head of its new
 * bucket (the tail for a negative label). Neighbours are offsets in the
 * flat C-order index, kept where every coordinate of the result is in
 * range, as SciPy checks them (so a row's last element neighbours the
 * next row's first, as in SciPy).
 *
 * The order of the queue is the result, so it runs on one thread: work
 * proportional to the image, sequential on every device. */

extern "C" __global__ void em_watershed_ift(
    const int *in, long long *lab, long long n, const long long *nstr,
    int nneigh, const long long *dims, const long long *strides, int ndim,
    int maxval, long long *next, long long *prev, int *cost,
    unsigned char *done, long long *first, long long *last)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    for (int h = 0; h <= maxval + 1; h++)
        first[h] = last[h] = -1;
    for (long long j = 0; j < n; j++) {
        done[j] = 0;
        next[j] = prev[j] = -1;
        if (lab[j] != 0) {
            cost[j] = 0;
            if (first[0] < 0) {
                first[0] = last[0] = j;
            } else if (lab[j] > 0) {
                next[j] = first[0];
                prev[first[0]] = j;
                first[0] = j;
            } else {
                prev[j] = last[0];
                next[last[0]] = j;
                last[0] = j;
            }
        } else {
            cost[j] = maxval + 1;
        }
    }
    for (int jj = 0; jj <= maxval; jj++) {
        while (first[jj] >= 0) {
            long long v = first[jj];
            first[jj] = next[v];
            if (first[jj] >= 0)
                prev[first[jj]] = -1;
            prev[v] = next[v] = -1;
            done[v] = 1;
            for (int hh = 0; hh < nneigh; hh++) {
                long long p = v + nstr[hh], idx = p;
                int outside = 0;
                for (int q = 0; q < ndim; q++) {
                    long long cc = idx / strides[q];
                    if (cc < 0 || cc >= dims[q]) {
                        outside = 1;
                        break;
                    }
                    idx -= cc * strides[q];
                }
                if (outside || done[p])
                    continue;
                int wvp = in[p] - in[v];
                if (wvp < 0)
                    wvp = -wvp;
                int pcost = cost[p];
                int mx = cost[v] > wvp ? cost[v] : wvp;
                if (mx >= pcost)
                    continue;
                cost[p] = mx;
                long long label = lab[v];
                lab[p] = label;
                if (next[p] >= 0 || prev[p] >= 0) {
                    long long pr = prev[p], nx = next[p];
                    if (first[pcost] == p)
                        first[pcost] = nx;
                    if (last[pcost] == p)
                        last[pcost] = pr;
                    if (pr >= 0)
                        next[pr] = nx;
                    if (nx >= 0)
                        prev[nx] = pr;
                }
                if (label < 0) {
                    prev[p] = last[mx];
                    next[p] = -1;
                    if (last[mx] >= 0)
                        next[last[mx]] = p;
                    last[mx] = p;
                    if (first[mx] < 0)
                        first[mx] = p;
                } else {
                    next[p] = first[mx];
                    prev[p] = -1;
                    if (first[mx] >= 0)
                        prev[first[mx]] = p;
                    first[mx] = p;
                    if (last[mx] < 0)
                        last[mx] = p;
                }
            }
        }
    }
}

/* One pass of ember.scipy.ndimage.distance_transform_cdt, SciPy's chamfer
 * pass step for step: the elements in C order (reverse = 1: in reverse
 * order, the offsets negated, as SciPy's second pass over the reversed
 * array), each non-zero distance lowered to one more than the smallest
 * non-negative one among the structure's first half of neighbours (the
 * first such neighbour in the structure's order where they tie; -1 is
 * "not reached yet", outside the array counts as -1), and with ft the
 * index of the nearest background element carried along. A raster scan
 * depends on the elements before it, so one thread runs it. */
extern "C" __global__ void em_cdt_pass(int *dt, int *ft, int use_ft,
                                       long long n, const long long *dims,
                                       int ndim, const long long *offc,
                                       int noff, int reverse)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    long long c[16];
    for (long long t = 0; t < n; t++) {
        long long j = reverse ? n - 1 - t : t;
        int value = dt[j];
        if (value == 0)
            continue;
        long long rem = j;
        for (int d = ndim - 1; d >= 0; d--) {
            c[d] = rem % dims[d];
            rem /= dims[d];
        }
        int mn = value;
        long long best = -1;
        for (int k = 0; k < noff; k++) {
            long long idx = 0;
            int out = 0;
            for (int d = 0; d < ndim; d++) {
                long long o = offc[k * ndim + d];
                long long q = c[d] + (reverse ? -o : o);
                if (q < 0 || q >= dims[d]) {
                    out = 1;
                    break;
                }
                idx = idx * dims[d] + q;
            }
            int tt = out ? -1 : dt[idx];
            if (tt >= 0 && (mn < 0 || tt + 1 < mn)) {
                mn = tt + 1;
                best = idx;
            }
        }
        dt[j] = mn;
        if (use_ft && best >= 0)
            ft[j] = ft[best];
    }
}
