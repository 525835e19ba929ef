/* ember codegen: the radix sort kernels that move the keys themselves
 * (see src/algo/radix_onesweep.c for the schedule).
 *
 * They go into a key dtype's image module (sort.c) because each needs the
 * dtype's order-preserving image: the digit of a key is taken from its
 * image on the fly while the raw key bits travel. So -0.0 and 0.0 tie
 * (both image as +0.0) yet come out with their own signs, NaNs sort last
 * with their payloads, and a float sort needs no permutation and no
 * gather at the end.
 *
 * CUDA (Onesweep): srt_up builds the digit histograms of every pass in one
 * read of the keys (shared-memory counters, then global atomics) and its
 * last block turns them into each digit's first output position; then one
 * kernel per pass (srt_os0: keys only, srt_os4 / srt_os8: with 4- or
 * 8-byte values). A block takes a tile id from an atomic counter, loads
 * its 256 x items keys (em_gen_sort_os_items per thread, warp-striped so
 * loads are coalesced), counts their digits per warp and publishes the
 * tile's counts (flag A) to a status array at once; then it ranks the keys
 * by digit within each warp (ballots find a digit's lanes, steps in input
 * order: stable) straight to their places in the tile, looks back over
 * earlier tiles (a thread per digit) until it finds an inclusive prefix
 * (flag P), publishes its own, and scatters from shared memory so each
 * digit's run is written by consecutive threads.
 * With values (em_gen_sort_os_adapt), 4-byte keys sorted by all their
 * bits may take digits chosen from the data: when their top 11 bits take
 * at most 256 values (floats: the sign and a narrow exponent range),
 * srt_up's last block (os_layout) sorts by bits [0, 7), [7, 14), [14,
 * 21) and then the top 11 bits through a map of the values that occur,
 * so three passes write runs twice as long; each pass learns its digit
 * from its plan word.
 * Look-back only ever waits on tiles with smaller ids, which were handed
 * out earlier to blocks already running: no wait can hang. A status word
 * is 2 flag bits and a 30-bit count, so the schedule takes n < 2^30.
 *
 * Host: a pool thread per chunk cannot cooperate, so the host sorts by
 * the most significant digit on which keys differ first, with the
 * chunked schedule (per-chunk histogram srt_khist, the generic scan,
 * per-chunk stable scatter srt_kscat0/4/8), then each of the 256 buckets
 * by the lower digits, LSD, one thread each (srt_kbucket0/4/8).
 *
 * The kernels' code is in kernels/sort_onesweep_*.cuh; this file picks
 * their parameters and pastes them together.
 */
#include <stdio.h>
#include <stdlib.h>

#include "codegen/kernel_table.h"
#include "codegen/linalg_table.h"
#include "codegen/sort.h"
#include "core/embedded.h"
#include "ember/util.h"

/* Keys per thread (a tile is 256 threads of them) and tiles read at once
 * in the look-back; EMBER_SORT_ITEMS (keys-only passes) and
 * EMBER_SORT_WINDOW try others (em_knob_int). 24 keys a thread and a
 * window of 4 were the fastest keys-only shape on the H100; the passes
 * with values read one tile at a time (bench/README.md, 'onesweep'). */

int em_gen_sort_os_items(em_dtype dt, int vals)
{
    /* 4-byte keys with values: 29, at 2 blocks per SM (OS_MINB): a
     * pass's cost follows the length of the runs it writes (about tile /
     * 256 keys of a digit), so the tile is as long as fits: 29 is the
     * most that leaves two blocks an SM (30 would need 230 KiB). 20 for 8-byte keys (EMBER_SORT_DITEMS),
     * their tile in dynamic shared memory (OS_DYNBUF), 3 blocks per SM:
     * the fastest of 16-22 (24 spills). 12 for 8-byte keys with values,
     * so that 3 blocks' keys and staged values fit an SM. The runs behind
     * these: bench/README.md, 'onesweep'. */
    if (vals && em_dtype_size(dt) > 4)
        return 12;
    if (vals)
        return em_knob_int(EM_KNOB_SORT_VITEMS, 29);
    if (em_dtype_size(dt) > 4)
        return em_knob_int(EM_KNOB_SORT_DITEMS, 20);
    return em_knob_int(EM_KNOB_SORT_ITEMS, 24);
}

/* EMBER_SORT_ADAPT: 0 never, 1 with values only, 2 always. Values
 * only by default: the 7-bit passes pay back srt_up's extra counts when
 * they carry values, but a keys-only pass costs the same at 7 bits as at
 * 8 (bench/README.md, 'onesweep'). */
int em_gen_sort_os_adapt(int vals)
{
    const int k = em_knob_int(EM_KNOB_SORT_ADAPT, 1);
    return k == 2 || (k == 1 && vals);
}

static int window(void)
{
    return em_knob_int(EM_KNOB_SORT_WINDOW, 4);
}

/* The look-back window of the passes with values (EMBER_SORT_VWINDOW). */
static int vwindow(void)
{
    return em_knob_int(EM_KNOB_SORT_VWINDOW, 1);
}

/* Blocks per SM of the 4-byte-key passes (keys only, or at most 16 keys
 * a thread): EMBER_SORT_MINB tries others. */
static int minb0(void)
{
    return em_knob_int(EM_KNOB_SORT_MINB, 4);
}

/* The parameters of one kernel (kernels/sort_onesweep_*.cuh name them
 * in their opening comments) as #defines before its body; each is
 * undefined first because the body is pasted once per value kind. */
static void define(em_gen_buf *b, const char *macro, const char *value)
{
    em_gen_buf_printf(b, "#undef %s\n#define %s %s\n", macro, macro, value);
}

static void define_int(em_gen_buf *b, const char *macro, int value)
{
    char v[16];
    snprintf(v, sizeof v, "%d", value);
    define(b, macro, v);
}

void em_gen_sort_keys_source(em_gen_buf *b, em_dtype dt, em_device_type target)
{
    static const struct {
        const char *sfx, *vtype;
        int vals;
    } kinds[3] = {
        {"0", "unsigned char", 0}, {"4", "srt_u32", 1}, {"8", "srt_u64", 1}};
    char name[32], name2[32];
    em_gen_buf_printf(b, "%s", em_embedded_sort_onesweep_key_cuh);
    if (target == EM_DEVICE_CUDA) {
        em_gen_buf_printf(b, "#define OS_MINB0 %d\n#define OS_DYNBUF %d\n#define OS_KEEP %d\n"
                          "#define OS_ADAPT %d\n#define EM_SRT_OS_MAP_WORDS %d\n%s",
                          minb0(), em_dtype_size(dt) > 4,
                          em_dtype_get(dt)->kind_id == EM_KIND_FLOAT,
                          em_dtype_size(dt) == 4, EM_SRT_OS_MAP_WORDS,
                          em_embedded_sort_onesweep_up_cuh);
        for (int i = 0; i < 3; i++) {
            const char *const ph[] = {"OS_NAME"}, *const nm[] = {name};
            snprintf(name, sizeof name, "srt_os%s", kinds[i].sfx);
            define(b, "OS_VT", kinds[i].vtype);
            define_int(b, "OS_VALS", kinds[i].vals);
            define_int(b, "OS_ITEMS", em_gen_sort_os_items(dt, kinds[i].vals));
            define_int(b, "OS_WIN", kinds[i].vals ? vwindow() : window());
            em_gen_sort_paste(b, em_embedded_sort_onesweep_pass_cuh, 1, ph,
                              nm);
        }
    } else {
        em_gen_buf_printf(b, "%s", em_embedded_sort_onesweep_host_cuh);
        for (int i = 0; i < 3; i++) {
            const char *const ph[] = {"SRT_KSCAT", "SRT_KBUCKET"},
                              *const nm[] = {name, name2};
            snprintf(name, sizeof name, "srt_kscat%s", kinds[i].sfx);
            snprintf(name2, sizeof name2, "srt_kbucket%s", kinds[i].sfx);
            define(b, "SRT_VT", kinds[i].vtype);
            define_int(b, "SRT_VALS", kinds[i].vals);
            em_gen_sort_paste(b, em_embedded_sort_onesweep_host_kind_cuh, 2,
                              ph, nm);
        }
    }
}
