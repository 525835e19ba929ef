"""A column's dtype as pandas names it, and where its nulls live.

Plain NumPy dtypes keep nulls in their values (NaN for floats, NaT for
datetimes; ints and bools have none). pandas' nullable dtypes (Int64,
Float64, boolean, ...) and strings keep them in an Arrow validity bitmap
beside the values. The two string dtypes differ only in what a null reads
as: NaN for pandas 3's default `str`, NA for `string`."""

_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_FLOATS = ("float32", "float64")
_UNITS = ("s", "ms", "us", "ns")


class Dtype:
    """name: pandas' spelling; storage: the ember dtype of the values (uint8
    bytes for strings); masked: nulls in a validity bitmap; kind: NumPy's
    kind letter ('b', 'i', 'u', 'f', 'M', 'm'), 'U' for strings, 'P' for
    pandas' object columns (Python objects: _object_column.py)."""
    __slots__ = ("name", "storage", "masked", "kind")

    def __init__(self, name, storage, masked, kind):
        self.name, self.storage, self.masked, self.kind = name, storage, masked, kind

    @property
    def na_is_nan(self):
        # what a null reads as in pandas: NaN/NaT, or pd.NA
        return not self.masked or self.name == "str"

    @property
    def is_numeric(self):
        return self.kind in "biuf"

    @property
    def is_string(self):
        return self.kind == "U"

    @property
    def is_categorical(self):
        return self.kind == "O"

    @property
    def is_object(self):
        return self.kind == "P"

    @property
    def dtype(self):
        """The NumPy dtype of these values where NumPy has one: numbers,
        bools, datetimes and timedeltas as themselves, strings as NumPy's
        StringDType. Through it np.dtype() and pandas' pandas_dtype() take
        a Dtype, as they take a pandas Series' NumPy dtype (dask's
        partition boundaries of a string column are built by
        pd.array(values, dtype=<the partition's dtype>)). The nullable
        numbers and categoricals have none (AttributeError), as pandas'
        Int64 and category have none."""
        import numpy as np
        if self.kind == "U":
            return np.dtypes.StringDType()
        if self.kind == "P":
            return np.dtype(object)
        if self.masked or self.kind == "O":
            raise AttributeError(f"the {self.name} dtype has no NumPy dtype")
        return np.dtype(self.name)

    @property
    def type(self):
        """The scalar type of the values, as a NumPy dtype's .type (str for
        strings, as pandas' string dtypes give); pyarrow's from_pandas
        reads it."""
        import numpy as np
        if self.kind == "U":
            return str
        if self.kind == "P":
            return object
        if self.kind == "O":
            raise AttributeError("a categorical dtype has no scalar type here")
        return np.dtype(self.storage if self.masked else self.name).type

    def __eq__(self, other):
        if isinstance(other, Dtype):
            return self.name == other.name
        try:
            return self.name == lookup(other).name
        except TypeError:
            return False

    def __hash__(self):
        return hash(self.name)

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"Dtype({self.name!r})"


_TABLE = {}


def _add(name, storage, masked, kind):
    _TABLE[name] = Dtype(name, storage, masked, kind)


_add("bool", "bool", False, "b")
_add("boolean", "bool", True, "b")
for _n in _INTS + _FLOATS:
    _add(_n, _n, False, _n[0])
    _add(_n[0].upper() + _n[1:] if _n[0] != "u" else "U" + _n[1:].capitalize(),
         _n, True, _n[0])
for _u in _UNITS:
    _add(f"datetime64[{_u}]", "int64", False, "M")
    _add(f"timedelta64[{_u}]", "int64", False, "m")
_add("str", "uint8", True, "U")
_add("string", "uint8", True, "U")
_add("object", "object", False, "P")
del _n, _u

# other spellings pandas and NumPy accept for the same dtypes
_ALIASES = {"bool_": "bool", "?": "bool", "float": "float64", "int": "int64",
            "double": "float64", "<M8[ns]": "datetime64[ns]", "<m8[ns]": "timedelta64[ns]",
            "M8[ns]": "datetime64[ns]", "m8[ns]": "timedelta64[ns]",
            "string[python]": "string", "string[pyarrow]": "string", "O": "object"}


class CategoricalDtype(Dtype):
    """pandas' 'category': the values are int codes (int8..int64 as pandas
    picks them for the number of categories, -1 for a null) into
    `categories`, a Column of distinct values; `ordered` says whether < and
    > and min/max mean anything. categories None is the bare 'category'
    of astype, whose categories come from the data."""
    __slots__ = ("categories", "ordered")

    def __init__(self, categories=None, ordered=False):
        n = 0 if categories is None else len(categories)
        super().__init__("category", code_storage(n), False, "O")
        # ordered None: the bare 'category', which keeps a categorical's flag
        self.categories = categories
        self.ordered = None if ordered is None else bool(ordered)

    def __eq__(self, other):
        from ember.frame._categorical import dtype_equal
        return dtype_equal(self, other)

    __hash__ = Dtype.__hash__

    def __repr__(self):
        cats = "None" if self.categories is None else \
            f"<{len(self.categories)} of {getattr(self.categories, 'dtype', '?')}>"
        return f"CategoricalDtype(categories={cats}, ordered={self.ordered})"


def code_storage(n):
    """The code dtype pandas picks for n categories."""
    for t, top in (("int8", 2 ** 7 - 1), ("int16", 2 ** 15 - 1), ("int32", 2 ** 31 - 1)):
        if n < top:
            return t
    return "int64"


def lookup(spec):
    """The Dtype for a name, a Dtype, a NumPy/ember/pandas dtype or a
    Python type; TypeError naming anything else."""
    if isinstance(spec, Dtype):
        return spec
    if (isinstance(spec, str) and spec == "category") or type(spec).__name__ == "CategoricalDtype":
        from ember.frame._categorical import dtype_from
        return dtype_from(spec)
    if spec is bool:
        return _TABLE["bool"]
    if spec is int:
        return _TABLE["int64"]
    if spec is float:
        return _TABLE["float64"]
    if spec is str:
        return _TABLE["str"]
    if spec is object:
        return _TABLE["object"]
    name = getattr(spec, "name", None) if not isinstance(spec, str) else spec
    if type(spec).__name__ == "StringDtype":   # pandas' two string dtypes
        name = "str" if isinstance(spec.na_value, float) else "string"
    elif type(spec).__name__ == "StringDType":  # NumPy's (Dtype.dtype)
        name = "str"
    if not isinstance(name, str):
        name = str(spec)
    name = _ALIASES.get(name, name)
    if name in _TABLE:
        return _TABLE[name]
    if name.startswith("datetime64[") and "," in name:   # a zone: _tz.py
        from ember.frame._tz import parse_name
        d = parse_name(name)
        if d is not None:
            return d
    raise TypeError(f"ember.frame does not support the dtype {name!r} yet "
                    "(supported: bool, int8..uint64, float32/64, their nullable "
                    "forms, datetime64/timedelta64 (with a zone), str, string, "
                    "category, object)")


def masked_form(storage):
    """The nullable dtype whose values are `storage` (int64 -> Int64)."""
    storage = str(storage)
    for d in _TABLE.values():
        if d.masked and d.storage == storage and d.kind != "U":
            return d
    raise TypeError(f"ember.frame has no nullable form of {storage!r}")


def plain_form(storage):
    return lookup(str(storage))
