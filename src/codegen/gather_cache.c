/* ember codegen: gather descriptor -> compiled kernels, per device (a
 * kernel_table.h table keyed by the 32-byte descriptor). */
#include <string.h>

#include "codegen/gather.h"
#include "codegen/kernel_table.h"

static em_gen_ktable gather_table = EM_GEN_KTABLE(1024);

static em_status load(const void *ctx, em_device *dev, em_function **fn)
{
    static const char *const compact_names[3] = {"gc_count", "gc_scan",
                                                 "gc_write"};
    static const char *const host_opts[] = {"-O2"};
    const em_gen_gather *d = ctx;
    const char *name = d->op == EM_GEN_COMPACT ? "gc"
                       : d->op == EM_GEN_WHERE ? "gw"
                                               : "gg";
    int cpu = em_device_get_type(dev) == EM_DEVICE_CPU;
    char *src = NULL;
    em_status st;

    st = em_gen_gather_source(d, em_device_get_type(dev), name, &src);
    if (st != EM_OK)
        return st;
    return em_gen_kt_compile(dev, src, cpu ? host_opts : NULL, cpu ? 1 : 0,
                             EM_GEN_GATHER_VERSION,
                             d->op == EM_GEN_COMPACT ? compact_names : &name,
                             d->op == EM_GEN_COMPACT ? 3 : 1, fn);
}

em_status em_gen_gather_functions(em_device *dev, const em_gen_gather *d,
                                  em_function *fn[3])
{
    em_gen_kkey key = {{0}, NULL};

    _Static_assert(sizeof(em_gen_gather) == sizeof key.w,
                   "the descriptor is the key");
    memcpy(key.w, d, sizeof *d);
    return em_gen_kt_get(&gather_table, dev, &key, 3, fn, load, d);
}
