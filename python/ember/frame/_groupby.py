"""groupby: split rows by keys, reduce or transform each group (owner:
issue 22's groupby). Methods reach Series and DataFrame through the
mixin below; the group codes are _groupby_codes', the reductions
_groupby_agg's, the per-row results _groupby_scan's, compiled apply
_groupby_apply's."""


class GroupbyMethods:
    """Series.groupby, DataFrame.groupby and DataFrame.pivot_table."""

    def groupby(self, by=None, level=None, as_index=True, sort=True, group_keys=True,
                observed=True, dropna=True):
        """pandas' groupby by column names, Series or arrays (one or a
        list); several keys with as_index=True raise NotImplementedError
        (the result would need a MultiIndex): pass as_index=False."""
        from ember.frame._groupby_obj import GroupBy, resolve_keys
        if level is not None:
            if by is not None:
                raise NotImplementedError("groupby by both by= and level=; put the "
                                          "levels in columns (reset_index)")
            from ember.frame._multiindex_frame import level_keys
            keys, exclude = level_keys(self.index, level, self._dev()), []
        elif by is None:
            raise TypeError("You have to supply one of 'by' and 'level'")
        else:
            keys, exclude = resolve_keys(self, by)
        if not as_index and not hasattr(self, "_cols"):
            raise TypeError("as_index=False only valid with DataFrame")
        # a list of one key: pandas 3 iterates one-element tuples ("by" or
        # "level": only by= warns in groups)
        one, how = (by, "by") if level is None else (level, "level")
        one_list = how if isinstance(one, list if level is None else (list, tuple)) \
            and len(one) == 1 else False
        gb = GroupBy(self, keys, exclude, bool(as_index), bool(sort), bool(dropna),
                     one_list=one_list)
        if not observed and any(c.dtype.is_categorical for _, c in keys):
            # every category is a group (_groupby_observed.py)
            gb._shared["observed"] = False
        return gb

    def pivot_table(self, values=None, index=None, columns=None, aggfunc="mean",
                    fill_value=None, margins=False, dropna=True, margins_name="All",
                    observed=True, sort=True):
        from ember.frame._pivot import pivot_table
        if not hasattr(self, "_cols"):
            raise AttributeError("'Series' object has no attribute 'pivot_table'")
        return pivot_table(self, values=values, index=index, columns=columns,
                           aggfunc=aggfunc, fill_value=fill_value, margins=margins,
                           dropna=dropna, margins_name=margins_name, observed=observed,
                           sort=sort)
