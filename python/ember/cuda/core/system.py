"""cuda.core's ``system``: what the machine has, answered without creating
a context (ember only counts devices and asks the driver's version)."""
import ember

__all__ = ["system", "System"]


class System:
    @property
    def num_devices(self):
        """The devices Device(i) opens: the GPUs, or 1 (the cpu device) on a
        machine without one."""
        return max(ember.cuda.runtime.getDeviceCount(), 1)

    def get_num_devices(self):
        """num_devices, as a call (cuda.core's older spelling)."""
        return self.num_devices

    @property
    def driver_version(self):
        """(major, minor) of the CUDA driver; (0, 0) without one."""
        v = ember.cuda.runtime.driverGetVersion()
        return (v // 1000, (v % 1000) // 10)

    @property
    def devices(self):
        from ._device import Device
        return tuple(Device(i) for i in range(self.num_devices))


system = System()
