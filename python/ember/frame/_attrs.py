"""Columns as attributes (df.a, df.a = ...) by pandas' rule, the index
and columns setters, and pandas' `attrs` dict."""
import warnings


def _get_attrs(self):
    a = self.__dict__.get("_attrs_dict")
    if a is None:
        a = self._attrs_dict = {}
    return a


def _set_attrs(self, value):
    self._attrs_dict = dict(value)


# pandas' DataFrame.attrs / Series.attrs: a dict of metadata about the
# object (pyarrow's from_pandas reads it into a table's schema). pandas
# copies it into the results of operations; here it stays with the object.
attrs_property = property(_get_attrs, _set_attrs)


class AttrMethods:
    """df.name reads a column when no method or property has that name
    (__getattr__ only runs after those are looked up); df.name = value
    sets an existing column, and anything else is a plain attribute, as in
    pandas."""

    def __getattr__(self, name):
        cols = self.__dict__.get("_cols")
        if cols is not None and not name.startswith("__") and name in cols:
            return self[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        cols = self.__dict__.get("_cols")
        if cols is not None and not name.startswith("_") and \
                name not in self.__dict__ and not hasattr(type(self), name):
            if name in cols:
                self[name] = value
                return
            if isinstance(value, (list, tuple)) or hasattr(value, "__len__") and \
                    not isinstance(value, str):
                warnings.warn("Pandas doesn't allow columns to be created via a new "
                              "attribute name", UserWarning, stacklevel=2)
        object.__setattr__(self, name, value)


def labels_for(labels, n, device):
    """An Index or RangeIndex of n labels from what pandas takes for
    df.index = ... (an Index, a pandas Index, a Series, a list, a range, an
    array)."""
    from ember.frame._index import Index
    from ember.frame.series import Series, _index_for
    if type(labels).__module__.split(".")[0] == "pandas":
        from ember.frame._pandas import from_pandas
        labels = from_pandas(labels, device)
    if isinstance(labels, Series):
        labels = Index(labels._col, name=labels.name)
    if len(labels) != n:
        raise ValueError(f"Length mismatch: Expected axis has {n} elements, new values "
                         f"have {len(labels)} elements")
    return _index_for(labels, n, device)


def set_index_labels(obj, labels):
    obj._index = labels_for(labels, len(obj), obj._dev())


def set_column_names(df, names):
    if type(names).__name__ == "MultiIndex":
        raise NotImplementedError("MultiIndex columns are not supported by ember.frame")
    name = getattr(names, "name", None)
    names = list(names)
    if len(names) != len(df._cols):
        raise ValueError(f"Length mismatch: Expected axis has {len(df._cols)} elements, "
                         f"new values have {len(names)} elements")
    from ember.frame._dup_labels import keys_for
    df._cols = dict(zip(keys_for(names), df._cols.values()))
    df._colname = name   # an Index's name, as pandas takes it; a list has none
