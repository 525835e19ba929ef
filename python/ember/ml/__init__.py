"""ember.ml: scikit-learn's estimators over ember arrays, on the GPU and the
CPU (docs/ml.md).

The submodules carry scikit-learn's module names (ember.ml.cluster,
ember.ml.linear_model, ...) and are imported on first use, so importing
ember.ml imports neither scikit-learn nor any estimator."""
from ember.ml._config import config_context, get_config, set_output
from ember.ml._lazy import lazy_names

_SUBMODULES = ("accel", "base", "cluster", "datasets", "decomposition", "ensemble",
               "exceptions", "linear_model", "metrics", "model_selection",
               "naive_bayes", "neighbors", "preprocessing", "tree")


_submodule = lazy_names(__name__, {m: m for m in _SUBMODULES})


def __getattr__(name):
    """A submodule, or, as cuML's top level has them, any public estimator
    or function of one (`ember.ml.KMeans`, `ember.ml.make_regression`,
    `ember.ml.train_test_split`): found on first use, by importing the
    submodules in turn."""
    try:
        return _submodule(name)
    except AttributeError:
        if name.startswith("_"):
            raise
    import importlib
    import types
    for m in _SUBMODULES:
        if m in ("accel", "exceptions"):
            continue
        value = getattr(importlib.import_module(f"{__name__}.{m}"), name, None)
        if value is not None and not isinstance(value, types.ModuleType):
            globals()[name] = value
            return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["config_context", "get_config", "set_output", *_SUBMODULES]
