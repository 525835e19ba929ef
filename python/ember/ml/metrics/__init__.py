"""ember.ml.metrics: scikit-learn's metrics over ember arrays (docs/ml.md,
"Metrics"). Scores are Python floats; arrays (confusion_matrix,
multioutput='raw_values', average=None) come back in the output kind:
ember arrays when an input is ember, NumPy otherwise, unless
ember.ml.set_output says which.

pairwise_distances and the other pairwise functions (metrics/pairwise.py)
silhouette_score (metrics/_cluster.py) and the scores comparing two
labellings (metrics/_supervised.py) are found on first use."""
from ember.ml._lazy import lazy_names
from ember.ml.metrics._classification import (accuracy_score, confusion_matrix,
                                              log_loss)
from ember.ml.metrics._prf import (f1_score, fbeta_score, precision_recall_fscore_support,
                                   precision_score, recall_score)
from ember.ml.metrics._ranking import roc_auc_score
from ember.ml.metrics._regression import (explained_variance_score,
                                          mean_absolute_error,
                                          mean_absolute_percentage_error,
                                          mean_squared_error, r2_score,
                                          root_mean_squared_error)

_LAZY = {"pairwise_distances": "pairwise", "euclidean_distances": "pairwise",
         "cosine_distances": "pairwise", "manhattan_distances": "pairwise",
         "cosine_similarity": "pairwise", "pairwise_distances_argmin": "pairwise",
         "pairwise_distances_argmin_min": "pairwise",
         "pairwise_distances_chunked": "pairwise",
         "silhouette_score": "_cluster", "silhouette_samples": "_cluster",
         "roc_curve": "_curves", "auc": "_curves",
         **{name: "_supervised" for name in (
             "contingency_matrix", "pair_confusion_matrix", "rand_score",
             "adjusted_rand_score", "mutual_info_score",
             "normalized_mutual_info_score", "adjusted_mutual_info_score",
             "homogeneity_score", "completeness_score", "v_measure_score",
             "homogeneity_completeness_v_measure", "fowlkes_mallows_score")}}


__getattr__ = lazy_names(__name__, {**_LAZY, "pairwise": "pairwise", "cluster": "cluster"})

__all__ = ["accuracy_score", "confusion_matrix", "explained_variance_score",
           "f1_score", "fbeta_score", "log_loss", "mean_absolute_error",
           "mean_absolute_percentage_error", "mean_squared_error",
           "precision_recall_fscore_support", "precision_score", "r2_score",
           "recall_score", "roc_auc_score", "root_mean_squared_error"]
