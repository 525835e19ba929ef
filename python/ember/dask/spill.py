"""A worker's data store that keeps ember chunks on the device up to a
limit and moves the least recently used ones to host memory above it.

distributed's Worker takes any MutableMapping as its store (`data=`);
ember.dask.LocalCluster hands each worker one of these when
device_memory_limit is set. The limit is a promise about what the store
holds: after every insertion or read the bytes of the ember arrays kept on
the device are at most the limit (a chunk larger than the limit alone
goes to the host at once). Memory a task still holds a reference to is the
task's, not the store's, and is not counted."""
from collections import OrderedDict
from collections.abc import MutableMapping


import ember
from dask.utils import parse_bytes


class DeviceSpillMap(MutableMapping):
    """{key: value}; ember arrays count against device_memory_limit (bytes,
    or a string such as "2 GiB"), everything else lives on the host."""

    def __init__(self, device_memory_limit, **kwargs):
        limit = parse_bytes(device_memory_limit) \
            if isinstance(device_memory_limit, str) else int(device_memory_limit)
        if limit < 0:
            raise ValueError(f"device_memory_limit must be >= 0 bytes, got {limit}")
        self.device_memory_limit = limit
        self.device = OrderedDict()   # key -> ember array, oldest use first
        self.host = {}                # key -> value (spilled chunks as NumPy)
        self._spilled = {}            # key -> device string of a spilled chunk
        self.device_bytes = 0
        self.spills = 0
        self.unspills = 0

    # --- moves -------------------------------------------------------------

    def _make_room(self, nbytes):
        while self.device and self.device_bytes + nbytes > self.device_memory_limit:
            key, arr = self.device.popitem(last=False)
            self.device_bytes -= arr.nbytes
            self.host[key] = ember.asnumpy(arr)
            self._spilled[key] = str(arr.device)
            self.spills += 1

    def _keep_on_device(self, key, arr):
        if arr.nbytes > self.device_memory_limit:
            self.host[key] = ember.asnumpy(arr)
            self._spilled[key] = str(arr.device)
            self.spills += 1
            return
        self._make_room(arr.nbytes)
        self.device[key] = arr
        self.device_bytes += arr.nbytes

    # --- the mapping -------------------------------------------------------

    def __setitem__(self, key, value):
        if key in self:
            del self[key]
        if isinstance(value, ember.ndarray):
            self._keep_on_device(key, value)
        else:
            self.host[key] = value

    def __getitem__(self, key):
        if key in self.device:
            self.device.move_to_end(key)
            return self.device[key]
        value = self.host[key]
        dev = self._spilled.get(key)
        if dev is None:
            return value
        # a spilled chunk comes back to its device as the ember array it was
        del self.host[key], self._spilled[key]
        arr = ember.asarray(value, device=dev)
        self.unspills += 1
        self._keep_on_device(key, arr)
        return arr

    def __delitem__(self, key):
        if key in self.device:
            self.device_bytes -= self.device.pop(key).nbytes
        else:
            del self.host[key]
            self._spilled.pop(key, None)

    def __contains__(self, key):
        return key in self.device or key in self.host

    def __iter__(self):
        yield from list(self.device)
        yield from list(self.host)

    def __len__(self):
        return len(self.device) + len(self.host)

    @property
    def spilled_keys(self):
        """Keys of ember chunks now held on the host."""
        return set(self._spilled)

    def __repr__(self):
        return (f"DeviceSpillMap(device: {len(self.device)} chunks, "
                f"{self.device_bytes} of {self.device_memory_limit} bytes; "
                f"host: {len(self.host)} values, {len(self._spilled)} spilled)")

