"""ember.In, ember.Out, ember.InOut (PyCUDA's argument wrappers). Each
marks a host array for a launch: the launch (launch_args.py) gives the
kernel device memory of the same size, copied from the array before (In,
InOut) and back into it after (Out, InOut). The array is reached through
the buffer protocol, so NumPy is never imported."""


class _Wrapper:
    __slots__ = ("array",)

    def __init__(self, array):
        try:
            memoryview(array).release()
        except TypeError:
            raise TypeError(f"{type(self).__name__}() needs a host array with "
                            "the buffer protocol (a NumPy array, bytearray, "
                            f"...), not {type(array).__name__}") from None
        self.array = array

    def __repr__(self):
        return f"ember.{type(self).__name__}({self.array!r})"


class In(_Wrapper):
    """In(array): a kernel argument copied to the device before the
    launch."""
    __slots__ = ()


class Out(_Wrapper):
    """Out(array): a kernel argument copied back into the array after the
    launch (which then waits for the kernel)."""
    __slots__ = ()


class InOut(_Wrapper):
    """InOut(array): copied to the device before the launch and back after
    it."""
    __slots__ = ()


for _cls in (In, Out, InOut):
    _cls.__module__ = "ember"
