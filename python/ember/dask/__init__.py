"""ember under Dask: dask.dataframe with ember.frame partitions
(ember.dask.dataframe)."""
