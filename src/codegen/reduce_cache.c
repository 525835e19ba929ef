/* ember codegen: descriptor -> compiled reduction kernel, per device (a
 * kernel_table.h table keyed by the 16-byte descriptor, as ewise_cache.c).
 */
#include <string.h>

#include "codegen/kernel_table.h"
#include "codegen/reduce.h"

static em_gen_ktable reduce_table = EM_GEN_KTABLE(4096);

static em_status load(const void *ctx, em_device *dev, em_function **fn)
{
    static const char *const name[1] = {"rd"};
    const char *const *opts;
    char *src = NULL;
    int n_opts;
    em_status st;

    st = em_gen_reduce_source(ctx, em_device_get_type(dev), name[0], &src);
    if (st != EM_OK)
        return st;
    opts = em_gen_reduce_options(ctx, em_device_get_type(dev), &n_opts);
    return em_gen_kt_compile(dev, src, opts, n_opts, EM_GEN_REDUCE_VERSION,
                             name, 1, fn);
}

em_status em_gen_reduce_function(em_device *dev, const em_gen_reduce *d,
                                 em_function **out)
{
    em_gen_kkey key = {{0}, NULL};

    _Static_assert(sizeof(em_gen_reduce) == 2 * sizeof(uint64_t),
                   "the descriptor is the key");
    memcpy(key.w, d, sizeof *d);
    return em_gen_kt_get(&reduce_table, dev, &key, 1, out, load, d);
}
