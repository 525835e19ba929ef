#!/usr/bin/env bash
# The one device call for a multi-GPU host (issue 26): build ember there,
# run the tests that need several GPUs, then the three scaling benches.
#   device run (kind nvidia-h100-x4, carry ["wheels"]):
#     bash tools/multi_check.sh
#   here, without a GPU (cpu workers, tiny sizes; a check of the script):
#     SMALL=1 PYTHON=.venv/bin/python \
#       PYTHONPATH=build/dev-NAME/pkg bash tools/multi_check.sh
# (TESTS="test_a.py ..." runs other test files.)
# Three files come back under $OUT: build.log (tools/gpu_check.sh's),
# multi.log (every test's and bench's output) and tables.md (the tables).
# The build, the tests as ten pytest processes side by side, then each
# bench under its own time limit (8 minutes at most together) so one that
# hangs leaves the others' tables. Where one device command (10 minutes)
# cannot hold it all, make two calls on the same warm machine:
#   PART=tests bash tools/multi_check.sh
#   EMBER_PREBUILT=1 PART=bench bash tools/multi_check.sh
set -uo pipefail
OUT=${OUT:-/tmp/ember-out}
mkdir -p "$OUT"
cd "$(dirname "$0")/.."
root=$(pwd)
PY=${PYTHON:-python3}
export PYTHONUNBUFFERED=1
export EMBER_CACHE_DIR=${EMBER_CACHE_DIR:-/tmp/ember-cache}
# the host's GPUs are shared: NVLink multicast stays off (NCCL reads this
# in every process the benches and tests start, dask's workers too)
export NCCL_NVLS_ENABLE=0
log=$OUT/multi.log
status=0
: >"$log"
: >"$OUT/tables.md"

# The build (and the wheels from wheels/: dask, distributed and their
# needs) as tools/gpu_check.sh does it; EMBER_PREBUILT=1 keeps a build.
# SMALL=1 (here) uses tools/dev.sh's build and installs nothing.
if [ "${SMALL:-0}" != 1 ]; then
  bash tools/gpu_check.sh build 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" = 0 ] || { echo "BUILD FAILED"; exit 1; }
fi
{ nvidia-smi topo -m 2>&1 | head -12
  $PY -c 'import dask, distributed, ember; print("dask", dask.__version__, "distributed", distributed.__version__, "GPUs", ember.cuda.runtime.getDeviceCount())'
} 2>&1 | tee -a "$log"

# Tests on every GPU: a missing GPU fails the run instead of skipping.
if [ "${SMALL:-0}" = 1 ]; then req=0; else req=1; fi
part=${PART:-all}
if [ "$part" != bench ]; then
echo "== C: ctest -R nccl" | tee -a "$log"
if [ -d build/c ]; then
  (cd build/c && EMBER_TEST_REQUIRE_GPU=$req ctest --output-on-failure -R nccl) >>"$log" 2>&1 ||
    { status=1; echo "ctest nccl FAILED"; }
  grep -E "tests passed|tests failed" "$log" | tail -1
fi
echo "== pytest (several GPUs)" | tee -a "$log"
tests=${TESTS:-"test_distributed.py test_devices_multi.py test_dask_array.py test_dask_dataframe.py test_info.py"}
logs=$(mktemp -d)
# two processes per file, its cpu half and its cuda half, all side by side:
# the time goes into compiling kernels (cc and NVRTC), one core a process
jobs=""
for t in $tests; do jobs="$jobs $t:cpu $t:cuda"; done
echo $jobs | tr ' ' '\n' | xargs -P 10 -I{} sh -c '
  f=${1%%:*}; half=${1##*:}; k="cuda"; [ $half = cpu ] && k="not cuda"
  cd tests/python && EMBER_TEST_REQUIRE_GPU='$req' timeout 360 '"$PY"' -m pytest -q -rs \
    -p no:cacheprovider -k "$k" $f >"'"$logs"'/$1.log" 2>&1
  [ $? = 5 ] && echo "no tests ran (exit 5)" >>"'"$logs"'/$1.log"; true' _ {}
for j in $jobs; do
  echo "=== $j"; cat "$logs/$j.log"
  line=$(grep -E "[0-9]+ (passed|failed|errors?|deselected)|no tests ran" "$logs/$j.log" | tail -1)
  echo "$j: ${line:-no summary (crashed or timed out)}" >>"$logs/summary"
done >>"$log"
tee -a "$log" <"$logs/summary"
grep -qE "failed|error|no summary" "$logs/summary" && status=1
rm -rf "$logs"
fi

# The benches: sizes for a 4 x 80 GB host, each bench a couple of minutes.
# SMALL=1 (no GPU): cpu workers, tiny sizes.
bench() {   # bench NAME LIMIT_S ARGS...: run, log, append its table
  local name=$1 limit=$2; shift 2
  echo "== bench/$name.py $*" | tee -a "$log"
  timeout "$limit" $PY bench/$name.py --out "$OUT/t_$name.md" "$@" >>"$log" 2>&1
  local rc=$?
  if [ $rc != 0 ]; then
    status=1
    echo "bench/$name.py failed (exit $rc; 124: past its ${limit} s)" | tee -a "$log"
  fi
  if [ -f "$OUT/t_$name.md" ]; then
    { echo "### bench/$name.py $*"; cat "$OUT/t_$name.md"; echo; } >>"$OUT/tables.md"
    cat "$OUT/t_$name.md"
    rm -f "$OUT/t_$name.md"
  fi
}
if [ "$part" != tests ]; then
ngpu=$($PY -c 'import ember; print(ember.cuda.runtime.getDeviceCount())' 2>/dev/null || echo 0)
if [ "${SMALL:-0}" = 1 ]; then
  [ "$ngpu" -ge 2 ] && bench scale_allreduce 120 --mib 16
  bench scale_array 180 --gib-per-gpu 0.002 --rows 64 --chunk-cols 1024 --workers 2
  bench scale 180 --log10n-per-gpu 4 --workers 2
else
  bench scale_allreduce 60 --mib 1024
  # weak scaling on most of each GPU's memory (x of 48 GiB a GPU) with
  # no NumPy column, then a size the host's cores finish in time for the
  # comparison with dask on NumPy chunks
  bench scale_array 120 --gib-per-gpu 48 --rows 1024 --no-numpy
  bench scale_array 120 --gib-per-gpu 4 --rows 1024
  bench scale 180 --log10n-per-gpu 7.3 --parts-per-gpu 4
fi
fi
echo "multi_check exit $status" | tee -a "$log"
exit $status
