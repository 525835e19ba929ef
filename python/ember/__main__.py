"""python -m ember info: what ember found on this machine, and why not;
python -m ember top: a live view of every device."""
import sys

from ember._api.sysinfo import info


def main(argv):
    if argv in ([], ["info"]):
        print(info(), end="")
        return 0
    if argv[:1] == ["top"]:
        from ember._api.top import main as top
        return top(argv[1:])
    print("usage: python -m ember info | top [--interval S] [--once]",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
