"""scikit-learn's neighbours estimators over ember arrays, brute force
through blocked distances and a top-k per row (docs/ml.md, "Neighbours and
distances"); each is imported on first use."""
_WHERE = {
    "NearestNeighbors": "_unsupervised",
    "KNeighborsClassifier": "_classification",
    "KNeighborsRegressor": "_regression",
}


def __getattr__(name):
    mod = _WHERE.get(name)
    if mod is None:
        raise AttributeError(f"module 'ember.ml.neighbors' has no attribute {name!r}")
    import importlib
    v = getattr(importlib.import_module(f"ember.ml.neighbors.{mod}"), name)
    globals()[name] = v
    return v


__all__ = sorted(_WHERE)
