"""python -m ember.ml.accel script.py [args...] | -m module [args...]:
run a scikit-learn program with ember's estimators (ember.ml.accel)."""
import runpy
import sys

from ember.ml.accel import install


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    install()
    if argv[0] == "-m":
        if len(argv) < 2:
            print("python -m ember.ml.accel -m module: no module named", file=sys.stderr)
            return 2
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
