/* ember: the CSV kernels (src/frame/csv.c pastes this after CSV_CUDA).
 * One source serves both backends: thread i of the grid owns chunk i of
 * the bytes (csv_count, csv_fields) or row i of a column (csv_parse). On
 * the host a block is one thread and chunks are large; on cuda chunks are
 * a few hundred bytes.
 *
 * Quotes are found by parity: a separator or newline is a field's end when
 * an even number of quote bytes precede it. csv_count counts a chunk's
 * quotes and its ends under both guesses of the parity at its start, so
 * one pass over the bytes sizes everything; csv_fields, given the real
 * parity (a scan of the quote counts) and its first output place (a scan
 * of the picked counts), writes each end's position and whether it ends a
 * row. */

#define CSV_NA 1         /* the field is a null (an NA string or empty) */
#define CSV_NOT_INT 2    /* not an int64 */
#define CSV_NOT_FLOAT 4  /* not a float64 */
#define CSV_NOT_BOOL 8   /* not True/False */
#define CSV_NOT_UINT 16  /* not a uint64 */
#define CSV_SLOW 32      /* a float this backend leaves to the host */
#define CSV_BIGINT 64    /* digits beyond uint64 (pandas: a Python int) */

enum { CSV_CLASSIFY, CSV_INT64, CSV_FLOAT64, CSV_BOOL, CSV_STRLEN, CSV_STRCOPY,
       CSV_UINT64, CSV_BLANK, CSV_DATETIME };

extern "C" __global__ void csv_count(const unsigned char *b, long long n, long long chunk, long long nch, int sep, int quote, long long *counts)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nch)
        return;
    const long long lo = i * chunk, hi = n - lo < chunk ? n : lo + chunk;
    long long q = 0, c0 = 0, c1 = 0;
    int in = 0;
    for (long long p = lo; p < hi; p++) {
        const int ch = b[p];
        const int end = ch == sep || ch == '\n';
        in ^= ch == quote;
        q += ch == quote;
        c0 += end & !in;
        c1 += end & in;
    }
    counts[3 * i] = q;
    counts[3 * i + 1] = c0;
    counts[3 * i + 2] = c1;
}

extern "C" __global__ void csv_fields(const unsigned char *b, long long n, long long chunk, long long nch, int sep, int quote, const long long *qpre, const long long *offs, long long *ends, unsigned char *rowend)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nch)
        return;
    const long long lo = i * chunk, hi = n - lo < chunk ? n : lo + chunk;
    long long at = offs[i];
    int in = (int)(qpre[i] & 1);
    for (long long p = lo; p < hi; p++) {
        const int ch = b[p];
        in ^= ch == quote;
        if (!in && (ch == sep || ch == '\n')) {
            ends[at] = p;
            rowend[at] = ch == '\n';
            at++;
        }
    }
}

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

/* hi:lo / d for d < 2^63, hi < d: the quotient (64 bits) and *rem. */
__device__ unsigned long long csv_div128(unsigned long long hi, unsigned long long lo, unsigned long long d, unsigned long long *rem)
{
#if !CSV_CUDA /* the host compiler divides 128 by 64 bits itself */
    const unsigned __int128 x = (unsigned __int128)hi << 64 | lo;
    const unsigned long long quo = (unsigned long long)(x / d);
    *rem = lo - quo * d; /* the remainder is below 2^63: the low words suffice */
    return quo;
#endif
    unsigned long long q = 0;
    for (int k = 0; k < 64; k++) {
        hi = hi << 1 | lo >> 63;
        lo <<= 1;
        q <<= 1;
        if (hi >= d) {
            hi -= d;
            q |= 1;
        }
    }
    *rem = hi;
    return q;
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

/* The float64 nearest w * 10^q (w < 2^64 exact, |q| <= 27), exactly:
 * 10^q is 5^q * 2^q and 5^27 < 2^63, so a 128-bit product or a 128/64
 * division holds everything the rounding needs. */
__device__ double csv_scale(unsigned long long w, int q)
{
    if (q >= 0) {
        const unsigned long long p = csv_pow5(q);
        return csv_round(__umul64hi(w, p), w * p, q, 0);
    }
    const unsigned long long d = csv_pow5(-q);
    const int lz = __clzll((long long)w);
    /* w << (63 + lz) over d: a quotient of at least 64 bits */
    const unsigned long long hi = w << lz >> 1, lo = w << lz << 63;
    unsigned long long r1, r2;
    const unsigned long long qh = csv_div128(0, hi, d, &r1);
    const unsigned long long ql = csv_div128(r1, lo, d, &r2);
    return csv_round(qh, ql, q - (63 + lz), r2 != 0);
}

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
    if (csv_word(b, s, e, "inf") || csv_word(b, s, e, "infinity")) {
        *v = __longlong_as_double(neg ? (long long)0xfff0000000000000ull : 0x7ff0000000000000ll);
        return 1;
    }
    if (csv_word(b, s, e, "nan")) {
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
        for (s++; s < e && b[s] >= '0' && b[s] <= '9'; s++, seen = 1) {
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
        double p = 1, x = 10;
        for (int k = q < 0 ? -q : q; k; k >>= 1, x *= x)
            if (k & 1)
                p *= x;
        *v = q < 0 ? (double)w / p : (double)w * p;
        *v = neg ? -*v : *v;
        return 1;
    }
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

/* Field k's bytes [*s, *e) (from starts, or after the previous end),
 * a carriage return before its newline taken off. */
__device__ __forceinline__ void csv_raw(const unsigned char *b, const long long *starts, const long long *ends, long long k, long long *s, long long *e)
{
    *s = starts ? starts[k] : k ? ends[k - 1] + 1 : 0;
    *e = ends[k];
    if (*e > *s && b[*e - 1] == '\r')
        (*e)--;
}

/* The raw span [s, e) with its quotes taken off when it is one quoted
 * run; 1 when quotes remain inside (only a string can hold them). */
__device__ int csv_unquote(const unsigned char *b, int quote, long long *s, long long *e)
{
    if (*e - *s >= 2 && b[*s] == quote && b[*e - 1] == quote) {
        (*s)++;
        (*e)--;
    }
    for (long long p = *s; p < *e; p++)
        if (b[p] == quote)
            return 1;
    return 0;
}

/* Whether b[s, e) is exactly w. */
__device__ int csv_eq(const unsigned char *b, long long s, long long e, const char *w)
{
    long long k = 0;
    for (; w[k]; k++)
        if (s + k >= e || b[s + k] != (unsigned char)w[k])
            return 0;
    return s + k == e;
}

/* pandas' spellings of the booleans. */
__device__ int csv_bool(const unsigned char *b, long long s, long long e)
{
    return csv_eq(b, s, e, "True") || csv_eq(b, s, e, "TRUE") || csv_eq(b, s, e, "true") ||
           csv_eq(b, s, e, "False") || csv_eq(b, s, e, "FALSE") || csv_eq(b, s, e, "false");
}

/* Whether b[s, e) is one of the n strings of na (offsets noff). */
__device__ int csv_is_na(const unsigned char *b, long long s, long long e, const unsigned char *na, const long long *noff, long long n)
{
    for (long long j = 0; j < n; j++) {
        const long long a = noff[j], len = noff[j + 1] - a;
        long long k = 0;
        if (len != e - s)
            continue;
        while (k < len && na[a + k] == b[s + k])
            k++;
        if (k == len)
            return 1;
    }
    return 0;
}

/* Row r of column col (field k = base + r * ncols + col of ends, or of
 * starts/ends when starts is given): mode CSV_CLASSIFY writes its class
 * bits to cls (and with out its value); the others write its value to out (NA: 0, NaN, false, an
 * empty string), CSV_FLOAT64 also marks CSV_SLOW in cls (when given),
 * CSV_STRLEN writes the unquoted length, CSV_STRCOPY the unquoted
 * bytes at soff[r] and CSV_BLANK whether the field is only blanks. */
__device__ void csv_field(const unsigned char *b, const long long *starts, const long long *ends, long long base, long long ncols, long long col, int quote, int mode, const unsigned char *na, const long long *noff, long long nna, const unsigned long long *first, void *out, unsigned char *cls, const long long *soff, long long r);

extern "C" __global__ void csv_parse(const unsigned char *b, const long long *starts, const long long *ends, long long base, long long nrows, long long ncols, long long col, int quote, int mode, const unsigned char *na, const long long *noff, long long nna, void *out, unsigned char *cls, const long long *soff)
{
    /* the first bytes of the NA strings (bit 256: the empty one), so a
     * field compares with them only when its first byte starts one */
    unsigned long long first[5] = {0, 0, 0, 0, 0};
    for (long long j = 0; j < nna; j++) {
        const int c = noff[j + 1] > noff[j] ? na[noff[j]] : 256;
        first[c >> 6] |= 1ull << (c & 63);
    }
    /* a grid-stride loop: the host runs a few long blocks a core */
    for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < nrows;
         r += (long long)gridDim.x * blockDim.x)
        csv_field(b, starts, ends, base, ncols, col, quote, mode, na, noff, nna, first, out, cls, soff, r);
}

__device__ void csv_field(const unsigned char *b, const long long *starts, const long long *ends, long long base, long long ncols, long long col, int quote, int mode, const unsigned char *na, const long long *noff, long long nna, const unsigned long long *first, void *out, unsigned char *cls, const long long *soff, long long r)
{
    long long rs, re, s, e, iv = 0;
    double fv = 0;
    int inner, isna, k;
    csv_raw(b, starts, ends, base + r * ncols + col, &rs, &re);
    if (mode == CSV_BLANK) { /* a line of spaces, which pandas skips */
        while (rs < re && csv_space(b[rs]))
            rs++;
        ((unsigned char *)out)[r] = rs == re;
        return;
    }
    s = rs;
    e = re;
    inner = csv_unquote(b, quote, &s, &e);
    k = s < e ? b[s] : 256;
    isna = !inner && (first[k >> 6] >> (k & 63) & 1) && csv_is_na(b, s, e, na, noff, nna);
    switch (mode) {
    case CSV_CLASSIFY: {
        /* with out: the value too, as 8 bytes (int64 where the class says
         * int, uint64 where it says uint, else float64; NaN for nulls),
         * so a number column needs no second pass */
        long long *o = (long long *)out;
        int c = 0, kf = 0;
        if (isna) {
            cls[r] = CSV_NA;
            if (o)
                o[r] = 0x7ff8000000000000ll;
            return;
        }
        k = inner ? 0 : csv_int(b, s, e, &iv);
        c |= k == 1 ? 0 : CSV_NOT_INT;
        c |= k == 3 || (k == 1 && iv >= 0) ? 0 : CSV_NOT_UINT;
        c |= k == 4 ? CSV_BIGINT : 0;
        if (k == 0 || k == 4) {
            kf = inner ? 0 : csv_float(b, s, e, &fv);
            c |= kf ? 0 : CSV_NOT_FLOAT;
            c |= kf == 2 ? CSV_SLOW : 0;
            iv = __double_as_longlong(kf == 1 ? fv : __longlong_as_double(0x7ff8000000000000ll));
        }
        c |= !inner && s < e && (b[s] | 32) >= 'f' && csv_bool(b, s, e) ? 0 : CSV_NOT_BOOL;
        cls[r] = (unsigned char)c;
        if (o)
            o[r] = iv;
        return;
    }
    case CSV_INT64:
    case CSV_UINT64:
        if (!isna)
            csv_int(b, s, e, &iv);
        ((long long *)out)[r] = isna ? 0 : iv;
        return;
    case CSV_FLOAT64:
        k = isna || inner ? 1 : csv_float(b, s, e, &fv);
        ((double *)out)[r] = isna || inner || k != 1 ? __longlong_as_double(0x7ff8000000000000ll) : fv;
        if (cls)
            cls[r] = k == 2 ? CSV_SLOW : 0;
        return;
    case CSV_BOOL:
        ((unsigned char *)out)[r] = !isna && csv_lower(b[s]) == 't';
        return;
    case CSV_DATETIME: /* cls: the format's code (0 none, 255 a null) */
        k = isna || inner ? 0 : csv_datetime(b, s, e, &iv);
        ((long long *)out)[r] = k ? iv : (long long)(1ull << 63);
        cls[r] = isna ? 255 : (unsigned char)k;
        return;
    default:
        break;
    }
    /* strings, from the raw bytes: a doubled quote inside quotes is one
     * quote; other quotes only switch quoting */
    {
        long long n = 0;
        unsigned char *o = mode == CSV_STRCOPY ? (unsigned char *)out + soff[r] : 0;
        int in = 0;
        if (isna) {
            if (mode == CSV_STRLEN)
                ((long long *)out)[r] = 0;
            return;
        }
        for (long long p = rs; p < re; p++) {
            const int ch = b[p];
            if (ch == quote && !(in && p + 1 < re && b[p + 1] == quote)) {
                in ^= 1;
                continue;
            }
            if (o)
                o[n] = (unsigned char)ch;
            n++;
            p += ch == quote; /* the doubled quote's second byte */
        }
        if (mode == CSV_STRLEN)
            ((long long *)out)[r] = n;
    }
}
