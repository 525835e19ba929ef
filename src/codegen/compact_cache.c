/* ember codegen: compaction descriptor -> compiled kernels, per device
 * (a kernel_table.h table keyed by the 16-byte descriptor). */
#include <string.h>

#include "codegen/compact.h"
#include "codegen/kernel_table.h"

static em_gen_ktable compact_table = EM_GEN_KTABLE(256);

static em_status load(const void *ctx, em_device *dev, em_function **fn)
{
    static const char *const mask_names[3] = {"cc_count", "cc_scan",
                                              "cc_write"};
    static const char *const hash_names[2] = {"ch_insert", "ch_extract"};
    static const char *const rows_name[1] = {"cc_rows"};
    static const char *const host_opts[] = {"-O2"};
    const em_gen_compact *d = ctx;
    const char *const *names = mask_names;
    int cpu = em_device_get_type(dev) == EM_DEVICE_CPU, n = 3;
    char *src = NULL;
    em_status st;

    if ((st = em_gen_compact_source(d, em_device_get_type(dev), &src)) != EM_OK)
        return st;
    if (d->kind == EM_GEN_COMPACT_ROWS) {
        names = rows_name;
        n = 1;
    } else if (d->kind == EM_GEN_COMPACT_HASH) {
        names = hash_names;
        n = 2;
    }
    return em_gen_kt_compile(dev, src, cpu ? host_opts : NULL, cpu ? 1 : 0,
                             EM_GEN_COMPACT_VERSION, names, n, fn);
}

em_status em_gen_compact_functions(em_device *dev, const em_gen_compact *d,
                                   em_function *fn[3])
{
    em_gen_kkey key = {{0}, NULL};

    _Static_assert(sizeof(em_gen_compact) == 2 * sizeof(uint64_t),
                   "the descriptor is the key");
    memcpy(key.w, d, sizeof *d);
    return em_gen_kt_get(&compact_table, dev, &key, 3, fn, load, d);
}
