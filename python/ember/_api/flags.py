"""a.flags, NumPy's flags object: a snapshot of an array's layout bits,
which ndarray's C getter reads and passes here (a cold path)."""

_NAMES = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED")
_ALIASES = {"C": "C_CONTIGUOUS", "CONTIGUOUS": "C_CONTIGUOUS", "F": "F_CONTIGUOUS",
            "FORTRAN": "F_CONTIGUOUS", "O": "OWNDATA", "W": "WRITEABLE",
            "A": "ALIGNED"}
# NumPy's derived flags, read from the five above (NumPy's definitions:
# FNC Fortran and not C, FORC either, BEHAVED aligned and writeable,
# CARRAY behaved C; FARRAY, as NumPy computes it, any of aligned,
# writeable, Fortran, and not C: its documentation says "behaved Fortran",
# but np.isfortran and programs read what it returns); ember never makes
# a write-back copy, so WRITEBACKIFCOPY is always False.
_DERIVED = {
    "FNC": lambda v: v["F_CONTIGUOUS"] and not v["C_CONTIGUOUS"],
    "FORC": lambda v: v["F_CONTIGUOUS"] or v["C_CONTIGUOUS"],
    "BEHAVED": lambda v: v["ALIGNED"] and v["WRITEABLE"],
    "CARRAY": lambda v: v["ALIGNED"] and v["WRITEABLE"] and v["C_CONTIGUOUS"],
    "FARRAY": lambda v: ((v["ALIGNED"] or v["WRITEABLE"] or v["F_CONTIGUOUS"])
                         and not v["C_CONTIGUOUS"]),
    "WRITEBACKIFCOPY": lambda v: False,
}
_ALIASES.update({"B": "BEHAVED", "CA": "CARRAY", "FA": "FARRAY", "X": "WRITEBACKIFCOPY"})


class flagsobj:
    """An array's flags when asked: flags['C_CONTIGUOUS'] or
    flags.c_contiguous, as NumPy's."""

    __slots__ = ("_v",)
    __module__ = "ember"

    def __init__(self, base, *values):
        self._v = dict(zip(_NAMES, map(bool, values)))

    def __getitem__(self, key):
        if isinstance(key, str):
            name = _ALIASES.get(key, key)
            v = self._v.get(name)
            if v is not None:
                return v
            if name in _DERIVED:
                return _DERIVED[name](self._v)
        raise KeyError(key)

    def __repr__(self):
        return "\n".join(f"  {k} : {v}" for k, v in
                         [*self._v.items(), ("WRITEBACKIFCOPY", False)])

    c_contiguous = contiguous = property(lambda self: self._v["C_CONTIGUOUS"])
    f_contiguous = fortran = property(lambda self: self._v["F_CONTIGUOUS"])
    writeable = property(lambda self: self._v["WRITEABLE"])
    aligned = property(lambda self: self._v["ALIGNED"])
    owndata = property(lambda self: self._v["OWNDATA"])
    fnc = property(lambda self: self["FNC"])
    forc = property(lambda self: self["FORC"])
    behaved = property(lambda self: self["BEHAVED"])
    carray = property(lambda self: self["CARRAY"])
    farray = property(lambda self: self["FARRAY"])
    writebackifcopy = property(lambda self: False)
