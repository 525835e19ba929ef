/* ember: the CSV kernels' readers of values (src/frame/csv.c pastes this
 * after CSV_CUDA and before csv.cuh): integers, floats rounded exactly as
 * strtod rounds them, booleans' letters, ISO dates. Each reads the bytes
 * b[s, e) of one field; none allocates or loops over more than its field.
 *
 * Floats: up to 19 significant digits are gathered into an integer w and
 * a power of ten q. Short ones (w <= 2^53, |q| <= 22) take Clinger's one
 * rounding of exact doubles; others with |q| <= 27 are rounded from an
 * exact 128-bit product or quotient (10^q = 5^q 2^q and 5^27 < 2^63);
 * the rest (more digits, larger exponents) go to strtod on the host and
 * are reported (CSV_SLOW) on cuda, where the caller reads them. */
__device__ __forceinline__ int csv_space(int c) { return c == ' ' || c == '\t'; }

__device__ __forceinline__ int csv_lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* Whether b[s, e) is the word w (lower case), ignoring case. */
__device__ int csv_word(const unsigned char *b, long long s, long long e, const char *w)
{
    long long k = 0;
    for (; w[k]; k++)
        if (s + k >= e || csv_lower(b[s + k]) != w[k])
            return 0;
    return s + k == e;
}

/* hi:lo * 2^e2 rounded to the nearest double (ties to even), sticky
 * nonzero when the true value is a little above hi:lo. Normal results
 * only (the callers' exponents keep them so). */
__device__ double csv_round(unsigned long long hi, unsigned long long lo, int e2, int sticky)
{
    const int nb = hi ? 128 - __clzll((long long)hi) : 64 - __clzll((long long)lo);
    const int sh = nb - 53;
    unsigned long long m, rest; /* rest: the dropped bits, left aligned */
    if (sh <= 0)
        return ldexp((double)lo, e2); /* exact: nothing dropped */
    if (sh < 64) {
        m = hi << (64 - sh) | lo >> sh;
        rest = lo << (64 - sh);
    } else if (sh == 64) {
        m = hi;
        rest = lo;
    } else {
        m = hi >> (sh - 64);
        rest = hi << (128 - sh) | lo >> (sh - 64);
        sticky |= (lo << (128 - sh)) != 0;
    }
    if (rest > (1ull << 63) || (rest == (1ull << 63) && (sticky || (m & 1))))
        m++;
    return ldexp((double)m, e2 + sh); /* m == 2^53 is still exact */
}

__device__ __forceinline__ unsigned long long csv_pow5(int k)
{
    unsigned long long p = 1, x = 5;
    for (; k; k >>= 1, x *= x) /* by squaring: a short dependency chain */
        if (k & 1)
            p *= x;
    return p;
}

/* The sign of w - a * 5^k * 2^t, all exact (w < 2^64, a < 2^55,
 * 5^k < 2^63, so a * 5^k < 2^118): 128-bit products and shifts only. */
__device__ int csv_cmp(unsigned long long w, unsigned long long a, unsigned long long p5, int t)
{
    unsigned long long ph = __umul64hi(a, p5), pl = a * p5, wh = 0, wl = w;
    if (t > 0) { /* a * 5^k << t: past 128 bits it is above w */
        if (t >= 128 || (t < 64 ? ph >> (64 - t) : ph || (t > 64 && pl >> (128 - t))))
            return -1;
        if (t < 64) {
            ph = ph << t | pl >> (64 - t);
            pl <<= t;
        } else {
            ph = pl << (t - 64);
            pl = 0;
        }
    } else if (t < 0) { /* w << -t (it stays within 128 bits: w ~ a 5^k 2^t) */
        const int u = -t;
        if (u >= 128)
            return 1;
        wh = u >= 64 ? w << (u - 64) : w >> (64 - u);
        wl = u >= 64 ? 0 : w << u;
        if (u > 64 && (w >> (128 - u)))
            return 1;
    }
    if (wh != ph)
        return wh > ph ? 1 : -1;
    return wl == pl ? 0 : wl > pl ? 1 : -1;
}

/* The float64 nearest w * 10^q (w < 2^64 exact, |q| <= 27), exactly:
 * 10^q is 5^q * 2^q and 5^27 < 2^63. A positive power is an exact
 * 128-bit product, rounded once. A negative one starts from the double
 * quotient (within a few ulps) and moves it while the value lies beyond
 * a midpoint to a neighbour, each comparison exact in 128-bit integers
 * (no division, which a GPU does not have for 128 bits). */
__device__ double csv_scale(unsigned long long w, int q)
{
    if (q >= 0) {
        const unsigned long long p = csv_pow5(q);
        return csv_round(__umul64hi(w, p), w * p, q, 0);
    }
    const int k = -q;
    const unsigned long long p5 = csv_pow5(k);
    double x = (double)w, p = 1, ten = 10;
    for (int j = k > 22 ? 22 : k; j; j >>= 1, ten *= ten)
        if (j & 1)
            p *= ten;
    x /= p;
    for (int j = 22; j < k; j++)
        x /= 10;
    for (int it = 0; it < 8; it++) {
        const long long bits = __double_as_longlong(x);
        const int e = (int)(bits >> 52) - 1075;
        const unsigned long long m = (unsigned long long)(bits & 0xfffffffffffffll) | 1ull << 52;
        /* v = w / (5^k 2^k) against (2m + 1) 2^(e - 1): w against
         * (2m + 1) 5^k 2^(e - 1 + k) */
        int c = csv_cmp(w, 2 * m + 1, p5, e - 1 + k);
        if (c > 0 || (c == 0 && (m & 1))) {
            x = __longlong_as_double(bits + 1);
            continue;
        }
        c = m == 1ull << 52 ? csv_cmp(w, 4 * m - 1, p5, e - 2 + k)
                            : csv_cmp(w, 2 * m - 1, p5, e - 1 + k);
        if (c < 0 || (c == 0 && (m & 1))) {
            x = __longlong_as_double(bits - 1);
            continue;
        }
        break;
    }
    return x;
}

#if !CSV_CUDA
/* The number eight ASCII digits spell (x: their bytes as loaded, the
 * first digit lowest): digits paired, then pairs, then quads, each step
 * one multiply of the halves. */
__device__ __forceinline__ unsigned long long csv_eight_digits(unsigned long long x)
{
    x -= 0x3030303030303030ull;
    x = x * 10 + (x >> 8);
    x = ((x & 0x000000FF000000FFull) * (100 + (1000000ull << 32)) +
         ((x >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32))) >> 32;
    return x & 0xffffffffull;
}

/* How many of 8 digits lead with 0 in a nonzero x < 10^8 (what those
 * digits spell): 8 minus its number of digits. */
__device__ __forceinline__ int csv_ndigits_below(unsigned long long x)
{
    /* independent comparisons, not a chain of multiplies */
    return (x < 10000000ull) + (x < 1000000ull) + (x < 100000ull) + (x < 10000ull) +
           (x < 1000ull) + (x < 100ull) + (x < 10ull) + (x < 1ull);
}

/* The powers of ten the host's two short paths divide by, each exact (5^22
 * < 2^53, 5^27 < 2^64): a load instead of a chain of squarings. */
static const double csv_p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
#if defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 64
static const long double csv_p10l[28] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
#endif
#endif

/* b[s, e) as a float64 as strtod reads it (decimal and exponent notation,
 * inf, infinity, nan; spaces around), into *v; 0 when it is not one, 2
 * when this backend leaves it to a slower exact path. */
__device__ int csv_float(const unsigned char *b, long long s, long long e, double *v)
{
    int neg = 0, nd = 0, drop = 0, seen = 0, q = 0;
    unsigned long long w = 0;
    while (s < e && csv_space(b[s]))
        s++;
    while (e > s && csv_space(b[e - 1]))
        e--;
    const long long s0 = s;
    if (s < e && (b[s] == '+' || b[s] == '-'))
        neg = b[s++] == '-';
    if (s < e && (b[s] | 32) == 'i' && (csv_word(b, s, e, "inf") || csv_word(b, s, e, "infinity"))) {
        *v = __longlong_as_double(neg ? (long long)0xfff0000000000000ull : 0x7ff0000000000000ll);
        return 1;
    }
    if (s < e && (b[s] | 32) == 'n' && csv_word(b, s, e, "nan")) {
        *v = __longlong_as_double(0x7ff8000000000000ll);
        return 1;
    }
    for (; s < e && b[s] >= '0' && b[s] <= '9'; s++, seen = 1) {
        if (nd < 19) {
            w = w * 10 + (b[s] - '0');
            nd += w != 0;
        } else {
            q++;
            drop |= b[s] != '0';
        }
    }
    if (s < e && b[s] == '.') {
        s++;
#if !CSV_CUDA
        /* eight digits at a time while they fit in w's 19 */
        for (unsigned long long x; s + 8 <= e && nd <= 11; s += 8, q -= 8, seen = 1) {
            memcpy(&x, b + s, 8);
            if (((x + 0x4646464646464646ull) | (x - 0x3030303030303030ull)) & 0x8080808080808080ull)
                break;
            x = csv_eight_digits(x);
            nd = w ? nd + 8 : (x ? 8 - csv_ndigits_below(x) : 0);
            w = w * 100000000ull + x;
        }
#endif
        for (; s < e && b[s] >= '0' && b[s] <= '9'; s++, seen = 1) {
            if (nd < 19) {
                w = w * 10 + (b[s] - '0');
                nd += w != 0;
                q--;
            } else {
                drop |= b[s] != '0';
            }
        }
    }
    if (!seen)
        return 0;
    if (s < e && (b[s] == 'e' || b[s] == 'E')) {
        int eneg = 0, ex = 0, ed = 0;
        s++;
        if (s < e && (b[s] == '+' || b[s] == '-'))
            eneg = b[s++] == '-';
        for (; s < e && b[s] >= '0' && b[s] <= '9'; s++, ed = 1)
            ex = ex < 100000 ? ex * 10 + (b[s] - '0') : ex;
        if (!ed)
            return 0;
        q += eneg ? -ex : ex;
    }
    if (s != e)
        return 0;
    if (w == 0 && !drop) {
        *v = neg ? -0.0 : 0.0;
        return 1;
    }
    if (!drop && w <= (1ull << 53) && q >= -22 && q <= 22) {
        /* Clinger: w and 10^|q| are exact doubles, one rounding */
#if CSV_CUDA
        double p = 1, x = 10;
        for (int k = q < 0 ? -q : q; k; k >>= 1, x *= x)
            if (k & 1)
                p *= x;
#else
        const double p = csv_p10[q < 0 ? -q : q];
#endif
        *v = q < 0 ? (double)w / p : (double)w * p;
        *v = neg ? -*v : *v;
        return 1;
    }
#if !CSV_CUDA && defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 64
    if (!drop && q < 0 && q >= -27) {
        /* x87's long double holds w and 10^-q exactly (64-bit significands,
         * 5^27 < 2^63): the quotient is rounded once to 64 bits, and that
         * rounded again to 53 is strtod's double unless the first rounding
         * landed on a midpoint of doubles (its low 11 bits 0x400), which
         * the exact path below decides. One division instead of the
         * comparisons that correct a double quotient. */
        const long double p = csv_p10l[-q];
        union {
            long double f;
            unsigned long long m;
        } y;
        y.f = (long double)w / p;
        if ((y.m & 0x7ff) != 0x400) {
            *v = neg ? -(double)y.f : (double)y.f;
            return 1;
        }
    }
#endif
    if (!drop && q >= -27 && q <= 27) {
        const double x = csv_scale(w, q);
        *v = neg ? -x : x;
        return 1;
    }
#if CSV_CUDA
    (void)s0;
    return 2;
#else
    {
        char tmp[512];
        char *endp;
        if (e - s0 >= (long long)sizeof tmp)
            return 2;
        memcpy(tmp, b + s0, (size_t)(e - s0));
        tmp[e - s0] = 0;
        *v = strtod(tmp, &endp);
        return 1;
    }
#endif
}

/* b[s, e) as an integer: 1 an int64 in *v, 3 a uint64 beyond int64 in *v
 * (as its bits), 4 digits beyond both, 0 not an integer. */
__device__ int csv_int(const unsigned char *b, long long s, long long e, long long *v)
{
    int neg = 0;
    unsigned long long u = 0;
    while (s < e && csv_space(b[s]))
        s++;
    while (e > s && csv_space(b[e - 1]))
        e--;
    if (s < e && (b[s] == '+' || b[s] == '-'))
        neg = b[s++] == '-';
    if (s == e)
        return 0;
    for (; s < e; s++) {
        const unsigned d = b[s] - '0';
        if (d > 9)
            return 0;
        /* below 10^18 nothing can overflow: one compare, no division */
        if (u >= 1000000000000000000ull && u > (~0ull - d) / 10) {
            while (s < e && b[s] >= '0' && b[s] <= '9')
                s++;
            return s == e ? 4 : 0;
        }
        u = u * 10 + d;
    }
    if (neg && u > (1ull << 63))
        return 4;
    if (neg) {
        if (u > (1ull << 63))
            return 0;
        *v = (long long)(0 - u);
        return 1;
    }
    *v = (long long)u;
    return u >> 63 ? 3 : 1;
}

/* n digits at b[s..] as a number, or -1. */
__device__ int csv_digits(const unsigned char *b, long long s, long long e, int n)
{
    int v = 0;
    if (e - s < n)
        return -1;
    for (int k = 0; k < n; k++) {
        const unsigned d = b[s + k] - '0';
        if (d > 9)
            return -1;
        v = v * 10 + (int)d;
    }
    return v;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
__device__ long long csv_days(long long y, int m, int d)
{
    y -= m <= 2;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const long long yoe = y - era * 400;
    const long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/* Dates and times as pandas infers one format for: YYYY-MM-DD, then
 * optionally ' ' or 'T', HH:MM, :SS, .fraction (1 to 9 digits). *ns: the
 * time in ns since the epoch; returns the format's code (1 date, 2 with
 * minutes, 4 with seconds, 8 'T', 16 a fraction, 32 more than 6 fraction
 * digits), 0 when it is none of these. */
__device__ int csv_datetime(const unsigned char *b, long long s, long long e, long long *ns)
{
    int code = 1, hh = 0, mi = 0, ss = 0;
    long long frac = 0;
    while (s < e && csv_space(b[s]))
        s++;
    while (e > s && csv_space(b[e - 1]))
        e--;
    const int y = csv_digits(b, s, e, 4), m = e - s >= 7 && b[s + 4] == '-' ? csv_digits(b, s + 5, e, 2) : -1,
              d = e - s >= 10 && b[s + 7] == '-' ? csv_digits(b, s + 8, e, 2) : -1;
    const int leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    if (y < 0 || m < 1 || m > 12 || d < 1 ||
        d > (m == 2 ? 28 + leap : 30 + ((m + (m >> 3)) & 1)))
        return 0;
    s += 10;
    if (s < e) {
        if (b[s] != ' ' && b[s] != 'T')
            return 0;
        code |= b[s] == 'T' ? 8 : 0;
        hh = csv_digits(b, s + 1, e, 2);
        mi = e - s >= 6 && b[s + 3] == ':' ? csv_digits(b, s + 4, e, 2) : -1;
        if (hh < 0 || hh > 23 || mi < 0 || mi > 59)
            return 0;
        code |= 2;
        s += 6;
        if (s < e) {
            ss = b[s] == ':' ? csv_digits(b, s + 1, e, 2) : -1;
            if (ss < 0 || ss > 59)
                return 0;
            code |= 4;
            s += 3;
            if (s < e) {
                int nd = 0;
                if (b[s] != '.' || s + 1 == e)
                    return 0;
                for (s++; s < e; s++, nd++) {
                    const unsigned dg = b[s] - '0';
                    if (dg > 9 || nd == 9)
                        return 0;
                    frac = frac * 10 + dg;
                }
                for (int k = nd; k < 9; k++)
                    frac *= 10;
                code |= 16 | (nd > 6 ? 32 : 0);
            }
        }
    }
    *ns = ((csv_days(y, m, d) * 24 + hh) * 60 + mi) * 60000000000ll + ss * 1000000000ll + frac;
    return code;
}
