#!/usr/bin/env bash
# The one call on the lent GPU machine: build ember there (it reaches no
# package registry, so no build isolation), run every C and Python test on
# the GPU, then the benchmarks side by side with CuPy. Logs go under $OUT.
#   device run: bash tools/gpu_check.sh [tests|examples|check|bench|all|profile|sanitize]
#   (check: tests and examples, when the benchmarks need a call of their own;
#   PART=1/2 then PART=2/2: the Python tests over two calls, SHARDS=24 on the
#   H200 host's 16 cores)
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
} | tee "$OUT/build.log"

echo "== build"
# The machine reaches no registry: the wheels the tests want beside the
# preinstalled ones (scipy-openblas64 for cpu linalg, cffi, the pandas CI
# tests with, DuckDB for bench/frames.py) travel in
# wheels/ (git-ignored; pass carry=["wheels"]).
if ls wheels/*.whl >/dev/null 2>&1; then
  $PY -m pip install -q --no-index --no-deps wheels/*.whl >>"$OUT/build.log" 2>&1 ||
    echo "wheels/: install failed (see build.log)"
fi
# A clean build every call: a warm machine keeps build outputs between
# calls, and the copied tree's modification times come from another clock,
# so make could take a changed source for an older one and keep a stale
# object (a run once tested an extension without the day's new entries).
# EMBER_PREBUILT=1: a second call of this script in one device command
# (check, then bench) keeps the first one's build.
if [ "${EMBER_PREBUILT:-0}" != 1 ]; then
  rm -rf build/c build/py-*
  if ! { cmake -S . -B build/c -G Ninja -DEMBER_WERROR=ON >/dev/null &&
         cmake --build build/c -j 16 &&
         $PY -m pip install -q --no-build-isolation --no-deps --no-compile . ; } \
       >>"$OUT/build.log" 2>&1; then
    tail -40 "$OUT/build.log"; echo "BUILD FAILED"; exit 1
  fi
fi
# bytecode, as a user's install has it (the image sets
# PYTHONDONTWRITEBYTECODE, so without it each import compiles source and
# bench/run.py's import row measures the compiler)
$PY -m compileall -q "$($PY -c 'import ember, os; print(os.path.dirname(ember.__file__))')" >/dev/null 2>&1
# pandas and pyarrow as the tests meet them (wheels/ may carry the pandas
# CI installs: frame tests compare with its results, which change between
# releases)
$PY -c 'import pandas, pyarrow; print("pandas", pandas.__version__, "pyarrow", pyarrow.__version__)' 2>&1 | tee -a "$OUT/build.log"
echo "build ok"

if [ "$what" = tests ] || [ "$what" = check ] || [ "$what" = all ]; then
  # the C tests once, in the first call of a PART=k/n series
  case ${PART:-1/1} in 1/*)
    echo "== C tests"
    (cd build/c && EMBER_TEST_REQUIRE_GPU=1 ctest --output-on-failure -j 8) >"$OUT/ctest.log" 2>&1 || status=1
    grep -E "tests passed|tests failed|SKIP|\*\*\*Failed|Failed" "$OUT/ctest.log" | head -20 ;;
  esac
  echo "== Python tests"
  # One pytest per file, several at once: the time goes into compiling
  # kernels (cc for the cpu half, NVRTC for the GPU half), which uses one
  # core per process. The kernel cache directory is safe to share.
  # The files that take minutes on the H200 start first, so that the
  # shortest ones fill the end instead of a long one starting last (a
  # 380 s run once left test_array_ufunc and seven others unfinished).
  # The suite outgrew one call's 480 s at 24 shards (session 19): PART=k/n
  # runs every n-th file from the k-th, so n calls cover it; each file's
  # summary line goes to $OUT/pytest_progress.txt as it ends, so a call
  # stopped by its time limit still says which files finished and how.
  logs=$(mktemp -d)
  slow="test_scipy_special_bessel.py test_scipy_special_bessel_complex.py
        test_array_ufunc.py test_ml_datasets.py test_random.py test_array_reduce.py
        test_fuzz.py test_dask_dataframe.py test_fusion.py test_parallel_scan.py
        test_ml_cluster.py test_ml_tree.py"
  part=${PART:-1/1}
  (cd tests/python && { ls $slow; ls test_*.py | grep -vxF "$(echo $slow | tr ' ' '\n')"; }) |
    awk -v k="${part%/*}" -v n="${part#*/}" '(NR - k) % n == 0' |
    xargs -P "${SHARDS:-8}" -I{} sh -c \
    'cd tests/python && EMBER_TEST_REQUIRE_GPU=1 '"$PY"' -m pytest -q -rs -p no:cacheprovider {} >"'"$logs"'/pytest_{}.log" 2>&1;
     echo "=== {}: $(tail -1 "'"$logs"'/pytest_{}.log")" >>"'"$OUT"'/pytest_progress.txt"'
  # One log file back (the device tool returns a few files only).
  for f in "$logs"/pytest_*.log; do echo "=== $(basename "$f")"; cat "$f"; done >"$OUT/pytest.log"
  $PY - "$logs" <<'PYEOF' | tee -a "$OUT/pytest.log" || status=1
import glob, re, sys
tot, bad = {}, []
for f in sorted(glob.glob(sys.argv[1] + "/pytest_*.log")):
    text = open(f).read()
    last = [l for l in text.splitlines() if re.search(r"\d+ (passed|failed|error|skipped)", l)]
    line = last[-1] if last else "no summary (crashed?)"
    for n, what in re.findall(r"(\d+) (passed|failed|errors?|skipped)", line):
        tot[what] = tot.get(what, 0) + int(n)
    if not last or re.search(r"failed|error", line):
        bad.append(f.split("pytest_")[-1] + ": " + line)
print("pytest total:", ", ".join(f"{v} {k}" for k, v in sorted(tot.items())))
for b in bad:
    print("  FAILED IN", b)
sys.exit(1 if bad else 0)
PYEOF
fi

if [ "$what" = examples ] || [ "$what" = check ] || [ "$what" = all ]; then
  # Every example on the CPU (the simulator) and on the GPU, full size.
  echo "== examples"
  for f in examples/[a-z]*.py; do
    case $f in */tour.py|*/demo.py) continue ;; esac
    echo "--- $f"; timeout 300 $PY "$f" 2>&1 || { echo "EXAMPLE FAILED: $f"; status=1; }
  done 2>&1 | tee "$OUT/examples.log"
  grep -q "EXAMPLE FAILED" "$OUT/examples.log" && status=1
fi

if [ "$what" = sanitize ]; then
  # compute-sanitizer over the cuda half of a subset that reaches every
  # kernel family: elementwise and ufuncs, reductions, scans, sorts,
  # compaction, histograms, sets, indexing, users' kernels (C++ and jit),
  # cooperative launch. memcheck on all of it, racecheck (much slower) on
  # the families with shared memory and barriers. Logs: sanitize_*.log.
  echo "== compute-sanitizer"
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  MEMCHECK=${MEMCHECK_FILES:-"test_array_ufunc.py test_array_reduce.py test_parallel_scan.py test_parallel_sort.py test_compaction.py test_parallel_hist.py test_unique_sets.py test_array_advindex.py test_kernels_cxx.py test_jit_numba_surface.py test_rawkernel.py test_scipy_signal.py test_scipy_sparse.py"}
  # racecheck: one multi-block test per family with shared memory or
  # barriers (scans, sorts, histograms, compaction, sets, reductions, tiled
  # transposes, gathers, C and jit kernels' shared arrays, grid sync,
  # scipy's tiled filters): 157 tests took 150 s on the H200 before
  # the scipy tiles joined.
  RACECHECK=${RACECHECK_FILES:-"test_parallel_scan.py test_parallel_sort.py test_parallel_hist.py test_jit_constructs.py test_jit_numba_surface.py test_array_reduce.py test_compaction.py test_unique_sets.py test_array_transposed.py test_array_advindex.py test_ckernel.py test_scipy_signal.py test_scipy_ndimage.py"}
  RACE_K="cumsum_sizes or by_key_many_tiles or segmented_reduce or sizes_int32_float64 or tile_sizes or top_k_tiles or merge_sort_comparator or radix_sort_value_dtypes or histogram_sizes or bincount_sizes or histogram2d_many_blocks or test_shared_memory or large_axes or nonzero_nd or mask_dtypes or unique_sizes or test_isin or transpose_plus_self or large_mask or strided_reduction or test_float_atomics or grid_sync_two_phases or convolve2d_tiles or filter1d_tiles"
  # cuFuncGetParamInfo answers CUDA_ERROR_INVALID_VALUE past a kernel's
  # last parameter, which is how the launcher counts them: not an error.
  # SAN_K narrows the tests further (a pytest -k expression); racecheck
  # runs each kernel hundreds of times slower, so it has its own (RACE_K).
  # Under memcheck a cold kernel cache costs more than the tests (the
  # subset took over 280 s cold, 77 s warm on the H200): on a fresh
  # machine run SAN_TOOLS=memcheck and SAN_TOOLS=racecheck as two calls.
  for tool in ${SAN_TOOLS:-memcheck racecheck}; do
    files=$MEMCHECK; k=${SAN_K:-}
    [ $tool = racecheck ] && { files=$RACECHECK; k=${SAN_K:-$RACE_K}; }
    (cd tests/python && EMBER_TEST_REQUIRE_GPU=1 timeout ${SAN_TIMEOUT:-280} "$CS" --tool $tool --report-api-errors no \
        --error-exitcode 99 --print-limit 20 $PY -m pytest -q -x -p no:cacheprovider \
        -k "cuda and not fuzz${k:+ and ($k)}" $files) >"$OUT/sanitize_$tool.log" 2>&1
    rc=$?
    echo "$tool: exit $rc ($( grep -E "ERROR SUMMARY|passed|failed" "$OUT/sanitize_$tool.log" | tail -2 | tr '\n' ' '))"
    [ $rc -ne 0 ] && status=1
  done
fi

if [ "$what" = profile ]; then
  # Nsight Compute on one call of each bench/profile.py case (CASES, space
  # separated), at the GPU's own clocks; one report file comes back.
  echo "== profile"
  for c in ${CASES:-sort cumsum hist4096 bincount}; do
    echo "##### $c"
    ncu --clock-control none -c ${NCU_COUNT:-8} ${NCU_ARGS:---section SpeedOfLight \
        --section MemoryWorkloadAnalysis --section WarpStateStats \
        --section SchedulerStats --section Occupancy --section LaunchStats} \
        $PY bench/profile.py "$c" 2>&1
  done >"$OUT/ncu.txt"
  grep -E "^#####|^  [a-z_0-9]+.*\(|Duration|Memory Throughput|DRAM Throughput" "$OUT/ncu.txt" | head -80
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
  # Six files at most come back from the device tool: every benchmark's
  # output goes to bench.log and every table to tables.md.
  echo "== benchmarks"
  : >"$OUT/tables.md"
  # BENCHES (space separated) runs a part, when device time is short
  : >"$OUT/bench.log"
  case " ${BENCHES:-launch} " in *" launch "*)
    build/c/bench_launch 2>&1 | tee -a "$OUT/bench.log" ;; esac
  for b in ${BENCHES:-run arrays algorithms kernels rng fft matmul linalg scipy frames ml cpu cpu_linalg}; do
    [ -f "bench/$b.py" ] || continue
    $PY bench/$b.py --out "$OUT/t_$b.md" 2>&1 | tee -a "$OUT/bench.log" || status=1
    [ -f "$OUT/t_$b.md" ] && { echo "### bench/$b.py"; cat "$OUT/t_$b.md"; echo; } >>"$OUT/tables.md"
    rm -f "$OUT/t_$b.md"
  done
fi
exit $status
