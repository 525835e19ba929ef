/* Literal search (find, count, startswith, endswith, replace, split) and
 * the regular-expression automaton (contains, match, fullmatch). */

__device__ __forceinline__ int em_at(const unsigned char *s, long long p,
                                     const unsigned char *pat, long long m)
{
    for (long long j = 0; j < m; j++)
        if (s[p + j] != pat[j])
            return 0;
    return 1;
}

/* The byte after the match at p (an empty pattern matches at every
 * character boundary, so it steps over one code point). */
__device__ __forceinline__ long long em_next(const unsigned char *s,
                                             long long p, long long e,
                                             long long m)
{
    if (m)
        return p + m;
    if (p >= e)
        return e + 1;
    p++;
    while (p < e && (s[p] & 0xC0) == 0x80)
        p++;
    return p;
}

/* mode 0: the first match's byte offset in the row, or -1; 1: the number
 * of matches that do not overlap, from the left; 2: starts with; 3: ends
 * with; 4: the last match's byte offset, or -1. mode | 8: offsets in
 * code points rather than bytes. */
extern "C" __global__ void em_str_find(const long long *off,
                                       const unsigned char *data, long long n,
                                       const unsigned char *pat, long long m,
                                       int mode, long long *out)
{
    int chars = mode & 8;
    mode &= 7;
    EM_ROWS(i, n)
    {
        long long b = off[i], e = off[i + 1], r = -1;
        if (mode == 2) {
            r = e - b >= m && em_at(data, b, pat, m);
        } else if (mode == 3) {
            r = e - b >= m && em_at(data, e - m, pat, m);
        } else if (mode == 4) {
            for (long long p = e - m; p >= b; p--)
                if (em_at(data, p, pat, m)) {
                    r = p - b;
                    break;
                }
        } else {
            long long c = 0;
            for (long long p = b; p + m <= e;) {
                if ((m || p == e || (data[p] & 0xC0) != 0x80) &&
                    em_at(data, p, pat, m)) {
                    if (mode == 0) {
                        r = p - b;
                        break;
                    }
                    c++;
                    p = em_next(data, p, e, m);
                } else {
                    p++;
                }
            }
            if (mode == 1)
                r = c;
        }
        if (chars && r > 0 && (mode == 0 || mode == 4)) {
            long long c = 0;
            for (long long p = b; p < b + r; p++)
                c += (data[p] & 0xC0) != 0x80;
            r = c;
        }
        out[i] = r;
    }
}

/* Literal replace of at most maxn (< 0: every) matches of pat by rep. */
extern "C" __global__ void em_str_replace(const long long *off,
                                          const unsigned char *data,
                                          long long n,
                                          const unsigned char *pat,
                                          long long m,
                                          const unsigned char *rep,
                                          long long k, long long maxn,
                                          long long *len,
                                          const long long *out_off,
                                          unsigned char *out, int mode)
{
    EM_ROWS(i, n)
    {
        long long b = off[i], e = off[i + 1], w = mode ? out_off[i] : 0;
        long long done = 0, p = b;
        while (p <= e) {
            int hit = (maxn < 0 || done < maxn) && p + m <= e &&
                      (m || p == e || (data[p] & 0xC0) != 0x80) &&
                      em_at(data, p, pat, m);
            if (hit) {
                if (mode)
                    for (long long j = 0; j < k; j++)
                        out[w + j] = rep[j];
                w += k;
                done++;
                long long q = em_next(data, p, e, m);
                for (long long j = p + m; j < q && j < e; j++) {
                    if (mode)
                        out[w] = data[j];
                    w++;
                }
                p = q;
            } else {
                if (p < e) {
                    if (mode)
                        out[w] = data[p];
                    w++;
                }
                p++;
            }
        }
        if (!mode)
            len[i] = w;
    }
}

/* split: the absolute byte offsets of a row's first (right = 0) or last
 * (right = 1) matches of pat that do not overlap, at most `cols` of them,
 * left to right in pos[i * cols ...]; cnt[i] their number. */
extern "C" __global__ void em_str_split(const long long *off,
                                        const unsigned char *data,
                                        long long n, const unsigned char *pat,
                                        long long m, long long cols,
                                        int right, long long *pos,
                                        long long *cnt)
{
    EM_ROWS(i, n)
    {
        long long b = off[i], e = off[i + 1], c = 0;
        long long *row = pos + i * cols;
        if (!right) {
            for (long long p = b; p + m <= e && c < cols;) {
                if (em_at(data, p, pat, m)) {
                    row[c++] = p;
                    p += m;
                } else {
                    p++;
                }
            }
        } else {
            for (long long p = e - m; p >= b && c < cols;) {
                if (em_at(data, p, pat, m)) {
                    row[c++] = p;
                    p -= m;
                } else {
                    p--;
                }
            }
            for (long long j = 0; j < c / 2; j++) {
                long long t = row[j];
                row[j] = row[c - 1 - j];
                row[c - 1 - j] = t;
            }
        }
        cnt[i] = c;
    }
}

/* A DFA over bytes (table[s * 256 + byte], -1 = no match can follow) from
 * _str_regex.py. acc[s] bit 0: a match ends here; bit 1: a match ends here
 * when the input ends here or only a newline is left ($, as Python's);
 * bit 2: fullmatch's answer when only a newline is left. mode 0 answers
 * at the first bit 0 (contains, match); mode 1 only at the end
 * (fullmatch). */
extern "C" __global__ void em_str_dfa(const long long *off,
                                      const unsigned char *data, long long n,
                                      const int *table,
                                      const unsigned char *acc, int start,
                                      int mode, unsigned char *out)
{
    EM_ROWS(i, n)
    {
        long long p = off[i], e = off[i + 1];
        int s = start, hit = 0;
        if (!mode && (acc[s] & 1))
            hit = 1;
        while (!hit && p < e) {
            if (p == e - 1 && data[p] == '\n' && (acc[s] & (mode ? 4 : 2)))
                hit = 1;
            s = table[(long long)s * 256 + data[p++]];
            if (s < 0)
                break;
            if (!mode && (acc[s] & 1))
                hit = 1;
        }
        if (!hit && s >= 0 && p == e && (acc[s] & 2))
            hit = 1;
        out[i] = (unsigned char)hit;
    }
}
