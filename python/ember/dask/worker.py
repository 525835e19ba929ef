"""What pins one Dask worker to one device: the plan of devices and CPU
sets for a host, and the worker plugin that applies a CPU set.

Shared by ember.dask.LocalCluster and by anyone starting workers by hand
(`dask worker --preload` or distributed.Worker(plugins=...))."""
import os
import threading

from distributed import WorkerPlugin

import ember


def parse_cpulist(text):
    """Linux's CPU list ("0-3,8,10-11") as a sorted list of ints."""
    cpus = []
    for part in text.strip().split(","):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        cpus.extend(range(int(lo), int(hi or lo) + 1))
    return sorted(cpus)


def _read_cpulist(path):
    try:
        with open(path) as f:
            return parse_cpulist(f.read())
    except (OSError, ValueError):
        return []


def _even_split(cpus, n):
    """cpus in n contiguous runs, the first ones one longer when uneven."""
    q, r = divmod(len(cpus), n)
    out, at = [], 0
    for i in range(n):
        k = q + (i < r)
        out.append(cpus[at:at + k] or cpus)   # fewer CPUs than workers: share
        at += k
    return out


def _gpu_cpus(device):
    """The CPUs next to a GPU: its PCI device's local_cpulist in sysfs (the
    set NVML reports as the card's CPU affinity), or [] when unknown."""
    p = device.properties
    try:
        bus = "%04x:%02x:%02x.0" % (p["pciDomainID"], p["pciBusID"], p["pciDeviceID"])
    except (KeyError, TypeError):
        return []
    return _read_cpulist(f"/sys/bus/pci/devices/{bus}/local_cpulist")


def _numa_nodes():
    base = "/sys/devices/system/node"
    try:
        names = sorted(n for n in os.listdir(base)
                       if n.startswith("node") and n[4:].isdigit())
    except OSError:
        return []
    return [_read_cpulist(f"{base}/{n}/cpulist") for n in names]


def plan(n_workers=None):
    """One dict per worker: {"device": "cuda:N" or "cpu", "uuid": the GPU's
    UUID or None, "cpus": [CPU ids]}. One worker per visible GPU (the first
    n_workers of them); without a GPU, one cpu worker per NUMA node or
    n_workers of them, the allowed CPUs split among them."""
    allowed = sorted(os.sched_getaffinity(0))
    ngpu = ember.cuda.runtime.getDeviceCount()
    if ngpu:
        n = ngpu if n_workers is None else int(n_workers)
        if not 1 <= n <= ngpu:
            raise ValueError(f"n_workers={n_workers}: this host shows {ngpu} GPU(s); "
                             "ember.dask.LocalCluster starts one worker per GPU")
        split = _even_split(allowed, n)
        out = []
        for i in range(n):
            d = ember.Device(f"cuda:{i}")
            near = [c for c in _gpu_cpus(d) if c in allowed]
            out.append({"device": f"cuda:{i}", "uuid": d.uuid,
                        "cpus": near or split[i]})
        return out
    nodes = [[c for c in node if c in allowed] for node in _numa_nodes()]
    nodes = [node for node in nodes if node]
    n = (len(nodes) or 1) if n_workers is None else int(n_workers)
    if n < 1:
        raise ValueError(f"n_workers must be >= 1, got {n_workers}")
    cpus = nodes if len(nodes) == n else _even_split(allowed, n)
    return [{"device": "cpu", "uuid": None, "cpus": c} for c in cpus]


def worker_env(entry):
    """The environment of a worker process for one plan entry: a GPU seen
    by UUID as that process's only device (so NVML's and CUDA's numbering
    cannot disagree), and ember's cpu pool sized to the worker's CPUs."""
    env = {"EMBER_NUM_THREADS": str(len(entry["cpus"]))}
    if entry["uuid"] is not None:
        env["CUDA_VISIBLE_DEVICES"] = "GPU-" + entry["uuid"]
        env["EMBER_DEVICE"] = "cuda:0"
    else:
        env["EMBER_DEVICE"] = "cpu"
    return env


def pin_thread(device, cpus):
    """Make device the calling thread's current device and cpus its CPU
    set (an in-process worker's executor threads start with this)."""
    ember.Device(device).use()
    if cpus and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cpus)


def register_dispatch():
    """Import ember's dask registrations in this process. dask looks up
    what to do with a chunk or partition by its type in tables filled by
    importing ember.dask.array and ember.dask.dataframe; a worker process
    that only unpickles ember objects (a partition made by a task,
    one sent by another worker) has imported neither, and would answer
    "No dispatch for <class 'ember.frame.frame.DataFrame'>"."""
    import importlib
    for mod in ("ember.dask.array", "ember.dask.dataframe"):
        try:
            importlib.import_module(mod)
        except ImportError:   # dask.array or dask.dataframe's needs missing
            pass


class PinPlugin(WorkerPlugin):
    """Pins a worker process's threads, those running and those it starts
    later, to cpus; records the plan entry on the worker (worker.ember);
    imports ember's dask dispatch there."""
    name = "ember-pin"

    def __init__(self, entry, whole_process=True):
        self.entry = entry
        self.whole_process = whole_process

    def setup(self, worker):
        worker.ember = dict(self.entry)
        register_dispatch()
        cpus = self.entry["cpus"]
        if not (self.whole_process and cpus and hasattr(os, "sched_setaffinity")):
            return
        # Linux applies an affinity per thread: set every thread's, and the
        # event loop's, from which the executor's threads inherit
        for tid in os.listdir("/proc/self/task"):
            try:
                os.sched_setaffinity(int(tid), cpus)
            except (OSError, ValueError):
                pass
        os.sched_setaffinity(threading.get_native_id(), cpus)


def where():
    """What the calling task's thread runs on: device, GPU UUID, CPU set."""
    d = ember.get_device()
    return {"device": str(d), "uuid": d.uuid,
            "cpus": sorted(os.sched_getaffinity(0))}
