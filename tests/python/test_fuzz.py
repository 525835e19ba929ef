"""The fuzzer's short pass (tests/fuzz/run.py): about two minutes of calls
to every public callable with generated arguments, each batch in a child
process. A new seed each run, printed (and in the failure message), so a
failure can be replayed with EMBER_FUZZ_SEED=<seed>. A crash, a hang or a
SystemError fails; the output has the shrunk reproducer. The long run is
`python tests/fuzz/run.py --calls 200000`."""
import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fuzz"))

import run as fuzz  # noqa: E402


def test_fuzz_short_pass():
    seconds = os.environ.get("EMBER_FUZZ_SECONDS", "110")
    out = io.StringIO()
    r = fuzz.main(["--seconds", seconds, "--batch", "300", "--calls", "10000000"],
                  out=out)
    text = out.getvalue()
    print(text)
    assert r["calls"] > 0, text
    assert not r["failures"], f"seed {r['seed']}:\n{text}"
