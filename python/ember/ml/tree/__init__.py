"""ember.ml.tree: scikit-learn's single decision trees, grown by the
random forest's histogram grower (docs/ml.md, "Trees")."""
from ember.ml.tree._classes import (DecisionTreeClassifier, DecisionTreeRegressor,
                                    ExtraTreeClassifier, ExtraTreeRegressor)
from ember.ml.tree._export import export_graphviz, plot_tree

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor", "ExtraTreeClassifier",
           "ExtraTreeRegressor", "export_graphviz", "plot_tree"]
