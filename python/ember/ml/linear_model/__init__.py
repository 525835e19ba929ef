"""scikit-learn's linear models over ember arrays (docs/ml.md, "Linear
models"); each family is imported on first use."""
_WHERE = {
    "LinearRegression": "_linear",
    "Ridge": "_ridge", "RidgeClassifier": "_ridge",
    "Lasso": "_cd", "ElasticNet": "_cd",
    "LogisticRegression": "_logistic",
    "SGDClassifier": "_sgd", "SGDRegressor": "_sgd",
}


def __getattr__(name):
    mod = _WHERE.get(name)
    if mod is None:
        raise AttributeError(f"module 'ember.ml.linear_model' has no attribute {name!r}")
    import importlib
    v = getattr(importlib.import_module(f"ember.ml.linear_model.{mod}"), name)
    globals()[name] = v
    return v


__all__ = sorted(_WHERE)
