"""Raw kernel source as CuPy's users write it: `#include <cupy/complex.cuh>`
(CuPy's complex<T>, which CuPy's documentation tells raw kernels to
include) names a header that neither NVRTC nor the host compiler has.
ember's own complex<T> (kernels/cupy_complex.cuh beside this file) takes
the place of that line, folded onto the one line so that the compiler's
line numbers, and the source line ember.CompileError quotes, stay the
user's. Other <cupy/...> headers are left for the compiler to report."""
import os
import re

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]cupy/complex\.cuh[>"][^\n]*$',
                      re.MULTILINE)
_folded = None


def _fold(text):
    """The header on one line: comments and its include guard dropped."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    text = re.sub(r"//[^\n]*", " ", text)
    lines = [ln.strip() for ln in text.splitlines()]
    return " ".join(ln for ln in lines if ln and not ln.startswith("#"))


def _complex_header():
    global _folded
    if _folded is None:
        path = os.path.join(os.path.dirname(__file__), "kernels",
                            "cupy_complex.cuh")
        with open(path) as f:
            _folded = _fold(f.read())
    return _folded


def expand_cupy_includes(code):
    """code with its first `#include <cupy/complex.cuh>` line replaced by
    ember's complex<T> and any later ones blanked; code itself when it has
    none (the common case costs one search)."""
    if not isinstance(code, str) or "cupy/complex.cuh" not in code:
        return code
    first = [True]

    def one(m):
        if first[0]:
            first[0] = False
            return _complex_header()
        return ""
    return _INCLUDE.sub(one, code)
