"""scikit-learn's random_state for ember: None, an int, a NumPy RandomState
or Generator, or an ember Generator, turned into an ember Generator whose
draws land on the estimator's device. The same int gives the same draws on
every device; they are not NumPy's draws (ember's stream is its own).

numpy_random_state is scikit-learn's own check_random_state, for the few
draws that are cheap on the host and decide a result (k-means seeding,
silhouette_score's subset): those use scikit-learn's NumPy calls so a
random_state gives its result."""
import numbers

import numpy as np

import ember


class _OnDevice:
    """A Generator whose draws are made on one device (ember.random makes
    them on the current device, which need not be the data's)."""

    def __init__(self, gen, device):
        self._gen, self._device = gen, ember.Device(str(device))

    def __getattr__(self, name):
        f = getattr(self._gen, name)
        if not callable(f):
            return f

        def draw(*a, **kw):
            with self._device:
                return f(*a, **kw)
        return draw


def check_random_state(seed, device=None):
    """An ember Generator for seed; with a device, one that draws there."""
    g = _generator(seed)
    return g if device is None else _OnDevice(g, device)


def _generator(seed):
    if seed is None:
        return ember.random.default_rng()
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        return ember.random.default_rng(int(seed))
    if hasattr(seed, "standard_normal") and (type(seed).__module__ or "").startswith("ember"):
        return seed
    if hasattr(seed, "randint"):          # numpy.random.RandomState
        return ember.random.default_rng(int(seed.randint(2 ** 31 - 1)))
    if hasattr(seed, "integers"):         # numpy.random.Generator
        return ember.random.default_rng(int(seed.integers(2 ** 31 - 1)))
    raise ValueError(f"{seed!r} cannot be used to seed a random number generator")


def numpy_random_state(seed):
    """scikit-learn's check_random_state: NumPy's global RandomState for
    None, a fresh RandomState for an int, a RandomState or NumPy Generator
    as it is; None for an ember Generator (whose draws are ember's)."""
    if seed is None:
        return np.random.mtrand._rand
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        return np.random.RandomState(int(seed))
    if isinstance(seed, (np.random.RandomState, np.random.Generator)):
        return seed
    if (type(seed).__module__ or "").startswith("ember"):
        return None
    raise ValueError(f"{seed!r} cannot be used to seed a numpy.random.RandomState "
                     "instance")
