"""ember.ml.preprocessing: scikit-learn's scalers and encoders over ember
arrays (docs/ml.md, "Preprocessing")."""
from ember.ml.preprocessing._data import (MinMaxScaler, Normalizer, StandardScaler,
                                          normalize, scale)
from ember.ml.preprocessing._encoders import OneHotEncoder
from ember.ml.preprocessing._label import LabelBinarizer, LabelEncoder
from ember.ml.preprocessing._polynomial import PolynomialFeatures

__all__ = ["LabelBinarizer", "LabelEncoder", "MinMaxScaler", "Normalizer", "OneHotEncoder",
           "PolynomialFeatures", "StandardScaler", "normalize", "scale"]
