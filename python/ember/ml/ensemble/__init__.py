"""ember.ml.ensemble: random forests and extra trees grown level by level
on histograms of binned features."""
from ember.ml.ensemble._extra import ExtraTreesClassifier, ExtraTreesRegressor
from ember.ml.ensemble._forest import RandomForestClassifier, RandomForestRegressor

__all__ = ["ExtraTreesClassifier", "ExtraTreesRegressor", "RandomForestClassifier",
           "RandomForestRegressor"]
