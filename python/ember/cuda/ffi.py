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
        self.link = link_paths(link, "declare_device(%r)" % name)

    def sources(self):
        """(path, text) of each linked file, read now (a kernel compiled
        later sees the file as it is then), its quoted #includes expanded."""
        return read_links(self.link)

    def __call__(self, *args):
        raise RuntimeError("%s is a foreign device function: call it from a "
                           "@cuda.jit kernel" % self.name)

    def __repr__(self):
        return "<ember.cuda foreign function %s: %s>" % (self.name, self.sig)


def link_paths(link, what="jit(link=...)"):
    """The absolute paths of a link= argument (a path or a list of them),
    each an existing CUDA C++ source file."""
    if link is None:
        link = []
    elif isinstance(link, (str, os.PathLike)):
        link = [link]
    out = []
    for p in link:
        p = os.fspath(p)
        if not os.path.isfile(p):
            raise FileNotFoundError("%s: link file %r not found" % (what, p))
        if not p.endswith((".cu", ".cuh", ".h")):
            raise NotImplementedError(
                "%s: ember links CUDA C++ source (.cu), not %r (PTX, cubin, fatbin "
                "and LTO-IR cannot run on cpu)" % (what, p))
        out.append(os.path.abspath(p))
    return out


def read_links(paths):
    """(path, text) of each file, its quoted #includes expanded."""
    return [(p, _expand(p, _search_paths(), [])) for p in paths]


_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"]+)"|<([^>]+)>)[ \t]*(//.*|/\*.*?\*/[ \t]*)?$')


def _search_paths():
    from . import config
    dirs = getattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", "") or ""
    return [d for d in str(dirs).split(":") if d]


def _expand(path, search, stack):
    """The text of path with each `#include "name"` found beside the file
    or in the search paths, and each `#include <name>` found in the search
    paths, put in place (with #line marks), as a preprocessor given the
    search paths as -I would (NVRTC is so given them in Numba). Inlined
    here, not left to the compiler, so the kernel cache, keyed by the
    source, sees a header's edits; a `<name>` in no search path (a system
    or CUDA header) is left to the compiler."""
    if path in stack:
        raise ValueError("%s includes itself (through %s)" % (path, " -> ".join(stack)))
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out = []
    for n, line in enumerate(lines, 1):
        m = _INCLUDE.match(line)
        found = None
        if m:
            name = m.group(1) or m.group(2)
            dirs = ([os.path.dirname(path)] if m.group(1) else []) + search
            for d in dirs:
                cand = os.path.join(d, name)
                if os.path.isfile(cand):
                    found = os.path.abspath(cand)
                    break
        if found is None:
            out.append(line)
            continue
        out.append('#line 1 "%s"' % _quoted(found))
        out.append(_expand(found, search, stack + [path]))
        out.append('#line %d "%s"' % (n + 1, _quoted(path)))
    return "\n".join(out)


def _quoted(p):
    return p.replace("\\", "\\\\").replace('"', '\\"')


def declare_device(name, sig, link=None, use_cooperative=False):
    """Numba's cuda.declare_device: see the module's docstring."""
    if use_cooperative:
        raise NotImplementedError("declare_device(use_cooperative=True): a foreign "
                                  "function cannot synchronise the grid in ember")
    return ExternalFunction(name, sig, link)
