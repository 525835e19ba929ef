"""``import ember.pycuda.autoinit``: PyCUDA makes a context on device 0 here.
ember needs none, so this only names the device that work goes to: the
current one (ember's default: $EMBER_DEVICE, else cuda:0 when a GPU works,
else the cpu device). It changes nothing, so importing it is harmless."""
from . import driver as _driver

device = _driver.Context.get_device()
context = _driver.Context

__all__ = ["device", "context"]
