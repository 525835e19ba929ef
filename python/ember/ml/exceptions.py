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
