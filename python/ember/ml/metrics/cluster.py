"""ember.ml.metrics.cluster: the clustering metrics under scikit-learn's
module path (sklearn.metrics.cluster), for programs that import them from
there (cuML's tutorials do). Not here: calinski_harabasz_score,
davies_bouldin_score, consensus_score, entropy and
expected_mutual_information (ember.ml has none of them)."""
from ember.ml.metrics._cluster import silhouette_samples, silhouette_score
from ember.ml.metrics._supervised import (adjusted_mutual_info_score,
                                          adjusted_rand_score, completeness_score,
                                          contingency_matrix, fowlkes_mallows_score,
                                          homogeneity_completeness_v_measure,
                                          homogeneity_score, mutual_info_score,
                                          normalized_mutual_info_score,
                                          pair_confusion_matrix, rand_score,
                                          v_measure_score)

__all__ = ["adjusted_mutual_info_score", "adjusted_rand_score", "completeness_score",
           "contingency_matrix", "fowlkes_mallows_score",
           "homogeneity_completeness_v_measure", "homogeneity_score",
           "mutual_info_score", "normalized_mutual_info_score", "pair_confusion_matrix",
           "rand_score", "silhouette_samples", "silhouette_score", "v_measure_score"]
