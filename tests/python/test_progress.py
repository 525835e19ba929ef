"""Progress bars of long work: when they appear (terminal, EMBER_PROGRESS),
what they say (totals of reads and fits), tqdm or the built-in bar."""
import io
import os
import subprocess
import sys

import numpy as np
import pytest

import ember
from ember import _progress

pd = pytest.importorskip("pandas")
ef = pytest.importorskip("ember.frame")


class Tty(io.StringIO):
    def isatty(self):
        return True


def terminal(monkeypatch):
    """stderr as a terminal, the text it was sent kept (set in the test's
    body: pytest's capture puts its own stderr back after the fixtures)."""
    t = Tty()
    monkeypatch.setattr(sys, "stderr", t)
    monkeypatch.delenv("EMBER_PROGRESS", raising=False)
    return t


@pytest.fixture
def plain(monkeypatch):
    """tqdm absent: the built-in bar draws."""
    monkeypatch.setitem(sys.modules, "tqdm", None)


def _csv(tmp_path, rows=3000):
    p = tmp_path / "t.csv"
    rng = np.random.default_rng(0)
    pd.DataFrame({"a": rng.integers(0, 1000, rows), "b": rng.random(rows)}).to_csv(
        p, index=False)
    return p


def _kib(n):
    return "%.1f KiB" % (n / 1024)


def test_chunked_read_csv_counts_both_passes(device, tmp_path, plain, monkeypatch):
    tty = terminal(monkeypatch)
    monkeypatch.setenv("EMBER_PROGRESS", "1")
    p = _csv(tmp_path)
    size = os.path.getsize(p)
    got = ef.read_csv(p, device=device, chunk_bytes=4096)
    pd.testing.assert_frame_equal(got.to_pandas(), pd.read_csv(p))
    text = tty.getvalue()
    # every pass reads the whole file: the total is twice its bytes
    assert "read_csv (2 passes): 100% |" in text
    assert "%s/%s" % (_kib(2 * size), _kib(2 * size)) in text
    assert "\r" in text and text.endswith("\r")       # cleared at the end
    assert text.rstrip("\r").rsplit("\r", 1)[-1].strip() == ""


def test_one_block_read_csv_counts_its_bytes(device, tmp_path, plain, monkeypatch):
    tty = terminal(monkeypatch)
    monkeypatch.setenv("EMBER_PROGRESS", "1")
    p = _csv(tmp_path, 200)
    size = os.path.getsize(p)
    ef.read_csv(p, device=device)
    assert "read_csv: 100% |" in tty.getvalue()
    assert "%s/%s" % (_kib(size), _kib(size)) in tty.getvalue()


def test_kmeans_counts_n_init_times_max_iter(device, plain, monkeypatch):
    tty = terminal(monkeypatch)
    from ember.ml.cluster import KMeans
    monkeypatch.setenv("EMBER_PROGRESS", "1")
    X = ember.asarray(np.random.default_rng(1).random((300, 3)), device=device)
    km = KMeans(4, n_init=3, max_iter=7, random_state=0).fit(X)
    text = tty.getvalue()
    assert "KMeans.fit: 100% |" in text and "21/21 iter" in text
    assert "1/21 iter" in text                # per iteration, not only per init
    assert km.n_iter_ <= 7


@pytest.mark.parametrize("make,what", [
    (lambda: __import__("ember.ml.ensemble", fromlist=["x"]).RandomForestClassifier(
        n_estimators=5, max_depth=3, random_state=0), "RandomForestClassifier.fit"),
    (lambda: __import__("ember.ml.linear_model", fromlist=["x"]).SGDClassifier(
        max_iter=4, tol=None, random_state=0), "SGDClassifier.fit"),
    (lambda: __import__("ember.ml.linear_model", fromlist=["x"]).LogisticRegression(
        max_iter=50), "LogisticRegression.fit"),
    (lambda: __import__("ember.ml.linear_model", fromlist=["x"]).ElasticNet(
        alpha=0.01, max_iter=30), "ElasticNet.fit"),
    (lambda: __import__("ember.ml.cluster", fromlist=["x"]).MiniBatchKMeans(
        3, batch_size=50, max_iter=2, max_no_improvement=None, tol=0.0, n_init=1,
        random_state=0), "MiniBatchKMeans.fit"),
])
def test_fits_show_their_loops(device, plain, monkeypatch, make, what):
    tty = terminal(monkeypatch)
    monkeypatch.setenv("EMBER_PROGRESS", "1")
    rng = np.random.default_rng(2)
    Xh = rng.random((200, 3))
    X = ember.asarray(Xh, device=device)
    y = ember.asarray((Xh[:, 0] > 0.5).astype(np.int64), device=device)
    make().fit(X, y)
    text = tty.getvalue()
    assert what + ":" in text
    if what.startswith("Random"):
        assert "5/5 tree" in text
    if what.startswith("SGD"):
        assert "4/4 epoch" in text                # tol=None runs every epoch
    if what.startswith("Logistic"):
        assert "/50 iter" in text
    if what.startswith("Elastic"):
        assert "1/1 target" in text               # the fit is one launch
    if what.startswith("MiniBatch"):
        assert "8/8 step" in text                 # max_iter * n // batch_size


def test_read_parquet_counts_row_groups(device, tmp_path, plain, monkeypatch):
    tty = terminal(monkeypatch)
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    t = pa.table({"i": np.arange(5000), "f": np.linspace(0, 1, 5000)})
    p = tmp_path / "g.parquet"
    pq.write_table(t, p, row_group_size=1000)
    md = pq.ParquetFile(p).metadata
    total = sum(md.row_group(i).total_byte_size for i in range(md.num_row_groups))
    monkeypatch.setenv("EMBER_PROGRESS", "1")
    got = ef.read_parquet(p, device=device)
    pd.testing.assert_frame_equal(got.to_pandas(), t.to_pandas())
    got = ef.read_parquet(p, columns=["f"], device=device)
    assert list(got.columns) == ["f"]
    assert "read_parquet: 100% |" in tty.getvalue()
    assert "%s/%s" % (_kib(total), _kib(total)) in tty.getvalue()
    got = ef.read_parquet(io.BytesIO(p.read_bytes()), device=device)   # an open file
    pd.testing.assert_frame_equal(got.to_pandas(), t.to_pandas())
    folder = tmp_path / "set"
    folder.mkdir()
    pq.write_table(t, folder / "part-0.parquet")
    got = ef.read_parquet(str(folder), device=device)    # a dataset: read_table's
    pd.testing.assert_frame_equal(got.to_pandas(), t.to_pandas())


def test_terminal_waits_a_second(tmp_path, plain, monkeypatch):
    tty = terminal(monkeypatch)
    p = _progress.progress(10, "work")
    p.update(3)
    assert p.bar is None and tty.getvalue() == ""     # under DELAY
    p.start -= 2
    p.update(2)
    p.close()
    assert "work:  50% |" in tty.getvalue() and "5/10 it" in tty.getvalue()
    # a fast read on a terminal draws nothing
    ef.read_csv(_csv(tmp_path, 50), device="cpu")
    assert "read_csv" not in tty.getvalue()


def test_progress_0_silences_a_terminal(tmp_path, monkeypatch):
    tty = terminal(monkeypatch)
    monkeypatch.setenv("EMBER_PROGRESS", "0")
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    assert _progress.progress(5, "x") is _progress.OFF
    ef.read_csv(_csv(tmp_path), device="cpu", chunk_bytes=4096)
    assert tty.getvalue() == ""
    monkeypatch.setenv("EMBER_PROGRESS", "")
    assert isinstance(_progress.progress(5, "x"), _progress.Progress)


def test_off_when_not_a_terminal(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("EMBER_PROGRESS", raising=False)
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    assert _progress.progress(5, "x") is _progress.OFF   # capsys: no tty
    ef.read_csv(_csv(tmp_path), device="cpu", chunk_bytes=4096)
    assert capsys.readouterr().err == ""


def test_off_in_a_pipe(tmp_path):
    p = _csv(tmp_path)
    code = ("import ember.frame as ef, ember.ml.cluster as c, numpy as np, ember\n"
            "ef.read_csv(%r, chunk_bytes=4096)\n"
            "c.KMeans(3, n_init=2, random_state=0).fit(ember.asarray("
            "np.random.default_rng(0).random((100, 2))))\n" % str(p))
    env = {k: v for k, v in os.environ.items() if k != "EMBER_PROGRESS"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "read_csv" not in r.stderr and "KMeans" not in r.stderr
    env["EMBER_PROGRESS"] = "1"           # asked for: drawn in the pipe too
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "read_csv" in r.stderr and "KMeans.fit" in r.stderr


def test_tqdm_draws_when_installed(monkeypatch):
    tty = terminal(monkeypatch)
    tqdm = pytest.importorskip("tqdm")
    monkeypatch.setenv("EMBER_PROGRESS", "1")
    p = _progress.progress(3 << 20, "read_csv", "B")
    p.update(1 << 20)
    assert isinstance(p.bar, _progress._Tqdm) and isinstance(p.bar.t, tqdm.tqdm)
    assert p.bar.t.n == 1 << 20 and p.bar.t.total == 3 << 20
    p.update(2 << 20)
    assert p.bar.t.n == 3 << 20
    p.close()
    text = tty.getvalue()
    assert "read_csv: 100%" in text and "3.00M/3.00M" in text


def test_kernels_compiled_while_up(plain, monkeypatch):
    tty = terminal(monkeypatch)
    n = iter([10, 10, 12, 13, 13])
    monkeypatch.setattr(_progress, "_compiles", lambda: next(n))
    monkeypatch.setenv("EMBER_PROGRESS", "1")
    p = _progress.progress(None, "fit")
    p.update()                       # 0 new: no count shown
    assert "compiled" not in tty.getvalue()
    p.bar.last = -1.0
    p.update()
    assert "2 kernels compiled" in tty.getvalue()
    p.close()
    assert "3 kernels compiled" in tty.getvalue() and "2 it [" in tty.getvalue()


def test_formats():
    assert _progress._amount(5, "B") == "5 B"
    assert _progress._amount(1536, "B") == "1.5 KiB"
    assert _progress._amount(3 << 30, "B") == "3.0 GiB"
    assert _progress._count(3, 9, "tree") == "3/9 tree"
    assert _progress._clock(61) == "01:01" and _progress._clock(3661) == "1:01:01"
    assert _progress._compiled(1) == "1 kernel compiled"


def _scale(a, k):
    i = ember.cuda.grid(1)
    if i < a.size:
        a[i] *= k


def test_jit_signatures_compiled_under_a_waiting_line(device, monkeypatch):
    """Explicit signatures compile in one call into C at decoration: a
    thread draws the time and the kernels compiled, then clears it."""
    import threading
    from ember import cuda
    monkeypatch.setitem(sys.modules, "tqdm", None)
    tty = terminal(monkeypatch)
    monkeypatch.setenv("EMBER_PROGRESS", "1")
    with ember.Device(device):
        k = cuda.jit(["void(float32[:], float32)", "void(float64[:], float64)"])(_scale)
    text = tty.getvalue()
    assert "compiling _scale (2 signatures): 00:00" in text and text.endswith("\r")
    assert not [t for t in threading.enumerate() if t.name == "ember-progress"]
    a = ember.asarray(np.arange(4, dtype=np.float32), device=device)
    k[1, 32](a, np.float32(2))
    np.testing.assert_array_equal(ember.asnumpy(a), np.arange(4) * 2)
    monkeypatch.setenv("EMBER_PROGRESS", "0")
    assert _progress.waiting("x") is _progress.OFF
