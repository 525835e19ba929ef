/* ember algorithms: the launch schedules the counting kernels share
 * (histogram.c's count, histogram2d.c's count of pairs, and the plain
 * passes of the range and digitize). */
#include "algo/hist_internal.h"
#include "array/array_internal.h"
#include "codegen/ewise.h"

/* Host rows of private counters at most (beyond, fewer blocks). */
#define HIST_HOST_MAX_COUNTERS (1ll << 22)

int64_t em_hist_cuda_blocks(em_device *dev, int64_t n, int64_t tiles,
                            size_t shmem, int per_sm)
{
    int64_t cap = (int64_t)em_gen_device_units(dev) *
                  em_hist_blocks_per_sm(dev, shmem, per_sm),
            least = n / (1ll << 30) + 1, nb = tiles < cap ? tiles : cap;
    /* a block's 32-bit shared counters never wrap */
    return nb < least ? least : nb;
}

int64_t em_hist_host_chunks(em_device *dev, int64_t n, int64_t least,
                            int64_t *chunk)
{
    int64_t units = em_gen_device_units(dev);
    *chunk = (n + units * 4 - 1) / (units * 4);
    if (*chunk < least)
        *chunk = least;
    return (n + *chunk - 1) / *chunk;
}

em_status em_hist_host_count(em_device *dev, em_function *const fn[2],
                             void **args, int out_arg, int64_t n, int64_t nbins,
                             int64_t *chunk, em_stream *on)
{
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    void **outv = (void **)args[out_arg];
    void *out = *outv, *rp;
    int64_t units = em_gen_device_units(dev),
            nb = em_hist_host_chunks(dev, n, 65536, chunk),
            rows_max = HIST_HOST_MAX_COUNTERS / nbins, total, bchunk;
    em_array rows;
    em_status st;
    if (rows_max < 1)
        rows_max = 1;
    if (nb > rows_max) {
        nb = rows_max;
        *chunk = (n + nb - 1) / nb;
    }
    grid.x = (unsigned)nb;
    if (nb == 1)
        return em_launch(fn[0], grid, block, 0, on, args);
    total = nb * nbins;
    st = em_array_empty(dev, EM_INT64, 1, &total, 'C', on, &rows);
    if (st != EM_OK)
        return st;
    rp = rows.data;
    /* the launch takes the arguments' values: args is the caller's again
     * after it */
    args[out_arg] = &rp;
    st = em_launch(fn[0], grid, block, 0, on, args);
    args[out_arg] = outv;
    if (st == EM_OK) {
        void *margs[] = {&rp, &nb, &nbins, &bchunk, &out};
        bchunk = (nbins + units - 1) / units;
        if (bchunk < 1024)
            bchunk = 1024;
        grid.x = (unsigned)((nbins + bchunk - 1) / bchunk);
        st = em_launch(fn[1], grid, block, 0, on, margs);
    }
    em_array_release(&rows);
    return st;
}
