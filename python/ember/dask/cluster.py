"""ember.dask.LocalCluster: distributed's LocalCluster with one worker per
visible GPU (or, without one, per NUMA node), each pinned to its device
by UUID and to the CPUs next to it, and optionally a device memory limit
above which chunks spill to host memory."""
import copy
from concurrent.futures import ThreadPoolExecutor

import dask
import distributed

from ember.dask import worker as _w
from ember.dask.spill import DeviceSpillMap


class LocalCluster(distributed.LocalCluster):
    """LocalCluster(n_workers=None, device_memory_limit=None,
    threads_per_worker=None, processes=True, worker_saturation=inf, **kwargs)

    n_workers: the first n visible GPUs (default all); with no GPU the
    number of cpu workers (default one per NUMA node).
    device_memory_limit: bytes (or "4 GiB") of ember chunks each worker's
    store keeps on its device; older ones move to host memory above it
    (None: no limit, nothing spills).
    threads_per_worker: default 1 per GPU worker, the worker's CPUs for a
    cpu worker. processes=False runs the workers as threads of this process
    (each worker's threads use its device).
    worker_saturation: the scheduler's distributed.scheduler.worker-saturation.
    The default, inf, hands tasks with no inputs (a chunk made by
    da.random, a partition read from a file) to the workers at once, in
    contiguous runs: the chunks of a persisted array split evenly over the
    GPUs, neighbouring chunks reduce on one GPU without a transfer, and a
    worker of one thread has its next task at hand instead of asking the
    scheduler after each. A number (distributed's default is 1.1) queues
    them on the scheduler, holding less in memory at once for a graph
    that makes much more data than it keeps.
    Other keywords are distributed.LocalCluster's."""

    def __init__(self, n_workers=None, device_memory_limit=None,
                 threads_per_worker=None, processes=True,
                 worker_saturation=float("inf"), **kwargs):
        self.ember_plan = _w.plan(n_workers)
        self.device_memory_limit = device_memory_limit
        if device_memory_limit is not None:
            DeviceSpillMap(device_memory_limit)   # a bad limit fails here
        self._tpw = threads_per_worker
        kwargs.setdefault("dashboard_address", None)
        if not (isinstance(worker_saturation, (int, float)) and
                not isinstance(worker_saturation, bool) and worker_saturation > 0):
            raise ValueError("worker_saturation must be a number > 0 (or inf), "
                             f"got {worker_saturation!r}")
        self.worker_saturation = worker_saturation
        super().__init__(n_workers=0, threads_per_worker=threads_per_worker or 1,
                         processes=processes, **kwargs)
        self.scale(len(self.ember_plan))
        if not self.asynchronous:
            self.sync(self._correct_state)   # the workers are up on return

    async def _start(self):
        # the scheduler is made here (inside __init__, or when an
        # asynchronous cluster is awaited) and reads the setting once
        with dask.config.set({"distributed.scheduler.worker-saturation":
                              self.worker_saturation}):
            await super()._start()

    def new_worker_spec(self):
        name = self._new_worker_name(self._i)
        while name in self.worker_spec:
            self._i += 1
            name = self._new_worker_name(self._i)
        entry = self.ember_plan[name % len(self.ember_plan)] if isinstance(name, int) \
            else self.ember_plan[0]
        spec = copy.copy(self.new_spec)
        opts = dict(spec["options"])
        nthreads = self._tpw or (1 if entry["uuid"] else len(entry["cpus"]))
        opts["nthreads"] = nthreads
        if self.device_memory_limit is not None:
            opts["data"] = (DeviceSpillMap,
                            {"device_memory_limit": self.device_memory_limit})
        if self.processes:
            opts["env"] = {**opts.get("env", {}), **_w.worker_env(entry)}
            opts["plugins"] = {_w.PinPlugin(entry)}
        else:
            # one process: the worker's own threads carry its device and CPUs
            opts["executor"] = ThreadPoolExecutor(
                nthreads, thread_name_prefix=f"ember-{entry['device']}",
                initializer=_w.pin_thread, initargs=(entry["device"], entry["cpus"]))
            opts["plugins"] = {_w.PinPlugin(entry, whole_process=False)}
        spec["options"] = opts
        return {name: spec}

    def worker_devices(self, client):
        """{worker address: {"device", "uuid", "cpus"}} as a task on each
        worker sees them."""
        return worker_devices(client)


def worker_devices(client):
    """{address: where a task runs on that worker (device, GPU UUID, CPU
    set)} for every worker of client's cluster."""
    addrs = list(client.scheduler_info(n_workers=-1)["workers"])
    futs = {a: client.submit(_w.where, workers=[a], allow_other_workers=False,
                             pure=False) for a in addrs}
    return {a: f.result() for a, f in futs.items()}
