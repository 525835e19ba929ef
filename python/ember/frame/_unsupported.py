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
    tz_localize = _refuse("tz_localize", "of the index (a zone of the labels); the "
                          "values' is .dt.tz_localize")
    tz_convert = _refuse("tz_convert", "of the index (a zone of the labels); the "
                         "values' is .dt.tz_convert")
    explode = _refuse("explode", "list values are not a column type here")
