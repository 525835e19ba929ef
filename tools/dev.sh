#!/usr/bin/env bash
# Build and test one checkout area without touching .venv's installed ember,
# so several engineers can work in one tree at once. Each NAME gets its own
# build directory and its own importable package under build/dev-NAME/pkg.
#   tools/dev.sh NAME c [ctest -R regex]     build the C library and tests
#   tools/dev.sh NAME py [pytest args...]    build the extension, run pytest
#   tools/dev.sh NAME run CMD [args...]      build the extension, run CMD with
#                                            the package importable (benches)
# Without a .venv (the lent GPU machine) it uses python3 from PATH.
set -euo pipefail
name=$1; what=$2; shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
venv=$root/.venv
if [ -x "$venv/bin/python" ]; then
  export PATH=$venv/bin:$PATH
  py=$venv/bin/python
else
  py=$(command -v python3)
fi
bdir=$root/build/dev-$name
if [ ! -f "$bdir/build.ninja" ]; then
  cmake -S "$root" -B "$bdir" -G Ninja -DEMBER_WERROR=ON -DEMBER_BUILD_PYTHON=ON \
        ${BUILD_TYPE:+-DCMAKE_BUILD_TYPE=$BUILD_TYPE} \
        -DPython_EXECUTABLE="$py" >/dev/null
fi
pkg_setup() {
  cmake --build "$bdir" -j "${JOBS:-1}" --target _ember
  pkg=$bdir/pkg/ember
  mkdir -p "$pkg"
  for f in "$root"/python/ember/*.py; do ln -sf "$f" "$pkg/"; done
  for d in "$root"/python/ember/*/; do
    d=${d%/}
    [ "$(basename "$d")" = _ext ] || ln -sfn "$d" "$pkg/$(basename "$d")"
  done
  ln -sf "$bdir"/_ember*.so "$pkg/"
}
case $what in
c)
  cmake --build "$bdir" -j "${JOBS:-1}"
  cd "$bdir" && ctest --output-on-failure "$@" ;;
py)
  pkg_setup
  cd "$root/tests/python" && PYTHONPATH=$bdir/pkg "$py" -m pytest -q -p no:cacheprovider "$@" ;;
run)
  pkg_setup
  PYTHONPATH=$bdir/pkg${PYTHONPATH:+:$PYTHONPATH} "$@" ;;
*) echo "usage: tools/dev.sh NAME c|py|run [args]" >&2; exit 2 ;;
esac
