#!/usr/bin/env bash
# Issue 19's "hot paths unchanged": an old and a new tree, built side by
# side on the lent GPU in one call, then bench/run.py (import, launches,
# compile, pool, copy) and bench/arrays.py's per-op rows (a+b, a.sum() and
# asarray on 1,000 elements) run against each in turn, twice, so drift of
# the card shows as the rounds' spread. The trees travel as git archives
# in build/ (git-ignored), the benchmark scripts are this tree's:
#   git archive -o build/old.tar OLD && git archive -o build/new.tar HEAD
#   device run, carry ["build/old.tar", "build/new.tar"]:
#     bash tools/hotpath_compare.sh
# CASES picks other bench/ scripts (default "run arrays"; "arrays" is its
# 1,000-element rows, any other name bench/NAME.py whole), for an
# old-against-new comparison of any change in one call.
set -uo pipefail
OUT=${OUT:-/tmp/ember-out}
mkdir -p "$OUT"
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# both trees build at once (the machine has cores to spare)
for t in old new; do
  rm -rf "/tmp/hp-$t" && mkdir -p "/tmp/hp-$t/src"
  tar -xf "build/$t.tar" -C "/tmp/hp-$t/src" || exit 1
  (cd "/tmp/hp-$t/src" && $PY -m pip install -q --no-build-isolation \
     --no-deps --no-compile --target "/tmp/hp-$t/site" .) \
     >"$OUT/build_$t.log" 2>&1 &
done
wait
for t in old new; do
  [ -f /tmp/hp-$t/site/ember/__init__.py ] ||
    { tail -20 "$OUT/build_$t.log"; exit 1; }
  # bytecode, as an installed package has it (the image sets
  # PYTHONDONTWRITEBYTECODE, so without it every import compiles source)
  $PY -m compileall -q /tmp/hp-$t/site/ember >/dev/null 2>&1
done
: >"$OUT/hotpath.md"
# `import ember` process wall, the trees taken in turn 31 times (drift and
# the disk cache then touch both alike), medians in ms
$PY - >>"$OUT/hotpath.md" <<'PYEOF'
import os, statistics, subprocess, sys, time
walls = {"old": [], "new": []}
for _ in range(31):
    for t in walls:
        env = dict(os.environ, PYTHONPATH=f"/tmp/hp-{t}/site")
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import ember"], env=env,
                       check=True)
        walls[t].append((time.perf_counter() - t0) * 1e3)
print("`import ember` process wall, median of 31 taken in turn: " +
      ", ".join(f"{t} {statistics.median(w):.1f} ms" for t, w in
                walls.items()))
PYEOF
for round in $(seq 1 "${ROUNDS:-2}"); do
  for t in old new; do
    export PYTHONPATH=/tmp/hp-$t/site EMBER_CACHE_DIR=/tmp/hp-cache-$t
    echo "### $t, round $round" | tee -a "$OUT/hotpath.md"
    for c in ${CASES:-run arrays}; do
      case $c in
        arrays) $PY bench/arrays.py --only "1,000" --out "$OUT/t.md" ;;
        *) $PY "bench/$c.py" --out "$OUT/t.md" ;;
      esac >/dev/null 2>&1
      cat "$OUT/t.md" >>"$OUT/hotpath.md"
    done
  done
done
rm -f "$OUT/t.md"
cat "$OUT/hotpath.md"
# TESTS (pytest files of tests/python, space separated): run on the new
# build afterwards, so one call can also check a late change on the GPU
if [ -n "${TESTS:-}" ]; then
  (cd tests/python && PYTHONPATH=/tmp/hp-new/site EMBER_TEST_REQUIRE_GPU=1 \
     $PY -m pytest -q -p no:cacheprovider $TESTS 2>&1 | tail -5)
fi
