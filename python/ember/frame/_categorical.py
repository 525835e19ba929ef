"""Categorical columns: int codes into a Column of categories (pandas'
'category'). Every step is a gather or a scatter of codes; matching values
against categories goes through one shared coding of both (_order.codes),
so categories of any dtype ember holds (str, ints, floats...) work alike."""
import ember

from ember.frame._column import Column
from ember.frame._dtypes import CategoricalDtype, code_storage


def is_cat(x):
    d = x.dtype if isinstance(x, Column) else x
    return getattr(d, "is_categorical", False)


def dtype_from(spec):
    """'category' or pandas' CategoricalDtype -> ours; pandas' categories
    stay a pandas Index until a device is known (resolve)."""
    if isinstance(spec, str):
        return CategoricalDtype(None, None)
    cats = spec.categories
    return CategoricalDtype(cats, bool(spec.ordered))


def resolve(d, device):
    """d with its categories as a Column on `device` (None stays None)."""
    cats = d.categories
    if cats is None:
        return d
    if isinstance(cats, Column):
        if str(cats.device) == str(device):
            return d
        return CategoricalDtype(cats.to_device(device), d.ordered)
    if type(cats).__module__.startswith("pandas"):
        from ember.frame._pandas import column_from_pandas
        col = column_from_pandas(cats, device)
    else:
        from ember.frame._convert import column_from
        col = column_from(list(cats), device=device)
    if col.has_nulls():
        raise ValueError("Categorical categories cannot be null")
    if len(col) and _order_codes(col)[1] != len(col):
        raise ValueError("Categorical categories must be unique")
    return CategoricalDtype(col, d.ordered)


def _order_codes(col):
    from ember.frame._order import codes
    return codes(col)


def dtype_equal(a, other):
    """pandas' rule: 'category' (no categories) equals any categorical;
    else the ordered flags agree and the categories are the same, in the
    same order when ordered."""
    if isinstance(other, str):
        return other == "category"
    if not is_cat(other):
        if type(other).__name__ != "CategoricalDtype":
            return False
        other = dtype_from(other)
    if a.categories is None or other.categories is None:
        return True
    if a.ordered != other.ordered or len(a.categories) != len(other.categories):
        return False
    dev = a.categories.device if isinstance(a.categories, Column) else "cpu"
    x, y = resolve(a, dev).categories, resolve(other, dev).categories
    if x.dtype.is_string != y.dtype.is_string or x.dtype.kind != y.dtype.kind:
        return False
    pos = recode(x, y)
    if not len(x):
        return True
    if a.ordered:
        return bool((pos == ember.arange(len(x), dtype="int64", device=dev)).all())
    return bool((pos >= 0).all())


def codes_of(col):
    """The codes, -1 at a null (a validity bitmap, as a merge's missing
    rows give, counts as null too)."""
    c = col.values
    if col.validity is not None:
        from ember.frame import _bitmap
        c = ember.where(_bitmap.unpack(col.validity, col.length), c, -1)
    return c


def make(codes, d):
    """A categorical column of int codes (any int dtype, -1 null) under d."""
    return Column(d, codes.astype(code_storage(len(d.categories))))


def recode(src, dst):
    """For each row of the column src, its position among the distinct
    values of dst (int64), -1 where absent or null."""
    from ember.frame._column import concat
    m = src.length
    dev = src.device
    if m == 0 or dst.length == 0 or src.dtype.is_string != dst.dtype.is_string or \
            is_cat(src) or is_cat(dst):
        if is_cat(src) or is_cat(dst):
            return recode(decode(src) if is_cat(src) else src,
                          decode(dst) if is_cat(dst) else dst)
        return ember.full(m, -1, dtype="int64", device=dev)
    both, k = _order_codes(concat(src, dst))
    table = ember.full(k + 1, -1, dtype="int64", device=dev)
    theirs = both[m:]
    at = ember.flatnonzero(theirs >= 0)
    table[theirs[at]] = at
    mine = both[:m]
    return table[ember.where(mine < 0, k, mine)]


def encode(col, d):
    """A values column -> categorical under d (its categories inferred
    from the values, sorted, when d has none); a value not among the
    categories becomes null, as pandas does."""
    dev = col.device
    if d.categories is not None:
        d = resolve(d, dev)
        return make(recode(col, d.categories), d)
    c, k = _order_codes(col)
    valid = ember.flatnonzero(c >= 0)
    rep = ember.zeros(k, dtype="int64", device=dev)
    rep[c[valid]] = valid   # any row of a value stands for it
    cats = col.take(rep)
    if cats.validity is not None and cats.dtype.is_string:
        cats = cats.with_validity(None)
    elif cats.validity is not None:
        cats = Column(cats.dtype, cats.values)
    return make(c, CategoricalDtype(cats, bool(d.ordered)))


def with_categories_of(col, d, present):
    """col under d with the categories the column `present` infers."""
    cats = encode(present, d).dtype.categories
    return encode(col, CategoricalDtype(cats, bool(d.ordered)))


def null_column(dtype, n, device):
    """n nulls of the dtype a decoded categorical of these categories has."""
    from ember.frame._merge_cols import nulls, nullable
    return nulls(nullable(dtype), n, device)


def decode(col):
    """The categorical column as the values it stands for; nulls as the
    categories' dtype holds them (ints without nulls become float64 NaN,
    bool boolean NA, as np.asarray of pandas' Categorical reads them)."""
    from ember.frame._merge_cols import take
    cats = col.dtype.categories
    c = codes_of(col)
    if cats.length == 0:
        return null_column(cats.dtype, col.length, col.device)
    missing = c < 0
    if not bool(missing.any()):
        return cats.take(c.astype("int64"))
    return take(cats, c.astype("int64"), missing)


def astype(col, to):
    """astype to or from 'category' (col or `to` categorical)."""
    from ember.frame._convert import astype as plain
    if is_cat(to):
        to = resolve(to, col.device)
        if is_cat(col):
            if to.categories is None:
                if to.ordered is None or to.ordered == col.dtype.ordered:
                    return col
                return Column(CategoricalDtype(col.dtype.categories, to.ordered), col.values)
            return make(_remap(col, to.categories), to)
        return encode(col, to)
    return plain(decode(col), to)


def _remap(col, cats):
    """col's codes as positions among the categories `cats` (-1 absent)."""
    m = recode(col.dtype.categories, cats)
    c = codes_of(col).astype("int64")
    if m.shape[0] == 0:
        return ember.full(col.length, -1, dtype="int64", device=col.device)
    return ember.where(c < 0, -1, m[ember.maximum(c, 0)])


def scalar_code(col, value):
    """The code of a scalar among col's categories, or -1."""
    from ember.frame._convert import column_from
    cats = col.dtype.categories
    if value is None or (isinstance(value, float) and value != value):
        return -1
    one = column_from([value], device=col.device)
    return int(recode(one, cats)[0])


def fill_code(col, value):
    """The code a fill value takes: -1 for None, TypeError for a value
    that is not a category (pandas asks to add it first)."""
    if value is None:
        return -1
    code = scalar_code(col, value)
    if code < 0:
        raise TypeError(f"Cannot setitem on a Categorical with a new category "
                        f"({value}), set the categories first")
    return code


def fillna(col, value):
    code = fill_code(col, value)
    c = codes_of(col)
    return Column(col.dtype, ember.where(c < 0, code, c).astype(col.values.dtype))


def choose(col, keep, other, null_or_column):
    """where/mask: each row's code where keep, else other's (a scalar
    category, a null, or a column whose values are categories)."""
    c = codes_of(col)
    if isinstance(other, Column):
        oc = recode(other, col.dtype.categories)
        if bool((~keep & (oc < 0) & ~other.isna()).any()):
            raise TypeError("Cannot setitem on a Categorical with a new category, "
                            "set the categories first")
    else:
        oc = -1 if null_or_column else fill_code(col, other)
    return Column(col.dtype, ember.where(keep, c, oc).astype(c.dtype))


def same_rows(a, b):
    """Index.equals with a categorical among a and b: codes of equal
    dtypes compare (a null equals a null), else the values."""
    from ember.frame._index import Index
    if is_cat(a) and is_cat(b) and a.dtype == b.dtype:
        return bool((codes_of(a).astype("int64") == _remap(b, a.dtype.categories)).all())
    a, b = (decode(c) if is_cat(c) else c for c in (a, b))
    return Index(a).equals(Index(b))


_ORDER_OPS = ("lt", "le", "gt", "ge")


def compare(op, a, b):
    """a op b with a categorical among them, as pandas: == and != against
    a category scalar or a categorical of the same categories compare
    codes; < <= > >= only when ordered."""
    from ember.frame import _ops
    if op not in _ops.COMPARE:
        raise TypeError(f"unsupported operand for {op}: 'Categorical' "
                        "(categorical columns support comparisons only)")
    if not is_cat(a):   # a plain column against a categorical one
        a, b = b, a
        op = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}.get(op, op)
    d = a.dtype
    ca = codes_of(a).astype("int64")
    if isinstance(b, Column) and is_cat(b):
        if d.ordered != b.dtype.ordered:
            raise TypeError("Categoricals can only be compared if 'ordered' is the same")
        if not (b.dtype == d):
            raise TypeError("Categoricals can only be compared if 'categories' are "
                            "the same.")
        cb = _remap(b, d.categories)
    elif isinstance(b, Column):
        if op in _ORDER_OPS:
            raise TypeError(f"Cannot compare a Categorical for op {op} with a "
                            f"{b.dtype.name} column; compare its values "
                            "(astype to the categories' dtype) instead")
        return _ops.binary(op, decode(a), b)
    else:
        code = scalar_code(a, b)
        if code < 0 and op in _ORDER_OPS:
            raise TypeError(f"Invalid comparison between dtype=category and "
                            f"{type(b).__name__}")
        cb = code
    if op in _ORDER_OPS and not d.ordered:
        raise TypeError("Unordered Categoricals can only compare equality or not")
    out = _ops.COMPARE[op](ca, cb)
    null = ca < 0
    if isinstance(cb, ember.ndarray):
        null = null | (cb < 0)
    elif cb < 0:
        null = ember.ones(a.length, dtype="bool", device=a.device)
    return Column("bool", ember.where(null, op == "ne", out))


def reduce(col, how, skipna=True):
    """count everywhere, min and max of ordered ones (a category); others
    TypeError as pandas."""
    import numpy as np
    d = col.dtype
    c = codes_of(col)
    if how == "count":
        return np.int64(int((c >= 0).sum()))
    if how not in ("min", "max"):
        raise TypeError(f"'Categorical' with dtype category does not support "
                        f"operation '{how}'")
    if not d.ordered:
        raise TypeError(f"Categorical is not ordered for operation {how}\nyou can "
                        "use .as_ordered() to change the Categorical to an ordered one\n")
    valid = c[c >= 0]
    if valid.shape[0] == 0 or (not skipna and valid.shape[0] < col.length):
        return np.float64("nan")
    code = int(valid.min() if how == "min" else valid.max())
    from ember.frame.series import _scalar
    return _scalar(d.categories.take(ember.asarray([code], dtype="int64",
                                                   device=col.device)))


def counts(col):
    """Rows per category (int64, all categories, unused ones 0) and the
    null count."""
    c = codes_of(col).astype("int64")
    k = col.dtype.categories.length
    per = ember.bincount(c + 1, minlength=k + 1).astype("int64")
    return per[1:], per[:1]


def value_counts(s, normalize, sort, ascending, dropna):
    """pandas' value_counts of a categorical Series: every category, in
    category order, unused ones with 0; NA last before the stable sort."""
    from ember.frame.series import Series
    from ember.frame._index import Index
    col = s._col
    per, nulls = counts(col)
    k = per.shape[0]
    dev = col.device
    codes = ember.arange(k, dtype="int64", device=dev)
    if not dropna and bool(nulls[0] > 0):
        per = ember.concatenate([per, nulls])
        codes = ember.concatenate([codes, ember.full(1, -1, dtype="int64", device=dev)])
    if sort:
        order = ember.argsort(per if ascending else -per, kind="stable")
        per, codes = per[order], codes[order]
    values, name = per, "count"
    if normalize:
        total = int(per.sum()) if per.shape[0] else 0
        # pandas divides by 0 when there is no row: every category NaN
        values = per / total if total else ember.full(per.shape[0], float("nan"),
                                                      device=dev)
        name = "proportion"
    index = Index(make(codes, col.dtype), name=s.name)
    return Series._make(Column(str(values.dtype), values), index, name)


def concat(a, b):
    """Rows of a then b: categorical when both have equal dtypes (b's codes
    moved to a's categories), else the values they stand for."""
    from ember.frame._column import concat as plain
    if is_cat(a) and is_cat(b) and a.dtype == b.dtype:
        return make(ember.concatenate([codes_of(a).astype("int64"),
                                       _remap(b, a.dtype.categories)]), a.dtype)
    return plain(decode(a) if is_cat(a) else a, decode(b) if is_cat(b) else b)


def dense_codes(col):
    """_order.codes of a categorical: codes in category order, renumbered
    over the categories in use (a bincount, no sort)."""
    c = codes_of(col).astype("int64")
    k = col.dtype.categories.length
    if k == 0 or col.length == 0:
        return ember.full(col.length, -1, dtype="int64", device=col.device), 0
    used = ember.bincount(c + 1, minlength=k + 1)[1:] > 0
    rank = ember.cumsum(used.astype("int64")) - 1
    return ember.where(c < 0, -1, rank[ember.maximum(c, 0)]), int(rank[k - 1]) + 1
