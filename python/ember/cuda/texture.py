"""cupy.cuda.texture's names: CUDA texture and surface objects (CuPy's
kernel guide mentions passing them to ElementwiseKernel and RawKernel).

ember does not offer texture or surface memory: its kernels read arrays
through pointers on every device (the cpu device has no texture units to
stand in for). Each class raises NotImplementedError saying so, rather
than the AttributeError of a missing name.
"""

__all__ = ["ChannelFormatDescriptor", "CUDAarray", "ResourceDescriptor",
           "TextureDescriptor", "TextureObject", "SurfaceObject"]


class _Unavailable:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            f"ember.cuda.texture.{type(self).__name__}: texture and surface "
            "memory are not offered by ember; pass the array itself to the "
            "kernel and index it (a RawKernel's pointer argument, or a raw "
            "argument of an ElementwiseKernel)")


class ChannelFormatDescriptor(_Unavailable):
    """CuPy's texture.ChannelFormatDescriptor: not offered."""


class CUDAarray(_Unavailable):
    """CuPy's texture.CUDAarray: not offered."""


class ResourceDescriptor(_Unavailable):
    """CuPy's texture.ResourceDescriptor: not offered."""


class TextureDescriptor(_Unavailable):
    """CuPy's texture.TextureDescriptor: not offered."""


class TextureObject(_Unavailable):
    """CuPy's texture.TextureObject: not offered."""


class SurfaceObject(_Unavailable):
    """CuPy's texture.SurfaceObject: not offered."""
