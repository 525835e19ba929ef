#!/usr/bin/env bash
# The Python tests against an extension built with AddressSanitizer and UBSan
# (make asan). The interpreter is not instrumented, so the sanitizer runtime
# is preloaded; leak checking is off here because CPython keeps objects alive
# at exit by design (the C tests check leaks).
set -euo pipefail
cd "$(dirname "$0")/.."
VPY=$PWD/.venv/bin/python
B=build/asan-py
.venv/bin/cmake -S . -B $B -G Ninja -DEMBER_SANITIZE=ON -DEMBER_BUILD_PYTHON=ON \
    -DEMBER_BUILD_TESTS=OFF -DPython_EXECUTABLE="$VPY" -DEMBER_WERROR=${WERROR:-ON} >/dev/null
.venv/bin/cmake --build $B --target _ember
pkg=$B/pkg
rm -rf "$pkg" && mkdir -p "$pkg"
cp -r python/ember "$pkg/ember"
cp $B/_ember*.so "$pkg/ember/"
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
# The reports go to files as well: pytest captures a test's stderr, and a
# sanitizer that halts the process takes the captured text with it.
logs=$PWD/build/asan-py/reports
rm -rf "$logs" && mkdir -p "$logs"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:intercept_tls_get_addr=0:allocator_may_return_null=1:log_path=$logs/asan
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$logs/ubsan
cd tests/python
rc=0
# Not the fuzzer's short pass: it caps each child's address space
# (RLIMIT_AS), which ASan's shadow memory cannot live under, and without
# the cap a call like zeros(2**31) meets the OOM killer instead of
# MemoryError. make test runs it uninstrumented. (-k, not --deselect: the
# node id --deselect needs depends on where pytest puts its rootdir, and a
# run here once missed it.) allocator_may_return_null: an absurd size is a
# NULL, so MemoryError, as without ASan, not ASan's report and exit.
PYTHONPATH="$OLDPWD/$pkg" "$VPY" -m pytest -q -p no:cacheprovider \
    -k "not test_fuzz_short_pass" "$@" || rc=$?
# Errors fail the run. A warning that ASan ignores __asan_handle_no_return
# is the cpu simulator's fibers switching stacks (swapcontext), not a fault.
if ls "$logs"/* >/dev/null 2>&1; then
  echo "sanitizer output in $logs:"; head -n 12 "$logs"/*
  if grep -l "ERROR: \|runtime error" "$logs"/* >/dev/null; then rc=1; fi
fi
exit $rc
