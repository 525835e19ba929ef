"""The bytes dask counts for an ember chunk or partition: the device bytes
behind it. dask's default (sys.getsizeof) sees a small Python object, so
the scheduler would take moving a 512 MiB chunk between GPUs for free when
it places a task, and the workers' memory accounting (spilling, rebalance,
pausing) would count nothing.

Found through the "dask.sizeof" entry point (pyproject.toml) by any
process that imports dask.sizeof; ember.dask.array and ember.dask.dataframe
also register it on import, for a build used without installing."""


def register(sizeof):
    """Register ember's types with dask's sizeof dispatch, when the first
    object of a module under ember is measured (dask keys lazy entries by
    top-level package), so importing dask does not import ember."""

    @sizeof.register_lazy("ember")
    def _register():
        import ember
        from ember.frame import DataFrame, Index, Series
        from ember.frame._methods_info import _index_bytes, _nbytes

        @sizeof.register(ember.ndarray)
        def _array(a):
            return int(a.nbytes)

        @sizeof.register(DataFrame)
        def _frame(df):
            return _index_bytes(df) + sum(_nbytes(c) for c in df._cols.values())

        @sizeof.register(Series)
        def _series(s):
            return _index_bytes(s) + _nbytes(s._col)

        @sizeof.register(Index)
        def _index(ix):
            return _nbytes(ix._col)
