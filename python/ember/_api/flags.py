"""a.flags, NumPy's flags object: a snapshot of an array's layout bits,
which ndarray's C getter reads and passes here (a cold path)."""

_NAMES = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED")
_ALIASES = {"C": "C_CONTIGUOUS", "CONTIGUOUS": "C_CONTIGUOUS", "F": "F_CONTIGUOUS",
            "FORTRAN": "F_CONTIGUOUS", "O": "OWNDATA", "W": "WRITEABLE",
            "A": "ALIGNED"}


class flagsobj:
    """An array's flags when asked: flags['C_CONTIGUOUS'] or
    flags.c_contiguous, as NumPy's."""

    __slots__ = ("_v",)
    __module__ = "ember"

    def __init__(self, base, *values):
        self._v = dict(zip(_NAMES, map(bool, values)))

    def __getitem__(self, key):
        if isinstance(key, str):
            v = self._v.get(_ALIASES.get(key, key))
            if v is not None:
                return v
        raise KeyError(key)

    def __repr__(self):
        return "\n".join(f"  {k} : {v}" for k, v in self._v.items())

    c_contiguous = contiguous = property(lambda self: self._v["C_CONTIGUOUS"])
    f_contiguous = fortran = property(lambda self: self._v["F_CONTIGUOUS"])
    writeable = property(lambda self: self._v["WRITEABLE"])
    aligned = property(lambda self: self._v["ALIGNED"])
    owndata = property(lambda self: self._v["OWNDATA"])
