"""scikit-learn's random_state for ember: None, an int, a NumPy RandomState
or Generator, or an ember Generator, turned into an ember Generator on the
estimator's device. The same int gives the same draws on every device;
they are not NumPy's draws (ember's stream is its own)."""
import numbers

import ember


def check_random_state(seed):
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
