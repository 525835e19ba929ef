"""ember.ml.accel: a scikit-learn program run unchanged, with what ran
where reported and fallbacks named (or refused under EMBER_ACCEL_STRICT)."""
import os
import textwrap

import pytest

from helpers import run_python

pytest.importorskip("sklearn")

SCRIPT = textwrap.dedent("""
    import numpy as np
    from sklearn.decomposition import PCA
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.model_selection import cross_val_score
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 6)); y = (X[:, 0] > 0).astype(int)
    p = PCA(3).fit(X)
    print("pca", type(p).__mro__[1].__module__, type(p.components_).__name__,
          round(float(p.explained_variance_ratio_.sum()), 6))
    import sklearn.decomposition as skd
    ref = skd._pca.PCA(3).fit(X)
    print("same", np.allclose(p.components_, ref.components_))
    pipe = make_pipeline(PCA(4), GaussianNB())
    print("cv", round(float(cross_val_score(pipe, X, y, cv=3).mean()), 6))
    import pickle
    q = pickle.loads(pickle.dumps(p))
    print("pickle", np.allclose(q.transform(X), p.transform(X)))
    import sys
    with open(sys.argv[1], "wb") as f:
        pickle.dump((p, X), f)
    m = PCA(n_components="mle").fit(X)
    print("mle", m.n_components_)
    import scipy.sparse as sp
    m = PCA(2, svd_solver="arpack").fit(sp.csr_matrix(X))
    print("sparse", round(float(m.explained_variance_ratio_.sum()), 6))
""")


def run(tmp_path, strict=False):
    f = tmp_path / "prog.py"
    f.write_text(SCRIPT)
    old = os.environ.get("EMBER_ACCEL_STRICT")
    os.environ["EMBER_ACCEL_STRICT"] = "1" if strict else "0"
    try:
        return run_python("-m", "ember.ml.accel", str(f), str(tmp_path / "pca.pkl"))
    finally:
        if old is None:
            del os.environ["EMBER_ACCEL_STRICT"]
        else:
            os.environ["EMBER_ACCEL_STRICT"] = old


def test_runs_on_ember_and_reports(tmp_path):
    import numpy as np
    from sklearn.decomposition import PCA
    from sklearn.model_selection import cross_val_score
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    r = run(tmp_path)
    assert r.returncode == 0, r.stderr
    out = dict(line.split(" ", 1) for line in r.stdout.strip().splitlines())
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 6))
    y = (X[:, 0] > 0).astype(int)
    want = round(float(PCA(3).fit(X).explained_variance_ratio_.sum()), 6)
    assert out["pca"] == f"sklearn.decomposition._pca ndarray {want}"
    assert out["same"] == "True" and out["pickle"] == "True"
    cv = cross_val_score(make_pipeline(PCA(4), GaussianNB()), X, y, cv=3).mean()
    assert out["cv"] == str(round(float(cv), 6))
    # n_components='mle' runs on ember now; sparse input falls back
    assert out["mle"] == str(PCA(n_components="mle").fit(X).n_components_)
    import scipy.sparse as sp
    ref = PCA(2, svd_solver="arpack").fit(sp.csr_matrix(X))
    assert out["sparse"] == str(round(float(ref.explained_variance_ratio_.sum()), 6))
    # the fallback is named once, with its reason, and the summary says
    # what ran where
    assert r.stderr.count("PCA runs on scikit-learn") == 1, r.stderr
    assert "sparse input" in r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ember.ml.accel: on ember ("), last
    assert "PCA.fit x" in last and "GaussianNB.fit x3" in last, last
    assert "on scikit-learn: PCA.fit x1" in last, last


def test_pickle_to_a_process_without_the_accelerator(tmp_path):
    # a joblib worker unpickles a replacement without install(): it must
    # get the replacement back, with ember's fitted estimator inside
    assert run(tmp_path).returncode == 0
    code = ("import pickle, sys, numpy as np\n"
            "p, X = pickle.load(open(sys.argv[1], 'rb'))\n"
            "print(type(p).__mro__[1].__name__, type(p._ember).__module__,\n"
            "      p.transform(X).shape)\n")
    r = run_python("-c", code, str(tmp_path / "pca.pkl"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["PCA", "ember.ml.decomposition._pca", "(200,", "3)"]


def test_strict_makes_a_fallback_an_error(tmp_path):
    r = run(tmp_path, strict=True)
    assert r.returncode != 0
    assert "FallbackError" in r.stderr and "EMBER_ACCEL_STRICT" in r.stderr


def test_usage():
    r = run_python("-m", "ember.ml.accel")
    assert r.returncode == 2 and "python -m ember.ml.accel" in r.stdout


METHODS = textwrap.dedent("""
    import numpy as np
    from sklearn.cluster import KMeans
    from sklearn.ensemble import AdaBoostClassifier, RandomForestClassifier
    from sklearn.linear_model import SGDClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.preprocessing import OneHotEncoder, StandardScaler
    from sklearn.utils.validation import has_fit_parameter
    rng = np.random.default_rng(1)
    X = rng.standard_normal((120, 3)); y = (X[:, 0] + X[:, 1] > 0).astype(int)
    print("sw", has_fit_parameter(GaussianNB(), "sample_weight"))
    ada = AdaBoostClassifier(GaussianNB(), n_estimators=4, random_state=0).fit(X, y)
    print("ada", repr(ada.score(X, y)))
    print("proba", hasattr(SGDClassifier(loss="hinge").fit(X, y), "predict_proba"),
          hasattr(SGDClassifier(loss="log_loss").fit(X, y), "predict_proba"))
    km = KMeans(2, init=X[:2], n_init=1).fit(X)
    print("kmscore", repr(float(km.score(X))))
    codes = (np.abs(X[:, :2]) * 2).astype(int)
    print("names", " ".join(OneHotEncoder().fit(codes).get_feature_names_out()))
    out = StandardScaler().set_output(transform="pandas").fit(X).transform(X)
    print("pandas", type(out).__name__)
    rf = RandomForestClassifier(3, random_state=0).fit(X, y)
    print("apply", np.asarray(rf.apply(X)).shape == (120, 3))
    try:
        rf.decision_path(X)
    except NotImplementedError as e:
        print("dpath", "decision_path()" in str(e))
""")


def test_methods_behave_as_scikit_learns(tmp_path):
    # found by running scikit-learn's example programs: meta-estimators
    # read fit's signature, hasattr must follow scikit-learn's
    # availability, and methods reading scikit-learn's private fitted
    # state (KMeans.score, OneHotEncoder names) must run on ember
    import numpy as np
    from sklearn.cluster import KMeans
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.preprocessing import OneHotEncoder
    f = tmp_path / "methods.py"
    f.write_text(METHODS)
    r = run_python("-m", "ember.ml.accel", str(f))
    assert r.returncode == 0, r.stderr
    out = dict(line.split(" ", 1) for line in r.stdout.strip().splitlines())
    rng = np.random.default_rng(1)
    X = rng.standard_normal((120, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    assert out["sw"] == "True"
    ada = AdaBoostClassifier(GaussianNB(), n_estimators=4, random_state=0).fit(X, y)
    assert float(out["ada"]) == pytest.approx(ada.score(X, y), abs=1e-12)
    assert out["proba"] == "False True"
    want = KMeans(2, init=X[:2], n_init=1).fit(X).score(X)
    assert float(out["kmscore"]) == pytest.approx(want, rel=1e-9)
    codes = (np.abs(X[:, :2]) * 2).astype(int)
    assert out["names"] == " ".join(OneHotEncoder().fit(codes).get_feature_names_out())
    # ember's forests have apply (their own leaf numbers), not decision_path
    assert out["pandas"] == "DataFrame" and out["apply"] == "True"
    assert out["dpath"] == "True"
    last = r.stderr.strip().splitlines()[-1]
    for what in ("GaussianNB.fit x4", "KMeans.score x1", "StandardScaler.transform x1",
                 "OneHotEncoder.get_feature_names_out x1"):
        assert what in last, last
    assert "on scikit-learn: nothing" in last, last


def test_summary_when_no_estimator_of_embers_ran(tmp_path):
    f = tmp_path / "cv.py"
    f.write_text("import numpy as np\nfrom sklearn.linear_model import LassoLarsCV\n"
                 "X = np.arange(40.).reshape(20, 2); y = X[:, 0]\n"
                 "print(round(LassoLarsCV(cv=3).fit(X, y).score(X, y), 3))\n")
    r = run_python("-m", "ember.ml.accel", str(f))
    assert r.returncode == 0, r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ember.ml.accel: on ember (") and \
        last.endswith("): nothing; on scikit-learn: nothing"), r.stderr
