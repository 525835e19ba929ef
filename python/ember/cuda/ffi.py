"""Numba's foreign device functions: `cuda.declare_device(name, sig,
link=path)` names a function of a CUDA C++ file that kernels may call.

The function follows Numba's ABI: `extern "C" __device__ int name(ret
*out, args...)`, the result stored through `out` (the int, a status, is
ignored as Numba ignores it). A kernel that calls it is compiled in one
translation unit with the linked files appended: NVRTC on the GPU, the
host C++ compiler against ember's CUDA prelude on cpu (so the file may use
what RawKernel source may). `CPointer(t)` parameters take an array, whose
data pointer is passed."""
import os
import re

__all__ = ["declare_device", "ExternalFunction"]

_CPOINTER = re.compile(r"CPointer\(\s*(\w+)\s*\)")


class ExternalFunction:
    """A declared foreign device function (what declare_device returns)."""
    _ember_extern = True

    def __init__(self, name, sig, link):
        from ember.jit.types import parse_signature_full
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError("declare_device: %r is not a C function name" % (name,))
        text = sig if isinstance(sig, str) else str(sig)
        # CPointer(t) prints and parses as a 1-d array of t (types.py)
        ret, args = parse_signature_full(_CPOINTER.sub(r"\1[:]", text))
        if ret == "void":
            raise TypeError("declare_device(%r, %r): a foreign function returns a value "
                            "(Numba's ABI stores it through its first parameter)"
                            % (name, text))
        if ret.startswith("A"):
            raise TypeError("declare_device(%r, %r): the result must be a number"
                            % (name, text))
        self.name, self.sig, self.restype, self.argcodes = name, text, ret, args
        if link is None:
            link = []
        elif isinstance(link, (str, os.PathLike)):
            link = [link]
        self.link = []
        for p in link:
            p = os.fspath(p)
            if not os.path.isfile(p):
                raise FileNotFoundError("declare_device(%r): link file %r not found"
                                        % (name, p))
            if not p.endswith((".cu", ".cuh", ".h")):
                raise NotImplementedError(
                    "declare_device(%r): ember links CUDA C++ source (.cu), not %r "
                    "(PTX, cubin, fatbin and LTO-IR cannot run on cpu)" % (name, p))
            self.link.append(os.path.abspath(p))

    def sources(self):
        """(path, text) of each linked file, read now (a kernel compiled
        later sees the file as it is then)."""
        out = []
        for p in self.link:
            with open(p, encoding="utf-8") as f:
                out.append((p, f.read()))
        return out

    def __call__(self, *args):
        raise RuntimeError("%s is a foreign device function: call it from a "
                           "@cuda.jit kernel" % self.name)

    def __repr__(self):
        return "<ember.cuda foreign function %s: %s>" % (self.name, self.sig)


def declare_device(name, sig, link=None, use_cooperative=False):
    """Numba's cuda.declare_device: see the module's docstring."""
    if use_cooperative:
        raise NotImplementedError("declare_device(use_cooperative=True): a foreign "
                                  "function cannot synchronise the grid in ember")
    return ExternalFunction(name, sig, link)
