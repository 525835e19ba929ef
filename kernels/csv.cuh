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

/* Bytes of an 8-byte word equal to c, as the top bit of each byte (exact:
 * no carry crosses a byte). */
__device__ __forceinline__ unsigned long long csv_eq8(unsigned long long x, int c)
{
    const unsigned long long v = x ^ (0x0101010101010101ull * (unsigned char)c);
    const unsigned long long t = (v & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full;
    return ~(t | v | 0x7f7f7f7f7f7f7f7full);
}

/* The chunk's words are read 8 bytes at a time where the address allows
 * (the bytes before a word boundary and after the last whole word one at
 * a time): no word needs a byte loop, with quotes (csv_inside8) or
 * without. */
__device__ __forceinline__ unsigned long long csv_load8(const unsigned char *p)
{
    return *(const unsigned long long *)p;
}

/* A byte mask of csv_eq8 (top bit of each byte) as 8 bits, byte j to bit
 * j: one multiply gathers them into the top byte, no two partial
 * products meeting (the shifts 56 - 7i never coincide). */
__device__ __forceinline__ unsigned long long csv_bits8(unsigned long long m)
{
    return ((m >> 7) * 0x0102040810204080ull) >> 56;
}

/* Bit j set when an odd number of a word's quote bits q (8 bits) lie at
 * or before byte j, flipped when the word starts inside quotes: the ends
 * it sets are inside quotes (a separator or newline is no quote, so
 * "at or before" is "before"). A word with quotes (every field of a
 * quoted string column) then needs no byte loop either. */
__device__ __forceinline__ unsigned long long csv_inside8(unsigned long long q, int in)
{
    q ^= q << 1;
    q ^= q << 2;
    q ^= q << 4;
    return (q ^ (in ? 0xffull : 0ull)) & 0xffull;
}

extern "C" __global__ void csv_count(const unsigned char *b, long long n, long long chunk, long long nch, int sep, int quote, long long *counts)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nch)
        return;
    const long long lo = i * chunk, hi = n - lo < chunk ? n : lo + chunk;
    long long q = 0, c0 = 0, c1 = 0, p = lo;
    int in = 0;
    if (!((unsigned long long)(b + lo) & 7))
        for (; p + 8 <= hi; p += 8) {
            const unsigned long long x = csv_load8(b + p);
            const unsigned long long em = csv_eq8(x, sep) | csv_eq8(x, '\n');
            const unsigned long long qm = quote >= 0 ? csv_eq8(x, quote) : 0;
            if (!qm) {
                const int k = __popcll(em);
                c0 += in ? 0 : k;
                c1 += in ? k : 0;
                continue;
            }
            {
                const unsigned long long q8 = csv_bits8(qm), e8 = csv_bits8(em);
                const unsigned long long inside = csv_inside8(q8, in);
                const int nq = __popcll(q8);
                c0 += __popcll(e8 & ~inside);
                c1 += __popcll(e8 & inside);
                q += nq;
                in ^= nq & 1;
            }
        }
    for (; p < hi; p++) {
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
    long long at = offs[i], p = lo;
    int in = (int)(qpre[i] & 1);
    if (!((unsigned long long)(b + lo) & 7))
        for (; p + 8 <= hi; p += 8) {
            const unsigned long long x = csv_load8(b + p);
            unsigned long long em = csv_eq8(x, sep) | csv_eq8(x, '\n');
            const unsigned long long qm = quote >= 0 ? csv_eq8(x, quote) : 0;
            if (!qm) {
                if (in)
                    continue;
                for (; em; em &= em - 1) {
                    const long long e = p + ((__ffsll((long long)em) - 1) >> 3);
                    ends[at] = e;
                    rowend[at] = b[e] == '\n';
                    at++;
                }
                continue;
            }
            {
                const unsigned long long q8 = csv_bits8(qm);
                unsigned long long out = csv_bits8(em) & ~csv_inside8(q8, in);
                for (; out; out &= out - 1) {
                    const long long e = p + (__ffsll((long long)out) - 1);
                    ends[at] = e;
                    rowend[at] = b[e] == '\n';
                    at++;
                }
                in ^= __popcll(q8) & 1;
            }
        }
    for (; p < hi; p++) {
        const int ch = b[p];
        in ^= ch == quote;
        if (!in && (ch == sep || ch == '\n')) {
            ends[at] = p;
            rowend[at] = ch == '\n';
            at++;
        }
    }
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
 * run. Quotes left inside need no scan here: no number, boolean or date
 * reader takes a quote byte, and csv_is_na looks for them itself. */
__device__ __forceinline__ void csv_unquote(const unsigned char *b, int quote, long long *s, long long *e)
{
    if (*e - *s >= 2 && b[*s] == quote && b[*e - 1] == quote) {
        (*s)++;
        (*e)--;
    }
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

/* Whether b[s, e) is one of the n strings of na (offsets noff); never
 * when a quote is left inside (the field is then a string's). */
__device__ int csv_is_na(const unsigned char *b, long long s, long long e, int quote, const unsigned char *na, const long long *noff, long long n)
{
    for (long long p = s; p < e; p++)
        if (b[p] == quote)
            return 0;
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

/* The common field of a number column classified and read in one scan,
 * as csv_field's CSV_CLASSIFY would (the same class bits and 8 bytes):
 * unquoted and unspaced, an optional '-', 1 to 18 digits, and then either
 * the end (an int64) or a '.' (a float, csv_float from the start). It
 * skips the NA test (unless the NA strings hold one of the field's first
 * byte and length: see csv_parse's nafirst and nalen), the integer reader
 * run before the float one, the boolean test and the call: about half a
 * number field's time. 0: any other field, which the caller gives to
 * csv_field. */
__device__ __forceinline__ int csv_number(const unsigned char *b, long long s, long long e, const unsigned long long *nafirst, unsigned long long nalen, long long *bits, unsigned char *cls)
{
    const long long s0 = s, len = e - s;
    const int fb = s < e ? b[s] : 256;
    if ((nafirst[fb >> 6] >> (fb & 63) & 1) && (nalen >> (len < 63 ? len : 63) & 1))
        return 0;
    const int neg = s < e && b[s] == '-';
    unsigned long long w = 0;
    s += neg;
    const long long d0 = s;
    for (unsigned d; s < e && (d = b[s] - '0') <= 9; s++)
        w = w * 10 + d;
    if (s == d0 || s - d0 > 18)
        return 0;
    if (s == e) { /* csv_int's 1: NOT_UINT below zero; a number is no boolean */
        *bits = neg ? (long long)(0 - w) : (long long)w;
        *cls = CSV_NOT_BOOL | (neg && w ? CSV_NOT_UINT : 0);
        return 1;
    }
    double v;
    if (b[s] != '.' || csv_float(b, s0, e, &v) != 1)
        return 0;
    *bits = __double_as_longlong(v);
    *cls = CSV_NOT_INT | CSV_NOT_UINT | CSV_NOT_BOOL;
    return 1;
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
    unsigned long long first[5] = {0, 0, 0, 0, 0}, nalen = 0;
    for (long long j = 0; j < nna; j++) {
        const long long len = noff[j + 1] - noff[j];
        const int c = len > 0 ? na[noff[j]] : 256;
        first[c >> 6] |= 1ull << (c & 63);
        nalen |= 1ull << (len < 63 ? len : 63); /* and their lengths (63: longer) */
    }
#if CSV_CUDA /* a grid-stride loop: neighbouring threads, neighbouring rows */
    const long long r0 = (long long)blockIdx.x * blockDim.x + threadIdx.x, step = (long long)gridDim.x * blockDim.x, r1 = nrows;
#else /* a few long blocks a core, each a run of rows: no two cores write one cache line */
    const long long per = (nrows + gridDim.x - 1) / gridDim.x, r0 = blockIdx.x * per, step = 1,
                    r1 = r0 + per < nrows ? r0 + per : nrows;
#endif
    for (long long r = r0; r < r1; r += step)
        if (col >= 0)
            csv_field(b, starts, ends, base, ncols, col, quote, mode, na, noff, nna, first, out, cls, soff, r);
        else /* every column of the row, each into its row of out and cls */
            for (long long c = 0; c < ncols; c++) {
                long long s, e, v;
                unsigned char k;
                csv_raw(b, starts, ends, base + r * ncols + c, &s, &e);
                if (out && csv_number(b, s, e, first, nalen, &v, &k)) {
                    ((long long *)out)[c * nrows + r] = v;
                    cls[c * nrows + r] = k;
                    continue;
                }
                csv_field(b, starts, ends, base, ncols, c, quote, mode, na, noff, nna, first, (long long *)out + c * nrows, cls + c * nrows, soff, r);
            }
}

__device__ void csv_field(const unsigned char *b, const long long *starts, const long long *ends, long long base, long long ncols, long long col, int quote, int mode, const unsigned char *na, const long long *noff, long long nna, const unsigned long long *first, void *out, unsigned char *cls, const long long *soff, long long r)
{
    long long rs, re, s, e, iv = 0;
    double fv = 0;
    int isna, k;
    csv_raw(b, starts, ends, base + r * ncols + col, &rs, &re);
    if (mode == CSV_BLANK) { /* a line of spaces, which pandas skips */
        while (rs < re && csv_space(b[rs]))
            rs++;
        ((unsigned char *)out)[r] = rs == re;
        return;
    }
    s = rs;
    e = re;
    csv_unquote(b, quote, &s, &e);
    k = s < e ? b[s] : 256;
    isna = (first[k >> 6] >> (k & 63) & 1) && csv_is_na(b, s, e, quote, na, noff, nna);
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
        k = csv_int(b, s, e, &iv);
        c |= k == 1 ? 0 : CSV_NOT_INT;
        c |= k == 3 || (k == 1 && iv >= 0) ? 0 : CSV_NOT_UINT;
        c |= k == 4 ? CSV_BIGINT : 0;
        if (k == 0 || k == 4) {
            kf = csv_float(b, s, e, &fv);
            c |= kf ? 0 : CSV_NOT_FLOAT;
            c |= kf == 2 ? CSV_SLOW : 0;
            iv = __double_as_longlong(kf == 1 ? fv : __longlong_as_double(0x7ff8000000000000ll));
        }
        c |= s < e && (b[s] | 32) >= 'f' && csv_bool(b, s, e) ? 0 : CSV_NOT_BOOL;
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
        k = isna ? 1 : csv_float(b, s, e, &fv);
        ((double *)out)[r] = isna || k != 1 ? __longlong_as_double(0x7ff8000000000000ll) : fv;
        if (cls)
            cls[r] = k == 2 ? CSV_SLOW : 0;
        return;
    case CSV_BOOL:
        ((unsigned char *)out)[r] = !isna && csv_lower(b[s]) == 't';
        return;
    case CSV_DATETIME: /* cls: the format's code (0 none, 255 a null) */
        k = isna ? 0 : csv_datetime(b, s, e, &iv);
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
