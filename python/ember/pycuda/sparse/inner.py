"""PyCUDA's AsyncInnerProduct: a dot product computed on the device, its
value read on the host later. PyCUDA polls an event and returns None from
get_host_result until the copy has landed; ember's read waits for it, so
the first call already has the value (a caller's polling loop ends at
once)."""
import ember


class AsyncInnerProduct:
    def __init__(self, a, b, pagelocked_allocator=None):
        # pagelocked_allocator: PyCUDA's buffer for the copy; ember's read
        # stages through its own pinned memory
        self.gpu_result = ember.vdot(a, b)
        self._value = None

    def get_host_result(self):
        if self._value is None:
            self._value = self.gpu_result.get()[()]
        return self._value
