/* ember ufuncs: the op table.
 *
 * Each op's loops are NumPy 2's (numpy.<ufunc>.types on an LP64 machine),
 * in NumPy's order, restricted to ember's dtypes: 'l'/'L' are 'q'/'Q'
 * there, long double, object and datetime loops are gone, and each
 * float16 loop ('e') is followed by the same loop for bfloat16 ('E'), so
 * a bfloat16 input resolves the way a float16 one would. The search order
 * is what makes sqrt(int8) float16 and sqrt(int16) float32, so it is data
 * to keep exactly.
 */
#include <pthread.h>
#include <string.h>

#include "array/ufunc_internal.h"

typedef struct op_row {
    const char *name;
    int nin;
    unsigned flags;
    const char *loops; /* "ii:i ...": NumPy's "ii->i", with ':' since C
                          would read "??-" as a trigraph */
} op_row;

#define CMP EM_UF_COMPARE
#define LOG EM_UF_LOGICAL
#define NOC EM_UF_NO_COMPLEX
#define SCI EM_UF_SCIPY

/* clang-format off */
static const op_row op_rows[EM_OP_COUNT] = {
    [EM_OP_ADD] = {"add", 2, 0, "??:? bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ee:e EE:E ff:f dd:d FF:F DD:D"},
    [EM_OP_SUBTRACT] = {"subtract", 2, EM_UF_NO_BOOL, "bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ee:e EE:E ff:f dd:d FF:F DD:D"},
    [EM_OP_MULTIPLY] = {"multiply", 2, 0, "??:? bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ee:e EE:E ff:f dd:d FF:F DD:D"},
    [EM_OP_TRUE_DIVIDE] = {"true_divide", 2, EM_UF_TRUE_DIVIDE, "ee:e EE:E ff:f dd:d FF:F DD:D"},
    [EM_OP_FLOOR_DIVIDE] = {"floor_divide", 2, 0, "bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ee:e EE:E ff:f dd:d"},
    [EM_OP_REMAINDER] = {"remainder", 2, 0, "bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ee:e EE:E ff:f dd:d"},
    [EM_OP_POWER] = {"power", 2, 0, "bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ee:e EE:E ff:f dd:d FF:F DD:D"},
    [EM_OP_MAXIMUM] = {"maximum", 2, 0, "??:? bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ee:e EE:E ff:f dd:d FF:F DD:D"},
    [EM_OP_MINIMUM] = {"minimum", 2, 0, "??:? bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ee:e EE:E ff:f dd:d FF:F DD:D"},
    [EM_OP_FMAX] = {"fmax", 2, 0, "??:? bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ee:e EE:E ff:f dd:d FF:F DD:D"},
    [EM_OP_FMIN] = {"fmin", 2, 0, "??:? bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ee:e EE:E ff:f dd:d FF:F DD:D"},
    [EM_OP_EQUAL] = {"equal", 2, CMP, "??:? bb:? BB:? hh:? HH:? ii:? II:? qq:? QQ:? qQ:? Qq:? ee:? EE:? ff:? dd:? FF:? DD:?"},
    [EM_OP_NOT_EQUAL] = {"not_equal", 2, CMP, "??:? bb:? BB:? hh:? HH:? ii:? II:? qq:? QQ:? qQ:? Qq:? ee:? EE:? ff:? dd:? FF:? DD:?"},
    [EM_OP_LESS] = {"less", 2, CMP, "??:? bb:? BB:? hh:? HH:? ii:? II:? qq:? QQ:? qQ:? Qq:? ee:? EE:? ff:? dd:? FF:? DD:?"},
    [EM_OP_LESS_EQUAL] = {"less_equal", 2, CMP, "??:? bb:? BB:? hh:? HH:? ii:? II:? qq:? QQ:? qQ:? Qq:? ee:? EE:? ff:? dd:? FF:? DD:?"},
    [EM_OP_GREATER] = {"greater", 2, CMP, "??:? bb:? BB:? hh:? HH:? ii:? II:? qq:? QQ:? qQ:? Qq:? ee:? EE:? ff:? dd:? FF:? DD:?"},
    [EM_OP_GREATER_EQUAL] = {"greater_equal", 2, CMP, "??:? bb:? BB:? hh:? HH:? ii:? II:? qq:? QQ:? qQ:? Qq:? ee:? EE:? ff:? dd:? FF:? DD:?"},
    [EM_OP_LOGICAL_AND] = {"logical_and", 2, LOG, "??:? bb:? BB:? hh:? HH:? ii:? II:? qq:? QQ:? ee:? EE:? ff:? dd:? FF:? DD:?"},
    [EM_OP_LOGICAL_OR] = {"logical_or", 2, LOG, "??:? bb:? BB:? hh:? HH:? ii:? II:? qq:? QQ:? ee:? EE:? ff:? dd:? FF:? DD:?"},
    [EM_OP_LOGICAL_XOR] = {"logical_xor", 2, LOG, "??:? bb:? BB:? hh:? HH:? ii:? II:? qq:? QQ:? ee:? EE:? ff:? dd:? FF:? DD:?"},
    [EM_OP_BITWISE_AND] = {"bitwise_and", 2, 0, "??:? bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q"},
    [EM_OP_BITWISE_OR] = {"bitwise_or", 2, 0, "??:? bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q"},
    [EM_OP_BITWISE_XOR] = {"bitwise_xor", 2, 0, "??:? bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q"},
    [EM_OP_LEFT_SHIFT] = {"left_shift", 2, 0, "bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q"},
    [EM_OP_RIGHT_SHIFT] = {"right_shift", 2, 0, "bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q"},
    [EM_OP_ARCTAN2] = {"arctan2", 2, 0, "ee:e EE:E ff:f dd:d"},
    [EM_OP_HYPOT] = {"hypot", 2, 0, "ee:e EE:E ff:f dd:d"},
    [EM_OP_COPYSIGN] = {"copysign", 2, 0, "ee:e EE:E ff:f dd:d"},
    [EM_OP_NEXTAFTER] = {"nextafter", 2, 0, "ee:e EE:E ff:f dd:d"},
    [EM_OP_LOGADDEXP] = {"logaddexp", 2, 0, "ee:e EE:E ff:f dd:d"},
    [EM_OP_LOGADDEXP2] = {"logaddexp2", 2, 0, "ee:e EE:E ff:f dd:d"},
    [EM_OP_FLOAT_POWER] = {"float_power", 2, 0, "dd:d DD:D"},
    [EM_OP_HEAVISIDE] = {"heaviside", 2, 0, "ee:e EE:E ff:f dd:d"},
    [EM_OP_LDEXP] = {"ldexp", 2, 0, "ei:e Ei:E fi:f eq:e Eq:E fq:f di:d dq:d"},
    [EM_OP_NEGATIVE] = {"negative", 1, EM_UF_NO_BOOL, "b:b B:B h:h H:H i:i I:I q:q Q:Q e:e E:E f:f d:d F:F D:D"},
    [EM_OP_POSITIVE] = {"positive", 1, EM_UF_NO_BOOL, "b:b B:B h:h H:H i:i I:I q:q Q:Q e:e E:E f:f d:d F:F D:D"},
    [EM_OP_ABSOLUTE] = {"absolute", 1, 0, "?:? b:b B:B h:h H:H i:i I:I q:q Q:Q e:e E:E f:f d:d F:f D:d"},
    [EM_OP_SIGN] = {"sign", 1, EM_UF_NO_BOOL, "b:b B:B h:h H:H i:i I:I q:q Q:Q e:e E:E f:f d:d F:F D:D"},
    [EM_OP_SQUARE] = {"square", 1, 0, "b:b B:B h:h H:H i:i I:I q:q Q:Q e:e E:E f:f d:d F:F D:D"},
    [EM_OP_SQRT] = {"sqrt", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_CBRT] = {"cbrt", 1, 0, "e:e E:E f:f d:d"},
    [EM_OP_RECIPROCAL] = {"reciprocal", 1, 0, "b:b B:B h:h H:H i:i I:I q:q Q:Q e:e E:E f:f d:d F:F D:D"},
    [EM_OP_EXP] = {"exp", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_EXP2] = {"exp2", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_EXPM1] = {"expm1", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_LOG] = {"log", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_LOG2] = {"log2", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_LOG10] = {"log10", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_LOG1P] = {"log1p", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_SIN] = {"sin", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_COS] = {"cos", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_TAN] = {"tan", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_ARCSIN] = {"arcsin", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_ARCCOS] = {"arccos", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_ARCTAN] = {"arctan", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_SINH] = {"sinh", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_COSH] = {"cosh", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_TANH] = {"tanh", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_ARCSINH] = {"arcsinh", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_ARCCOSH] = {"arccosh", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_ARCTANH] = {"arctanh", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_FLOOR] = {"floor", 1, 0, "?:? b:b B:B h:h H:H i:i I:I q:q Q:Q e:e E:E f:f d:d"},
    [EM_OP_CEIL] = {"ceil", 1, 0, "?:? b:b B:B h:h H:H i:i I:I q:q Q:Q e:e E:E f:f d:d"},
    [EM_OP_TRUNC] = {"trunc", 1, 0, "?:? b:b B:B h:h H:H i:i I:I q:q Q:Q e:e E:E f:f d:d"},
    [EM_OP_RINT] = {"rint", 1, 0, "e:e E:E f:f d:d F:F D:D"},
    [EM_OP_ISNAN] = {"isnan", 1, 0, "?:? b:? B:? h:? H:? i:? I:? q:? Q:? e:? E:? f:? d:? F:? D:?"},
    [EM_OP_ISINF] = {"isinf", 1, 0, "?:? b:? B:? h:? H:? i:? I:? q:? Q:? e:? E:? f:? d:? F:? D:?"},
    [EM_OP_ISFINITE] = {"isfinite", 1, 0, "?:? b:? B:? h:? H:? i:? I:? q:? Q:? e:? E:? f:? d:? F:? D:?"},
    [EM_OP_SIGNBIT] = {"signbit", 1, 0, "e:? E:? f:? d:?"},
    [EM_OP_LOGICAL_NOT] = {"logical_not", 1, 0, "?:? b:? B:? h:? H:? i:? I:? q:? Q:? e:? E:? f:? d:? F:? D:?"},
    [EM_OP_INVERT] = {"invert", 1, 0, "?:? b:b B:B h:h H:H i:i I:I q:q Q:Q"},
    [EM_OP_CONJUGATE] = {"conjugate", 1, 0, "b:b B:B h:h H:H i:i I:I q:q Q:Q e:e E:E f:f d:d F:F D:D"},
    /* Not a NumPy ufunc: a cast. Resolution keeps the input's dtype; the
     * cast happens on the way to the output. */
    [EM_OP_COPY] = {"copy", 1, 0, "?:? b:b B:B h:h H:H i:i I:I q:q Q:Q e:e E:E f:f d:d F:F D:D"},
    /* No bool loops: bools take the int8 ones, as in NumPy. */
    [EM_OP_FMOD] = {"fmod", 2, 0, "bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q ee:e EE:E ff:f dd:d"},
    /* gcd and lcm look for a loop of the inputs' common type, which for
     * two bools is bool, which has none (NumPy's uniform resolver). */
    [EM_OP_GCD] = {"gcd", 2, EM_UF_NO_BOOL, "bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q"},
    [EM_OP_LCM] = {"lcm", 2, EM_UF_NO_BOOL, "bb:b BB:B hh:h HH:H ii:i II:I qq:q QQ:Q"},
    [EM_OP_SPACING] = {"spacing", 1, 0, "e:e E:E f:f d:d"},
    /* Internal halves of modf and frexp (see ufunc.h); NumPy's loops are
     * e->ee, f->ff, d->dd and e->ei, f->fi, d->di. */
    [EM_OP_MODF_FRAC] = {"_modf_frac", 1, 0, "e:e E:E f:f d:d"},
    [EM_OP_FREXP_MANT] = {"_frexp_mant", 1, 0, "e:e E:E f:f d:d"},
    [EM_OP_FREXP_EXP] = {"_frexp_exp", 1, 0, "e:i E:i f:i d:i"},
    /* scipy.special's: its loops for real arguments, in SciPy 1.18's
     * order (f->f first, as CuPy's: float16, bools and 8- and 16-bit
     * integers compute in float32, wider integers in float64). sinc is
     * NumPy's composite: its own dtype when a loop has it, else float64. */
    [EM_OP_ERF] = {"erf", 1, SCI, "f:f d:d"},
    [EM_OP_ERFC] = {"erfc", 1, SCI, "f:f d:d"},
    [EM_OP_GAMMA] = {"gamma", 1, SCI, "f:f d:d"},
    [EM_OP_GAMMALN] = {"gammaln", 1, SCI, "f:f d:d"},
    [EM_OP_EXPIT] = {"expit", 1, SCI, "f:f d:d"},
    [EM_OP_LOGIT] = {"logit", 1, SCI, "f:f d:d"},
    [EM_OP_LOG_EXPIT] = {"log_expit", 1, SCI, "f:f d:d"},
    [EM_OP_NDTR] = {"ndtr", 1, SCI, "f:f d:d"},
    [EM_OP_J0] = {"j0", 1, SCI, "f:f d:d"},
    [EM_OP_J1] = {"j1", 1, SCI, "f:f d:d"},
    [EM_OP_Y0] = {"y0", 1, SCI, "f:f d:d"},
    [EM_OP_Y1] = {"y1", 1, SCI, "f:f d:d"},
    [EM_OP_SINC] = {"sinc", 1, SCI, "d:d e:e f:f"},
    [EM_OP_XLOGY] = {"xlogy", 2, SCI, "ff:f dd:d"},
    [EM_OP_XLOG1PY] = {"xlog1py", 2, SCI, "ff:f dd:d"},
    [EM_OP_ERFINV] = {"erfinv", 1, SCI, "f:f d:d"},
    [EM_OP_ERFCINV] = {"erfcinv", 1, SCI, "f:f d:d"},
    [EM_OP_DIGAMMA] = {"digamma", 1, SCI, "f:f d:d"},
    [EM_OP_I1] = {"i1", 1, SCI, "f:f d:d"},
    /* zeta(x, q) is Hurwitz's; SciPy's zeta(x) calls _riemann_zeta */
    [EM_OP_ZETA] = {"zeta", 2, SCI, "ff:f dd:d"},
    [EM_OP_RIEMANN_ZETA] = {"_riemann_zeta", 1, SCI, "f:f d:d"},
    /* Bessel functions of real order; yn's first loop is SciPy's 'ld->d'
     * (so yn(2, float32) is float64, as SciPy's), its float loops
     * truncate the order; the complex loops take a real order and a
     * complex argument, as SciPy's */
    [EM_OP_JV] = {"jv", 2, SCI, "ff:f dd:d fF:F dD:D"},
    [EM_OP_YV] = {"yv", 2, SCI, "ff:f dd:d fF:F dD:D"},
    [EM_OP_YN] = {"yn", 2, SCI, "qd:d ff:f dd:d"},
    [EM_OP_IV] = {"iv", 2, SCI, "ff:f dd:d fF:F dD:D"},
    [EM_OP_KV] = {"kv", 2, SCI, "ff:f dd:d fF:F dD:D"},
    [EM_OP_HANKEL1] = {"hankel1", 2, SCI, "fF:F dD:D"},
    [EM_OP_HANKEL2] = {"hankel2", 2, SCI, "fF:F dD:D"},
    /* the real loops: NaN below 0 (SciPy's complex loop is not there) */
    [EM_OP_LOGGAMMA] = {"loggamma", 1, SCI, "f:f d:d"},
    /* the second tranche: float32's loop first, as SciPy 1.18's; expn's
     * first loop is SciPy's 'ld->d' (a whole order), its float loops
     * truncate the order; SciPy's round is EM_OP_SP_ROUND, as
     * EM_OP_ROUND would read as NumPy's */
    [EM_OP_EXP10] = {"exp10", 1, SCI, "f:f d:d"},
    [EM_OP_COSM1] = {"cosm1", 1, SCI, "f:f d:d"},
    [EM_OP_SP_ROUND] = {"round", 1, SCI, "f:f d:d"},
    [EM_OP_SINDG] = {"sindg", 1, SCI, "f:f d:d"},
    [EM_OP_COSDG] = {"cosdg", 1, SCI, "f:f d:d"},
    [EM_OP_TANDG] = {"tandg", 1, SCI, "f:f d:d"},
    [EM_OP_COTDG] = {"cotdg", 1, SCI, "f:f d:d"},
    [EM_OP_ENTR] = {"entr", 1, SCI, "f:f d:d"},
    [EM_OP_REL_ENTR] = {"rel_entr", 2, SCI, "ff:f dd:d"},
    [EM_OP_KL_DIV] = {"kl_div", 2, SCI, "ff:f dd:d"},
    [EM_OP_HUBER] = {"huber", 2, SCI, "ff:f dd:d"},
    [EM_OP_PSEUDO_HUBER] = {"pseudo_huber", 2, SCI, "ff:f dd:d"},
    [EM_OP_BOXCOX] = {"boxcox", 2, SCI, "ff:f dd:d"},
    [EM_OP_BOXCOX1P] = {"boxcox1p", 2, SCI, "ff:f dd:d"},
    [EM_OP_INV_BOXCOX] = {"inv_boxcox", 2, SCI, "ff:f dd:d"},
    [EM_OP_INV_BOXCOX1P] = {"inv_boxcox1p", 2, SCI, "ff:f dd:d"},
    [EM_OP_ERFCX] = {"erfcx", 1, SCI, "f:f d:d"},
    [EM_OP_ERFI] = {"erfi", 1, SCI, "f:f d:d"},
    [EM_OP_LOG_NDTR] = {"log_ndtr", 1, SCI, "f:f d:d"},
    [EM_OP_NDTRI_EXP] = {"ndtri_exp", 1, SCI, "f:f d:d"},
    [EM_OP_BINOM] = {"binom", 2, SCI, "ff:f dd:d"},
    [EM_OP_POCH] = {"poch", 2, SCI, "ff:f dd:d"},
    [EM_OP_EXPN] = {"expn", 2, SCI, "qd:d ff:f dd:d"},
    [EM_OP_EXP1] = {"exp1", 1, SCI, "f:f d:d"},
    [EM_OP_EXPI] = {"expi", 1, SCI, "f:f d:d"},
    [EM_OP_I0E] = {"i0e", 1, SCI, "f:f d:d"},
    [EM_OP_I1E] = {"i1e", 1, SCI, "f:f d:d"},
    [EM_OP_K0] = {"k0", 1, SCI, "f:f d:d"},
    [EM_OP_K0E] = {"k0e", 1, SCI, "f:f d:d"},
    [EM_OP_K1] = {"k1", 1, SCI, "f:f d:d"},
    [EM_OP_K1E] = {"k1e", 1, SCI, "f:f d:d"},
    [EM_OP_GAMMAINC] = {"gammainc", 2, SCI, "ff:f dd:d"},
    [EM_OP_GAMMAINCC] = {"gammaincc", 2, SCI, "ff:f dd:d"},
    [EM_OP_GAMMASGN] = {"gammasgn", 1, SCI, "f:f d:d"},
    [EM_OP_RGAMMA] = {"rgamma", 1, SCI, "f:f d:d"},
    [EM_OP_ZETAC] = {"zetac", 1, SCI, "f:f d:d"},
    [EM_OP_PDTR] = {"pdtr", 2, SCI, "ff:f dd:d"},
    [EM_OP_PDTRC] = {"pdtrc", 2, SCI, "ff:f dd:d"},
    [EM_OP_CHDTR] = {"chdtr", 2, SCI, "ff:f dd:d"},
    [EM_OP_CHDTRC] = {"chdtrc", 2, SCI, "ff:f dd:d"},
    [EM_OP_ELLIPK] = {"ellipk", 1, SCI, "f:f d:d"},
    [EM_OP_ELLIPKM1] = {"ellipkm1", 1, SCI, "f:f d:d"},
    [EM_OP_ELLIPE] = {"ellipe", 1, SCI, "f:f d:d"},
    [EM_OP_STDTR] = {"stdtr", 2, SCI, "ff:f dd:d"},
    [EM_OP_GAMMAINCINV] = {"gammaincinv", 2, SCI, "ff:f dd:d"},
    [EM_OP_GAMMAINCCINV] = {"gammainccinv", 2, SCI, "ff:f dd:d"},
};

/* clang-format on */

/* NumPy's spare names for the same ufuncs. */
static const struct {
    const char *name;
    em_op op;
} op_aliases[] = {
    {"divide", EM_OP_TRUE_DIVIDE},
    {"mod", EM_OP_REMAINDER},
    {"abs", EM_OP_ABSOLUTE},
    {"conj", EM_OP_CONJUGATE},
    {"bitwise_not", EM_OP_INVERT},
    {"bitwise_invert", EM_OP_INVERT},
    {"bitwise_left_shift", EM_OP_LEFT_SHIFT},
    {"bitwise_right_shift", EM_OP_RIGHT_SHIFT},
    {"pow", EM_OP_POWER},
    {"asin", EM_OP_ARCSIN},
    {"acos", EM_OP_ARCCOS},
    {"atan", EM_OP_ARCTAN},
    {"asinh", EM_OP_ARCSINH},
    {"acosh", EM_OP_ARCCOSH},
    {"atanh", EM_OP_ARCTANH},
    {"atan2", EM_OP_ARCTAN2},
};

#define MAX_LOOPS 24

static em_op_info op_infos[EM_OP_COUNT];
static em_ufunc_loop op_loops[EM_OP_COUNT][MAX_LOOPS];
static int op_nloops[EM_OP_COUNT];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static int dtype_of_char(char c, unsigned char *out)
{
    static const char chars[] = "?bhiqBHIQeEfdFD";
    static const em_dtype ids[] = {
        EM_BOOL,     EM_INT8,    EM_INT16,   EM_INT32,     EM_INT64,
        EM_UINT8,    EM_UINT16,  EM_UINT32,  EM_UINT64,    EM_FLOAT16,
        EM_BFLOAT16, EM_FLOAT32, EM_FLOAT64, EM_COMPLEX64, EM_COMPLEX128};
    const char *p = c ? strchr(chars, c) : NULL;
    if (!p)
        return 0;
    *out = (unsigned char)ids[p - chars];
    return 1;
}

/* The strings are checked by the C tests (every op resolves its own
 * loops), so a malformed one only ends its list early here. */
static void table_init(void)
{
    for (int op = 0; op < EM_OP_COUNT; op++) {
        const op_row *r = &op_rows[op];
        const char *p = r->loops;
        int n = 0;
        op_infos[op].name = r->name;
        op_infos[op].nin = r->nin;
        op_infos[op].nout = 1;
        op_infos[op].scipy = (r->flags & EM_UF_SCIPY) != 0;
        while (p && *p && n < MAX_LOOPS) {
            em_ufunc_loop l = {{0, 0}, 0};
            int ok = dtype_of_char(p[0], &l.in[0]);
            if (r->nin == 2)
                ok = ok && dtype_of_char(p[1], &l.in[1]);
            p += r->nin;
            ok = ok && p[0] == ':' && dtype_of_char(p[1], &l.out);
            if (!ok)
                break;
            op_loops[op][n++] = l;
            p += 2;
            while (*p == ' ')
                p++;
        }
        op_nloops[op] = n;
    }
}

const em_op_info *em_op_get(em_op op)
{
    if ((unsigned)op >= EM_OP_COUNT)
        return NULL;
    pthread_once(&table_once, table_init);
    return &op_infos[op];
}

em_status em_op_from_name(const char *name, em_op *out)
{
    if (!name || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_op_from_name: %s is NULL",
                        name ? "out" : "name");
    for (int op = 0; op < EM_OP_COUNT; op++)
        if (!strcmp(op_rows[op].name, name)) {
            *out = (em_op)op;
            return EM_OK;
        }
    for (size_t i = 0; i < sizeof op_aliases / sizeof *op_aliases; i++)
        if (!strcmp(op_aliases[i].name, name)) {
            *out = op_aliases[i].op;
            return EM_OK;
        }
    return em_error(EM_ERR_NOT_FOUND, "ember has no ufunc named '%s'", name);
}

const em_ufunc_loop *em_ufunc_loops(em_op op, int *n)
{
    if ((unsigned)op >= EM_OP_COUNT) {
        *n = 0;
        return NULL;
    }
    pthread_once(&table_once, table_init);
    *n = op_nloops[op];
    return op_loops[op];
}

unsigned em_ufunc_flags(em_op op)
{
    return (unsigned)op < EM_OP_COUNT ? op_rows[op].flags : 0;
}
