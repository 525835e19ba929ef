"""kernel.overloads: the specialisations of a cuda.jit kernel, keyed both
by ember's argument codes (('Af4_1C', 'i8')) and, as Numba keys them, by
the tuple of argument types the kernel was declared with
((int32[:, ::1],)), a Signature or a signature string. Each value is the
translated C (a str) that also answers what Numba asks of one compiled
kernel (max_cooperative_grid_blocks)."""
from .types import parse_signature, signature_strings


class Overload(str):
    """The C source of one specialisation, with Numba's _Kernel queries."""
    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        """The most blocks a grid calling cuda.cg.this_grid().sync() may
        have on the current device (asked of the kernel: a grid sync and its
        limit are the same for each specialisation of one function)."""
        return self._dispatcher.max_cooperative_grid_blocks(blockdim, dynsmemsize)


def _codes(key):
    """The argument codes a key means, or None when it names no types."""
    if isinstance(key, tuple) and all(isinstance(c, str) for c in key):
        if all(c[:1] in "Abiufc" and " " not in c and "[" not in c for c in key):
            return key
    try:
        sigs = signature_strings(key)
    except (TypeError, ValueError):
        return None
    if len(sigs) != 1:
        return None
    try:
        return tuple(parse_signature(sigs[0]))
    except (TypeError, ValueError):
        return None


class Overloads(dict):
    """{argcodes: Overload}; lookups also take Numba's type tuples."""

    def __getitem__(self, key):
        codes = _codes(key)
        if codes is not None and dict.__contains__(self, codes):
            return dict.__getitem__(self, codes)
        return dict.__getitem__(self, key)

    def __contains__(self, key):
        codes = _codes(key)
        return dict.__contains__(self, codes if codes is not None else key)

    def get(self, key, default=None):
        try:
            return self[key]
        except (KeyError, TypeError):
            return default


def overloads(dispatcher, sources):
    """Overloads of dispatcher from its {argcodes: source}."""
    out = Overloads()
    for codes, src in sources.items():
        o = Overload(src)
        o._dispatcher, o.argcodes = dispatcher, codes
        out[codes] = o
    return out
