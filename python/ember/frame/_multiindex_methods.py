"""Series and DataFrame methods about the levels of a MultiIndex: xs,
droplevel, swaplevel, reorder_levels (rows only: ember.frame's columns
are one level)."""


def _rows_only(axis, what):
    if axis not in (0, "index", "rows"):
        raise NotImplementedError(f"{what}(axis=1) (the columns are one level in "
                                  "ember.frame)")


def _multi(obj, what):
    index = obj.index
    if getattr(index, "nlevels", 1) < 2:
        raise ValueError(f"{what}: the index is not a MultiIndex")
    return index


class LevelMethods:
    """The mixin that Series and DataFrame take."""

    def xs(self, key, axis=0, level=None, drop_level=True):
        """The rows whose level values equal key (the leading levels, or
        those named by level), without those levels unless drop_level is
        False."""
        from ember.frame._multiindex_frame import loc_label
        _rows_only(axis, "xs")
        if getattr(self.index, "nlevels", 1) < 2:
            if level not in (None, 0, self.index.name):
                raise KeyError(f"Level {level} not found")
            return self.loc[key]
        if level is None:
            return loc_label(self, key, drop_level)
        index = self.index
        levels = level if isinstance(level, (list, tuple)) else [level]
        keys = key if isinstance(key, tuple) else (key,)
        if len(keys) != len(levels):
            raise ValueError("the key and the levels must be as long")
        nums = [index._level_number(lv) for lv in levels]
        out = self._take(index.tuple_positions(keys, nums))
        if drop_level:
            keep = [i for i in range(index.nlevels) if i not in nums]
            if not keep:
                raise NotImplementedError("xs of every level with drop_level=True; "
                                          "use loc with the tuple")
            out._index = out._index._pick(keep)
        return out

    def droplevel(self, level, axis=0):
        _rows_only(axis, "droplevel")
        return self._with_index(_multi(self, "droplevel").droplevel(level))

    def swaplevel(self, i=-2, j=-1, axis=0):
        _rows_only(axis, "swaplevel")
        return self._with_index(_multi(self, "swaplevel").swaplevel(i, j))

    def reorder_levels(self, order, axis=0):
        _rows_only(axis, "reorder_levels")
        return self._with_index(_multi(self, "reorder_levels").reorder_levels(order))

    def _with_index(self, index):
        out = self._take_all()
        out._index = index
        return out

    def _take_all(self):
        return self._slice(0, len(self))

    def value_counts(self, subset=None, normalize=False, sort=True, ascending=False,
                     dropna=True):
        """DataFrame.value_counts: rows a distinct tuple of the subset's
        columns, indexed by them (a MultiIndex for several), most first."""
        from ember.frame._column import Column
        names = list(self._cols) if subset is None else (
            list(subset) if isinstance(subset, (list, tuple)) else [subset])
        if any(self._column(k).dtype.is_categorical for k in names):
            raise NotImplementedError("DataFrame.value_counts of a categorical column "
                                      "(pandas counts unused categories too); use "
                                      "groupby(...).size()")
        out = self.groupby(names, dropna=dropna, sort=False).size()   # as pandas
        if normalize:   # shares of the rows counted (all of them with dropna=False)
            v = out._col.values
            out = out._like(Column("float64", v / v.sum()))
        out.name = "proportion" if normalize else "count"
        if sort:
            out = out.sort_values(ascending=ascending)
        return out
