/* ember algorithms: LSD radix sort (em_radix_sort) and the engine under
 * every radix order here (em_srt_order).
 *
 * Schedule, the same on both targets: keys become unsigned images that
 * order as NumPy does (srt_image); each 8-bit digit is one pass of three
 * kernels: a per-chunk histogram of the digit, a scan of the
 * (digit, chunk) counts into output positions, and a per-chunk scatter
 * that walks its chunk in order, so the pass (and the sort) is stable
 * without any block waiting on another. The permutation travels with the
 * images; keys and values are gathered through it once at the end (so
 * -0.0 and NaN payloads come out exactly as they went in). Multi-key
 * orders (complex numbers, rows of an axis sort) are more passes with
 * the next key's image gathered through the permutation so far.
 *
 * 1-D sorts of one key go to radix_onesweep.c instead (raw keys moved,
 * Onesweep on CUDA); this engine serves multi-key orders, values of
 * other sizes, and CUDA sorts of 2^30 keys or more.
 */
#include <stdlib.h>
#include <string.h>

#include "algo/sort_internal.h"
#include "ember/util.h"

int em_srt_key_bits(em_dtype d)
{
    switch (d) {
    case EM_BOOL:
    case EM_INT8:
    case EM_UINT8:
        return 8;
    case EM_INT16:
    case EM_UINT16:
    case EM_FLOAT16:
    case EM_BFLOAT16:
        return 16;
    case EM_INT32:
    case EM_UINT32:
    case EM_FLOAT32:
        return 32;
    case EM_INT64:
    case EM_UINT64:
    case EM_FLOAT64:
        return 64;
    default:
        return 0;
    }
}

static int is_cuda(em_device *dev)
{
    return em_device_get_type(dev) == EM_DEVICE_CUDA;
}

em_status em_srt_launch_n(em_function *f, em_device *dev, long long n,
                          void **args, em_stream *s)
{
    /* The host: single-thread blocks of contiguous ranges of at least
     * 8192 items (see SRT_FOR), enough of them to share out. */
    const int cuda = is_cuda(dev);
    em_dim3 grid = {1, 1, 1}, block = {cuda ? 256u : 1u, 1, 1};
    long long blocks = cuda ? (n + 255) / 256 : (n + 8191) / 8192,
              cap = cuda ? 65536 : 128;
    if (n <= 0)
        return EM_OK;
    grid.x = (unsigned)(blocks < cap ? blocks : cap);
    return em_launch(f, grid, block, 0, s, args);
}

em_status em_srt_gather(em_device *dev, const void *src, const long long *perm,
                        void *dst, long long n, size_t itemsize, em_stream *s)
{
    em_gen_sort_fn fn;
    em_function *f;
    void *args[4];
    em_status st;
    switch (itemsize) {
    case 1:
        fn = EM_SRT_GATHER1;
        break;
    case 2:
        fn = EM_SRT_GATHER2;
        break;
    case 4:
        fn = EM_SRT_GATHER4;
        break;
    case 8:
        fn = EM_SRT_GATHER8;
        break;
    case 16:
        fn = EM_SRT_GATHER16;
        break;
    default:
        return em_error(EM_ERR_NOT_SUPPORTED,
                        "sort: cannot move items of %zu bytes", itemsize);
    }
    if ((st = em_gen_sort_function(dev, fn, EM_BOOL, &f)) != EM_OK)
        return st;
    args[0] = &src;
    args[1] = &perm;
    args[2] = &dst;
    args[3] = &n;
    return em_srt_launch_n(f, dev, n, args, s);
}

em_status em_srt_contiguous(const em_array *a, em_stream *s, em_array *out)
{
    em_status st;
    if ((a->flags & EM_ARRAY_C_CONTIGUOUS) && (a->flags & EM_ARRAY_ALIGNED)) {
        em_array_retain(a, out);
        return EM_OK;
    }
    st = em_array_empty(a->device, a->dtype, a->ndim, a->shape, 'C', s, out);
    if (st == EM_OK && (st = em_array_copy(out, a, s)) != EM_OK)
        em_array_release(out);
    return st;
}

/* CUDA runs a warp per chunk unless EMBER_SORT_SIMPLE=1 asks for the
 * thread-per-chunk kernels the host runs (a fallback while the warp
 * kernels are new). Read once. */
static int warp_mode(em_device *dev)
{
    return is_cuda(dev) && !em_knob_int(EM_KNOB_SORT_SIMPLE, 0);
}

size_t em_srt_counts_bytes(long long nchunks)
{
    return (size_t)(nchunks + (nchunks + 63) / 64) * EM_SRT_RADIX * 8;
}

em_status em_srt_scan_counts(em_device *dev, long long *counts,
                             long long nchunks, em_stream *s)
{
    long long ngroups = (nchunks + 63) / 64, *part = counts + nchunks * 256;
    em_dim3 ggrid = {(unsigned)ngroups, 1, 1}, gblock = {256, 1, 1};
    em_dim3 one = {1, 1, 1}, sb = {is_cuda(dev) ? 256u : 1u, 1, 1};
    void *gargs[3] = {&counts, &nchunks, &part};
    void *sargs[2] = {&part, &ngroups};
    em_function *fc, *fg, *fa;
    em_status st;
    if ((st = em_gen_sort_function(dev, EM_SRT_SCAN, EM_BOOL, &fc)) != EM_OK ||
        (st = em_gen_sort_function(dev, EM_SRT_GSUM, EM_BOOL, &fg)) != EM_OK ||
        (st = em_gen_sort_function(dev, EM_SRT_GAPPLY, EM_BOOL, &fa)) != EM_OK)
        return st;
    if ((st = em_launch(fg, ggrid, gblock, 0, s, gargs)) != EM_OK ||
        (st = em_launch(fc, one, sb, 0, s, sargs)) != EM_OK)
        return st;
    return em_launch(fa, ggrid, gblock, 0, s, gargs);
}

/* One digit pass: u/p -> u2/p2 by bits [shift, shift + nbits) of the
 * image (rowlen 0) or of the row index. counts holds nchunks * 256
 * counts and then the groups' sums. */
static em_status pass(em_device *dev, int wide, const void *u,
                      const long long *p, void *u2, long long *p2, long long n,
                      long long chunk, long long nchunks, int shift, int nbits,
                      long long rowlen, long long *counts, em_stream *s)
{
    const int warps = warp_mode(dev);
    em_function *fh, *fs;
    unsigned mask = (1u << nbits) - 1u;
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    void *args[11];
    em_status st;
    em_gen_sort_fn hist = warps ? (wide ? EM_SRT_WHIST64 : EM_SRT_WHIST32)
                                : (wide ? EM_SRT_HIST64 : EM_SRT_HIST32);
    em_gen_sort_fn scat = warps ? (wide ? EM_SRT_WSCATTER64 : EM_SRT_WSCATTER32)
                                : (wide ? EM_SRT_SCATTER64 : EM_SRT_SCATTER32);
    if ((st = em_gen_sort_function(dev, hist, EM_BOOL, &fh)) != EM_OK ||
        (st = em_gen_sort_function(dev, scat, EM_BOOL, &fs)) != EM_OK)
        return st;
    /* Warp mode: 8 chunks (warps) to a block of 256. Otherwise a thread
     * per chunk: 64 to a block on CUDA, a block each on the host (whose
     * pool runs blocks in parallel). */
    if (warps) {
        block.x = 256;
        grid.x = (unsigned)((nchunks + 7) / 8);
    } else if (is_cuda(dev)) {
        block.x = 64;
        grid.x = (unsigned)((nchunks + 63) / 64);
    } else {
        grid.x = (unsigned)nchunks;
    }
    args[0] = &u;
    args[1] = &p;
    args[2] = &n;
    args[3] = &chunk;
    args[4] = &nchunks;
    args[5] = &shift;
    args[6] = &mask;
    args[7] = &rowlen;
    args[8] = &counts;
    if ((st = em_launch(fh, grid, block, 0, s, args)) != EM_OK ||
        (st = em_srt_scan_counts(dev, counts, nchunks, s)) != EM_OK)
        return st;
    args[0] = &u;
    args[1] = &p;
    args[2] = &u2;
    args[3] = &p2;
    args[4] = &n;
    args[5] = &chunk;
    args[6] = &nchunks;
    args[7] = &shift;
    args[8] = &mask;
    args[9] = &rowlen;
    args[10] = &counts;
    return em_launch(fs, grid, block, 0, s, args);
}

/* perm NULL: keys-only (one integer or bool key, no rows): the sorted
 * keys are written to keys_out instead. */
static em_status order(em_device *dev, long long n, long long rowlen,
                       const em_srt_key *keys, int nkeys, em_stream *s,
                       long long **perm, void *keys_out)
{
    /* CUDA: up to 8192 chunks (warps, or threads) of at least 2048 (or
     * 256) keys, a multiple of 32 so warps read whole lines; host: up to
     * 256 chunks of at least 1024 (a few per pool thread; more than one
     * group of the count scan for large arrays, as on CUDA). */
    const int cuda = is_cuda(dev), warps = warp_mode(dev);
    long long target = cuda ? 8192 : 256, minc = warps  ? 2048
                                                 : cuda ? 256
                                                        : 1024;
    long long chunk = (n + target - 1) / target, nchunks;
    void *buf[5] = {0};
    char *u, *u2;
    long long *p, *p2;
    int have_perm = 0, wide = 0;
    em_status st = EM_OK;

    if (perm)
        *perm = NULL;
    if (chunk < minc)
        chunk = minc;
    chunk = (chunk + 31) / 32 * 32;
    nchunks = (n + chunk - 1) / chunk;
    for (int i = perm ? 0 : 2; i < 4 && st == EM_OK; i++)
        st = em_malloc(dev, (size_t)n * 8, s, &buf[i]);
    if (st == EM_OK)
        st = em_malloc(dev, em_srt_counts_bytes(nchunks), s, &buf[4]);
    if (st != EM_OK)
        goto fail;
    p = buf[0];
    p2 = buf[1];
    u = buf[2];
    u2 = buf[3];
    for (int k = 0; k < nkeys && st == EM_OK; k++) {
        const em_srt_key *key = &keys[k];
        em_function *f;
        const long long *pin = have_perm && perm ? p : NULL;
        long long *pout = have_perm || !perm ? NULL : p;
        const char *kp = key->keys;
        long long stride = key->stride;
        int desc = key->desc;
        void *args[7];
        if (key->group) {
            st = em_gen_sort_function(dev, EM_SRT_GROUP, key->dtype, &f);
            args[0] = &kp;
            args[1] = &pin;
            args[2] = &u;
            args[3] = &pout;
            args[4] = &n;
            wide = 0;
        } else {
            st = em_gen_sort_function(dev, EM_SRT_IMAGE, key->dtype, &f);
            args[0] = &kp;
            args[1] = &stride;
            args[2] = &pin;
            args[3] = &u;
            args[4] = &pout;
            args[5] = &n;
            args[6] = &desc;
            wide = em_dtype_size(key->dtype) >= 8 && key->dtype != EM_COMPLEX64;
        }
        if (st == EM_OK)
            st = em_srt_launch_n(f, dev, n, args, s);
        have_perm = 1;
        for (int sh = key->begin; sh < key->end && st == EM_OK;
             sh += EM_SRT_BITS) {
            int nb = key->end - sh < EM_SRT_BITS ? key->end - sh : EM_SRT_BITS;
            char *tu;
            long long *tp;
            st = pass(dev, wide, u, p, u2, p2, n, chunk, nchunks, sh, nb, 0,
                      buf[4], s);
            tu = u, u = u2, u2 = tu;
            tp = p, p = p2, p2 = tp;
        }
    }
    if (st == EM_OK && rowlen > 0 && n > rowlen) {
        long long last = (n - 1) / rowlen;
        int bits = 0;
        while (bits < 63 && (last >> bits))
            bits++;
        for (int sh = 0; sh < bits && st == EM_OK; sh += EM_SRT_BITS) {
            int nb = bits - sh < EM_SRT_BITS ? bits - sh : EM_SRT_BITS;
            char *tu;
            long long *tp;
            st = pass(dev, wide, u, p, u2, p2, n, chunk, nchunks, sh, nb,
                      rowlen, buf[4], s);
            tu = u, u = u2, u2 = tu;
            tp = p, p = p2, p2 = tp;
        }
    }
    if (st == EM_OK && !perm) {
        em_function *f;
        int desc = keys[0].desc;
        void *args[4] = {&u, &keys_out, &n, &desc};
        st = em_gen_sort_function(dev, EM_SRT_UNIMAGE, keys[0].dtype, &f);
        if (st == EM_OK)
            st = em_srt_launch_n(f, dev, n, args, s);
    }
    if (st != EM_OK)
        goto fail;
    if (p2)
        em_free(dev, p2, s);
    em_free(dev, u, s);
    em_free(dev, u2, s);
    em_free(dev, buf[4], s);
    if (perm)
        *perm = p;
    return EM_OK;
fail:
    for (int i = 0; i < 5; i++)
        if (buf[i])
            em_free(dev, buf[i], s);
    return st;
}

em_status em_srt_order(em_device *dev, long long n, long long rowlen,
                       const em_srt_key *keys, int nkeys, em_stream *s,
                       long long **perm)
{
    return order(dev, n, rowlen, keys, nkeys, s, perm, NULL);
}

em_status em_srt_sort_keys(em_device *dev, long long n, const em_srt_key *key,
                           void *keys_out, em_stream *s)
{
    return order(dev, n, 0, key, 1, s, NULL, keys_out);
}

static em_status check_1d(const em_array *a, const char *fn, const char *what)
{
    em_status st = em_arr_check(a, fn);
    if (st != EM_OK)
        return st;
    if (a->ndim != 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: %s must be 1-D, got %d dimensions", fn, what,
                        a->ndim);
    return EM_OK;
}

em_status em_radix_sort(const em_array *keys, const em_array *values,
                        int descending, int begin_bit, int end_bit,
                        em_array *out_keys, em_array *out_values, em_stream *s)
{
    const char *fn = "radix_sort";
    em_array kc = {0}, vc = {0};
    em_srt_key key;
    long long *perm = NULL;
    em_stream *on = NULL;
    int width;
    em_status st;

    if ((st = em_srt_outs_begin(fn, keys, values, out_keys, out_values)) !=
        EM_OK)
        return st;
    if ((st = check_1d(keys, fn, "keys")) != EM_OK)
        return st;
    if (!(width = em_srt_key_bits(keys->dtype)))
        return em_error(EM_ERR_TYPE,
                        "%s: unsupported key dtype %s (radix sort orders "
                        "bool, integers and real floats; use sort or "
                        "merge_sort for complex numbers)",
                        fn, em_dtype_get(keys->dtype)->name);
    if (values) {
        if ((st = check_1d(values, fn, "values")) != EM_OK)
            return st;
        if (values->shape[0] != keys->shape[0])
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: keys have length %lld but values have "
                            "length %lld",
                            fn, (long long)keys->shape[0],
                            (long long)values->shape[0]);
        if (values->device != keys->device)
            return em_error(
                EM_ERR_INVALID_VALUE, "%s: keys are on %s and values on %s", fn,
                em_device_name(keys->device), em_device_name(values->device));
    }
    if (end_bit < 0)
        end_bit = width;
    if (begin_bit < 0 || begin_bit > end_bit || end_bit > width)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: bits [%d, %d) are not within the %d bits of "
                        "%s keys",
                        fn, begin_bit, end_bit, width,
                        em_dtype_get(keys->dtype)->name);
    if (!(on = em_arr_stream(keys->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    if ((st = em_srt_contiguous(keys, on, &kc)) != EM_OK)
        return st;
    if (values && (st = em_srt_contiguous(values, on, &vc)) != EM_OK)
        goto done;
    if ((st = em_array_empty(keys->device, keys->dtype, 1, keys->shape, 'C', on,
                             out_keys)) != EM_OK)
        goto done;
    if (values &&
        (st = em_array_empty(values->device, values->dtype, 1, values->shape,
                             'C', on, out_values)) != EM_OK)
        goto done;
    if (!kc.size)
        goto done;
    key.dtype = keys->dtype;
    key.keys = kc.data;
    key.stride = (long long)em_dtype_size(keys->dtype);
    key.group = 0;
    key.desc = descending != 0;
    key.begin = begin_bit;
    key.end = end_bit;
    if (em_srt_fast_ok(keys->device, kc.size, keys->dtype,
                       values ? em_dtype_size(values->dtype) : 0)) {
        st = em_srt_fast(keys->device, kc.size, keys->dtype, kc.data, key.desc,
                         begin_bit, end_bit, values ? vc.data : NULL,
                         values ? em_dtype_size(values->dtype) : 0,
                         out_keys->data, values ? out_values->data : NULL, on);
        goto done;
    }
    if (!values && em_srt_keys_only(keys->dtype)) {
        st = em_srt_sort_keys(keys->device, kc.size, &key, out_keys->data, on);
        goto done;
    }
    if ((st = em_srt_order(keys->device, kc.size, 0, &key, 1, on, &perm)) !=
        EM_OK)
        goto done;
    st = em_srt_gather(keys->device, kc.data, perm, out_keys->data, kc.size,
                       em_dtype_size(kc.dtype), on);
    if (st == EM_OK && values)
        st = em_srt_gather(keys->device, vc.data, perm, out_values->data,
                           kc.size, em_dtype_size(vc.dtype), on);
    em_free(keys->device, perm, on);
done:
    em_array_release(&kc);
    em_array_release(&vc);
    return em_srt_outs_end(st, out_keys, out_values);
}
