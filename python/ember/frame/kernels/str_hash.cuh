/* String keys for hashing (_hash_groups.py): each row's bytes to 64 bits,
 * and the check that makes the hash groups exact: every row's bytes equal
 * those of its group's first row (two strings with one hash would share a
 * group; the caller then falls back to the strings' sorted codes). */

extern "C" __global__ void em_str_hash(const long long *off, const unsigned char *data,
                                       long long n, unsigned long long *out)
{
    EM_ROWS(i, n)
    {
        const long long s = off[i], e = off[i + 1];
        /* eight bytes a step, each folded in by a multiply and a rotation;
         * the length last, so "a" and "a\0" differ; MurmurHash3's
         * finaliser spreads the result */
        unsigned long long h = 0x9e3779b97f4a7c15ull;
        long long p = s;
        for (; p + 8 <= e; p += 8) {
            unsigned long long w = 0;
            for (int b = 0; b < 8; b++)
                w |= (unsigned long long)data[p + b] << (8 * b);
            h = (h ^ (w * 0xff51afd7ed558ccdull)) * 0xc4ceb9fe1a85ec53ull;
            h = h << 29 | h >> 35;
        }
        unsigned long long w = 0;
        for (int b = 0; p + b < e; b++)
            w |= (unsigned long long)data[p + b] << (8 * b);
        h = (h ^ (w * 0xff51afd7ed558ccdull)) * 0xc4ceb9fe1a85ec53ull;
        h ^= (unsigned long long)(e - s);
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
        h *= 0xc4ceb9fe1a85ec53ull;
        out[i] = h ^ (h >> 33);
    }
}

/* out[i] = 1 when row i's bytes equal row other[i]'s. */
extern "C" __global__ void em_str_same(const long long *off, const unsigned char *data,
                                       long long n, const long long *other,
                                       unsigned char *out)
{
    EM_ROWS(i, n)
    {
        const long long s = off[i], e = off[i + 1];
        const long long t = off[other[i]], u = off[other[i] + 1];
        int same = e - s == u - t;
        for (long long j = 0; same && j < e - s; j++)
            same = data[s + j] == data[t + j];
        out[i] = (unsigned char)same;
    }
}
