"""The virtual bowl's MicroPython as a process of ours: where its firmware is, and
that it dies when we die (a power cut), never left running without its host.

`bobing sim` and the bare board (host_tools/sim/bare.py) both start it.  load_libc()
runs before the first start: die_with_parent() runs in the child between fork and
exec, where it must be one call, with nothing left to load.
"""

import os
import signal

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")

_LIBC = None


def die_with_parent():
    """In the child before exec: killed when we die (PR_SET_PDEATHSIG)."""
    _LIBC.prctl(1, signal.SIGKILL)


def load_libc():
    global _LIBC
    if _LIBC is None:
        import ctypes

        _LIBC = ctypes.CDLL(None, use_errno=True)
