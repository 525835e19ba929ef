/* ember core: the table of ember's environment variables. Each variable is
 * named once, here, with what it does; docs/knobs.md lists the same table
 * (tests/python/test_info.py checks the two agree). */
#include <stdlib.h>
#include "ember/util.h"

typedef struct knob {
    const char *name, *meaning;
    int lo, hi; /* a tuning knob's range; lo > hi for the others */
} knob;

static const knob knobs[EM_KNOB_COUNT] = {
    [EM_KNOB_DEVICE] = {"EMBER_DEVICE", "the default device: cpu or cuda:N", 1, 0},
    [EM_KNOB_CACHE_DIR] = {"EMBER_CACHE_DIR", "the disk cache of compiled kernels "
                           "(default $XDG_CACHE_HOME/ember or ~/.cache/ember)", 1, 0},
    [EM_KNOB_NUM_THREADS] = {"EMBER_NUM_THREADS", "threads of the cpu device's pool "
                             "(default: the CPUs this process may use)", 1, 0},
    [EM_KNOB_CC] = {"EMBER_CC", "the C compiler and flags of the cpu device's "
                    "kernels (default cc)", 1, 0},
    [EM_KNOB_CXX] = {"EMBER_CXX", "the C++ compiler of the cpu device's C++ kernels "
                     "(default c++)", 1, 0},
    [EM_KNOB_NVRTC_PATH] = {"EMBER_NVRTC_PATH", "the NVRTC library to load, "
                            "before the usual places", 1, 0},
    [EM_KNOB_CUDA_LIBS] = {"EMBER_CUDA_LIBS", "folders (':' between) searched "
                           "first for cuBLAS, cuFFT, cuSOLVER and the other CUDA "
                           "libraries", 1, 0},
    [EM_KNOB_LOG] = {"EMBER_LOG", "what ember prints to stderr: "
                     "debug|info|warn|off (default warn)", 1, 0},
    [EM_KNOB_BOUNDSCHECK] = {"EMBER_BOUNDSCHECK", "0 or 1: turns index checks of "
                             "jit kernels off or on, over boundscheck=", 1, 0},
    [EM_KNOB_SIM_STACK] = {"EMBER_SIM_STACK", "bytes of stack of a simulated GPU "
                           "thread on the cpu device (default 256 KiB)", 1, 0},
    [EM_KNOB_TF32] = {"EMBER_TF32", "1: float32 and complex64 products on "
                      "cuda may round their inputs to TF32, as CuPy's "
                      "CUPY_TF32 (default 0: full float32)", 1, 0},
    [EM_KNOB_PROGRESS] = {"EMBER_PROGRESS", "0 or 1: progress bars of long work "
                          "(reads, fits) off, or on on any stderr at once "
                          "(default: on a terminal, after a second)", 1, 0},
    [EM_KNOB_DIST_TIMEOUT] = {"EMBER_DIST_TIMEOUT", "seconds a cpu communicator's "
                              "rank waits for the others before raising "
                              "(default 300)", 1, 0},
    [EM_KNOB_DIST_SLOT_BYTES] = {"EMBER_DIST_SLOT_BYTES", "bytes a process rank's "
                                 "shared-memory slot holds on cpu, the same on "
                                 "every rank (default 4 MiB)", 1, 0},
    [EM_KNOB_COMPILE_LOG] = {"EMBER_COMPILE_LOG", "1: each Python kernel's "
                             "compile prints its phases' times to stderr "
                             "(read by ember.jit)", 1, 0},
    [EM_KNOB_PROFILE_CUPTI_MATCH] = {"EMBER_PROFILE_CUPTI_MATCH", "callback: "
                                     "the profiler pairs CUPTI's records with "
                                     "launches by a callback on every launch "
                                     "(the earlier way, for the overhead bench "
                                     "to compare); read at each start", 1, 0},
    [EM_KNOB_PROFILE_CUPTI_VARIANT] = {"EMBER_PROFILE_CUPTI_VARIANT", "how "
                                       "a CUPTI profile runs, for the overhead "
                                       "bench to compare: default, or '+' between "
                                       "nocallback, notimestamp, kernel, nocopy "
                                       "(read once, at the first CUPTI start)", 1, 0},
    [EM_KNOB_GPU_MEMORY_LIMIT] = {"EMBER_GPU_MEMORY_LIMIT", "every device's "
                                  "pool limit, in bytes or a percentage of "
                                  "the device's memory (50%); CuPy's "
                                  "CUPY_GPU_MEMORY_LIMIT when unset; read as "
                                  "each device's pool is made", 1, 0},
    [EM_KNOB_FUSION] = {"EMBER_FUSION", "1: elementwise operations are "
                        "recorded and run fused as one kernel; 0: each "
                        "launches at once (default 1; read once)", 1, 0},
    [EM_KNOB_SCAN_ITEMS] = {"EMBER_SCAN_ITEMS", "items per thread of CUDA scans",
                            4, 32},
    [EM_KNOB_SCAN_MINB] = {"EMBER_SCAN_MINB", "blocks per SM a CUDA scan's "
                           "launch bounds ask for", 1, 8},
    [EM_KNOB_SCAN_LEAN] = {"EMBER_SCAN_LEAN", "0 turns off the scans' 16-byte "
                           "staging of equal-size elements", 0, 1},
    [EM_KNOB_SORT_ITEMS] = {"EMBER_SORT_ITEMS", "keys per thread of onesweep "
                            "sorts of keys alone", 4, 24},
    [EM_KNOB_SORT_VITEMS] = {"EMBER_SORT_VITEMS", "keys per thread of onesweep "
                             "sorts with values", 4, 32},
    [EM_KNOB_SORT_DITEMS] = {"EMBER_SORT_DITEMS", "keys per thread of onesweep "
                             "sorts of 8-byte keys", 4, 22},
    [EM_KNOB_SORT_WINDOW] = {"EMBER_SORT_WINDOW", "tiles a onesweep pass's "
                             "look-back reads at once", 1, 32},
    [EM_KNOB_SORT_VWINDOW] = {"EMBER_SORT_VWINDOW", "tiles the look-back of a "
                              "onesweep pass with values reads at once", 1, 32},
    [EM_KNOB_SORT_MINB] = {"EMBER_SORT_MINB", "blocks per SM of onesweep passes "
                           "of 4-byte keys", 1, 8},
    [EM_KNOB_SORT_ADAPT] = {"EMBER_SORT_ADAPT", "onesweep digit widths fitted to "
                            "the keys: 0 never, 1 with values, 2 always", 0, 2},
    [EM_KNOB_SORT_SIMPLE] = {"EMBER_SORT_SIMPLE", "1 keeps CUDA radix sorts to "
                             "the plain (not warp-cooperative) kernels", 0, 1},
    [EM_KNOB_SORT_ONESWEEP] = {"EMBER_SORT_ONESWEEP", "0 sends every sort to the "
                               "permutation engine", 0, 1},
    [EM_KNOB_HIST_SHARED_KB] = {"EMBER_HIST_SHARED_KB", "KiB of shared memory per "
                                "block of CUDA histograms", 4, 200},
    [EM_KNOB_HIST_BLOCKS_PER_SM] = {"EMBER_HIST_BLOCKS_PER_SM", "blocks per SM of "
                                    "CUDA histograms", 1, 4},
    [EM_KNOB_TEST_FAIL_ALLOC] = {"EMBER_TEST_FAIL_ALLOC", "tests: N or N:COUNT "
                                 "makes device allocations N.. fail", 1, 0},
    [EM_KNOB_TEST_HASH_SLOTS_LOG2] = {"EMBER_TEST_HASH_SLOTS_LOG2", "tests: the "
                                      "log2 of hash-table slots of unique", 1, 0},
    [EM_KNOB_CKERNEL_CHECK_CUDA] = {"EMBER_CKERNEL_CHECK_CUDA", "tests: also "
                                    "compile user and random kernels for CUDA on cpu", 1, 0},
    [EM_KNOB_TEST_ARANGE_KERNELS] = {"EMBER_TEST_ARANGE_KERNELS", "tests: 1 "
                                     "builds every arange and real linspace of "
                                     "2 or more values with the GPU's kernels, "
                                     "also on cpu", 1, 0},
    [EM_KNOB_TEST_FUSION_HOST_MIN] = {"EMBER_TEST_FUSION_HOST_MIN", "tests: "
                                      "elements from which cpu groups fuse "
                                      "(default 65536), so the cpu suite can "
                                      "run every op fused", 1, 0},
};

/* 0: not read; -1: unset or out of range; else the value + 1. Racing first
 * readers store the same value. */
static int cached[EM_KNOB_COUNT];

const char *em_knob_name(em_knob k)
{
    return (unsigned)k < EM_KNOB_COUNT ? knobs[k].name : NULL;
}

const char *em_knob_meaning(em_knob k)
{
    return (unsigned)k < EM_KNOB_COUNT ? knobs[k].meaning : NULL;
}

const char *em_knob_text(em_knob k)
{
    const char *v = (unsigned)k < EM_KNOB_COUNT ? getenv(knobs[k].name) : NULL;
    return v && *v ? v : NULL;
}

int em_knob_int(em_knob k, int dflt)
{
    int v;
    if ((unsigned)k >= EM_KNOB_COUNT)
        return dflt;
    v = __atomic_load_n(&cached[k], __ATOMIC_RELAXED);
    if (v == 0) {
        const char *e = em_knob_text(k);
        char *end = NULL;
        long x = e ? strtol(e, &end, 10) : 0;
        v = e && !*end && x >= knobs[k].lo && x <= knobs[k].hi ? (int)x + 1 : -1;
        __atomic_store_n(&cached[k], v, __ATOMIC_RELAXED);
    }
    return v > 0 ? v - 1 : dflt;
}
