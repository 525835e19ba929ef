"""ember under Dask: dask.array with ember chunks (ember.dask.array),
dask.dataframe with ember.frame partitions (ember.dask.dataframe), and
one worker per GPU (ember.dask.LocalCluster)."""


def __getattr__(name):
    # distributed is imported only by those who start a cluster
    if name in ("LocalCluster", "worker_devices"):
        from ember.dask import cluster
        return getattr(cluster, name)
    if name == "DeviceSpillMap":
        from ember.dask.spill import DeviceSpillMap
        return DeviceSpillMap
    raise AttributeError(f"module 'ember.dask' has no attribute {name!r}")
