"""pandas names ember.frame does not build, raising NotImplementedError
that names them (rather than AttributeError, which reads as a typo)."""


def read_orc(*args, **kwargs):
    raise NotImplementedError("read_orc is not supported by ember.frame; use "
                              "read_parquet, or pyarrow.orc and ember.from_arrow")


def to_orc(self, *args, **kwargs):
    raise NotImplementedError("DataFrame.to_orc is not supported by ember.frame; use "
                              "to_parquet, or pyarrow.orc.write_table(df.to_arrow(), path)")


def _refuse(what, why):
    def f(*args, **kwargs):
        raise NotImplementedError(f"{what} is not supported by ember.frame: {why}")
    f.__name__ = what.rsplit(".", 1)[-1]
    f.__doc__ = f"Not supported: {why}"
    return f


class RefusedMethods:
    """Series and DataFrame methods the tutorials use that ember.frame does
    not build: NotImplementedError naming them and what to use instead,
    rather than AttributeError, which reads as a typo."""
    def tz_localize(self, tz, axis=0, level=None, copy=None, ambiguous="raise",
                    nonexistent="raise"):
        """pandas' tz_localize of the index's labels (the values' is
        .dt.tz_localize) (_tz.py)."""
        from ember.frame._tz import index_tz
        return index_tz(self, "localize", tz, axis, level, ambiguous, nonexistent)

    def tz_convert(self, tz, axis=0, level=None, copy=None):
        """pandas' tz_convert of the index's labels (_tz.py)."""
        from ember.frame._tz import index_tz
        return index_tz(self, "convert", tz, axis, level)
    def explode(self, column=None, ignore_index=False):
        """DataFrame.explode(column, ignore_index=False) and
        Series.explode(ignore_index=False): a row an item of each list
        (_object_ops.py)."""
        from ember.frame import _object_ops
        if self.ndim == 1:   # Series.explode's one argument is ignore_index
            return _object_ops.explode_series(self, ignore_index if column is None
                                              else bool(column))
        if column is None:
            raise TypeError("explode() missing 1 required positional argument: 'column'")
        return _object_ops.explode_frame(self, column, ignore_index)
