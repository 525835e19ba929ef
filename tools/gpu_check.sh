#!/usr/bin/env bash
# The one call on the lent GPU machine: build ember there (it reaches no
# package registry, so no build isolation), run every C and Python test on
# the GPU, then the benchmarks side by side with CuPy. Logs go under $OUT.
#   device run: bash tools/gpu_check.sh [tests|bench|all]
set -uo pipefail
what=${1:-all}
OUT=${OUT:-/tmp/ember-out}
mkdir -p "$OUT"
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
export PYTHONUNBUFFERED=1
export EMBER_CACHE_DIR=${EMBER_CACHE_DIR:-/tmp/ember-cache}
status=0

{
  echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
  $PY -c 'import sys, numpy, cupy; print(sys.version.split()[0], "numpy", numpy.__version__, "cupy", cupy.__version__)' 2>&1
  ls /usr/local/cuda/lib64/libnvrtc.so* 2>&1 | head -3
} | tee "$OUT/machine.log"

echo "== build"
if ! { cmake -S . -B build/c -G Ninja -DEMBER_WERROR=ON >/dev/null &&
       cmake --build build/c -j 16 &&
       $PY -m pip install -q --no-build-isolation --no-deps --no-compile . ; } \
     >"$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"; echo "BUILD FAILED"; exit 1
fi
echo "build ok"

if [ "$what" = tests ] || [ "$what" = all ]; then
  echo "== C tests"
  (cd build/c && EMBER_TEST_REQUIRE_GPU=1 ctest --output-on-failure -j 8) >"$OUT/ctest.log" 2>&1 || status=1
  grep -E "tests passed|tests failed|SKIP|\*\*\*Failed|Failed" "$OUT/ctest.log" | head -20
  echo "== Python tests"
  (cd tests/python && EMBER_TEST_REQUIRE_GPU=1 $PY -m pytest -q -rs -p no:cacheprovider) >"$OUT/pytest.log" 2>&1 || status=1
  grep -E "passed|failed|error|SKIPPED" "$OUT/pytest.log" | tail -15
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
  echo "== benchmarks"
  build/c/bench_launch 2>&1 | tee "$OUT/bench_launch.log"
  $PY bench/run.py --out "$OUT/bench.md" 2>&1 | tee "$OUT/bench.log" || status=1
  $PY bench/arrays.py --out "$OUT/bench_arrays.md" 2>&1 | tee "$OUT/bench_arrays.log" || status=1
  # The cpu device against NumPy on this machine's cores.
  $PY bench/cpu.py 2>&1 | tee "$OUT/bench_cpu.log" || status=1
fi
exit $status
