"""The virtual bowl's MicroPython as a process of ours: where its firmware is,
that it dies when we die (a power cut), never left running without its host,
and that its addresses are a chip's, the same on every run.

`bobing sim` and the bare board (host_tools/sim/bare.py) both start it, and the
tests and benchmarks start micropython32 (tests/mp.py).  load_libc() runs
before the first start: die_with_parent() and fixed_addresses() run in the
child between fork and exec, where each must be one call, with nothing left
to load.
"""

import os
import signal

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")

_LIBC = None
# personality(2)'s flag that turns address space randomisation off for the
# next exec (linux/personality.h)
_ADDR_NO_RANDOMIZE = 0x0040000


def die_with_parent():
    """In the child before exec: killed when we die (PR_SET_PDEATHSIG)."""
    _LIBC.prctl(1, signal.SIGKILL)


def fixed_addresses():
    """In the child before exec: no address randomisation for the program it
    execs; where the system refuses it the program runs randomised.

    An ESP32 has none: the same firmware doing the same things puts its
    objects at the same addresses on every run.  The unix port's collector
    scans the C stack and registers conservatively, so with randomised
    addresses a stale word there keeps a different dead object alive on each
    run, and a heap figure near its limit passes or fails by chance
    (docs/memory.md)."""
    current = _LIBC.personality(0xFFFFFFFF)
    if current != -1:
        _LIBC.personality(current | _ADDR_NO_RANDOMIZE)


def load_libc():
    global _LIBC
    if _LIBC is None:
        import ctypes

        _LIBC = ctypes.CDLL(None, use_errno=True)
