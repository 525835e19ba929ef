"""ember.fft.config: CuPy's cupy.fft.config over ember's cuFFT plan cache.

The cache keeps the plans ember.fft makes on CUDA devices, keyed by
device, transform type, lengths and batch (at most 32, the least recently
used destroyed first). Unlike CuPy's, whose cache is per thread and device,
ember's is one table for every device and thread (a plan is used under a
lock), so get_plan_cache() returns the same object wherever it is called.
"""
from ember import _ember

__all__ = ["PlanCache", "get_plan_cache", "get_plan_cache_size",
           "set_plan_cache_size", "clear_plan_cache", "show_plan_cache_info"]


class PlanCache:
    """The process's cuFFT plan cache (CuPy's PlanCache methods)."""

    def get_size(self):
        """How many plans the cache may hold."""
        return _ember._fft_plans()[0]

    def set_size(self, size):
        """Hold at most size plans (0 to 32; 0 makes a plan per call)."""
        _ember._fft_plans(int(size))

    def get_curr_size(self):
        """How many plans it holds now."""
        return _ember._fft_plans()[1]

    def clear(self):
        """Destroy every plan held."""
        _ember._fft_plans(clear=True)

    def show_info(self):
        cap, held = _ember._fft_plans()
        print(f"ember cuFFT plan cache: {held} plans held, at most {cap} "
              "(one cache for every device and thread)")

    size = property(get_size, set_size)

    def __len__(self):
        return self.get_curr_size()

    def __repr__(self):
        cap, held = _ember._fft_plans()
        return f"<ember.fft.config.PlanCache: {held} of {cap} plans>"


_CACHE = PlanCache()


def get_plan_cache():
    return _CACHE


def get_plan_cache_size():
    return _CACHE.get_size()


def set_plan_cache_size(size):
    _CACHE.set_size(size)


def clear_plan_cache():
    _CACHE.clear()


def show_plan_cache_info():
    _CACHE.show_info()
