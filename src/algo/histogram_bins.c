/* ember algorithms: NumPy's bin-width estimators for histogram's string
 * `bins` (histogram.h, em_histogram_bin_count).
 *
 * NumPy trims the data to the range, asks the estimator for a width and
 * makes ceil(range / width) equal bins. Here the trimmed data is a slice
 * of the sorted data (when a range is given; found with two searches),
 * and the statistics are the library's reductions, quantiles and ufuncs,
 * read back as scalars: every estimator is a few passes and a few small
 * reads, except 'stone', which counts a histogram per candidate as NumPy
 * does.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo/hist_internal.h"
#include "array/array_internal.h"
#include "ember/reduce.h"
#include "ember/sort.h"
#include "ember/ufunc.h"

/* A 0-d or 1-element array's value as a double (through a float64 copy,
 * so any real dtype works). */
static em_status read_double(const em_array *a, em_stream *on, double *v)
{
    em_array d;
    int64_t one = 1;
    em_status st = em_array_empty(a->device, EM_FLOAT64, 0, &one, 'C', on, &d);
    if (st != EM_OK)
        return st;
    if ((st = em_array_copy(&d, a, on)) == EM_OK)
        st = em_array_to_host(&d, v, NULL, on);
    em_array_release(&d);
    return st;
}

/* op over all of a, as a double. */
static em_status reduce_all(em_reduce_op op, const em_array *a, em_stream *on,
                            double *v)
{
    em_reduce_args ra;
    em_array r;
    em_status st;
    memset(&ra, 0, sizeof ra);
    memset(&r, 0, sizeof r);
    if ((st = em_reduce(op, a, &ra, &r, on)) != EM_OK)
        return st;
    st = read_double(&r, on, v);
    em_array_release(&r);
    return st;
}

/* out = op(a, scalar v) elementwise, v a Python float (weak, so a float32
 * array stays float32 as in NumPy). */
static em_status with_scalar(em_op op, const em_array *a, double v,
                             em_stream *on, em_array *out)
{
    em_operand in[2];
    memset(in, 0, sizeof in);
    memset(out, 0, sizeof *out);
    in[0].array = a;
    in[1].dtype = EM_FLOAT64;
    in[1].weak = 1;
    in[1].value.f = v;
    return em_ufunc_apply(op, in, 2, out, NULL, on);
}

/* v as NumPy's arithmetic in dtype dt gives it (float32 results round;
 * float16 ones are left in double: the estimate only picks a count). */
static double in_dtype(double v, em_dtype dt)
{
    return dt == EM_FLOAT32 ? (double)(float)v : v;
}

/* The skewness term of Doane's rule: mean(((a - mean(a)) / sigma)^3). */
static em_status skew(const em_array *a, double sigma, em_stream *on,
                      double *g1)
{
    em_array t1, t2, t3;
    double mean;
    em_status st = reduce_all(EM_RED_MEAN, a, on, &mean);
    if (st != EM_OK)
        return st;
    if ((st = with_scalar(EM_OP_SUBTRACT, a, mean, on, &t1)) != EM_OK)
        return st;
    st = with_scalar(EM_OP_TRUE_DIVIDE, &t1, sigma, on, &t2);
    em_array_release(&t1);
    if (st != EM_OK)
        return st;
    st = with_scalar(EM_OP_POWER, &t2, 3.0, on, &t3);
    em_array_release(&t2);
    if (st != EM_OK)
        return st;
    st = reduce_all(EM_RED_MEAN, &t3, on, g1);
    em_array_release(&t3);
    return st;
}

/* NumPy's interquartile range: percentile 75 minus percentile 25, in
 * the data's float type. */
static em_status iqr(const em_array *a, em_dtype ft, em_stream *on, double *r)
{
    const double q[2] = {0.75, 0.25};
    const int64_t qshape[1] = {2};
    double v[2];
    em_array out;
    em_status st = em_quantile(a, q, 1, qshape, NULL, 0, 0, 0, 0, ft, &out,
                               on);
    if (st != EM_OK)
        return st;
    if (out.dtype != EM_FLOAT64) {
        em_array d;
        if ((st = em_array_empty(a->device, EM_FLOAT64, 1, qshape, 'C', on,
                                 &d)) == EM_OK &&
            (st = em_array_copy(&d, &out, on)) == EM_OK) {
            em_array_release(&out);
            out = d;
        } else if (st == EM_OK) {
            em_array_release(&d);
        }
    }
    if (st == EM_OK)
        st = em_array_to_host(&out, v, NULL, on);
    em_array_release(&out);
    if (st == EM_OK)
        *r = in_dtype(v[0] - v[1], ft);
    return st;
}

/* Stone's rule: the count in [1, max(100, sqrt n)] that minimises the
 * cross-validated risk (2 - (n + 1) sum p_k^2) / h, one histogram of the
 * trimmed data a over [lo, hi] per candidate, as NumPy counts them. */
static em_status stone(const em_array *a, int64_t n, double ptp, double lo,
                       double hi, em_stream *on, double *width)
{
    int64_t upper = (int64_t)sqrt((double)n), best = 1;
    double best_j = INFINITY;
    int64_t *counts;
    em_status st = EM_OK;
    *width = 0;
    if (n <= 1 || ptp == 0)
        return EM_OK;
    if (upper < 100)
        upper = 100;
    if (!(counts = malloc((size_t)upper * sizeof *counts)))
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "histogram: 'stone' with %lld "
                        "candidates",
                        (long long)upper);
    for (int64_t nb = 1; st == EM_OK && nb <= upper; nb++) {
        em_array e, h;
        em_hist_grid g;
        double sum = 0, j;
        if ((st = em_hist_edges(a, nb, 1, lo, hi, 0, &e, &g, on)) != EM_OK)
            break;
        st = em_histogram_uniform(a, NULL, &e, &g, &h, on);
        em_array_release(&e);
        if (st != EM_OK)
            break;
        st = em_array_to_host(&h, counts, NULL, on);
        em_array_release(&h);
        for (int64_t k = 0; st == EM_OK && k < nb; k++) {
            double p = (double)counts[k] / (double)n;
            sum += p * p;
        }
        j = (2 - (double)(n + 1) * sum) / (ptp / (double)nb);
        if (st == EM_OK && j < best_j) { /* the first minimum, as min() */
            best_j = j;
            best = nb;
        }
    }
    free(counts);
    if (st == EM_OK)
        *width = ptp / (double)best;
    return st;
}

em_status em_histogram_bin_count(const em_array *x, const char *method,
                                 int has_range, double lo, double hi,
                                 int64_t *nbins, em_stream *s)
{
    static const char *const names[] = {"stone", "auto",  "doane", "fd",
                                        "rice",  "scott", "sqrt",  "sturges"};
    em_stream *on = NULL;
    em_array c, flat, sorted, a;
    em_dtype ft;
    int m = -1, isint;
    int64_t n;
    double first = lo, last = hi, amin, amax, ptp, width = 0;
    em_status st;
    if (!x || !method || !nbins)
        return em_error(EM_ERR_INVALID_VALUE, "histogram: NULL argument");
    for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
        if (!strcmp(method, names[i]))
            m = i;
    if (m < 0)
        return em_error(EM_ERR_INVALID_VALUE,
                        "'%s' is not a valid estimator for `bins`", method);
    if ((st = em_hist_check_real(x, "histogram", "a")) != EM_OK)
        return st;
    if (!(on = em_arr_stream(x->device, s, "histogram")))
        return EM_ERR_INVALID_VALUE;
    isint = em_dtype_get(x->dtype)->kind_id != EM_KIND_FLOAT;
    ft = isint ? EM_FLOAT64 : x->dtype;
    *nbins = 1;
    if (has_range && (st = em_hist_check_range(lo, hi)) != EM_OK)
        return st;
    if (x->size == 0)
        return EM_OK;
    if ((st = em_hist_contiguous(x, -1, on, &c)) != EM_OK)
        return st;
    n = c.size;
    st = em_array_reshape_view(&c, 1, &n, 'C', &flat);
    em_array_release(&c);
    if (st != EM_OK)
        return st;
    if (!has_range) {
        if ((st = em_hist_auto_range(&flat, on, &first, &last)) != EM_OK)
            goto done;
        amin = first;
        amax = last;
        if (first == last) { /* NumPy widens the range, in the data's type */
            first = in_dtype(first - 0.5, ft);
            last = in_dtype(last + 0.5, ft);
        }
        em_array_retain(&flat, &a);
    } else {
        /* the values in [lo, hi]: a slice of the sorted data */
        double needles[2] = {lo, hi};
        int64_t two = 2, idx[2], lohi[2];
        em_array nd, pos, one;
        em_slice sl;
        if (lo == hi) { /* NumPy widens the range first */
            first = lo - 0.5;
            last = hi + 0.5;
            needles[0] = first;
            needles[1] = last;
        }
        if ((st = em_sort(&flat, 0, 1, &sorted, on)) != EM_OK)
            goto done;
        st = em_array_empty(x->device, EM_FLOAT64, 1, &two, 'C', on, &nd);
        if (st == EM_OK &&
            (st = em_array_from_host(&nd, needles, NULL, on)) == EM_OK) {
            for (int r = 0; st == EM_OK && r < 2; r++) {
                em_slice one_sl = {r, r + 1, 1};
                em_array needle;
                if ((st = em_array_slice(&nd, &one_sl, &needle)) != EM_OK)
                    break;
                st = em_searchsorted(&sorted, &needle, r, NULL, &pos, on);
                em_array_release(&needle);
                if (st == EM_OK) {
                    st = em_array_to_host(&pos, &idx[r], NULL, on);
                    em_array_release(&pos);
                }
            }
        }
        if (nd.storage)
            em_array_release(&nd);
        if (st == EM_OK && idx[1] <= idx[0]) { /* nothing in range */
            em_array_release(&sorted);
            goto done;
        }
        sl.start = idx[0];
        sl.stop = idx[1];
        sl.step = 1;
        if (st == EM_OK)
            st = em_array_slice(&sorted, &sl, &a);
        em_array_release(&sorted);
        if (st != EM_OK)
            goto done;
        lohi[0] = 0;
        lohi[1] = a.size - 1;
        for (int r = 0; st == EM_OK && r < 2; r++) {
            em_slice e = {lohi[r], lohi[r] + 1, 1};
            if ((st = em_array_slice(&a, &e, &one)) == EM_OK) {
                st = read_double(&one, on, r ? &amax : &amin);
                em_array_release(&one);
            }
        }
        if (st != EM_OK) {
            em_array_release(&a);
            goto done;
        }
    }
    n = a.size;
    /* NumPy's _ptp: max - min in the data's type (exact for integers) */
    ptp = isint ? amax - amin : in_dtype(amax - amin, ft);
    {
        double sturges = ptp / (log2((double)n) + 1.0),
               sq = ptp / sqrt((double)n);
        switch (m) {
        case 0:
            st = stone(&a, n, ptp, first, last, on, &width);
            break;
        case 1:   /* auto: min(max(fd, sqrt / 2), sturges) */
        case 3: { /* fd */
            double q;
            if ((st = iqr(&a, ft, on, &q)) != EM_OK)
                break;
            width = 2.0 * q * pow((double)n, -1.0 / 3.0);
            if (m == 1) {
                if (width < sq / 2)
                    width = sq / 2;
                if (sturges < width)
                    width = sturges;
            }
            break;
        }
        case 2: /* doane */
            width = 0;
            if (n > 2) {
                double sg1 = sqrt(6.0 * (double)(n - 2) /
                                  (((double)n + 1.0) * (double)(n + 3))),
                       sigma, g1;
                if ((st = reduce_all(EM_RED_STD, &a, on, &sigma)) != EM_OK)
                    break;
                if (sigma > 0.0) {
                    if ((st = skew(&a, sigma, on, &g1)) != EM_OK)
                        break;
                    width = ptp / (1.0 + log2((double)n) +
                                   log2(1.0 + fabs(g1) / sg1));
                }
            }
            break;
        case 4: /* rice */
            width = ptp / (2.0 * pow((double)n, 1.0 / 3));
            break;
        case 5: { /* scott */
            double sigma;
            if ((st = reduce_all(EM_RED_STD, &a, on, &sigma)) != EM_OK)
                break;
            width = pow(24.0 * sqrt(M_PI) / (double)n, 1.0 / 3.0) * sigma;
            break;
        }
        case 6:
            width = sq;
            break;
        default:
            width = sturges;
            break;
        }
    }
    em_array_release(&a);
    if (st == EM_OK && width != 0 && !isnan(width)) {
        /* NumPy subtracts the ends in the data's type (float64 for a
         * given range) */
        double delta =
            has_range || isint ? last - first : in_dtype(last - first, ft);
        double k;
        if (isint && width < 1)
            width = 1;
        k = ceil(delta / width);
        if (!(k < 9.2e18))
            st = em_error(EM_ERR_INVALID_VALUE,
                          "histogram: estimator '%s' gave %g bins", method, k);
        else
            *nbins = k < 1 ? 1 : (int64_t)k;
    }
done:
    em_array_release(&flat);
    return st;
}
