/* ember codegen: the plain C spellings of dtypes (see ctype.h). */
#include "codegen/ctype.h"

const char *em_gen_ctype(em_dtype d)
{
    static const char *const names[EM_DTYPE_COUNT] = {
        [EM_INT8] = "signed char",
        [EM_INT16] = "short",
        [EM_INT32] = "int",
        [EM_INT64] = "long long",
        [EM_UINT8] = "unsigned char",
        [EM_UINT16] = "unsigned short",
        [EM_UINT32] = "unsigned int",
        [EM_UINT64] = "unsigned long long",
        [EM_FLOAT32] = "float",
        [EM_FLOAT64] = "double",
    };
    return (unsigned)d < EM_DTYPE_COUNT ? names[d] : NULL;
}

const char *em_gen_word_type(size_t bytes)
{
    /* EM_BOOL (0) marks the sizes that have no word */
    static const em_dtype words[9] = {
        [1] = EM_UINT8, [2] = EM_UINT16, [4] = EM_UINT32, [8] = EM_UINT64};
    return bytes < 9 && words[bytes] != EM_BOOL ? em_gen_ctype(words[bytes])
                                                : NULL;
}
