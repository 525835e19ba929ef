"""cuda.core's Device over ember.Device: one object per device, the
current-device switch, properties under cuda.core's attribute names, and
the factories for streams, events and memory."""
import socket as _socket
import threading
import uuid as _uuid

import ember
from ember.cuda._device_attributes import ATTRIBUTES

__all__ = ["Device", "DeviceProperties"]



class DeviceProperties:
    """A device's properties as attributes named as cuda.core names them
    (max_threads_per_block, multiprocessor_count, ...): each of CUDA's
    device attributes (ember.Device.attribute), on cpu what its properties
    hold and 0 for GPU features it has not. Another name raises
    AttributeError naming it."""

    def __init__(self, dev):
        self._dev = dev

    def __getattr__(self, name):
        if name in ATTRIBUTES:
            return self._dev.attribute(ATTRIBUTES[name])
        raise AttributeError("%r is not a device property CUDA names" % name)

    def __dir__(self):
        return sorted(ATTRIBUTES)


_lock = threading.Lock()
_devices = {}


def _host_uuid():
    """The cpu device's uuid: the machine id systemd or dbus keep, else the
    board's DMI uuid, else a name-based uuid of the host name. Each is
    stable for the machine; the last exists everywhere (a container without
    /etc/machine-id), so asking never fails."""
    for path in ("/etc/machine-id", "/var/lib/dbus/machine-id",
                 "/sys/class/dmi/id/product_uuid"):
        try:
            with open(path) as f:
                return str(_uuid.UUID(f.read().strip()))
        except (OSError, ValueError):
            continue
    return str(_uuid.uuid5(_uuid.NAMESPACE_DNS,
                           "cpu.ember." + _socket.gethostname()))


class Device:
    """Device(device_id=None): the current device for None, else cuda:N;
    without a GPU, 0 is the cpu device (as ember.Device(0)). ember.Device
    objects and specs ('cpu', 'cuda:1') are accepted too. One object per
    device: Device(0) is Device(0)."""

    def __new__(cls, device_id=None):
        d = ember.get_current_device() if device_id is None else \
            ember.Device(device_id)
        key = (d.type, d.id)
        with _lock:
            obj = _devices.get(key)
            if obj is None:
                obj = super().__new__(cls)
                obj._dev = d
                obj._mr = None
                _devices[key] = obj
        return obj

    # ---- identity and properties ----
    @property
    def device_id(self):
        return self._dev.id

    @property
    def name(self):
        return self._dev.name

    @property
    def compute_capability(self):
        return self._dev.compute_capability

    @property
    def arch(self):
        cc = self._dev.compute_capability
        return "%d%d" % (cc.major, cc.minor)

    @property
    def properties(self):
        return DeviceProperties(self._dev)

    @property
    def pci_bus_id(self):
        p = self._dev.properties
        return "%04X:%02X:%02X.0" % (p["pciDomainID"], p["pciBusID"],
                                     p["pciDeviceID"])

    @property
    def uuid(self):
        """The GPU's UUID (cuda.core's string form). On the cpu device, an
        id of the machine in the same form (see _host_uuid); never raises
        there, as containers often lack /etc/machine-id."""
        u = self._dev.uuid
        if u is not None:
            return u
        if self._dev.type == "cpu":
            return _host_uuid()
        raise RuntimeError("Device(%d).uuid: the CUDA driver did not give "
                           "one" % self.device_id)

    @property
    def context(self):
        """ember uses each device's primary context; the Device stands for
        it."""
        return self

    # ---- current device ----
    def set_current(self, ctx=None):
        if ctx is not None and ctx is not self:
            raise NotImplementedError("set_current(ctx): ember uses each "
                                      "device's primary context only")
        self._dev.use()

    def sync(self):
        self._dev.synchronize()

    # ---- factories ----
    @property
    def default_stream(self):
        from ._stream import Stream
        with self._dev:
            return Stream._wrap(ember.get_current_stream(), self)

    def create_stream(self, obj=None, options=None):
        from ._stream import Stream
        if obj is not None:
            return Stream._adopt(self, obj)
        return Stream._create(self, options)

    def create_graph_builder(self):
        """A GraphBuilder on a stream of its own (Stream.create_graph_builder
        of the default stream)."""
        return self.default_stream.create_graph_builder()

    def create_event(self, options=None):
        from ._stream import Event
        return Event._create(self, options)

    @property
    def memory_resource(self):
        from ._memory import DeviceMemoryResource
        if self._mr is None:
            self._mr = DeviceMemoryResource(self)
        return self._mr

    @memory_resource.setter
    def memory_resource(self, mr):
        self._mr = mr

    def allocate(self, size, stream=None):
        return self.memory_resource.allocate(size, stream)

    def __int__(self):
        return self.device_id

    def __repr__(self):
        return "<Device %d (%s) on ember %s>" % (self.device_id, self.name,
                                                 self._dev)

