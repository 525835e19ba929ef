"""ember.fft.config: CuPy's cupy.fft.config over ember's cuFFT plan cache.

The cache keeps the plans ember.fft makes on CUDA devices, keyed by
device, transform type, lengths and batch (at most 32, the least recently
used destroyed first). Unlike CuPy's, whose cache is per thread and device,
ember's is one table for every device and thread (a plan is used under a
lock), so get_plan_cache() returns the same object wherever it is called.
"""
from ember import _ember

__all__ = ["PlanCache", "get_plan_cache", "get_plan_cache_size",
           "set_cufft_gpus", "set_cufft_callbacks", "use_multi_gpus",
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


# cupy.fft.config's multi-GPU switch: read by CuPy's fft when True. ember's
# transforms run on the input's device only, so setting it changes nothing;
# set_cufft_gpus, which would choose the devices, says so.
use_multi_gpus = False


def set_cufft_gpus(gpus):
    """cupy.fft.config.set_cufft_gpus: multi-GPU transforms are not offered
    by ember (NotImplementedError)."""
    raise NotImplementedError(
        "ember.fft.config.set_cufft_gpus: ember's FFTs run on the input's "
        "one device; multi-GPU cuFFT transforms are not offered")


def set_cufft_callbacks(cb_load="", cb_store="", cb_load_aux_arr=None,
                        *, cb_store_aux_arr=None):
    """cupy.fft.config.set_cufft_callbacks: cuFFT load/store callbacks are
    not offered by ember (NotImplementedError)."""
    raise NotImplementedError(
        "ember.fft.config.set_cufft_callbacks: cuFFT load/store callbacks are "
        "not offered by ember (they compile the callback into cuFFT itself, "
        "which has no cpu counterpart); apply the pre- or post-processing "
        "as an elementwise operation or ElementwiseKernel before or after "
        "the transform")
