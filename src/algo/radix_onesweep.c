/* ember algorithms: the radix sort that moves raw keys (and values) pass
 * after pass, Onesweep-style on CUDA, chunked LSD on the host; the
 * kernels are in src/codegen/sort_onesweep.c. It serves 1-D sorts of one
 * real or integer key (em_radix_sort, 1-D em_sort and em_argsort,
 * em_top_k); multi-key orders (complex numbers, rows of an axis sort)
 * keep the permutation engine in radix_sort.c.
 *
 * The floor on the H100 (2.93 TB/s, read plus write), 2^27 keys: 36 B a
 * key for 4-byte keys (81 Gkeys/s), 136 B for float64 (21.6), 100 B for
 * float32 + int64 pairs (29). A pass is bound by latency and issue, not
 * by bandwidth; the results against that floor, CuPy's and PyTorch's,
 * and ncu's per-kernel times: bench/README.md, 'onesweep'.
 * A pass whose digit all keys share is skipped (srt_up's plan words).
 */
#include <stdlib.h>
#include <string.h>

#include "algo/sort_internal.h"
#include "codegen/ewise.h"
#include "ember/util.h"

static int is_cuda(em_device *dev)
{
    return em_device_get_type(dev) == EM_DEVICE_CUDA;
}

/* EMBER_SORT_ONESWEEP=0 sends every sort to the permutation engine (to
 * compare, or as a way around a fault). Read once. */
static int enabled(void)
{
    return em_knob_int(EM_KNOB_SORT_ONESWEEP, 1);
}

int em_srt_fast_ok(em_device *dev, long long n, em_dtype dt, size_t vsize)
{
    if (!enabled() || !em_srt_key_bits(dt))
        return 0;
    if (vsize != 0 && vsize != 4 && vsize != 8)
        return 0;
    return !is_cuda(dev) || n <= EM_SRT_OS_MAX_N;
}

/* The upsweep's shared memory for an image of ib bytes, and *lg: 2^lg
 * counters per digit, as many as fit in 128 KiB (192 KiB with the
 * data-chosen layout's counts: bytes 0-2 and two 7-bit digits at 2^lg
 * counters, the top 11 bits at 2^(lg - 2)) and in what one block may
 * have on this device (32 on Hopper and Ampere). */
static size_t up_bytes(size_t ib, int adapt, int lg)
{
    const int lt = lg > 2 ? lg - 2 : 0;
    return adapt ? ((size_t)(3 * 256 + 256) * 4 << lg) + ((size_t)2048 * 4 << lt)
                 : ib * 256 * 4 << lg;
}

static size_t up_shared(em_device *dev, size_t ib, int adapt, int *lg)
{
    const size_t have = (size_t)em_gen_device_shared(dev, 1),
                 cap = (adapt ? 192 : 128) * 1024;
    size_t bytes;
    *lg = 5;
    while (*lg > 0 &&
           ((bytes = up_bytes(ib, adapt, *lg)) > cap || bytes > have))
        (*lg)--;
    return up_bytes(ib, adapt, *lg);
}

/* The mask of the last of npass byte digits over bits [begin, end): the
 * kernels take every other digit (and, on CUDA, its shift) from the
 * plan or the pass number. */
static unsigned last_mask(int npass, int begin, int end)
{
    const int bits = end - begin - 8 * (npass - 1);
    return bits >= 8 ? 0xffu : (1u << bits) - 1u;
}

static em_status onesweep(em_device *dev, long long n, em_dtype dt,
                          const void *keys, int desc, int begin, int end,
                          const void *vals, size_t vsize, void *kout,
                          void *vout, void *ktmp, void *vtmp, int npass,
                          em_stream *s)
{
    const long long tile = 256ll * em_gen_sort_os_items(dt, vsize != 0);
    const long long ntiles = (n + tile - 1) / tile;
    /* srt_up may choose the digits from the data (sort_onesweep.c:
     * os_layout) for 4-byte keys sorted by all their bits. */
    int adapt = em_dtype_size(dt) == 4 && npass == 4 && begin == 0 &&
                      end == 32 && em_gen_sort_os_adapt(vsize != 0);
    const size_t hist_words =
                     (size_t)npass * 256 + (adapt ? EM_SRT_OS_ADAPT_WORDS : 0),
                 ctr_words = 64;
    const size_t status_words = (size_t)ntiles * 256;
    /* Two status arrays taking turns: the k-th pass that runs reads
     * array k % 2 and zeroes array (k + 1) % 2 for the next, so only the
     * first is cleared here (clearing one before every pass cost more;
     * bench/README.md, 'onesweep'). */
    const int nstat = npass > 1 ? 2 : 1;
    const size_t aux_bytes = (hist_words + ctr_words + status_words * nstat) * 4,
                 clear_bytes = (hist_words + ctr_words + status_words) * 4;
    em_gen_sort_fn pfn = vsize == 0   ? EM_SRT_OS0
                         : vsize == 4 ? EM_SRT_OS4
                                      : EM_SRT_OS8;
    /* the tile's keys in order, then with values the values staged in
     * input order and each place's input index */
    const size_t vshared =
        (size_t)tile * ((em_dtype_size(dt) > 4 ? em_dtype_size(dt) : 0) +
                        (vsize ? vsize + 2 : 0));
    em_function *fup, *fpass;
    unsigned *aux = NULL, *plan, *cmap, lastmask;
    em_status st;

    if ((st = em_gen_sort_function(dev, EM_SRT_UP, dt, &fup)) != EM_OK ||
        (st = em_gen_sort_function(dev, pfn, dt, &fpass)) != EM_OK)
        return st;
    /* One block: the histograms, a tile counter per pass and the status
     * arrays; zeroed but for the second status array. */
    st = em_malloc(dev, aux_bytes, s, (void **)&aux);
    if (st == EM_OK)
        st = em_memset_async(dev, aux, 0, clear_bytes, s);
    if (st != EM_OK)
        goto done;
    /* the passes' plan words, among the counters (which take npass + 1) */
    plan = aux + hist_words + 32;
    /* the passes load a map even when none was made: then any
     * EM_SRT_OS_MAP_WORDS words of aux (it holds at least 576) */
    cmap = adapt ? aux + hist_words - EM_SRT_OS_MAP_WORDS : aux;
    lastmask = last_mask(npass, begin, end);
    {
        int lg;
        const size_t shm =
            up_shared(dev, em_dtype_size(dt) > 4 ? 8 : 4, adapt, &lg);
        int tilesz = (int)tile;
        const long long most = (n + 8191) / 8192,
                        units = em_gen_device_units(dev);
        /* the upsweep's count of finished blocks: the last word of the
         * counters */
        unsigned *fin = aux + hist_words + ctr_words - 1;
        em_dim3 grid = {(unsigned)(units < most ? units : most), 1, 1};
        em_dim3 up = {1024, 1, 1};
        void *args[12] = {&keys, &n,   &begin, &npass, &lastmask, &desc,
                          &lg,   &aux, &fin,   &plan,  &adapt,    &tilesz};
        if ((st = em_launch(fup, grid, up, shm, s, args)) != EM_OK)
            goto done;
    }
    /* Each pass reads its plan word (from srt_up's last block) for its
     * digit and buffers, or to skip: which passes run is known only on
     * the device, so every pass is launched. */
    for (int p = 0; p < npass && st == EM_OK; p++) {
        const unsigned *offs = aux + (size_t)p * 256, *pw = plan + p;
        unsigned *ctr = aux + hist_words + p;
        unsigned *s0 = aux + hist_words + ctr_words;
        unsigned *s1 = nstat > 1 ? s0 + status_words : NULL;
        em_dim3 grid = {(unsigned)ntiles, 1, 1}, block = {256, 1, 1};
        void *args[14] = {&keys, &kout, &ktmp, &vals, &vout, &vtmp, &n,
                          &desc, &offs, &s0,   &s1,   &ctr,  &pw,   &cmap};
        st = em_launch(fpass, grid, block, vshared, s, args);
    }
done:
    if (aux)
        em_free(dev, aux, s);
    return st;
}

static em_status chunked(em_device *dev, long long n, em_dtype dt,
                         const void *keys, int desc, int begin, int end,
                         const void *vals, size_t vsize, void *kout, void *vout,
                         void *ktmp, void *vtmp, int npass, em_stream *s)
{
    /* Up to 256 chunks of at least 8,192 keys: a few per pool thread. */
    long long chunk = (n + 255) / 256, nchunks;
    const int k = vsize == 0 ? 0 : vsize == 4 ? 1 : 2;
    em_function *fh, *ft, *fs, *fb = NULL;
    char *aux = NULL;
    long long *counts;
    void *vary, *top;
    /* The top digit's pass lands in kout when it is the only one, else in
     * ktmp for the buckets to finish into kout. */
    void *kdst = npass > 1 ? ktmp : kout, *vdst = npass > 1 ? vtmp : vout;
    const void *none = NULL;
    unsigned lastmask;
    int me = npass - 1;
    em_status st;

    if (chunk < 8192)
        chunk = 8192;
    nchunks = (n + chunk - 1) / chunk;
    if ((st = em_gen_sort_function(dev, EM_SRT_KHIST, dt, &fh)) != EM_OK ||
        (st = em_gen_sort_function(dev, EM_SRT_KTOP, dt, &ft)) != EM_OK ||
        (st = em_gen_sort_function(dev, (em_gen_sort_fn)(EM_SRT_KSCAT0 + k), dt,
                                   &fs)) != EM_OK ||
        (npass > 1 &&
         (st = em_gen_sort_function(dev, (em_gen_sort_fn)(EM_SRT_KBUCKET0 + k),
                                    dt, &fb)) != EM_OK))
        return st;
    /* counts, then each chunk's OR and AND of images, then the top pass */
    if ((st = em_malloc(dev, em_srt_counts_bytes(nchunks) + nchunks * 16 + 16,
                        s, (void **)&aux)) != EM_OK)
        return st;
    counts = (long long *)aux;
    vary = aux + em_srt_counts_bytes(nchunks);
    top = aux + em_srt_counts_bytes(nchunks) + nchunks * 16;
    lastmask = last_mask(npass, begin, end);
    {
        em_dim3 grid = {(unsigned)nchunks, 1, 1}, block = {1, 1, 1};
        em_dim3 one = {1, 1, 1}, buckets = {256, 1, 1};
        void *hargs[11] = {&keys, &n,      &chunk, &begin, &npass, &lastmask,
                           &desc, &counts, &vary,  &none,  &me};
        void *targs[6] = {&vary, &nchunks, &begin, &npass, &lastmask, &top};
        void *sargs[12] = {&keys,  &kdst,  &vals,     &vdst, &n,      &chunk,
                           &begin, &npass, &lastmask, &desc, &counts, &top};
        void *bargs[9] = {&ktmp,   &kout,  &vtmp, &vout, &n,
                          &counts, &begin, &top,  &desc};
        st = em_launch(fh, grid, block, 0, s, hargs);
        if (st == EM_OK)
            st = em_launch(ft, one, block, 0, s, targs);
        /* The lower passes' counts, each kept only if it is the top. */
        hargs[8] = &none;
        hargs[9] = &top;
        for (me = npass - 2; me >= 0 && st == EM_OK; me--)
            st = em_launch(fh, grid, block, 0, s, hargs);
        if (st == EM_OK)
            st = em_srt_scan_counts(dev, counts, nchunks, s);
        if (st == EM_OK)
            st = em_launch(fs, grid, block, 0, s, sargs);
        if (st == EM_OK && fb)
            st = em_launch(fb, buckets, block, 0, s, bargs);
    }
    em_free(dev, aux, s);
    return st;
}

em_status em_srt_fast(em_device *dev, long long n, em_dtype dt,
                      const void *keys, int desc, int begin, int end,
                      const void *vals, size_t vsize, void *kout, void *vout,
                      em_stream *s)
{
    const size_t ks = em_dtype_size(dt);
    /* begin == end still makes one pass (mask 0): a stable copy, which
     * also writes argsort's positions. */
    const int npass = end > begin ? (end - begin + 7) / 8 : 1;
    void *ktmp = NULL, *vtmp = NULL;
    em_status st = EM_OK;

    if (n <= 0)
        return EM_OK;
    if (end <= begin)
        begin = end = 0;
    if (npass > 1) {
        st = em_malloc(dev, (size_t)n * ks, s, &ktmp);
        if (st == EM_OK && vsize)
            st = em_malloc(dev, (size_t)n * vsize, s, &vtmp);
    }
    if (st == EM_OK)
        st = (is_cuda(dev) ? onesweep : chunked)(dev, n, dt, keys, desc != 0,
                                                 begin, end, vals, vsize, kout,
                                                 vout, ktmp, vtmp, npass, s);
    if (ktmp)
        em_free(dev, ktmp, s);
    if (vtmp)
        em_free(dev, vtmp, s);
    return st;
}
