"""Series.cat: pandas' categorical accessor. Each method makes new
categories (a Column) and moves the codes to them with one gather."""
import ember

from ember.frame._column import Column
from ember.frame._dtypes import CategoricalDtype
from ember.frame import _categorical as C


class CatMethods:
    @property
    def cat(self):
        if not C.is_cat(self._col):
            raise AttributeError("Can only use .cat accessor with a 'category' dtype")
        return CatAccessor(self)


def _as_column(values, device):
    from ember.frame.series import Series
    from ember.frame._index import Index
    from ember.frame._convert import column_from
    if isinstance(values, Series):
        return values._col
    if isinstance(values, Index):
        return values._column(device)
    if isinstance(values, Column):
        return values
    if type(values).__module__.startswith("pandas"):
        from ember.frame._pandas import column_from_pandas
        return column_from_pandas(values, device)
    return column_from(list(values), device=device)


def _unique_check(cats):
    if cats.has_nulls():
        raise ValueError("Categorical categories cannot be null")
    if cats.length and C._order_codes(cats)[1] != cats.length:
        raise ValueError("Categorical categories must be unique")


def _join(old, new):
    """old's categories then new's, when they can share one column."""
    from ember.frame._column import concat
    if old.length and old.dtype.is_string != new.dtype.is_string:
        raise NotImplementedError(f"categories of {old.dtype.name} and {new.dtype.name} "
                                  "together (pandas makes object categories, which "
                                  "ember.frame does not hold)")
    return concat(old, new) if old.length else new


class CatAccessor:
    def __init__(self, s):
        self._s = s
        self._col = s._col
        self._d = s._col.dtype

    def _new(self, cats, ordered=None, codes=None):
        """The Series under new categories; codes default to the old
        categories' positions among the new ones."""
        ordered = self._d.ordered if ordered is None else ordered
        if codes is None:
            codes = C._remap(self._col, cats)
        d = CategoricalDtype(cats, ordered)
        return self._s._like(C.make(codes, d))

    @property
    def categories(self):
        from ember.frame._index import Index
        return Index(self._d.categories)

    @property
    def ordered(self):
        return self._d.ordered

    @property
    def codes(self):
        out = self._s._like(Column(str(self._col.values.dtype), C.codes_of(self._col)))
        out.name = None   # as pandas' codes
        return out

    def as_ordered(self):
        return self._new(self._d.categories, True, self._col.values)

    def as_unordered(self):
        return self._new(self._d.categories, False, self._col.values)

    def set_categories(self, new_categories, ordered=None, rename=False):
        cats = _as_column(new_categories, self._col.device)
        _unique_check(cats)
        if rename:
            c = C.codes_of(self._col).astype("int64")
            return self._new(cats, ordered, ember.where(c < cats.length, c, -1))
        return self._new(cats, ordered)

    def reorder_categories(self, new_categories, ordered=None):
        cats = _as_column(new_categories, self._col.device)
        old = self._d.categories
        pos = C.recode(cats, old)
        if cats.length != old.length or not bool((pos >= 0).all()) or \
                C._order_codes(cats)[1] != cats.length:
            raise ValueError("items in new_categories are not the same as in old "
                             "categories")
        return self._new(cats, ordered)

    def add_categories(self, new_categories):
        if isinstance(new_categories, (str, int, float)):
            new_categories = [new_categories]
        add = _as_column(new_categories, self._col.device)
        old = self._d.categories
        if bool((C.recode(add, old) >= 0).any()):
            raise ValueError("new categories must not include old categories")
        cats = _join(old, add)
        _unique_check(cats)
        return self._new(cats, None, self._col.values)

    def remove_categories(self, removals):
        if isinstance(removals, (str, int, float)):
            removals = [removals]
        rem = _as_column(removals, self._col.device)
        old = self._d.categories
        if not bool((C.recode(rem, old) >= 0).all()):
            raise ValueError("removals must all be in old categories")
        kept = old.take(ember.flatnonzero(C.recode(old, rem) < 0))
        if not self._d.ordered:   # pandas' Index.difference sorts them
            from ember.frame._order import sort_indexer
            kept = kept.take(sort_indexer([kept], [True], "last"))
        return self._new(kept)

    def remove_unused_categories(self):
        per, _ = C.counts(self._col)
        keep = ember.flatnonzero(per > 0)
        return self._new(self._d.categories.take(keep))

    def rename_categories(self, new_categories):
        old = self._d.categories
        dev = self._col.device
        if callable(new_categories):
            raise NotImplementedError("rename_categories with a function; pass a "
                                      "list or a dict of the new names")
        if isinstance(new_categories, dict):
            keys = _as_column(list(new_categories), dev)
            vals = _as_column(list(new_categories.values()), dev)
            at = C.recode(old, keys)   # each old category's key, -1 if none
            n = old.length
            idx = ember.where(at >= 0, n + at, ember.arange(n, dtype="int64", device=dev))
            cats = _join(old, vals).take(idx)
        else:
            cats = _as_column(new_categories, dev)
            if cats.length != old.length:
                raise ValueError("new categories need to have the same number of "
                                 "items as the old categories!")
        _unique_check(cats)
        return self._new(cats, None, self._col.values)
