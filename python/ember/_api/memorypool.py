"""ember.MemoryPool: the statistics and limits of one device's caching
pool (src/runtime/pool.c). These are read now and then, so they are
Python over three calls of the extension; allocation itself (malloc,
ember.alloc) is the extension's."""
import operator

from ember import _ember

__all__ = ["MemoryPool", "get_default_memory_pool"]


def _size(o, what):
    if isinstance(o, bool) or not hasattr(type(o), "__index__"):
        raise TypeError("%s must be an int, not %s" % (what, type(o).__name__))
    n = operator.index(o)
    if n < 0:
        raise ValueError("%s must be >= 0, got %d" % (what, n))
    return n


# _ember._pool_stats's order
_STATS = ("used_bytes cached_bytes total_bytes peak_bytes limit_bytes n_allocs n_hits "
          "n_cached_blocks").split()


def _stat(key, doc):
    i = _STATS.index(key)

    def get(self):
        return _ember._pool_stats(self.device)[i]
    get.__doc__ = doc
    return get


class MemoryPool:
    """MemoryPool(device=None)

    The caching pool of one device: statistics and limits. Every
    MemoryPool of a device is the same pool."""
    __module__ = "ember"

    def __init__(self, device=None):
        self.device = _ember.Device(device)

    def __repr__(self):
        return "<ember.MemoryPool of %s>" % self.device

    used_bytes = _stat("used_bytes", "Bytes held by live allocations (rounded sizes).")
    total_bytes = _stat("total_bytes", "Bytes the pool holds: used plus cached.")
    free_bytes = _stat("cached_bytes", "Bytes freed and cached for reuse.")
    peak_bytes = _stat("peak_bytes", "The highest used_bytes so far.")
    get_limit = _stat("limit_bytes", "The cap on total_bytes; 0: none.")
    n_allocs = _stat("n_allocs", "Allocations served so far.")
    n_hits = _stat("n_hits", "Allocations served from cached blocks so far.")
    n_free_blocks = _stat("n_cached_blocks",
                          "The number of blocks cached for reuse (CuPy's name).")

    def stats(self):
        """Every statistic, as a dict."""
        return dict(zip(_STATS, _ember._pool_stats(self.device)))

    def malloc(self, size):
        """malloc(size) -> Buffer of size bytes from this pool (CuPy's name)."""
        return _ember.alloc(_size(size, "size"), self.device)

    def free_all_blocks(self):
        """Release every cached block back to the device."""
        _ember._pool_free_all(self.device)

    def set_limit(self, size=None, fraction=None):
        """Cap the pool at size bytes or a fraction of the device's memory;
        no argument removes the cap."""
        if size is not None and fraction is not None:
            raise ValueError("set_limit() takes size or fraction, not both")
        limit = 0
        if size is not None:
            limit = _size(size, "size")
        elif fraction is not None:
            f = float(fraction)
            if not 0.0 <= f <= 1.0:
                raise ValueError("fraction must be in [0, 1], got %r" % (fraction,))
            # fraction=0 means "no memory", not "no limit" (0 in the C API)
            limit = int(f * self.device.mem_info[1]) or 1
        _ember._pool_set_limit(self.device, limit)


def get_default_memory_pool():
    """The caching pool of the current device."""
    return MemoryPool()
