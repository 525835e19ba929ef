/* ember codegen: histogram descriptor -> compiled kernels, per device (a
 * kernel_table.h table keyed by the 8-byte descriptor). */
#include <string.h>

#include "codegen/histogram.h"
#include "codegen/kernel_table.h"

static em_gen_ktable hist_table = EM_GEN_KTABLE(256);

static em_status load(const void *ctx, em_device *dev, em_function **fn)
{
    static const char *const host_opts[] = {"-O2"};
    /* NumPy's quantile interpolation a + diff * t rounds twice: no fused
     * multiply-add (the host has -ffp-contract=off). */
    static const char *const cuda_opts[] = {"--fmad=false"};
    static const char *const count_names[2] = {"hk", "hm"};
    const em_gen_hist *d = ctx;
    const char *name = NULL;
    int cpu = em_device_get_type(dev) == EM_DEVICE_CPU, n;
    char *src = NULL;
    em_status st;

    if (d->op == EM_GEN_HIST_MINMAX)
        name = "hx";
    else if (d->op >= EM_GEN_UNIQ_FLAGS && d->op <= EM_GEN_QUANTILE)
        name = "hu";
    else if (d->op == EM_GEN_HIST_DIGITIZE)
        name = "hd";
    if ((st = em_gen_hist_source(d, em_device_get_type(dev), &src)) != EM_OK)
        return st;
    /* Counting: "hk", and on the host "hm" adding up the blocks' rows. */
    n = name || !cpu ? 1 : 2;
    return em_gen_kt_compile(dev, src, cpu ? host_opts : cuda_opts, 1,
                             EM_GEN_HIST_VERSION, name ? &name : count_names, n,
                             fn);
}

em_status em_gen_hist_functions(em_device *dev, const em_gen_hist *d,
                                em_function *fn[2])
{
    em_gen_kkey key = {{0}, NULL};

    _Static_assert(sizeof(em_gen_hist) == sizeof(uint64_t),
                   "the descriptor is the key");
    memcpy(key.w, d, sizeof *d);
    return em_gen_kt_get(&hist_table, dev, &key, 2, fn, load, d);
}
