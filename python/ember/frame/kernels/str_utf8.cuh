/* ember.frame's string kernels (python/ember/frame/_str_kernels.py): one
 * thread a row, grid-stride, over Arrow's layout (int64 offsets `off`,
 * n + 1 of them, into utf-8 bytes `data`). Kernels that build strings run
 * twice: mode 0 writes each row's output length, the caller scans them to
 * offsets, mode 1 writes the bytes there. */

#define EM_ROWS(i, n)                                                        \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;     \
         i < (n); i += (long long)gridDim.x * blockDim.x)

/* The code point that starts at s[*p] (stepping *p past it); the input is
 * valid utf-8, which Arrow's strings are. */
__device__ __forceinline__ int em_u8_decode(const unsigned char *s,
                                            long long *p)
{
    unsigned c = s[*p];
    if (c < 0x80) {
        *p += 1;
        return (int)c;
    }
    if (c < 0xE0) {
        int r = ((c & 0x1F) << 6) | (s[*p + 1] & 0x3F);
        *p += 2;
        return r;
    }
    if (c < 0xF0) {
        int r = ((c & 0x0F) << 12) | ((s[*p + 1] & 0x3F) << 6) |
                (s[*p + 2] & 0x3F);
        *p += 3;
        return r;
    }
    int r = ((c & 0x07) << 18) | ((s[*p + 1] & 0x3F) << 12) |
            ((s[*p + 2] & 0x3F) << 6) | (s[*p + 3] & 0x3F);
    *p += 4;
    return r;
}

__device__ __forceinline__ int em_u8_size(int cp)
{
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

__device__ __forceinline__ void em_u8_encode(int cp, unsigned char *o)
{
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
    } else if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
    } else {
        o[0] = (unsigned char)(0xF0 | (cp >> 18));
        o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    }
}

/* Case mapping, as Arrow's utf8_* kernels (pandas calls those): op 0
 * lower, 1 upper, 2 title (upper after an uncased char, lower after a
 * cased one; uncased chars copied), 3 capitalize (the first upper, the
 * rest lower), 4 swapcase. up[cp]/low[cp] are a code point's images (-1:
 * the table does not know it), prop[cp] its class bits (_str_tables.py:
 * bit 4 lower, 5 upper, 7 cased but not lower); code points from nmap on
 * map to themselves. bad[i] = 1 marks a row with an unknown code point,
 * which the caller turns into NotImplementedError rather than a guess. */
extern "C" __global__ void em_str_case(const long long *off,
                                       const unsigned char *data, long long n,
                                       const int *up, const int *low,
                                       const unsigned short *prop,
                                       long long nmap, int op, long long *len,
                                       unsigned char *bad,
                                       const long long *out_off,
                                       unsigned char *out, int mode)
{
    EM_ROWS(i, n)
    {
        long long p = off[i], e = off[i + 1], w = mode ? out_off[i] : 0;
        unsigned char unknown = 0;
        int next_upper = 1, first = 1;
        while (p < e) {
            int cp = em_u8_decode(data, &p);
            int m = cp;
            if (cp < nmap) {
                int f = prop[cp], to_upper;
                if (op == 0 || op == 1) {
                    to_upper = op;
                } else if (op == 2) {
                    int cased = (f & ((1 << 4) | (1 << 7))) != 0;
                    to_upper = cased ? next_upper : -1;
                    next_upper = !cased;
                } else if (op == 3) {
                    to_upper = first;
                } else {
                    to_upper = (f >> 4) & 1 ? 1 : (f >> 5) & 1 ? 0 : -1;
                }
                if (to_upper >= 0)
                    m = to_upper ? up[cp] : low[cp];
                if (m < 0 || (f >> 15)) {
                    unknown = 1;
                    m = cp;
                }
            }
            first = 0;
            if (mode)
                em_u8_encode(m, out + w);
            w += em_u8_size(m);
        }
        if (!mode) {
            len[i] = w;
            bad[i] = unknown;
        }
    }
}

/* Whether code point cp is one of set[0..k) (the chars of strip). */
__device__ __forceinline__ int em_in_set(int cp, const int *set, long long k)
{
    for (long long j = 0; j < k; j++)
        if (set[j] == cp)
            return 1;
    return 0;
}

/* strip: the byte range [start, stop) left of a row once the code points
 * of `set` are taken from its left (side & 1) and right (side & 2). */
extern "C" __global__ void em_str_strip(const long long *off,
                                        const unsigned char *data,
                                        long long n, const int *set,
                                        long long k, int side,
                                        long long *start, long long *stop)
{
    EM_ROWS(i, n)
    {
        long long b = off[i], e = off[i + 1];
        if (side & 1) {
            while (b < e) {
                long long q = b;
                if (!em_in_set(em_u8_decode(data, &q), set, k))
                    break;
                b = q;
            }
        }
        if (side & 2) {
            while (e > b) {
                long long q = e - 1;
                while (q > b && (data[q] & 0xC0) == 0x80)
                    q--;
                long long t = q;
                if (!em_in_set(em_u8_decode(data, &t), set, k))
                    break;
                e = q;
            }
        }
        start[i] = b;
        stop[i] = e;
    }
}

/* Each code point's class bits from `prop` (isdigit, isalpha, ... as
 * _str_tables.py lays them out; bit 15: a code point the table does not
 * know, which sets bad[i]); code points from nprop on have none.
 * mode 0: every char has a bit of `bits` (and the row is not empty);
 * mode 1: some char has one and none has a bit of `veto` (islower);
 * mode 2 (istitle): a cased char, a lower one (bits) only after a cased
 * one (bits | veto), any other cased one only after an uncased one. */
extern "C" __global__ void em_str_isclass(const long long *off,
                                          const unsigned char *data,
                                          long long n,
                                          const unsigned short *prop,
                                          long long nprop, int bits, int veto,
                                          int mode, unsigned char *out,
                                          unsigned char *bad)
{
    EM_ROWS(i, n)
    {
        long long p = off[i], e = off[i + 1];
        int all = p < e, some = 0, vetoed = 0, unknown = 0;
        int after_cased = 0, title = 1;
        while (p < e) {
            int cp = em_u8_decode(data, &p);
            int f = cp < nprop ? prop[cp] : 0;
            int cased = (f & (bits | veto)) != 0;
            if (cased && ((f & bits) != 0) != after_cased)
                title = 0;
            after_cased = cased;
            all &= (f & bits) != 0;
            some |= (f & bits) != 0;
            vetoed |= (f & veto) != 0;
            unknown |= f >> 15;
        }
        if (mode == 2)
            out[i] = (unsigned char)(title && (some || vetoed));
        else
            out[i] = (unsigned char)(mode ? some && !vetoed : all);
        bad[i] = (unsigned char)unknown;
    }
}

/* Each row's length in code points. */
extern "C" __global__ void em_str_nchars(const long long *off,
                                         const unsigned char *data,
                                         long long n, long long *out)
{
    EM_ROWS(i, n)
    {
        long long c = 0;
        for (long long p = off[i]; p < off[i + 1]; p++)
            c += (data[p] & 0xC0) != 0x80;
        out[i] = c;
    }
}

/* Segment i of the output, bytes [out_off[i], out_off[i] + len[i]), is
 * src[start[i] ...]: the one copy behind slices, strip, pad, cat. */
extern "C" __global__ void em_str_copy(const unsigned char *src,
                                       const long long *start,
                                       const long long *len,
                                       const long long *out_off, long long n,
                                       unsigned char *out)
{
    EM_ROWS(i, n)
    {
        const unsigned char *s = src + start[i];
        unsigned char *o = out + out_off[i];
        for (long long j = 0; j < len[i]; j++)
            o[j] = s[j];
    }
}

/* The code point at or before byte p (p > b) of a row starting at b. */
__device__ __forceinline__ long long em_u8_back(const unsigned char *s,
                                                long long b, long long p)
{
    p--;
    while (p > b && (s[p] & 0xC0) == 0x80)
        p--;
    return p;
}

/* s[start:stop:step] by code point, Python's rules for the bounds (has
 * bit 0: start given, bit 1: stop given; negative ones count from the
 * end). Two passes: mode 0 lengths, mode 1 bytes. */
extern "C" __global__ void em_str_slice(const long long *off,
                                        const unsigned char *data,
                                        long long n, long long start,
                                        long long stop, long long step,
                                        int has, long long *len,
                                        const long long *out_off,
                                        unsigned char *out, int mode)
{
    EM_ROWS(i, n)
    {
        long long b = off[i], e = off[i + 1], L = 0, w = mode ? out_off[i] : 0;
        for (long long p = b; p < e; p++)
            L += (data[p] & 0xC0) != 0x80;
        long long lo = step > 0 ? 0 : -1, hi = step > 0 ? L : L - 1;
        long long s = step > 0 ? 0 : L - 1, t = step > 0 ? L : -1;
        if (has & 1) {
            s = start < 0 ? start + L : start;
            s = s < lo ? lo : s > hi ? hi : s;
        }
        if (has & 2) {
            t = stop < 0 ? stop + L : stop;
            t = t < lo ? lo : t > hi ? hi : t;
        }
        if (step > 0) {
            long long c = 0;
            for (long long p = b; p < e && c < t; c++) {
                long long q = p;
                em_u8_decode(data, &q);
                if (c >= s && (c - s) % step == 0)
                    for (long long j = p; j < q; j++, w++)
                        if (mode)
                            out[w] = data[j];
                p = q;
            }
        } else {
            long long c = L - 1;
            for (long long p = e; p > b && c > t; c--) {
                long long q = em_u8_back(data, b, p);
                if (c <= s && (s - c) % (-step) == 0)
                    for (long long j = q; j < p; j++, w++)
                        if (mode)
                            out[w] = data[j];
                p = q;
            }
        }
        if (!mode)
            len[i] = w;
    }
}

/* The absolute byte offset of code point k[i] of row i (k[i] past the
 * end: the row's end). */
extern "C" __global__ void em_str_char_offset(const long long *off,
                                              const unsigned char *data,
                                              long long n, const long long *k,
                                              long long *out)
{
    EM_ROWS(i, n)
    {
        long long p = off[i], e = off[i + 1], c = -1;
        for (; p < e; p++)
            if ((data[p] & 0xC0) != 0x80 && ++c == k[i])
                break;
        out[i] = p;
    }
}

/* Each code point cp < nidx with idx[cp] >= 0 becomes the bytes
 * rep[rep_off[idx[cp]] .. rep_off[idx[cp] + 1]) (casefold, translate);
 * the others stay. Two passes: mode 0 lengths, mode 1 bytes. */
extern "C" __global__ void em_str_map(const long long *off,
                                      const unsigned char *data, long long n,
                                      const int *idx, long long nidx,
                                      const unsigned char *rep,
                                      const long long *rep_off,
                                      long long *len,
                                      const long long *out_off,
                                      unsigned char *out, int mode)
{
    EM_ROWS(i, n)
    {
        long long p = off[i], e = off[i + 1], w = mode ? out_off[i] : 0;
        while (p < e) {
            long long q = p;
            int cp = em_u8_decode(data, &q);
            int j = cp < nidx ? idx[cp] : -1;
            long long a = j >= 0 ? rep_off[j] : p, b = j >= 0 ? rep_off[j + 1] : q;
            const unsigned char *src = j >= 0 ? rep : data;
            for (long long k = a; k < b; k++, w++)
                if (mode)
                    out[w] = src[k];
            p = q;
        }
        if (!mode)
            len[i] = w;
    }
}
