/* ember codegen: descriptor -> compiled reduction kernel, per device (a
 * kernel_table.h table keyed by the 16-byte descriptor, as ewise_cache.c).
 */
#include <string.h>

#include "codegen/kernel_table.h"
#include "codegen/reduce.h"

EM_GEN_KT_ONE_KERNEL(reduce, "rd", EM_GEN_REDUCE_VERSION,
                     em_gen_reduce_options(d, t, &n))
