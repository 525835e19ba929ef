"""ember.ml.model_selection: train_test_split, KFold, StratifiedKFold,
ShuffleSplit and StratifiedShuffleSplit over ember arrays (docs/ml.md, "Model selection").

The search and scoring tools (GridSearchCV, cross_val_score, ...) are
scikit-learn's own, found here on first use: ember's estimators follow
scikit-learn's protocol, so its tools drive them unchanged; they only
orchestrate fits and never compute on the data themselves."""
from ember.ml._lazy import lazy_names
from ember.ml.model_selection._split import (KFold, ShuffleSplit, StratifiedKFold,
                                             StratifiedShuffleSplit, train_test_split)

_SKLEARN = ("GridSearchCV", "RandomizedSearchCV", "cross_val_score",
            "cross_validate", "cross_val_predict", "ParameterGrid")


__getattr__ = lazy_names(__name__, {n: "sklearn.model_selection" for n in _SKLEARN})

__all__ = ["KFold", "ShuffleSplit", "StratifiedKFold", "StratifiedShuffleSplit",
           "train_test_split", *_SKLEARN]
