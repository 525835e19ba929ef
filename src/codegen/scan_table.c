/* ember codegen: the per-device kernel table of the scan family.
 *
 * A kernel_table.h table keyed by the descriptor word and, for a user's
 * expression, its hash and its text (compared in full on a hit: a hash
 * collision must never run another user's operator).
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/kernel_table.h"
#include "codegen/scan.h"
#include "ember/util.h"

static em_gen_ktable scan_table = EM_GEN_KTABLE(1024);

typedef struct scan_miss {
    uint64_t word;
    const char *expr;
    em_gen_scan_src_fn gen;
    const char *name;
    const char *const *names;
    int n;
} scan_miss;

static em_status load(const void *ctx, em_device *dev, em_function **fn)
{
    /* -fwrapv: a user's signed arithmetic wraps, as it does on the GPU.
     * -fmad=false: "a * b + 1.0" rounds twice, as NumPy and the host
     * (-ffp-contract=off) do, instead of becoming one fused multiply-add. */
    static const char *const host_opts[] = {"-O3", "-fwrapv"};
    static const char *const cuda_opts[] = {"--fmad=false"};
    const scan_miss *c = ctx;
    char *src = NULL;
    int cpu = em_device_get_type(dev) == EM_DEVICE_CPU;
    em_status st;

    st = c->gen(c->word, c->expr, em_device_get_type(dev), c->name, &src);
    if (st != EM_OK)
        return st;
    st = em_gen_kt_compile(dev, src, cpu ? host_opts : cuda_opts, cpu ? 2 : 1,
                           EM_GEN_SCAN_VERSION, c->names, c->n, fn);
    if (st == EM_ERR_COMPILE && c->expr) {
        /* Copied first: em_error may reuse the message buffer. */
        char *log = strdup(em_last_error());
        st = em_error(EM_ERR_COMPILE,
                      "the operator expression '%s' does not compile: %s",
                      c->expr, log ? log : "(out of memory)");
        free(log);
    }
    return st;
}

em_status em_gen_scan_table_get(em_device *dev, uint64_t word, const char *expr,
                                em_gen_scan_src_fn gen, const char *name,
                                const char *const *names, int n,
                                em_function **fns)
{
    em_gen_kkey key = {{word, expr ? em_hash64(expr, strlen(expr), 0x5ca9) : 0},
                       expr};
    scan_miss c = {word, expr, gen, name, names, n};
    return em_gen_kt_get(&scan_table, dev, &key, n, fns, load, &c);
}
