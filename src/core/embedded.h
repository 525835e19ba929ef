/* ember internal: kernel templates and device helpers from kernels/,
 * embedded at build time by tools/embed.c. */
#ifndef EMBER_EMBEDDED_H
#define EMBER_EMBEDDED_H

extern const char em_embedded_host_prelude_h[];
extern const char em_embedded_host_prelude_cxx_h[];

/* Kernel bodies that the generators paste after the parameters they
 * emit as #defines (see each file's opening comment). */
extern const char em_embedded_compact_common_cuh[];
extern const char em_embedded_compact_cuda_cuh[];
extern const char em_embedded_compact_host_cuh[];
extern const char em_embedded_compact_rows_cuh[];
extern const char em_embedded_hash_set_cuh[];
extern const char em_embedded_merge_sort_cuh[];
extern const char em_embedded_random_bits_cuh[];
extern const char em_embedded_random_fill_cuh[];
extern const char em_embedded_random_lanes_cuh[];
extern const char em_embedded_random_math_cuh[];
extern const char em_embedded_random_ziggurat_cuh[];
extern const char em_embedded_scan_cuda_cuh[];
extern const char em_embedded_scan_host_cuh[];
extern const char em_embedded_sort_group_cuh[];
extern const char em_embedded_sort_image_cuh[];
extern const char em_embedded_sort_radix_cuh[];
extern const char em_embedded_sort_radix_chunk_cuh[];
extern const char em_embedded_sort_radix_gather_cuh[];
extern const char em_embedded_sort_radix_warp_cuh[];
extern const char em_embedded_sort_unimage_cuh[];
extern const char em_embedded_sort_onesweep_key_cuh[];
extern const char em_embedded_sort_onesweep_up_cuh[];
extern const char em_embedded_sort_onesweep_pass_cuh[];
extern const char em_embedded_sort_onesweep_host_cuh[];
extern const char em_embedded_sort_onesweep_host_kind_cuh[];

/* NULL-terminated parallel lists of every embedded file. */
extern const char *const em_embedded_names[];
extern const char *const em_embedded_sources[];

#endif
