"""ember.ml: scikit-learn's estimators over ember arrays, on the GPU and the
CPU (docs/ml.md).

The submodules carry scikit-learn's module names (ember.ml.cluster,
ember.ml.linear_model, ...) and are imported on first use, so importing
ember.ml imports neither scikit-learn nor any estimator."""
from ember.ml._config import config_context, get_config, set_output

_SUBMODULES = ("accel", "base", "cluster", "decomposition", "ensemble", "exceptions",
               "linear_model", "metrics", "model_selection", "naive_bayes",
               "neighbors", "preprocessing")


def __getattr__(name):
    if name not in _SUBMODULES:
        raise AttributeError(f"module 'ember.ml' has no attribute {name!r}")
    import importlib
    mod = importlib.import_module("ember.ml." + name)
    globals()[name] = mod
    return mod


__all__ = ["config_context", "get_config", "set_output", *_SUBMODULES]
