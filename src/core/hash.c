/* ember core: a 64-bit hash for cache keys and file names.
 *
 * Multiply-rotate rounds over 8-byte words with a final avalanche (the
 * 64-bit finaliser constants of MurmurHash3, a published fact). Stable
 * across processes: entries on disk are named by it. */
#include <string.h>
#include "ember/util.h"

#define EM_K1 0x9E3779B97F4A7C15ull
#define EM_K2 0xC2B2AE3D27D4EB4Full
#define EM_K3 0x165667B19E3779F9ull

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

static inline uint64_t load64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);   /* unaligned-safe; compilers emit one load */
    return v;
}

uint64_t em_hash64(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = (const unsigned char *)data;
    uint64_t a = seed ^ (n * EM_K1), b = seed + EM_K2;
    size_t i = 0;
    /* Two lanes so consecutive words do not serialise on one multiply. */
    for (; i + 16 <= n; i += 16) {
        a = rotl64(a ^ (load64(p + i) * EM_K2), 31) * EM_K1;
        b = rotl64(b ^ (load64(p + i + 8) * EM_K1), 29) * EM_K3;
    }
    if (i + 8 <= n) {
        a = rotl64(a ^ (load64(p + i) * EM_K2), 31) * EM_K1;
        i += 8;
    }
    if (i < n) {
        uint64_t t = 0;
        memcpy(&t, p + i, n - i);
        b = rotl64(b ^ (t * EM_K1), 29) * EM_K3;
    }
    return fmix64(a ^ rotl64(b, 17) ^ n);
}

uint64_t em_hash_combine(uint64_t h, uint64_t v)
{
    return fmix64(h ^ (v + EM_K1 + (h << 6) + (h >> 2)));
}
