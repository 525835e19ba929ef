/* ember.scipy.ndimage's geometric transforms (python/ember/scipy/
 * ndimage_interp.py): B-spline interpolation of orders 0-5 at coordinates
 * that come from an affine matrix, a per-axis zoom and shift, or an array,
 * and the recursive prefilter that turns samples into spline
 * coefficients. Arithmetic is float64 whatever the arrays' types, as
 * SciPy's.
 *
 * Modes are SciPy's NI_ExtendMode numbers, since SciPy gives them
 * different treatment in three places (the coordinate, the spline's
 * support and the prefilter's boundary): 0 nearest, 1 wrap, 2 reflect
 * (and grid-mirror), 3 mirror, 4 constant, 5 grid-wrap, 6 grid-constant. */

#define EM_IP_MAXR 8 /* ranks */
#define EM_IP_MAXW 6 /* order + 1 */

/* trunc to an integer, as SciPy's (npy_intp) casts of a quotient */
__device__ __forceinline__ double em_ip_trunc(double v)
{
    return (double)(long long)v;
}

/* A coordinate outside [0, len - 1] brought inside as the mode extends
 * the input; 'constant' answers -1 (no sample), 'nearest' clamps. */
__device__ double em_ip_fold(double in, long long len, int mode)
{
    double n = (double)len;
    if (!(in < 0) && !(in > n - 1)) /* inside, or NaN (no sample) */
        return in;
    if (len <= 1 && mode != 4)
        return 0;
    switch (mode) {
    case 3: { /* mirror: period 2n - 2, edge samples not repeated */
        double p = 2 * n - 2;
        if (in < 0) {
            in += p * em_ip_trunc(-in / p);
            return in <= 1 - n ? in + p : -in;
        }
        in -= p * em_ip_trunc(in / p);
        return in >= n ? p - in : in;
    }
    case 2: { /* reflect: period 2n, edge samples repeated */
        double p = 2 * n;
        if (in < 0) {
            if (in < -p)
                in += p * em_ip_trunc(-in / p);
            if (in < -n)
                return in + p;
            /* keeps -in - 1 from landing on exactly -1 (no sample) */
            return (in > -1e-15 ? 1e-15 : -in) - 1;
        }
        in -= p * em_ip_trunc(in / p);
        return in >= n ? p - in - 1 : in;
    }
    case 1: { /* SciPy's 'wrap': period n - 1 (first and last coincide) */
        double p = n - 1;
        if (in < 0)
            return in + p * (em_ip_trunc(-in / p) + 1);
        return in - p * em_ip_trunc(in / p);
    }
    case 5: /* grid-wrap: period n */
        if (in < 0)
            return in + n * (em_ip_trunc((-1 - in) / n) + 1);
        return in - n * em_ip_trunc(in / n);
    case 0:
        return in < 0 ? 0 : n - 1;
    default:
        return -1;
    }
}

/* The centred B-spline of the order at distance d >= 0 from its knot. */
__device__ double em_ip_bspline(double d, int order)
{
    switch (order) {
    case 1:
        return d < 1 ? 1 - d : 0;
    case 2:
        if (d < 0.5)
            return 0.75 - d * d;
        return d < 1.5 ? 0.5 * (1.5 - d) * (1.5 - d) : 0;
    case 3:
        if (d < 1)
            return 2.0 / 3.0 + d * d * (d * 0.5 - 1);
        return d < 2 ? (2 - d) * (2 - d) * (2 - d) / 6 : 0;
    case 4: {
        double s = d * d;
        if (d < 0.5)
            return 115.0 / 192.0 + s * (s * 0.25 - 0.625);
        if (d < 1.5)
            return 55.0 / 96.0 +
                   d * (5.0 / 24.0 + d * (-1.25 + d * (5.0 / 6.0 - d / 6)));
        s = (2.5 - d) * (2.5 - d);
        return d < 2.5 ? s * s / 24 : 0;
    }
    case 5: {
        double s = d * d;
        if (d < 1)
            return 0.55 + s * (-0.5 + s * (0.25 - d / 12));
        if (d < 2)
            return 0.425 +
                   d * (0.625 +
                        d * (-1.75 + d * (1.25 + d * (-0.375 + d / 24))));
        s = (3 - d) * (3 - d);
        return d < 3 ? s * s * (3 - d) / 120 : 0;
    }
    default:
        return 1;
    }
}

/* The interpolated value t stored in the output's type (okind: 0 bool,
 * 1 int8, 2 uint8, 3 int16, 4 uint16, 5 int32, 6 uint32, 7 int64,
 * 8 uint64, 9 float32, 10 float64): integers rounded half away from zero
 * and clipped to the type's range, unsigned ones from 0, as SciPy. */
#define EM_IP_PUT_S(T, LO, HI)                                              \
    {                                                                       \
        double v = t > 0 ? t + 0.5 : t - 0.5;                               \
        v = v > (HI) ? (HI) : v < (LO) ? (LO) : v;                          \
        ((T *)y)[e] = (T)v;                                                 \
        break;                                                              \
    }
#define EM_IP_PUT_U(T, HI)                                                  \
    {                                                                       \
        double v = t > 0 ? t + 0.5 : 0;                                     \
        v = v > (HI) ? (HI) : v;                                            \
        ((T *)y)[e] = (T)v;                                                 \
        break;                                                              \
    }
__device__ __forceinline__ void em_ip_put(void *y, long long e, int okind,
                                          double t)
{
    switch (okind) {
    case 0: /* SciPy stores a byte cast: true from |t| >= 1 */
        ((bool *)y)[e] = t >= 1 || t <= -1;
        break;
    case 1: EM_IP_PUT_S(signed char, -128.0, 127.0)
    case 2: EM_IP_PUT_U(unsigned char, 255.0)
    case 3: EM_IP_PUT_S(short, -32768.0, 32767.0)
    case 4: EM_IP_PUT_U(unsigned short, 65535.0)
    case 5: EM_IP_PUT_S(int, -2147483648.0, 2147483647.0)
    case 6: EM_IP_PUT_U(unsigned int, 4294967295.0)
    case 7: EM_IP_PUT_S(long long, -9223372036854775808.0,
                        9223372036854775807.0)
    case 8: EM_IP_PUT_U(unsigned long long, 18446744073709551615.0)
    case 9:
        ((float *)y)[e] = (float)t;
        break;
    default:
        ((double *)y)[e] = t;
    }
}

/* y[e] for each output element e (of the orank dims odim): the spline of
 * the order through x (irank dims idim, C-contiguous, already padded by
 * pad[h] on each side where SciPy pads) at the input coordinate
 *   kind 0: c[h] = p[irank * orank + h] + sum_l o[l] p[h * orank + l]
 *   kind 1: c[h] = o[h] (+ p[irank + h] if flags & 1), then times p[h]
 *           if flags & 2 (about pixel centres (c + .5) z - .5 if flags
 *           & 4), in SciPy's order of operations
 *   kind 2: c[h] = p[h * nout + e] (map_coordinates' array)
 * and cval where the mode says the point has no sample. geo holds idim,
 * odim, pad, x's strides and the spline order of each axis (irank,
 * orank, irank, irank, irank values): order 0 on an axis whose
 * coordinate is an index (the planes rotate() turns alike). */
template <typename T>
__global__ void em_interp(const T *x, void *y, int okind,
                          const long long *geo, int irank, int orank,
                          long long nout, int kind, const double *p,
                          int flags, int mode, double cval)
{
    const long long *idim = geo, *odim = geo + irank, *pad = odim + orank,
                    *stride = pad + irank, *orders = stride + irank;
    /* the support's samples are extended as mode does, except that modes
     * without an exact prefilter boundary use mirror (SciPy's choice) */
    int smode = mode == 4 || mode == 1 ? 3 : mode;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         e < nout; e += (long long)gridDim.x * blockDim.x) {
        double w[EM_IP_MAXR][EM_IP_MAXW];
        long long at[EM_IP_MAXR][EM_IP_MAXW];
        long long o[EM_IP_MAXR];
        long long r = e;
        for (int l = orank - 1; l >= 0; l--) {
            o[l] = r % odim[l];
            r /= odim[l];
        }
        bool outside = false;
        for (int h = 0; h < irank && !outside; h++) {
            double c;
            if (kind == 0) {
                /* from the offset on, unfused, as SciPy adds them: a
                 * point on a rounding tie picks SciPy's sample */
                c = p[irank * orank + h];
                for (int l = 0; l < orank; l++)
                    c = __dadd_rn(c, __dmul_rn((double)o[l],
                                               p[h * orank + l]));
            } else if (kind == 1) {
                c = (double)o[h];
                if (flags & 1)
                    c += p[irank + h];
                if (flags & 2)
                    c = flags & 4 ? __dmul_rn(c + 0.5, p[h]) - 0.5
                                  : __dmul_rn(c, p[h]);
            } else {
                c = p[h * nout + e];
            }
            c += (double)pad[h];
            long long n = idim[h];
            int order = (int)orders[h];
            /* grid-constant and nearest take the point as it is: their
             * support reads cval or the edge beyond the input */
            if (mode != 6 && mode != 0) {
                c = em_ip_fold(c, n, mode);
                if (!(c > -1.0)) {
                    outside = true;
                    break;
                }
            }
            double base = floor(order & 1 ? c : c + 0.5);
            long long start = (long long)base - order / 2;
            double frac = c - base; /* exact: base is c's integer part */
            for (int j = 0; j <= order; j++) {
                long long i = start + j;
                if (i < 0 || i >= n)
                    i = mode == 6 ? -1
                                  : (long long)em_ip_fold((double)i, n, smode);
                at[h][j] = i;
                if (j < order)
                    w[h][j] = em_ip_bspline(
                        fabs(frac + (double)(order / 2 - j)), order);
            }
            /* the weights sum to 1: the last one takes the remainder */
            double last = 1;
            for (int j = 0; j < order; j++)
                last -= w[h][j];
            w[h][order] = last;
        }
        double t = cval;
        if (!outside) {
            int f[EM_IP_MAXR];
            for (int h = 0; h < irank; h++)
                f[h] = 0;
            t = 0;
            /* the terms in SciPy's order: the last axis fastest */
            for (;;) {
                long long off = 0;
                bool blank = false;
                for (int h = 0; h < irank; h++) {
                    long long i = at[h][f[h]];
                    blank |= i < 0;
                    off += i * stride[h];
                }
                double v = blank ? cval : (double)x[blank ? 0 : off];
                for (int h = 0; h < irank; h++)
                    v *= w[h][f[h]];
                t += v;
                int h = irank - 1;
                while (h >= 0 && f[h] == orders[h])
                    f[h--] = 0;
                if (h < 0)
                    break;
                f[h]++;
            }
        }
        em_ip_put(y, e, okind, t);
    }
}

/* The causal and anticausal first coefficients of one pole z on a line
 * c[0], c[s], ..., c[(n - 1) s] extended as the mode says (Unser, Aldroubi
 * and Eden 1991 for mirror; reflect and grid-wrap as SciPy has them from
 * P. Thevenaz). */
__device__ void em_spline_init(double *c, long long n, long long s, double z,
                               int mode)
{
    if (mode == 5) { /* grid-wrap: periodic with period n */
        double zi = z, acc = c[0];
        for (long long i = 1; i < n; i++) {
            acc += zi * c[(n - i) * s];
            zi *= z;
        }
        c[0] = acc / (1 - zi);
    } else if (mode == 0 || mode == 2) { /* reflect: edges repeated */
        double zn = pow(z, (double)n), zi = z;
        double acc = c[0] + zn * c[(n - 1) * s];
        for (long long i = 1; i < n; i++) {
            acc += zi * (c[i * s] + zn * c[(n - 1 - i) * s]);
            zi *= z;
        }
        c[0] += acc * z / (1 - zn * zn);
    } else { /* mirror (and the modes that borrow it) */
        double zn1 = pow(z, (double)(n - 1)), zi = z;
        double acc = c[0] + zn1 * c[(n - 1) * s];
        for (long long i = 1; i < n - 1; i++) {
            acc += zi * (c[i * s] + zn1 * c[(n - 1 - i) * s]);
            zi *= z;
        }
        c[0] = acc / (1 - zn1 * zn1);
    }
}

__device__ void em_spline_init_back(double *c, long long n, long long s,
                                    double z, int mode)
{
    double *last = c + (n - 1) * s;
    if (mode == 5) {
        double zi = z, acc = *last;
        for (long long i = 0; i < n - 1; i++) {
            acc += zi * c[i * s];
            zi *= z;
        }
        *last = acc * z / (zi - 1);
    } else if (mode == 0 || mode == 2) {
        *last *= z / (z - 1);
    } else {
        *last = (z * c[(n - 2) * s] + *last) * z / (z * z - 1);
    }
}

/* The B-spline prefilter of the order along the middle axis of the
 * float64 array c (outer x n x inner), in place, one thread a line: the
 * gain, then per pole a causal and an anticausal first-order recursion. */
extern "C" __global__ void em_spline_filter(double *c, long long outer,
                                            long long n, long long inner,
                                            int order, int mode)
{
    double poles[2];
    int np = order / 2;
    switch (order) {
    case 2:
        poles[0] = -0.171572875253809902396622551580603843; /* sqrt 8 - 3 */
        break;
    case 3:
        poles[0] = -0.267949192431122706472553658494127633; /* sqrt 3 - 2 */
        break;
    case 4: /* sqrt(664 -+ sqrt 438976) +- sqrt 304 - 19 */
        poles[0] = -0.361341225900220177092212841325675255;
        poles[1] = -0.013725429297339121360331226939128204;
        break;
    default: /* sqrt(67.5 -+ sqrt 4436.25) +- sqrt 26.25 - 6.5 */
        poles[0] = -0.430575347099973791851434783493520110;
        poles[1] = -0.043096288203264653822712376822550182;
    }
    if (n < 2)
        return;
    double gain = 1;
    for (int k = 0; k < np; k++)
        gain *= (1 - poles[k]) * (1 - 1 / poles[k]);
    long long lines = outer * inner;
    for (long long l = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         l < lines; l += (long long)gridDim.x * blockDim.x) {
        double *line = c + (l / inner) * n * inner + l % inner;
        for (long long i = 0; i < n; i++)
            line[i * inner] *= gain;
        for (int k = 0; k < np; k++) {
            double z = poles[k];
            em_spline_init(line, n, inner, z, mode);
            for (long long i = 1; i < n; i++)
                line[i * inner] += z * line[(i - 1) * inner];
            em_spline_init_back(line, n, inner, z, mode);
            for (long long i = n - 2; i >= 0; i--) {
                double *ci = line + i * inner;
                *ci = z * (ci[inner] - *ci);
            }
        }
    }
}
