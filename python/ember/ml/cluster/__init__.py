"""ember.ml.cluster: scikit-learn's clustering estimators over ember arrays
(docs/ml.md, "Clustering")."""
from ember.ml.cluster._agglomerative import AgglomerativeClustering
from ember.ml.cluster._dbscan import DBSCAN
from ember.ml.cluster._kmeans import KMeans
from ember.ml.cluster._minibatch import MiniBatchKMeans

__all__ = ["AgglomerativeClustering", "DBSCAN", "KMeans", "MiniBatchKMeans"]
