"""ember.ml.decomposition: PCA, TruncatedSVD, IncrementalPCA."""
from ember.ml.decomposition._incremental_pca import IncrementalPCA
from ember.ml.decomposition._pca import PCA
from ember.ml.decomposition._truncated_svd import TruncatedSVD

__all__ = ["IncrementalPCA", "PCA", "TruncatedSVD"]
