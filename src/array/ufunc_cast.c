/* ember ufuncs: casting one value on the host.
 *
 * Scalars reach kernels by value, already in the loop's dtype, so the host
 * must cast them exactly as a kernel casts array elements. It does so with
 * the kernels' own conversion functions: this file compiles the device
 * header kernels/ewise_ops.h as plain C.
 */
#include <string.h>

#include "../../kernels/ewise_ops.h"
#include "ember/ufunc.h"

/* Store v (of source category CAT) as dtype `to` at dst. */
/* clang-format off */
#define STORE_AS(CAT, v)                                                      \
    switch (to) {                                                             \
    case EM_BOOL: { ew_b r = ew_b_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_INT8: { ew_i8 r = ew_i8_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_INT16: { ew_i16 r = ew_i16_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_INT32: { ew_i32 r = ew_i32_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_INT64: { ew_i64 r = ew_i64_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_UINT8: { ew_u8 r = ew_u8_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_UINT16: { ew_u16 r = ew_u16_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_UINT32: { ew_u32 r = ew_u32_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_UINT64: { ew_u64 r = ew_u64_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_FLOAT16: { ew_f16 r = ew_f16_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_BFLOAT16: { ew_bf16 r = ew_bf16_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_FLOAT32: { float r = ew_f32_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_FLOAT64: { double r = ew_f64_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_COMPLEX64: { ew_c64 r = ew_c64_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    case EM_COMPLEX128: { ew_c128 r = ew_c128_from_##CAT(v); memcpy(dst, &r, sizeof r); break; } \
    default: break;                                                           \
    }

/* clang-format on */

/* Read a value of type T from src into a local of type W. */
#define LOAD(T, W, var)                                                        \
    do {                                                                       \
        T t_;                                                                  \
        memcpy(&t_, src, sizeof t_);                                           \
        var = (W)t_;                                                           \
    } while (0)

/* The 1-, 2-, 4- or 8-byte integer at src as a 64-bit word: sign-extended
 * when `sign`, else zero-extended (how the kernels widen integers). */
static ew_u64 load_int(const void *src, size_t size, int sign)
{
    ew_u8 w1;
    ew_u16 w2;
    ew_u32 w4;
    ew_u64 w = 0, top;
    switch (size) {
    case 1: memcpy(&w1, src, 1), w = w1; break;
    case 2: memcpy(&w2, src, 2), w = w2; break;
    case 4: memcpy(&w4, src, 4), w = w4; break;
    default: memcpy(&w, src, 8); break;
    }
    top = (ew_u64)1 << (8 * size - 1);
    return sign ? (w ^ top) - top : w;
}

em_status em_scalar_cast(const void *src, em_dtype from, void *dst, em_dtype to)
{
    const em_dtype_info *info;
    ew_i64 i = 0;
    ew_u64 u = 0;
    float f = 0;
    double d = 0;
    ew_c64 c;
    ew_c128 z;
    ew_b b = 0;
    if (!src || !dst)
        return em_error(EM_ERR_INVALID_VALUE, "em_scalar_cast: %s is NULL",
                        src ? "dst" : "src");
    if (!(info = em_dtype_get(from)) || !em_dtype_get(to))
        return em_error(EM_ERR_TYPE, "em_scalar_cast: invalid dtype %d or %d",
                        (int)from, (int)to);
    /* The value goes to its category's type (ew_<to>_from_<category>),
     * which the kernels' conversions take. */
    switch (info->kind_id) {
    case EM_KIND_BOOL:
        LOAD(ew_b, ew_b, b);
        b = b != 0;
        STORE_AS(b, b);
        break;
    case EM_KIND_INT:
        i = (ew_i64)load_int(src, info->size, 1);
        STORE_AS(i64, i);
        break;
    case EM_KIND_UINT:
        u = load_int(src, info->size, 0);
        STORE_AS(u64, u);
        break;
    case EM_KIND_FLOAT:
        if (from == EM_FLOAT64) {
            LOAD(double, double, d);
            STORE_AS(f64, d);
            break;
        }
        if (from == EM_FLOAT16) {
            ew_f16 h;
            memcpy(&h, src, sizeof h);
            f = ew_f16_to_f32(h);
        } else if (from == EM_BFLOAT16) {
            ew_bf16 h;
            memcpy(&h, src, sizeof h);
            f = ew_bf16_to_f32(h);
        } else {
            LOAD(float, float, f);
        }
        STORE_AS(f32, f);
        break;
    case EM_KIND_COMPLEX:
        if (from == EM_COMPLEX64) {
            memcpy(&c, src, sizeof c);
            STORE_AS(c64, c);
        } else {
            memcpy(&z, src, sizeof z);
            STORE_AS(c128, z);
        }
        break;
    default:
        break;
    }
    return EM_OK;
}
