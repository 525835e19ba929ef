"""ember.scipy.cluster: scipy.cluster.hierarchy's linkage, fcluster and
leaves_list over ember arrays, on their device (docs/scipy.md,
"cluster.hierarchy"). scipy.cluster.vq is not built."""
from ember.scipy.cluster import hierarchy

__all__ = ["hierarchy"]
