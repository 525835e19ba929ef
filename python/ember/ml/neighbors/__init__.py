"""scikit-learn's neighbours estimators over ember arrays, brute force
through blocked distances and a top-k per row (docs/ml.md, "Neighbours and
distances"); each is imported on first use."""
from ember.ml._lazy import lazy_names

_WHERE = {
    "NearestNeighbors": "_unsupervised",
    "KNeighborsClassifier": "_classification",
    "KNeighborsRegressor": "_regression",
}


__getattr__ = lazy_names(__name__, _WHERE)

__all__ = sorted(_WHERE)
