"""ember.ml.ensemble: random forests grown level by level on histograms of
binned features."""
from ember.ml.ensemble._forest import RandomForestClassifier, RandomForestRegressor

__all__ = ["RandomForestClassifier", "RandomForestRegressor"]
