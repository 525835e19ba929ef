"""plot_tree and export_graphviz for ember's trees: scikit-learn's own
drawing and DOT writers, which read only tree_ (laid out as scikit-learn's,
_structure.Tree) and criterion. Their parameter check accepts scikit-learn's
tree classes alone, so it is skipped for a fitted ember tree, checked here
instead; sklearn.tree.plot_tree itself still refuses ember's trees."""
from ember.ml import _validation as V


def _sklearn_call(name, decision_tree, args, kw):
    import sklearn
    from sklearn import tree as sk_tree
    from ember.ml.tree._classes import BaseDecisionTree
    if not isinstance(decision_tree, BaseDecisionTree):
        # anything else (a scikit-learn tree) gets scikit-learn's own check
        return getattr(sk_tree, name)(decision_tree, *args, **kw)
    V.check_is_fitted(decision_tree, "tree_")
    with sklearn.config_context(skip_parameter_validation=True):
        return getattr(sk_tree, name)(decision_tree, *args, **kw)


def plot_tree(decision_tree, *args, **kw):
    """sklearn.tree.plot_tree for an ember (or scikit-learn) decision tree:
    the same drawing, the same arguments and return value."""
    return _sklearn_call("plot_tree", decision_tree, args, kw)


def export_graphviz(decision_tree, *args, **kw):
    """sklearn.tree.export_graphviz for an ember (or scikit-learn) decision
    tree: the same DOT text."""
    return _sklearn_call("export_graphviz", decision_tree, args, kw)
