"""Type-check firmware/ against the MicroPython ESP32 stubs, not CPython's typeshed.

micropython-stdlib-stubs ships a typeshed `stdlib/` (what MicroPython's os,
time, hashlib... really offer); micropython-esp32-stubs ships the port's own
modules (machine, micropython, esp32...) as top-level .pyi files, which mypy
refuses to read straight from site-packages, so they are linked into
build/stubs first.
"""

import os
import subprocess
import sys
import sysconfig
from importlib.metadata import files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBS = os.path.join(ROOT, "build", "stubs")


def link_port_stubs():
    os.makedirs(STUBS, exist_ok=True)
    for f in files("micropython-esp32-stubs") or ():
        if f.suffix == ".pyi" and "/" not in str(f):
            _link(str(f.locate()), f.name)
    # the private helper package the port stubs import
    _link(os.path.join(sysconfig.get_paths()["purelib"], "_mpy_shed"), "_mpy_shed")


def _link(source, name):
    target = os.path.join(STUBS, name)
    if not os.path.lexists(target):
        os.symlink(source, target)


def main():
    link_port_stubs()
    typeshed = sysconfig.get_paths()["purelib"]
    env = dict(os.environ, MYPYPATH=STUBS)
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--custom-typeshed-dir",
        typeshed,
        "--cache-dir",
        os.path.join(ROOT, "build", "mypy-cache"),
        "--config-file",
        os.path.join(ROOT, "pyproject.toml"),
        "--explicit-package-bases",
        "-p",
        "bobing",
    ]
    for name in sorted(os.listdir(os.path.join(ROOT, "firmware"))):
        path = os.path.join(ROOT, "firmware", name)
        # manifest.py runs in MicroPython's build tool, not on the board
        if name in ("bobing", "manifest.py"):
            continue
        if name.endswith(".py") or os.path.isfile(os.path.join(path, "__init__.py")):
            cmd += ["-m" if name.endswith(".py") else "-p", name.removesuffix(".py")]
    return subprocess.call(cmd, cwd=os.path.join(ROOT, "firmware"), env=env)


if __name__ == "__main__":
    sys.exit(main())
