/* ember.frame's string sort keys (_strings.words): row i's bytes as
 * big-endian uint64 words, zero padded, word w of every row in one run
 * (out[w * n + i]), so that comparing (words..., length) orders rows as
 * their bytes. A gather of 8 bytes a word would move an int64 position
 * and a uint64 a byte through memory several times. */

extern "C" __global__ void em_str_words(const long long *off,
                                        const unsigned char *data,
                                        long long n, long long nwords,
                                        unsigned long long *out)
{
    EM_ROWS(i, n)
    {
        const long long s = off[i], e = off[i + 1];
        for (long long w = 0; w < nwords; w++) {
            const long long p = s + 8 * w;
            unsigned long long x = 0;
            if (p + 8 <= e) {
                for (int b = 0; b < 8; b++)
                    x = x << 8 | data[p + b];
            } else {
                for (int b = 0; b < 8; b++)
                    x = x << 8 | (p + b < e ? data[p + b] : 0u);
            }
            out[w * n + i] = x;
        }
    }
}
