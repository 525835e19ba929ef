/* ember codegen: the elementwise generator.
 *
 * A kernel is named by a compact descriptor (em_gen_ewise: 16 bytes, so a
 * key of two 64-bit words): the op, the loop's dtypes, each input's array
 * dtype (or "scalar by value"), the output dtype, the layout class, the
 * collapsed rank, the vector width and the index width. The generator
 * turns a descriptor into CUDA C that NVRTC and the host prelude both
 * accept: kernels/ewise_ops.h (the parts the loop's types need), then a
 * per-element function composed of that header's conversions and op, then
 * one kernel `ew` whose loop depends on the layout and target:
 *
 *   contiguous, cuda: grid-stride over vectors of `vec` elements (one
 *     aligned load per input, one store), then the tail;
 *   contiguous, host: each block of one thread runs a plain `for` over a
 *     chunk the C compiler can vectorise;
 *   strided, cuda: per element, a division chain over the collapsed
 *     extents (multiply-shift when 32-bit) yields each operand's offset,
 *     four elements' loads in flight per thread; with vec > 1 the last
 *     axis counts vectors, loaded whole by operands that run along it and
 *     once by those broadcast along it (a row plus a column);
 *   strided, host: each block walks its chunk odometer-style, with an
 *     inner loop along the last axis;
 *   tiled, cuda only: two axes with a transposed input, through 32x32
 *     shared-memory tiles so that input and output are both read and
 *     written along their contiguous axes.
 *
 * em_gen_ewise_function puts a per-device table of descriptor -> function
 * in front of the kernel cache: reads take no lock, so a repeated call
 * builds no source and no strings. The codegen layer launches nothing:
 * em_gen_ewise_pack fills the arguments and grid for the caller's
 * em_launch.
 */
#ifndef EMBER_CODEGEN_EWISE_H
#define EMBER_CODEGEN_EWISE_H

#include <stdint.h>

#include "ember/ufunc.h"

/* Bump when generated source changes meaning (it is in the cache key). */
#define EM_GEN_EWISE_VERSION 2u

enum { EM_GEN_CONTIG = 0, EM_GEN_STRIDED = 1, EM_GEN_TILED = 2 };

/* src[k] for an input passed by value (in the loop's dtype). */
#define EM_GEN_SCALAR 0xffu

/* Innermost-stride classes of strided operands; TILE marks an input of
 * the tiled layout read through shared memory (contiguous along axis 0). */
enum {
    EM_GEN_INNER_ANY = 0,
    EM_GEN_INNER_UNIT = 1,
    EM_GEN_INNER_ZERO = 2,
    EM_GEN_INNER_TILE = 3
};

/* Operand slots of em_gen_ewise_call, in kernel parameter order. */
enum {
    EM_GEN_SLOT_OUT = 0,
    EM_GEN_SLOT_IN0 = 1,
    EM_GEN_SLOT_IN1 = 2,
    EM_GEN_SLOT_MASK = 3,
    EM_GEN_SLOTS = 4
};

typedef struct em_gen_ewise {
    uint8_t op;         /* em_op */
    uint8_t layout;     /* EM_GEN_CONTIG / _STRIDED / _TILED (cuda, 2 axes) */
    uint8_t ndim;       /* strided: collapsed rank, 1..EM_MAX_NDIM; contig: 1 */
    uint8_t vec;        /* cuda: elements per vector access, 1..16 */
    uint8_t idx64;      /* 64-bit indices and offsets */
    uint8_t where;      /* a bool mask operand (slot EM_GEN_SLOT_MASK) */
    uint8_t out;        /* the output array's dtype */
    uint8_t loop_out;   /* the loop's output dtype */
    uint8_t loop_in[2]; /* the loop's input dtypes (0 when unused) */
    uint8_t src[2];     /* each input's array dtype, or EM_GEN_SCALAR */
    uint8_t inner[EM_GEN_SLOTS]; /* strided: EM_GEN_INNER_* per slot */
} em_gen_ewise;

/* The names kernels/ewise_ops.h gives each dtype, which the reduction
 * generator uses too: its storage type ("ew_f16", "float"), the suffix of
 * its functions ("f16"), and the category a conversion takes it from
 * (ew_<to>_from_<category>: "f32"). */
extern const char *const em_gen_ew_storage[EM_DTYPE_COUNT];
extern const char *const em_gen_ew_sfx[EM_DTYPE_COUNT];
extern const char *const em_gen_ew_category[EM_DTYPE_COUNT];

/* The kernel source for a descriptor on a target (malloc'd, NUL-ended).
 * `name` is the kernel's name; every other generated identifier gets it
 * as a suffix too, so several sources can be concatenated into one
 * program (the ops header has an include guard). */
em_status em_gen_ewise_source(const em_gen_ewise *d, em_device_type target,
                              const char *name, char **out);

/* For the fused kernels (src/fuse): the parts of kernels/ewise_ops.h that
 * n descriptors need, and one descriptor's per-element function
 * `EW_FN <out storage> ew_elem_<name>(<input storage> x0, ...)`, the same
 * function its own kernel calls. */
struct em_sb;
void em_gen_ewise_emit_ops(struct em_sb *b, const em_gen_ewise *d, int n);
void em_gen_ewise_emit_elem(struct em_sb *b, const em_gen_ewise *d,
                            const char *name);

/* Compiler options for generated elementwise kernels on a target. */
const char *const *em_gen_ewise_options(em_device_type target, int *n);

/* The compiled kernel for a descriptor on a device (owned by the kernel
 * cache, valid until exit). */
em_status em_gen_ewise_function(em_device *dev, const em_gen_ewise *d,
                                em_function **out);

/* A launch, described and then packed. The caller fills the operand
 * pointers (NULL for unused slots), the by-value scalars (already in
 * their loop dtype), n, and for the strided layout the collapsed shape
 * and per-slot byte strides. */
typedef struct em_gen_ewise_call {
    void *ptr[EM_GEN_SLOTS];
    unsigned char scalar[2][16];
    int64_t n;
    int ndim;
    int64_t shape[EM_MAX_NDIM];
    int64_t strides[EM_GEN_SLOTS][EM_MAX_NDIM];

    /* filled by em_gen_ewise_pack */
    void *args[8];
    int nargs;
    em_dim3 grid, block;
    union {
        int64_t n64;
        uint32_t n32;
    } count;
    int64_t chunk; /* host: elements per block */
    /* The strided kernel's by-value geometry (32- or 64-bit words). */
    union {
        uint32_t w32[1 + 3 * EM_MAX_NDIM + EM_GEN_SLOTS * EM_MAX_NDIM];
        int64_t w64[1 + EM_MAX_NDIM + EM_GEN_SLOTS * EM_MAX_NDIM];
    } geom;
} em_gen_ewise_call;

/* Fill c->args, grid and block for d on dev. c must stay put until the
 * launch (args point into it). */
void em_gen_ewise_pack(em_device *dev, const em_gen_ewise *d,
                       em_gen_ewise_call *c);

/* The device's SM count (cuda) or core count (cpu), cached. */
int em_gen_device_units(em_device *dev);
/* Shared memory in bytes: per SM (per_block 0) or what one block may opt
 * in to (per_block 1); asked once per device, 48 KiB when unknown. */
int em_gen_device_shared(em_device *dev, int per_block);

/* Multiply-shift constants for dividing 32-bit values below 2^31 by d
 * (1 <= d < 2^31): q = (umulhi(n, mul) + n) >> shift. */
void em_gen_divider(uint32_t d, uint32_t *mul, uint32_t *shift);

#endif
