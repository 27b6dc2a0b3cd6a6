"""`make bench`: run every benchmark and print its figures beside their targets.

MicroPython benchmarks (bench/mp_*.py) run on ../shared/tools/micropython32,
the unix port at the ESP32's word size, on the firmware as deployed
(build/mpy, compiled by tools/mpy_build.py); --port=unix64 runs them on the
pinned 64-bit port and firmware/'s source instead.  CPython benchmarks
(bench/py_*.py) run in this venv.  tools/ is on the MicroPython path, for
mp_heap.

Each benchmark prints lines "name value unit target":
- unit us, ms, s or a rate per second (.../s) is a time figure: it swings
  with the machine, so it is printed, never checked;
- any other unit (B, reads, erases, throws, x...) is deterministic;
- target "-" is none, "N" a maximum, ">=N" a minimum.

A figure that misses its target is marked.  With --check the exit status is
1 if a deterministic figure misses its target (CI runs `make bench-check`);
a benchmark that fails or prints a line out of this protocol fails either way.
"""

import argparse
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))
import mp  # noqa: E402  (the two ports, as the tests run them)

TIME_UNITS = ("us", "ms", "s")
HEAPSIZE = 8_000_000  # room for mp_store's 1 MB flash image, and mp_faults's few copies of its 384 KB one


def is_time(unit):
    return unit in TIME_UNITS or unit.endswith("/s")


def parse(line):
    """(name, value, unit, target) of one protocol line, as printed; raises ValueError."""
    name, value, unit, target = line.split()
    float(value)
    missed(value, target)  # a number or "-", or the line is not ours
    return name, value, unit, target


def missed(value, target):
    """Whether the figure `value` misses `target` (both as printed); nan misses any target."""
    if target == "-":
        return False
    if target.startswith(">="):
        return not float(value) >= float(target[2:])
    return not float(value) <= float(target)


def run(path, port):
    """The figures one benchmark prints, as parsed lines."""
    name = os.path.basename(path)
    if name.startswith("mp_"):
        binary, package_dir = mp.port_setup(port, mp.mpy_build().DEPLOY)
        env = dict(os.environ, MICROPYPATH=os.pathsep.join((package_dir, HERE, mp.TOOLS, ".frozen")))
        cmd = [binary, "-X", "heapsize=%d" % HEAPSIZE, path]
    else:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join((mp.FIRMWARE, ROOT)))
        cmd = [sys.executable, path]
    fixed = mp.fixed_addresses if name.startswith("mp_") and port != "unix64" else None
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, preexec_fn=fixed)
    if proc.returncode:
        raise SystemExit("benchmark %s failed:\n%s%s" % (name, proc.stdout, proc.stderr))
    figures = []
    for line in proc.stdout.splitlines():
        if line.strip():
            try:
                figures.append(parse(line))
            except ValueError:
                raise SystemExit("benchmark %s: %r is not 'name value unit target'" % (name, line)) from None
    return figures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if a deterministic figure misses its target"
    )
    parser.add_argument(
        "--port", choices=mp.PORTS, default="esp32word", help="MicroPython port (default esp32word)"
    )
    parser.add_argument(
        "only", nargs="*", help="benchmark files to run (default: every bench/mp_*.py and py_*.py)"
    )
    args = parser.parse_args(argv)
    paths = args.only or sorted(
        glob.glob(os.path.join(HERE, "mp_*.py")) + glob.glob(os.path.join(HERE, "py_*.py"))
    )
    failed = 0
    print("%-44s %12s %-8s %10s  (MicroPython: %s)" % ("benchmark", "value", "unit", "target", args.port))
    for path in paths:
        for name, value, unit, target in run(path, args.port):
            mark = ""
            if missed(value, target):
                if is_time(unit):
                    mark = "  missed (time: not checked)"
                else:
                    mark = "  MISSED TARGET"
                    failed += 1
            print("%-44s %12s %-8s %10s%s" % (name, value, unit, target, mark))
    if failed:
        print("%d deterministic figure(s) miss their target" % failed)
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
