"""ember.ml: scikit-learn's estimators over ember arrays, on the GPU and the
CPU (docs/ml.md).

The submodules carry scikit-learn's module names (ember.ml.cluster,
ember.ml.linear_model, ...) and are imported on first use, so importing
ember.ml imports neither scikit-learn nor any estimator."""
from ember.ml._config import config_context, get_config, set_output
from ember.ml._lazy import lazy_names

_SUBMODULES = ("accel", "base", "cluster", "decomposition", "ensemble", "exceptions",
               "linear_model", "metrics", "model_selection", "naive_bayes",
               "neighbors", "preprocessing")


__getattr__ = lazy_names(__name__, {m: m for m in _SUBMODULES})


__all__ = ["config_context", "get_config", "set_output", *_SUBMODULES]
