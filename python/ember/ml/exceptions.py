"""scikit-learn's exception classes, defined here so that importing an
estimator does not import scikit-learn (about 1.4 s). They derive from the
same builtins as scikit-learn's, so `except ValueError` and
`except AttributeError` catch them as they catch scikit-learn's."""


class NotFittedError(ValueError, AttributeError):
    """An estimator was used before fit."""


class ConvergenceWarning(UserWarning):
    """An iterative solver stopped at max_iter before reaching tol."""


class DataConversionWarning(UserWarning):
    """Input of another shape or dtype than expected was converted."""


class FitFailedWarning(RuntimeWarning):
    """A fit inside a search failed."""


class EfficiencyWarning(UserWarning):
    """The requested computation is slow on this input."""


class UndefinedMetricWarning(UserWarning):
    """A metric is ill-defined on this input (set to 0.0 as scikit-learn does)."""


_flavoured = {}


def flavoured(cls):
    """cls, or once scikit-learn is loaded, a subclass of cls and of
    scikit-learn's class of the same name: raise or warn with this, and
    `except sklearn.exceptions.NotFittedError` (or pytest.warns of its
    ConvergenceWarning) catches ember's too. A program that has not
    imported scikit-learn cannot name its classes, so nothing is lost by
    not importing it here."""
    import sys
    sk = sys.modules.get("sklearn.exceptions")
    other = getattr(sk, cls.__name__, None) if sk is not None else None
    if other is None or issubclass(cls, other):
        return cls
    t = _flavoured.get(cls)
    if t is None:
        t = _flavoured[cls] = type(cls.__name__, (cls, other),
                                   {"__module__": cls.__module__, "__doc__": cls.__doc__})
    return t
