/* Matches of a regular expression with their bounds (count, replace,
 * split) from the leftmost-first DFA of _str_regex_first.py: table[s *
 * 256 + byte] (-1: no thread left), acc[s] (a thread has matched), eol[s]
 * (the state once $ may pass: at the end, or before a last newline), s0
 * and s1 the start at a row's first byte and elsewhere. The pattern never
 * matches the empty string (the caller checks), so a match moves on. */

#define EM_DFA_ARGS                                                          \
    const int *table, const unsigned char *acc, const int *eol, int s0, int s1

/* Puts src[s, t) at out[w ...] in the bytes pass (mode 1); the next w. */
__device__ __forceinline__ long long em_put(unsigned char *out, long long w,
                                           const unsigned char *src,
                                           long long s, long long t, int mode)
{
    if (t <= s)
        return w;
    if (mode)
        for (long long j = s; j < t; j++)
            out[w + j - s] = src[j];
    return w + t - s;
}

/* The end of the match that starts at byte p of the row [b, e), or -1. */
__device__ long long em_re_at(const unsigned char *data, long long b,
                              long long e, long long p, EM_DFA_ARGS)
{
    int s = p == b ? s0 : s1;
    long long best = -1;
    for (long long q = p;; q++) {
        if (q == e || (q == e - 1 && data[q] == '\n'))
            s = eol[s];
        if (acc[s])
            best = q;
        if (q == e)
            break;
        s = table[(long long)s * 256 + data[q]];
        if (s < 0)
            break;
    }
    return best;
}

/* The leftmost match at or after p: its start (or -1) and end in *end. */
__device__ long long em_re_next(const unsigned char *data, long long b,
                                long long e, long long p, long long *end,
                                EM_DFA_ARGS)
{
    for (long long q = p; q < e; q++) {
        if ((data[q] & 0xC0) == 0x80)
            continue;
        long long m = em_re_at(data, b, e, q, table, acc, eol, s0, s1);
        if (m >= 0) {
            *end = m;
            return q;
        }
    }
    return -1;
}

extern "C" __global__ void em_str_regex_count(const long long *off,
                                              const unsigned char *data,
                                              long long n, EM_DFA_ARGS,
                                              long long *out)
{
    EM_ROWS(i, n)
    {
        long long b = off[i], e = off[i + 1], p = b, c = 0, end = 0;
        while (em_re_next(data, b, e, p, &end, table, acc, eol, s0, s1) >= 0) {
            c++;
            p = end;
        }
        out[i] = c;
    }
}

/* Two passes (mode 0: lengths, 1: bytes) replacing at most maxn (< 0:
 * every) matches by rep. */
extern "C" __global__ void em_str_regex_sub(const long long *off,
                                            const unsigned char *data,
                                            long long n, EM_DFA_ARGS,
                                            const unsigned char *rep,
                                            long long k, long long maxn,
                                            long long *len,
                                            const long long *out_off,
                                            unsigned char *out, int mode)
{
    EM_ROWS(i, n)
    {
        long long b = off[i], e = off[i + 1], p = b, w = mode ? out_off[i] : 0;
        long long done = 0, end = 0, ms;
        while ((maxn < 0 || done < maxn) &&
               (ms = em_re_next(data, b, e, p, &end, table, acc, eol, s0,
                                s1)) >= 0) {
            w = em_put(out, em_put(out, w, data, p, ms, mode), rep, 0, k, mode);
            p = end;
            done++;
        }
        w = em_put(out, w, data, p, e, mode);
        if (!mode)
            len[i] = w;
    }
}

/* split: the first `cols` matches' (start, end) byte offsets, absolute,
 * in pos[i * 2 cols ...]; cnt[i] their number. */
extern "C" __global__ void em_str_regex_split(const long long *off,
                                              const unsigned char *data,
                                              long long n, EM_DFA_ARGS,
                                              long long cols, long long *pos,
                                              long long *cnt)
{
    EM_ROWS(i, n)
    {
        long long b = off[i], e = off[i + 1], p = b, c = 0, end = 0, ms;
        while (c < cols &&
               (ms = em_re_next(data, b, e, p, &end, table, acc, eol, s0,
                                s1)) >= 0) {
            pos[i * 2 * cols + 2 * c] = ms;
            pos[i * 2 * cols + 2 * c + 1] = end;
            c++;
            p = end;
        }
        cnt[i] = c;
    }
}
