"""Run code in the real MicroPython unix port (the pinned PyPI build) from pytest."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")

# An ESP32 without PSRAM leaves about 100 KB of heap to the application.
ESP32_HEAP = 100_000


def run_micropython(code, heapsize=ESP32_HEAP, path=(), timeout=600, script_args=None):
    """Run `code` under MicroPython with firmware/ importable; return its stdout.

    With script_args, `code` is a script's path and script_args its arguments.
    Fails the test with MicroPython's own traceback if the code raises.
    """
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((FIRMWARE, *path, ".frozen")))
    program = ["-c", code] if script_args is None else [code, *script_args]
    proc = subprocess.run(
        [MICROPYTHON, "-X", "heapsize=%d" % heapsize, *program],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if proc.returncode != 0:
        raise AssertionError("micropython failed (%d):\n%s%s" % (proc.returncode, proc.stdout, proc.stderr))
    return proc.stdout
