"""CPython stand-in for MicroPython's built-in `micropython` module.

The firmware writes `from micropython import const` as on the board; on the
desktop this module answers that import (installed by pyproject.toml as a
top-level module).  const(x) is x: MicroPython folds it at compile time.
"""


def const(x):
    return x
