"""ember.ml.tree: scikit-learn's single decision trees, grown by the
random forest's histogram grower (docs/ml.md, "Trees")."""
from ember.ml.tree._classes import (DecisionTreeClassifier, DecisionTreeRegressor,
                                    ExtraTreeClassifier, ExtraTreeRegressor)

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor", "ExtraTreeClassifier",
           "ExtraTreeRegressor"]
