"""scikit-learn's check_estimator on ember.ml's estimators (cpu). The
checks that do not apply are listed with the reason; any other failure
fails the test."""
import pytest

pytest.importorskip("sklearn")
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402

from ember.ml.decomposition import PCA, IncrementalPCA, TruncatedSVD  # noqa: E402
from ember.ml.ensemble import RandomForestClassifier, RandomForestRegressor  # noqa: E402
from ember.ml.naive_bayes import GaussianNB, MultinomialNB  # noqa: E402

WEIGHTS = ("a bootstrap draws rows, so weight 2 is not a repeated row (scikit-learn "
           "marks its own forests the same way)")
EXPECTED = {
    "MultinomialNB": {"check_classifiers_train": "the check's shifted blobs give 0.793 "
                      "accuracy, below its 0.83 bar, for scikit-learn's own MultinomialNB "
                      "too (ember's equals it)"},
    "RandomForestClassifier": {"check_sample_weight_equivalence_on_dense_data": WEIGHTS},
    "RandomForestRegressor": {"check_sample_weight_equivalence_on_dense_data": WEIGHTS},
}


@pytest.mark.parametrize("est", [PCA(), TruncatedSVD(), IncrementalPCA(), GaussianNB(),
                                 MultinomialNB(), RandomForestClassifier(5),
                                 RandomForestRegressor(5)],
                         ids=lambda e: type(e).__name__)
def test_check_estimator(est):
    check_estimator(est, expected_failed_checks=EXPECTED.get(type(est).__name__, {}))
