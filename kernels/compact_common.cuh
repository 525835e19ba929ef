/* ember: what every compaction and hash-set kernel shares. The generator
 * (src/codegen/compact.c) pastes this after the parameters it defines:
 *   CC_CUDA         1 for the cuda backend, 0 for the host
 *   CC_KIND         the kind, numbered as em_gen_compact_kind in
 *                   src/codegen/compact.h (CC_ELEM ... below; 4 rows,
 *                   5 the hash set)
 *   CC_WORD         the unsigned word of the element size, which the
 *                   elements move as, so one kernel serves every dtype of
 *                   that size (hash set: the key)
 *   CC_VEC, CC_TILE flags a cuda thread owns, and a block's tile
 *   CC_VLOADS       16-byte loads of a thread's elements (cuda, ELEM/PART)
 *   CC_ESIZE        the element (hash set: key) size in bytes
 *   CC_RANK         COORDS: the mask's rank (at least 1 for the others)
 *   CC_BLOCK, CC_WARPS, CC_COUNT_TILES, CC_HOST_TILE, CH_MAX_PROBE and
 *   CH_COUNTS       as EM_GEN_COMPACT_* and EM_GEN_HASH_MAX_PROBE say
 *                   (CH_COUNTS: the hash set counts each key). */
#define CC_ELEM 0
#define CC_PART 1
#define CC_INDEX 2
#define CC_COORDS 3
/* What a tile stages and writes: the element word, or an int64 index;
 * CC_X is what the data input holds (none for the index kinds). */
#if CC_KIND == CC_ELEM || CC_KIND == CC_PART
#define CC_DATA 1
#define CC_X CC_WORD
#define CC_STAGE CC_WORD
#else
#define CC_DATA 0
#define CC_X void
#define CC_STAGE long long
#endif
/* A partition reads every element, a selection only where flags are set. */
#if CC_KIND == CC_PART
#define CC_READ_ALL 1
#else
#define CC_READ_ALL 0
#endif
typedef struct __align__(16) cc_e16 { unsigned long long lo, hi; } cc_e16;
#if CC_CUDA
/* Nonzero bytes of a word: bit 7 of each byte set iff the byte is
 * nonzero (no carry crosses a byte), gathered into the low 4 bits. */
__device__ __forceinline__ unsigned cc_nz4(unsigned w)
{
    const unsigned f = (((w & 0x7f7f7f7fu) + 0x7f7f7f7fu) | w) & 0x80808080u;
    return ((f >> 7) * 0x204081u) >> 21 & 0xfu;
}
#endif
#if CC_KIND == CC_COORDS && CC_RANK > 1
/* The coordinates of flat index r, written at column `at` of the
 * (CC_RANK, total) output; `narrow` says whether r fits 32 bits, where a
 * 32-bit division costs several times less than a 64-bit one. */
__device__ __forceinline__ void cc_coords(long long *out, long long total, long long at, long long r, int narrow, const long long *s)
{
    if (narrow) {
        unsigned q = (unsigned)r;
#if CC_CUDA
#pragma unroll
#endif
        for (int dim = CC_RANK - 1; dim > 0; dim--) {
            out[dim * total + at] = q % (unsigned)s[dim];
            q /= (unsigned)s[dim];
        }
        out[at] = q;
    } else {
#if CC_CUDA
#pragma unroll
#endif
        for (int dim = CC_RANK - 1; dim > 0; dim--) {
            out[dim * total + at] = r % s[dim];
            r /= s[dim];
        }
        out[at] = r;
    }
}
#endif
