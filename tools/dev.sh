#!/usr/bin/env bash
# Build and test one checkout area without touching .venv's installed ember,
# so several engineers can work in one tree at once. Each NAME gets its own
# build directory and its own importable package under build/dev-NAME/pkg.
#   tools/dev.sh NAME c [ctest -R regex]     build the C library and tests
#   tools/dev.sh NAME py [pytest args...]    build the extension, run pytest
set -euo pipefail
name=$1; what=$2; shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
venv=$root/.venv
bdir=$root/build/dev-$name
export PATH=$venv/bin:$PATH
if [ ! -f "$bdir/build.ninja" ]; then
  cmake -S "$root" -B "$bdir" -G Ninja -DEMBER_WERROR=ON -DEMBER_BUILD_PYTHON=ON \
        -DPython_EXECUTABLE="$venv/bin/python" >/dev/null
fi
case $what in
c)
  cmake --build "$bdir" -j "${JOBS:-1}"
  cd "$bdir" && ctest --output-on-failure "$@" ;;
py)
  cmake --build "$bdir" -j "${JOBS:-1}" --target _ember
  pkg=$bdir/pkg/ember
  mkdir -p "$pkg"
  for f in "$root"/python/ember/*.py; do ln -sf "$f" "$pkg/"; done
  ln -sfn "$root/python/ember/cuda" "$pkg/cuda"
  ln -sf "$bdir"/_ember*.so "$pkg/"
  cd "$root/tests/python" && PYTHONPATH=$bdir/pkg "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" ;;
*) echo "usage: tools/dev.sh NAME c|py [args]" >&2; exit 2 ;;
esac
