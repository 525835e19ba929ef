"""scikit-learn's linear models over ember arrays (docs/ml.md, "Linear
models"); each family is imported on first use."""
from ember.ml._lazy import lazy_names

_WHERE = {
    "LinearRegression": "_linear",
    "Ridge": "_ridge", "RidgeClassifier": "_ridge",
    "Lasso": "_cd", "ElasticNet": "_cd",
    "LogisticRegression": "_logistic",
    "SGDClassifier": "_sgd", "SGDRegressor": "_sgd",
    "RidgeCV": "_cv", "LassoCV": "_cv", "ElasticNetCV": "_cv",
}


__getattr__ = lazy_names(__name__, _WHERE)

__all__ = sorted(_WHERE)
