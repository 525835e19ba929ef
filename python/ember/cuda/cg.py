"""ember.cuda.cg: Numba-CUDA's cooperative groups, for kernels:
`g = cuda.cg.this_grid(); g.sync()` waits for every thread of the grid.
The translator reads these names; outside a kernel they mean nothing."""

__all__ = ["this_grid"]


def this_grid():
    """The grid group of the calling kernel (kernels only)."""
    raise RuntimeError("cuda.cg.this_grid() can only be called inside a kernel")
